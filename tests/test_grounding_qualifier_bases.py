"""A qualifier is grounded only where its window does not deny or frame the fact it qualifies.

"It is false that Marie Curie won the Nobel Prize in Physics in 1903." writes 1903 beside
the fact's words, and states no 1903 for it; a judge that cites it for the year is refused,
as it is for the base triple.
"""

from __future__ import annotations

from typing import Any

import pytest

import triqua
from triqua.models.reader import statement_refusal
from triqua.schema import FactUnit, Status
from triqua.testing import passages

from .conftest import CURIE

YEAR = FactUnit(
    kind="qualifier",
    subject="Marie Curie",
    relation="won",
    object="Nobel Prize in Physics",
    label="point in time",
    value="1903",
)
HELD_BACK = {
    "denied": "It is false that Marie Curie won the Nobel Prize in Physics in 1903.",
    "believed": "Some people wrongly think Marie Curie won the Nobel Prize in Physics in 1903.",
    "negated": "Marie Curie did not win the Nobel Prize in Physics in 1903.",
}
STATED = [
    CURIE,
    "In 1903 Marie Curie won the Nobel Prize in Physics, shared with Pierre Curie.",
    "She was born in Warsaw. Marie Curie won the Nobel Prize in Physics in 1903.",
]


@pytest.mark.parametrize("name", list(HELD_BACK))
def test_a_window_denying_or_framing_the_base_grounds_no_qualifier(name: str) -> None:
    assert statement_refusal(YEAR, HELD_BACK[name]) is not None


@pytest.mark.parametrize("window", STATED)
def test_a_window_stating_the_base_grounds_its_qualifier(window: str) -> None:
    assert statement_refusal(YEAR, window) is None


@pytest.mark.usefixtures("per_fact_verification")
@pytest.mark.parametrize("name", ["denied", "believed"])
def test_a_judge_citing_a_denial_for_the_year_is_refused(name: str, scripted: Any) -> None:
    window = HELD_BACK[name]

    def liar(fact: str, prompt: str) -> dict[str, Any]:
        return {"status": "supported", "evidence_ids": list(passages(prompt)), "quote": window}

    report = triqua.check(
        CURIE, documents=[window], model=scripted(judge=liar), cache=False, store=False
    )
    units = [u for r in report.records for u in r.verdict.unit_verdicts]
    assert units and all(u.status is not Status.SUPPORTED for u in units)


CONDITION = (
    "If Marie Curie won the Nobel Prize in Physics in 1903, the committee would have said so."
)


@pytest.mark.usefixtures("per_fact_verification")
def test_a_condition_grounds_neither_the_fact_nor_its_qualifier(scripted: Any) -> None:
    def liar(fact: str, prompt: str) -> dict[str, Any]:
        return {"status": "supported", "evidence_ids": list(passages(prompt)), "quote": CONDITION}

    report = triqua.check(
        CURIE, documents=[CONDITION], model=scripted(judge=liar), cache=False, store=False
    )
    units = [u for r in report.records for u in r.verdict.unit_verdicts]
    assert units and all(u.status is not Status.SUPPORTED for u in units)


def test_a_condition_supports_nothing_offline() -> None:
    report = triqua.check(CURIE, documents=[CONDITION], cache=False, store=False)
    units = [u for r in report.records for u in r.verdict.unit_verdicts]
    assert units and all(u.status is not Status.SUPPORTED for u in units)
