"""The copular relations table: a copula with its preposition writes "is located in".

``core/reading/data/copular.json`` lists the relation words ("located", "situated", "lies",
"based", "stands") that a copula followed by the same preposition states, with relations and
sentences that must and must not be read as writing the relation. Each example is run
through the shared reader of a fact's parts (``fact_parts.sentence_relation_hit``).
"""

from __future__ import annotations

import pytest

from triqua.core.reading.analysis import analyse
from triqua.core.reading.copular import copular_prepositions, copular_rules
from triqua.core.reading.fact_parts import fact_parts, sentence_relation_hit
from triqua.schema import Fact

EXAMPLES = copular_rules()["examples"]
CASES = [(r, s, True) for r, s in EXAMPLES["match"]] + [
    (r, s, False) for r, s in EXAMPLES["no_match"]
]


@pytest.mark.parametrize(("relation", "sentence", "writes"), CASES)
def test_a_sentence_writes_a_copular_relation_by_its_copula(
    relation: str, sentence: str, writes: bool
) -> None:
    parts = fact_parts(Fact(subject="It", relation=relation, object="somewhere"))
    assert (sentence_relation_hit(parts, analyse(sentence)) is not None) is writes


@pytest.mark.parametrize(
    ("relation", "prepositions"),
    [
        ("is located in", {"in"}),
        ("lies on", {"on"}),
        ("was based at", {"at"}),
        ("stands in", {"in"}),
        ("was born in", set()),
        ("lived in", set()),
        ("is located", set()),
        ("is in", set()),
        ("is based on", set()),
    ],
)
def test_only_a_listed_word_and_preposition_make_a_copular_relation(
    relation: str, prepositions: set[str]
) -> None:
    assert copular_prepositions(relation) == frozenset(prepositions)
