"""Scripted chat models for testing triqua (and agents that embed it) without any provider.

``ScriptedChatModel`` answers each call from a function of the prompt, never from call order,
because triqua fans calls out concurrently. It supports ``with_structured_output`` through
tool calls, so LangChain's real output parser stays in the path.
"""

from __future__ import annotations

import itertools
import json
import re
import threading
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from pydantic import ConfigDict, Field, PrivateAttr

#: A responder gets the schema name being asked for and the prompt text, and returns the
#: structured answer (a dict), a raw string (sent as message content: malformed output), or
#: raises (a provider error).
Responder = Callable[[str, str], dict[str, Any] | str]


def schema_name(tools: Sequence[Any]) -> str:
    """The name of the schema structured output asks for: the first bound tool's."""
    first = tools[0] if tools else None
    name = getattr(first, "__name__", None)
    if name is None and isinstance(first, dict):
        name = first.get("name")
    return str(name or "")


class ScriptedChatModel(BaseChatModel):
    """A fake chat model whose answers are computed from the prompt by a responder."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    responder: Responder
    model_name: str = "scripted"
    usage: bool = Field(default=True, description="Attach usage metadata to answers.")
    _calls: list[tuple[str, str]] = PrivateAttr(default_factory=list)
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)
    _tool: str | None = PrivateAttr(default=None)

    @property
    def _llm_type(self) -> str:
        return "triqua-scripted"

    @property
    def calls(self) -> list[tuple[str, str]]:
        """(schema name, prompt) of every call so far."""
        with self._lock:
            return list(self._calls)

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Remember which schema is asked for; the answer comes back as a tool call."""
        bound = self.model_copy()
        bound._calls = self._calls
        bound._lock = self._lock
        bound._tool = schema_name(tools)
        return bound

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        prompt = "\n\n".join(str(m.content) for m in messages)
        tool = self._tool or ""
        with self._lock:
            self._calls.append((tool, prompt))
        answer = self.responder(tool, prompt)
        usage = (
            {
                "input_tokens": len(prompt) // 4,
                "output_tokens": 20,
                "total_tokens": len(prompt) // 4 + 20,
            }
            if self.usage
            else None
        )
        if isinstance(answer, str):
            message = AIMessage(content=answer, usage_metadata=usage)
        else:
            message = AIMessage(
                content="",
                tool_calls=[{"name": tool, "args": answer, "id": f"call_{len(self._calls)}"}],
                usage_metadata=usage,
            )
        return ChatResult(generations=[ChatGeneration(message=message)])


def fenced(prompt: str, tag: str) -> str:
    """The body between ``<<<TAG…>>>`` and ``<<<END TAG>>>``: the last match, the real input.

    Few-shot examples in the system prompt carry the same markers, so the last one counts.
    """
    start = prompt.rfind(f"<<<{tag}")
    if start < 0:
        return ""
    body_start = prompt.find(">>>", start) + 3
    end = prompt.find(f"<<<END {tag}>>>", body_start)
    return prompt[body_start:end].strip()


def dumps(value: Any) -> str:
    """JSON text, for responders that want to return malformed or raw output."""
    return json.dumps(value)


_PASSAGE = re.compile(r"<<<EVIDENCE id=(ev-[0-9a-f]+)>>>\n(.*?)\n<<<END EVIDENCE>>>", re.S)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'“(])")
_WORD = re.compile(r"\w+")


def passages(prompt: str) -> dict[str, str]:
    """The evidence passages of a verify prompt, by id, without their ``[source]`` header."""
    found = {}
    for evidence_id, body in _PASSAGE.findall(prompt):
        header, newline, text = body.partition("\n")
        found[evidence_id] = text if newline and header.startswith("[") else body
    return found


def best_quote(passage: str, unit: str) -> str:
    """The sentence of ``passage`` sharing the most words with ``unit``: a scripted quote.

    What a careful judge would copy into ``quote``: two consecutive sentences when the second
    alone lacks words the pair has (a subject named before "It …"); ties go to the shorter,
    then the earlier quote.
    """
    wanted = {w.casefold() for w in _WORD.findall(unit)}
    sentences = [s.strip() for s in _SENTENCE_END.split(passage) if s.strip()]
    if not sentences:
        return passage.strip()
    windows = [*sentences]
    for first, second in itertools.pairwise(sentences):
        at = passage.find(first)
        end = passage.find(second, at + len(first)) + len(second)
        windows.append(passage[at:end])

    def shared(text: str) -> int:
        return len(wanted & {w.casefold() for w in _WORD.findall(text)})

    return max(windows, key=lambda w: (shared(w), -len(w)))


_BATCH_FACT = re.compile(r"<<<FACT id=(\S+?)>>>\n(.*?)\n<<<END FACT>>>", re.S)
_FENCED_EVIDENCE = re.compile(r"<<<EVIDENCE id=(\S+?)>>>\n.*?\n<<<END EVIDENCE>>>", re.S)


def batch_prompts(prompt: str) -> dict[str, str]:
    """A batched verify prompt as the single-fact prompts of its facts, by fact label.

    Each holds the fact, the passages retrieved for it and its units, laid out as a
    single-fact verify prompt is, so a scripted judge answers a batch fact by fact from the
    input alone.
    """
    evidence: dict[str, list[str]] = {}
    for match in _FENCED_EVIDENCE.finditer(prompt):
        evidence.setdefault(match.group(1), []).append(match.group(0))
    closed = "Mode: closed book." in prompt
    out = {}
    for match in _BATCH_FACT.finditer(prompt):
        label, text = match.group(1), match.group(2)
        tail = prompt[match.end() :].split("<<<", 1)[0]
        units = re.search(rf"Units of {re.escape(label)} [^\n]*\n((?:- [^\n]*\n?)+)", tail)
        ids = re.search(rf"Passages retrieved for {re.escape(label)}: ([^\n]*)", tail)
        listed = [i.strip() for i in ids.group(1).split(",")] if ids else []
        parts = [f"<<<FACT>>>\n{text}\n<<<END FACT>>>"]
        if closed:
            parts.append("Mode: closed book.")
        fences = [fence for i in listed for fence in evidence.get(i, [])]
        if not closed and not fences:
            parts.append("No evidence was found.")
        parts.extend(fences)
        if units:
            parts.append(f"Give one unit verdict for each of these units:\n{units.group(1)}")
        out[label] = "\n\n".join(parts)
    return out


def batch_responder(judge: Callable[[str, str], dict[str, Any] | str]) -> Responder:
    """A ``BatchJudgement`` answer made of ``judge``'s answers to each fact's own prompt.

    ``judge`` gets (fact text, single-fact prompt), as for a ``Judgement``; a malformed (string)
    answer for any fact makes the whole batch's answer malformed, and an error raised fails it.
    """

    def respond(_tool: str, prompt: str) -> dict[str, Any] | str:
        verdicts = []
        for label, single in batch_prompts(prompt).items():
            answer = judge(fenced(single, "FACT"), single)
            if isinstance(answer, str):
                return answer
            verdicts.append({"fact": label, **answer})
        return {"verdicts": verdicts}

    return respond
