"""Scripted chat models for testing triqua (and agents that embed it) without any provider.

``ScriptedChatModel`` answers each call from a function of the prompt, never from call order,
because triqua fans calls out concurrently. It supports ``with_structured_output`` through
tool calls, so LangChain's real output parser stays in the path.
"""

from __future__ import annotations

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

from triqua.testing.batches import batch_responder

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
    split_batches: bool = Field(
        default=True,
        description="Answer a batched verify call (``Verdicts``) from the responder's "
        "``Judgement`` answer to each fact's own prompt (:func:`batch_responder`); False: "
        "the responder answers ``Verdicts`` itself.",
    )
    number_sentences: bool = Field(
        default=True,
        description="Answer a decomposition call (``ExtractedFacts``) given in the long or "
        "grouped form, sentences copied, as the model is asked to: each fact citing its "
        "sentence by the number the prompt shows (:func:`numbered_decomposition`); False: "
        "send the responder's answer as it is.",
    )
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
        if tool == "Verdicts" and self.split_batches:
            responder = self.responder
            answer = batch_responder(lambda _fact, single: responder("Judgement", single))(
                tool, prompt
            )
        else:
            answer = self.responder(tool, prompt)
        if tool == "ExtractedFacts" and self.number_sentences and isinstance(answer, dict):
            answer = numbered_decomposition(answer, prompt)
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


def numbered_decomposition(answer: dict[str, Any], prompt: str) -> dict[str, Any]:
    """A decomposition answer that copies sentences, as rows citing the prompt's numbers.

    The long form (``facts`` with ``source_sentence``) and the grouped form (``sentences``)
    become ``{"f": [[number, subject, relation, object, label, value, …], …]}``, each number
    that of the prompt's TEXT line holding the sentence. An answer with a sentence that is
    no line of the prompt is returned as it is (the engine accepts the copied forms too).
    """
    from triqua.prompts import numbered_answer, shown_sentences

    facts = answer.get("facts")
    if "sentences" in answer and facts is None:
        facts = [
            {
                "subject": f.get("s", ""),
                "relation": f.get("r", ""),
                "object": f.get("o", ""),
                "qualifiers": [{"label": q[0], "value": q[1]} for q in f.get("q") or []],
                "source_sentence": group.get("sentence", ""),
            }
            for group in answer.get("sentences") or []
            for f in group.get("facts") or []
        ]
    if not isinstance(facts, list):
        return answer
    try:
        return numbered_answer(facts, shown_sentences(prompt))
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):
        return answer
