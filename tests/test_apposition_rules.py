"""The apposition reader's worked examples: a name in one phrase with a class noun is of it.

``core/reading/data/apposition.json`` carries facts "X is a Y" with texts that write X in
apposition with the class Y ("the rock band Velvet Lane", "films, including Green Hollow",
"OpenGrid, a nonprofit foundation") and texts that do not; each is read by
:func:`triqua.core.reading.apposition.apposed`, and the clause gates both engines share
never give such a class to the clause's owner.
"""

from __future__ import annotations

import pytest

from triqua.core.reading.apposition import apposed, apposition_rules, phrased
from triqua.core.reading.fact_parts import fact_parts
from triqua.core.reading.statements import clause_refusal
from triqua.schema import Fact

EXAMPLES = apposition_rules()["examples"]
CASES = [(*e, True) for e in EXAMPLES["match"]] + [(*e, False) for e in EXAMPLES["no_match"]]
PHRASED = [(*e, True) for e in EXAMPLES["phrased"]["match"]] + [
    (*e, False) for e in EXAMPLES["phrased"]["no_match"]
]


def test_both_ways_are_exemplified() -> None:
    assert EXAMPLES["match"] and EXAMPLES["no_match"]


@pytest.mark.parametrize(
    ("subject", "relation", "obj", "text", "expected"), CASES, ids=[c[3][:40] for c in CASES]
)
def test_a_class_in_one_phrase_with_the_name_is_the_names(
    subject: str, relation: str, obj: str, text: str, expected: bool
) -> None:
    assert apposed(subject, relation, obj, text) is expected


@pytest.mark.parametrize(
    ("subject", "relation", "obj", "text"),
    [e for e in EXAMPLES["match"] if e[1] == "is"],
    ids=[e[3][:40] for e in EXAMPLES["match"] if e[1] == "is"],
)
def test_the_clause_gates_never_give_an_apposed_class_to_the_clause_owner(
    subject: str, relation: str, obj: str, text: str
) -> None:
    parts = fact_parts(Fact(subject=subject, relation=relation, object=obj))
    assert "gives the object to" not in (clause_refusal(parts, text) or "")


@pytest.mark.parametrize(
    ("subject", "relation", "obj", "text", "expected"), PHRASED, ids=[c[3][:40] for c in PHRASED]
)
def test_a_fact_written_as_one_noun_phrase_is_read_as_stated(
    subject: str, relation: str, obj: str, text: str, expected: bool
) -> None:
    assert phrased(subject, relation, obj, text) is expected
