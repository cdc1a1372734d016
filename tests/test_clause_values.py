"""The clause a value is written in: a value another verb governs is not the relation's.

``core/reading/data/clause_values.json`` holds relations, objects and texts that must and
must not be read as giving the unit's value to a clause other than its relation's; each is
run through :func:`triqua.core.reading.clause_values.value_clause`.
"""

from __future__ import annotations

import pytest

from triqua.core.reading.clause_values import CLAUSE_VALUE_RULES, value_clause

EXAMPLES = CLAUSE_VALUE_RULES["examples"]
CASES = [(r, o, t, True) for r, o, t in EXAMPLES["match"]] + [
    (r, o, t, False) for r, o, t in EXAMPLES["no_match"]
]


@pytest.mark.parametrize(("relation", "obj", "text", "elsewhere"), CASES)
def test_a_value_another_verb_governs_is_given_to_another_clause(
    relation: str, obj: str, text: str, elsewhere: bool
) -> None:
    assert (value_clause(relation, obj, text) is not None) is elsewhere


def test_the_reading_names_the_verb_that_governs_the_value() -> None:
    got = value_clause("was born in", "1891", "Born in 1867, Ada Moreau moved to Lyon in 1891.")
    assert got == "moved: 1891"
