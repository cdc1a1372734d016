"""The modifier reader's worked examples: a text states a claim's modifiers or it does not.

``core/reading/data/modifiers.json`` carries (claim, text) pairs where the text must and must
not state the claim's meaning-changing modifiers ("has yet to", "failed to", "more than",
"positively", "only"), and (fact, source sentence) pairs where the fact lost a modifier of its
own clause or lost none. Every example is read by the reader both engines' gates use.
"""

from __future__ import annotations

import json

import pytest

from triqua.core.reading.modifiers import MODIFIERS_PATH, _carried_at, groups, lost, unstated
from triqua.engines.offline.decompose.decomposer import RuleDecomposer

EXAMPLES_FILE = json.loads(MODIFIERS_PATH.read_text(encoding="utf-8"))
EXAMPLES = EXAMPLES_FILE["examples"]


def test_a_text_writing_a_claim_phrase_states_its_group() -> None:
    assert all(g.claim for g in groups())
    for group in groups():
        for phrase in group.claim:
            written = " ".join(phrase)
            assert unstated(written, written) is None


def test_a_claim_phrase_is_carried_only_where_it_starts_inside_the_stretch() -> None:
    for group in groups():
        for phrase in group.claim:
            words = ("filler", *phrase, "filler")
            assert group in _carried_at(words, 1, 1)
            assert group in _carried_at(words, 0, len(words))
            assert group not in _carried_at(words, 0, 0)  # the stretch ends before it
            assert group not in _carried_at(words, 1, 0)  # an empty stretch


@pytest.mark.parametrize(
    ("claim", "text"), EXAMPLES["match"], ids=[c[:40] for c, _ in EXAMPLES["match"]]
)
def test_a_text_writing_the_modifier_states_it(claim: str, text: str) -> None:
    assert unstated(claim, text) is None


@pytest.mark.parametrize(
    ("claim", "text"), EXAMPLES["no_match"], ids=[c[:40] for c, _ in EXAMPLES["no_match"]]
)
def test_a_text_without_the_modifier_does_not_state_it(claim: str, text: str) -> None:
    assert unstated(claim, text) is not None


@pytest.mark.parametrize(
    ("fact", "source", "name"), EXAMPLES["lost"], ids=[s[:40] for _, s, _ in EXAMPLES["lost"]]
)
def test_a_fact_that_dropped_its_clauses_modifier_still_carries_it(
    fact: str, source: str, name: str
) -> None:
    assert name in lost(fact, source)
    group = next(g for g in groups() if g.name == name)
    if not group.values:  # a bound on a number is the value reader's to compare
        assert unstated(fact, fact, source) is not None  # the fact's words no longer state it


@pytest.mark.parametrize(
    ("fact", "source"), EXAMPLES["kept"], ids=[s[:40] for _, s in EXAMPLES["kept"]]
)
def test_a_modifier_of_another_clause_is_not_the_facts(fact: str, source: str) -> None:
    assert lost(fact, source) == []


RELATIONS = [(s, r, True) for s, r in EXAMPLES_FILE["relation_examples"]["match"]] + [
    (s, r, False) for s, r in EXAMPLES_FILE["relation_examples"]["no_match"]
]


@pytest.mark.parametrize(
    ("sentence", "relation", "kept"), RELATIONS, ids=[s[:40] for s, _, _ in RELATIONS]
)
def test_the_decomposer_keeps_an_adverb_that_changes_the_claim(
    decomposer: RuleDecomposer, sentence: str, relation: str, kept: bool
) -> None:
    relations = [f.relation for f in decomposer.decompose(sentence)]
    assert relation in relations
    if not kept:  # a manner adverb that leaves the claim as it is stays out of the relation
        assert all(w in relation.split() for r in relations for w in r.split())
