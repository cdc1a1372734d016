"""Batched verify prompts read back for scripted answers: their facts, units and sentence sheet.

A scripted judge answers one fact at a time; ``batch_responder`` splits a batched prompt into
each fact's own prompt and folds the answers into the compact ``Verdicts`` form.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from triqua.testing.prompt_text import fenced

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
        from triqua.core.grounding.rule import normalise

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
    """A batched verify prompt (:mod:`triqua.engines.llm.batch_prompt`) read back."""
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


def batch_responder(
    judge: Callable[[str, str], dict[str, Any] | str],
) -> Callable[[str, str], dict[str, Any] | str]:
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
