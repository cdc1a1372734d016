"""Scripted models shared by the examples, so they run offline without any provider.

``triqua_model()`` answers triqua's roles: decomposition from a table of sentences, and a
keyword judge (a value found in the evidence is supported; a missing value of an entity the
evidence talks about is contradicted). A real chat model reads the evidence instead.
"""

from __future__ import annotations

import re
from typing import Any

from triqua.schema import Fact, FactUnit
from triqua.testing import ScriptedChatModel, best_quote, fenced, passages

QUESTION = "Tell me about the Eiffel Tower."
TEXT = (
    "The Eiffel Tower was opened in 1889 for the Exposition Universelle. "
    "It is 330 metres tall. The Eiffel Tower is located in Berlin."
)
DOCUMENTS = [
    "The Eiffel Tower is a wrought-iron lattice tower in Paris, France.",
    "The Eiffel Tower was opened on 31 March 1889 for the Exposition Universelle. "
    "It is 330 metres tall.",
]

FACTS: dict[str, list[dict[str, Any]]] = {
    "The Eiffel Tower was opened in 1889 for the Exposition Universelle.": [
        {
            "subject": "Eiffel Tower",
            "relation": "was opened for",
            "object": "Exposition Universelle",
            "qualifiers": [{"label": "point in time", "value": "1889"}],
        }
    ],
    "It is 330 metres tall.": [
        {"subject": "Eiffel Tower", "relation": "has height", "object": "330 metres"}
    ],
    "The Eiffel Tower is located in Berlin.": [
        {"subject": "Eiffel Tower", "relation": "is located in", "object": "Berlin"}
    ],
}

_UNIT = re.compile(r"^- (\(.*\))$", flags=re.M)


def _decompose(prompt: str) -> dict[str, Any]:
    text = fenced(prompt, "TEXT")
    found = [
        {**fact, "source_sentence": sentence}
        for sentence, facts in FACTS.items()
        if sentence in text
        for fact in facts
    ]
    return {"facts": found}


def _value(unit: FactUnit) -> str:
    return unit.object if unit.kind == "base" else unit.value or ""


def _cite(unit: FactUnit, found: dict[str, str]) -> tuple[list[str], str | None]:
    """The passage stating the unit's value (else the first) and its closest sentence."""
    for evidence_id, text in found.items():
        if _value(unit).lower() in text.lower():
            return [evidence_id], best_quote(text, f"{unit.subject} {_value(unit)}")
    first = next(iter(found.items()), None)
    if first is None:
        return [], None
    return [first[0]], best_quote(first[1], f"{unit.subject} {_value(unit)}")


def _judge(prompt: str) -> dict[str, Any]:
    fact = Fact.parse(fenced(prompt, "FACT"))
    found = passages(prompt)
    evidence = " ".join(found.values()).lower()
    if fact.subject.lower() not in evidence:
        return {"status": "insufficient_evidence", "rationale": "the evidence does not say"}
    units = fact.units()
    wrong = [u for u in units if _value(u).lower() not in evidence]
    listed = set(_UNIT.findall(prompt))
    unit_verdicts = []
    for u in units:
        if u.text in listed:
            ids, quote = _cite(u, found)
            status = "contradicted" if u in wrong else "supported"
            unit_verdicts.append(
                {"unit": u.text, "status": status, "evidence_ids": ids, "quote": quote}
            )
    ids, quote = _cite((wrong or units)[0], found)
    if not wrong:
        return {
            "status": "supported",
            "evidence_ids": ids,
            "quote": quote,
            "unit_verdicts": unit_verdicts,
        }
    return {
        "status": "contradicted",
        "wrong_components": [u.text for u in wrong],
        "error_spans": [_value(u) for u in wrong],
        "unit_verdicts": unit_verdicts,
        "evidence_ids": ids,
        "quote": quote,
        "rationale": "the evidence gives another value",
    }


def _respond(schema: str, prompt: str) -> dict[str, Any] | str:
    if schema == "ExtractedFacts":
        return _decompose(prompt)
    if schema == "Judgement":
        return _judge(prompt)
    if schema == "RefinedQueries":
        return {"queries": [f"Eiffel Tower {unit}" for unit in _UNIT.findall(prompt)]}
    raise ValueError(f"no scripted answer for {schema!r}")


def triqua_model() -> ScriptedChatModel:
    """A scripted chat model answering every triqua role for the example text."""
    return ScriptedChatModel(responder=_respond, model_name="scripted-example")
