"""A bound ("fewer than 500", "more than 300") against a close marker ("nearly 500").

"fewer than 500 people" is met by 412 people, as "more than 300" is: a bound reaches every
value on its side. "nearly 500" stays within the rules file's tolerance below 500. Both
readers of the value rules (the grounding rule and the offline verifier) read them so.
"""

from __future__ import annotations

import pytest

from triqua.core.grounding.rule import check_quote
from triqua.core.reading.analysis import analyse, values_relation
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
    ("no more than 500 people", True),
    ("not more than 500 people", True),
    ("below 500 people", True),
    ("no fewer than 300 people", True),
    ("no less than 300 people", True),
    ("not less than 300 people", True),
    ("no more than 400 people", False),
    ("below 400 people", False),
    ("no fewer than 450 people", False),
    ("not less than 450 people", False),
]


@pytest.mark.parametrize(("attendance", "met"), CASES)
def test_the_offline_value_gate_reads_a_bound_as_open_and_nearly_as_close(
    attendance: str, met: bool
) -> None:
    relation = values_relation(
        analyse(f"The concert was attended by {attendance}."), analyse(PASSAGE)
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


@pytest.mark.parametrize("bound", ["no more than 500", "not more than 500", "below 500"])
@pytest.mark.parametrize(("count", "met"), [(412, True), (612, False)])
def test_a_negated_bound_is_at_most_in_both_readers(bound: str, count: int, met: bool) -> None:
    """412 people meet "no more than 500 people" and 612 do not (it is not "more than 500")."""
    passage = f"The concert was attended by {count} people."
    claim = f"The concert was attended by {bound} people."
    relation = values_relation(analyse(claim), analyse(passage))[0]
    assert relation == ("match" if met else "conflict")
    unit = FactUnit(
        kind="base", subject="The concert", relation="was attended by", object=f"{bound} people"
    )
    grounded = check_quote(unit, Status.SUPPORTED, ["ev-1"], passage, {"ev-1": passage})
    assert grounded.ok is met


@pytest.mark.parametrize(
    ("relation", "passage"),
    [
        ("is open on", "The museum is not open on Mondays."),
        ("is open on", "The museum is no longer open on Mondays."),
        ("is not open on", "The museum is open on Mondays."),
    ],
)
def test_a_no_or_not_outside_a_bound_is_still_a_negation(relation: str, passage: str) -> None:
    """A "no" or "not" qualifies a number only inside a whole marker ("no more than")."""
    unit = FactUnit(kind="base", subject="The museum", relation=relation, object="Mondays")
    grounded = check_quote(unit, Status.SUPPORTED, ["ev-1"], passage, {"ev-1": passage})
    assert not grounded.ok


@pytest.mark.slow
@pytest.mark.parametrize(
    ("attendance", "expected"),
    [
        ("fewer than 500 people", Status.SUPPORTED),
        ("under 500 people", Status.SUPPORTED),
        ("more than 300 people", Status.SUPPORTED),
        ("no more than 500 people", Status.SUPPORTED),
        ("no fewer than 300 people", Status.SUPPORTED),
        ("no more than 400 people", Status.CONTRADICTED),
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
