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
from dataclasses import dataclass
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


def shown_text(prompt: str) -> str:
    """The text a decomposition prompt asks about: its numbered TEXT sentences, numbers cut.

    Joined by single spaces (each sentence's inner whitespace is collapsed in the prompt).
    """
    from triqua.prompts import shown_sentences

    return " ".join(shown_sentences(prompt))


def shown_parts(prompt: str) -> list[tuple[str | None, str]]:
    """Each chunk a decomposition prompt shows: (its PREVIOUS or None, its TEXT, numbers cut).

    Read from the input (the last "Mode:" message), in order; sentences are joined by
    single spaces as :func:`shown_text` joins them.
    """
    body = prompt[prompt.rfind("Mode: ") :]
    blocks = re.findall(r"<<<(PREVIOUS|TEXT)>>>\n(.*?)\n<<<END \1>>>", body, flags=re.S)
    parts: list[tuple[str | None, str]] = []
    previous: str | None = None
    for tag, text in blocks:
        if tag == "PREVIOUS":
            previous = text
            continue
        lines = [line.partition(" ")[2] for line in text.splitlines() if line.strip()]
        parts.append((previous, " ".join(lines)))
        previous = None
    return parts


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


_FACTS = re.compile(r"<<<FACTS>>>\n(.*?)\n<<<END FACTS>>>", re.S)
_SHEET = re.compile(r"<<<EVIDENCE>>>\n(.*?)\n<<<END EVIDENCE>>>", re.S)
_FACT_LINE = re.compile(r"^F(\d+) (.*?)(?: \| passages ([A-Z ]+|none))?$")
_UNIT_LINE = re.compile(r"^ u(\d+) (.*)$")
_SHEET_LINE = re.compile(r"^(\d+) (.*)$")


@dataclass
class BatchFact:
    """One fact of a batched verify prompt as the prompt lists it."""

    label: str
    text: str
    passages: list[str]
    units: list[str]


@dataclass
class BatchPrompt:
    """A batched verify prompt read back: its facts, and each passage's source and lines."""

    facts: list[BatchFact]
    sources: dict[str, str]
    lines: dict[str, list[tuple[int, str]]]
    closed: bool

    def evidence_id(self, label: str) -> str:
        """The id a passage gets in the single-fact prompts: ``ev-`` and its index in hex."""
        return f"ev-{list(self.sources).index(label):x}"

    def single(self, fact: BatchFact) -> str:
        """The single-fact verify prompt of ``fact``: its passages' shown sentences only."""
        parts = [f"<<<FACT>>>\n{fact.text}\n<<<END FACT>>>"]
        if self.closed:
            parts.append("Mode: closed book.")
        elif not fact.passages:
            parts.append("No evidence was found.")
        for label in fact.passages:
            body = " ".join(text for _, text in self.lines.get(label, []))
            header = f"[{self.sources[label]}]\n" if self.sources[label] else ""
            ident = self.evidence_id(label)
            parts.append(f"<<<EVIDENCE id={ident}>>>\n{header}{body}\n<<<END EVIDENCE>>>")
        if fact.units:
            listed = "\n".join(f"- {u}" for u in fact.units)
            parts.append(f"Give one unit verdict for each of these units:\n{listed}")
        return "\n\n".join(parts)

    def cited(self, ids: list[str], quote: str | None) -> list[int]:
        """Sentence numbers for a single-fact citation: the cited passages' lines it quotes.

        With no quote, each cited passage's first line; an id that is no passage of the
        prompt becomes 0, a number on no sheet.
        """
        from triqua.core.grounding import normalise

        labels = {self.evidence_id(label): label for label in self.sources}
        wanted = normalise(quote or "")
        out: list[int] = []
        for ident in ids:
            if ident not in labels:
                out.append(0)
                continue
            lines = self.lines.get(labels[ident], [])
            if not wanted:
                out.extend(n for n, _ in lines[:1])
                continue
            out.extend(
                n
                for n, text in lines
                if normalise(text) in wanted or (wanted and wanted in normalise(text))
            )
        return out


def read_batch_prompt(prompt: str) -> BatchPrompt:
    """A batched verify prompt (:mod:`triqua.prompts.batch_verify`) read back."""
    facts: list[BatchFact] = []
    listed = _FACTS.search(prompt)
    for row in (listed.group(1) if listed else "").splitlines():
        if (unit := _UNIT_LINE.match(row)) and facts:
            facts[-1].units.append(unit.group(2))
        elif fact := _FACT_LINE.match(row):
            labels = (fact.group(3) or "").split()
            facts.append(
                BatchFact(
                    f"F{fact.group(1)}", fact.group(2), labels[:] if labels != ["none"] else [], []
                )
            )
    sources: dict[str, str] = {}
    lines: dict[str, list[tuple[int, str]]] = {}
    sheet = _SHEET.search(prompt)
    current = ""
    for row in (sheet.group(1) if sheet else "").splitlines():
        if line := _SHEET_LINE.match(row):
            lines.setdefault(current, []).append((int(line.group(1)), line.group(2)))
        else:
            current, _, source = row.partition(" ")
            sources[current] = source
    return BatchPrompt(facts, sources, lines, "Mode: closed book." in prompt)


def batch_prompts(prompt: str) -> dict[str, str]:
    """A batched verify prompt as the single-fact prompts of its facts, by fact label.

    Each holds the fact, the sentences shown from the passages listed for it (under ids
    ``ev-0``, ``ev-1`` … by passage) and its units, laid out as a single-fact verify prompt
    is, so a scripted judge answers a batch fact by fact from the input alone.
    """
    batch = read_batch_prompt(prompt)
    return {fact.label: batch.single(fact) for fact in batch.facts}


def compact_verdict(batch: BatchPrompt, fact: BatchFact, answer: dict[str, Any]) -> list[Any]:
    """A single-fact (``Judgement``) answer in the batched call's row form.

    ``[f, s, e, c, w, r, u]``, empty trailing items left off; ``u`` lists only the units
    whose verdict (status or cited sentences) differs from the fact's.
    """
    cited = batch.cited(answer.get("evidence_ids") or [], answer.get("quote"))
    if not fact.units and answer["status"] in ("supported", "contradicted"):
        # Units volunteered for a fact that lists none: their sentences cited at fact level.
        for unit in answer.get("unit_verdicts") or []:
            more = batch.cited(unit.get("evidence_ids") or [], unit.get("quote"))
            cited.extend(n for n in more if n not in cited)
    judged = ("supported", "contradicted")
    given = {unit["unit"]: unit for unit in answer.get("unit_verdicts") or []}
    unit_answers: list[list[Any]] = []
    for k, text in enumerate(fact.units, 1):
        unit = given.get(text)
        if unit is None:
            continue
        ids = unit.get("evidence_ids") or answer.get("evidence_ids") or []
        numbers = batch.cited(ids, unit.get("quote") or answer.get("quote"))
        numbers = numbers if unit["status"] in judged else []
        fact_numbers = cited if answer["status"] in judged else []
        if unit["status"] != answer["status"] or numbers != fact_numbers:
            unit_answers.append([k, unit["status"], *numbers])
    rationale = answer.get("rationale") if answer["status"] != "supported" else None
    row: list[Any] = [
        int(fact.label[1:]),
        answer["status"],
        cited,
        answer.get("confidence"),
        [*(answer.get("error_spans") or []), *(answer.get("wrong_components") or [])],
        rationale or "",
        unit_answers,
    ]
    while len(row) > 2 and row[-1] in ([], "", None):
        row.pop()
    return row


def batch_responder(judge: Callable[[str, str], dict[str, Any] | str]) -> Responder:
    """A ``Verdicts`` answer made of ``judge``'s answers to each fact's own prompt.

    ``judge`` gets (fact text, single-fact prompt), as for a ``Judgement``; its answers are
    turned into the compact form (quotes into the numbers of the sentences they cover). A
    malformed (string) answer for any fact makes the whole batch's answer malformed, and an
    error raised fails it.
    """

    def respond(_tool: str, prompt: str) -> dict[str, Any] | str:
        batch = read_batch_prompt(prompt)
        verdicts = []
        for fact in batch.facts:
            single = batch.single(fact)
            answer = judge(fenced(single, "FACT"), single)
            if isinstance(answer, str):
                return answer
            verdicts.append(compact_verdict(batch, fact, answer))
        return {"v": verdicts}

    return respond
