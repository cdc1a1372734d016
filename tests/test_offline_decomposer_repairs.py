"""The offline decomposer on three clauses the small parser misreads.

"The river rose 3 metres overnight." hangs the amount on the adverb after it, "The ferry
runs from Dover to Calais." the route's end on "from", and "Tom Hanks starred in the movie
Big." reads the title as the verb's object; the parse repairs (``decompose.misread_words``)
give each its fact, and leave a range of years and an object after a phrase as they were.
"""

from __future__ import annotations

import pytest

from triqua.engines.offline.decompose.decomposer import RuleDecomposer

from .conftest import triples


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        ("The river rose 3 metres overnight.", ("The river", "rose by", "3 metres")),
        ("The Thames rose 3 metres overnight.", ("The Thames", "rose by", "3 metres")),
        ("Tom Hanks starred in the movie Big.", ("Tom Hanks", "starred in", "the movie Big")),
        ("Tom Hanks starred in the film Big.", ("Tom Hanks", "starred in", "the film Big")),
    ],
)
def test_a_misread_clause_gives_its_fact(
    decomposer: RuleDecomposer, text: str, triple: tuple[str, str, str]
) -> None:
    assert triples(decomposer.decompose(text)) == {triple}


def test_a_route_keeps_its_end(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("The ferry runs from Dover to Calais.")
    assert triples(facts) == {("The ferry", "runs from", "Dover")}
    assert [q.value for q in facts[0].qualifiers] == ["Calais"]


def test_a_range_of_years_is_no_route(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Marie Curie lived in Paris from 1891 to 1934.")
    values = {q.value for f in facts for q in f.qualifiers}
    assert {"1891", "1934"} <= values, facts
