"""A bound ("fewer than 500", "more than 300") against a close marker ("nearly 500").

"fewer than 500 people" is met by 412 people, as "more than 300" is: a bound reaches every
value on its side. "nearly 500" stays within the rules file's tolerance below 500. Both
readers of the value rules (the grounding rule and the offline verifier) read them so.
"""

from __future__ import annotations

import pytest

from triqua.core.grounding.rule import check_quote
from triqua.engines.offline.verify.align import analyse, values_relation
from triqua.engines.offline.verify.verifier import get_verifier
from triqua.schema import Evidence, Fact, FactUnit, Status

PASSAGE = "The concert was attended by 412 people."

CASES = [
    ("fewer than 500 people", True),
    ("less than 500 people", True),
    ("up to 500 people", True),
    ("more than 300 people", True),
    ("nearly 500 people", False),
    ("almost 500 people", False),
    ("fewer than 400 people", False),
    ("more than 450 people", False),
]


@pytest.mark.parametrize(("attendance", "met"), CASES)
def test_the_offline_value_gate_reads_a_bound_as_open_and_nearly_as_close(
    attendance: str, met: bool
) -> None:
    relation = values_relation(
        analyse(f"The concert was attended by {attendance}."), analyse(PASSAGE), set(), set()
    )[0]
    assert relation == ("match" if met else "conflict")


@pytest.mark.parametrize(("attendance", "met"), CASES)
def test_the_grounding_rule_lets_412_people_ground_a_bound_but_not_nearly_500(
    attendance: str, met: bool
) -> None:
    unit = FactUnit(
        kind="base", subject="The concert", relation="was attended by", object=attendance
    )
    grounded = check_quote(unit, Status.SUPPORTED, ["ev-1"], PASSAGE, {"ev-1": PASSAGE})
    assert grounded.ok is met


@pytest.mark.slow
@pytest.mark.parametrize(
    ("attendance", "expected"),
    [
        ("fewer than 500 people", Status.SUPPORTED),
        ("under 500 people", Status.SUPPORTED),
        ("more than 300 people", Status.SUPPORTED),
        ("roughly 400 people", Status.SUPPORTED),
        ("nearly 500 people", Status.CONTRADICTED),
    ],
)
def test_the_offline_verifier_supports_fewer_than_500_by_412_people(
    attendance: str, expected: Status
) -> None:
    """412 people support "fewer than 500" (the marker's words need not be written there)."""
    fact = Fact(subject="The concert", relation="was attended by", object=attendance)
    passage = Evidence.build(document_id="d", text=PASSAGE, retriever="supplied")
    verdict = get_verifier().verify(fact, [passage])
    assert verdict.status is expected
