"""Evaluative complements state opinions, not facts: the lexicon's examples run as tests.

The evaluative words are data (``engines/offline/data/evaluative.json``) with sentences that
must read as opinions (no fact) and sentences that must keep their fact: superlatives of
praise ("one of the greatest footballers of all time") are opinions, superlatives of measure
("the highest mountain") and praise adjectives without "most" ("an influential physicist")
stay facts.
"""

from __future__ import annotations

import pytest

from triqua.engines.offline.decompose.decomposer import RuleDecomposer
from triqua.engines.offline.decompose.evaluative import examples

EXAMPLES = examples()


@pytest.mark.parametrize("text", EXAMPLES["opinion"])
def test_evaluative_complement_yields_no_fact(decomposer: RuleDecomposer, text: str) -> None:
    assert decomposer.decompose(text) == []


@pytest.mark.parametrize(("text", "subject", "relation", "obj"), EXAMPLES["fact"])
def test_checkable_complement_keeps_its_fact(
    decomposer: RuleDecomposer, text: str, subject: str, relation: str, obj: str
) -> None:
    facts = decomposer.decompose(text)
    assert [(f.subject, f.relation, f.object) for f in facts] == [(subject, relation, obj)]


def test_lexicon_has_examples_of_each_kind() -> None:
    assert len(EXAMPLES["opinion"]) >= 5 and len(EXAMPLES["fact"]) >= 5
