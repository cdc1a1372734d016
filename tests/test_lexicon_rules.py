"""The lexicon's worked examples, read alike by every word reader.

``core/reading/data/lexicon.json`` carries word-form pairs that must and must not be read as
one word (or one relation group), and texts that must and must not read as negated. Both
stemmings of the shared reader run them: the offline verifier's (``stem``, ``stems_match``,
``relation_stems``, ``is_negated``) and the grounding rule's word check (``word_stems``,
``unstated_words``, ``denies``, and the negation gate's ``negated``). An example one reads
another way than the other fails.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from triqua.core.grounding.gates import negated as negated_gate
from triqua.core.grounding.statement import denies, unstated_words
from triqua.core.reading.analysis import analyse
from triqua.core.reading.fact_parts import fact_parts, polarity_differs
from triqua.core.reading.lexicon_file import LEXICON_PATH
from triqua.core.reading.words import (
    is_negated,
    relation_phrases,
    relation_stems,
    stem,
    stems_match,
    tokenize,
)
from triqua.schema import Fact, FactUnit

EXAMPLES = json.loads(Path(LEXICON_PATH).read_text(encoding="utf-8"))["examples"]
FORMS = [(a, b, True) for a, b in EXAMPLES["word_forms"]["match"]] + [
    (a, b, False) for a, b in EXAMPLES["word_forms"]["no_match"]
]
NEGATION = [(t, True) for t in EXAMPLES["negation"]["match"]] + [
    (t, False) for t in EXAMPLES["negation"]["no_match"]
]

PHRASES = [(t, True) for t in EXAMPLES["denial_phrases"]["match"]] + [
    (t, False) for t in EXAMPLES["denial_phrases"]["no_match"]
]


def _offline_meets(a: str, b: str) -> bool:
    x, y = stem(a), stem(b)
    return stems_match(x, y) or y in relation_stems(x) or x in relation_stems(y)


def _grounding_meets(a: str, b: str) -> bool:
    unit = FactUnit(kind="base", subject="Ada", relation=a, object="")
    return not unstated_words(unit, f"Ada {b}")


def test_both_ways_are_exemplified() -> None:
    assert {m for *_, m in FORMS} == {True, False}
    assert {m for _, m in NEGATION} == {True, False}


@pytest.mark.parametrize(("a", "b", "meets"), FORMS, ids=[f"{a}-{b}" for a, b, _ in FORMS])
def test_a_word_form_is_read_alike_by_both_stemmings(a: str, b: str, meets: bool) -> None:
    assert _offline_meets(a, b) is meets
    assert _grounding_meets(a, b) is meets


@pytest.mark.parametrize(("text", "negated"), NEGATION, ids=[t for t, _ in NEGATION])
def test_a_negation_is_read_alike_by_both_readers(text: str, negated: bool) -> None:
    assert is_negated(tokenize(text)) is negated
    unit = FactUnit(kind="base", subject="He", relation="won", object="the cup")
    assert denies(unit, text) is negated
    assert (negated_gate(unit, text) is not None) is negated


@pytest.mark.parametrize(("text", "negated"), PHRASES, ids=[t for t, _ in PHRASES])
def test_a_denial_phrase_after_a_linking_verb_denies_on_both_engines(
    text: str, negated: bool
) -> None:
    """The grounding rule's negation gate and the offline polarity gate read it alike."""
    unit = FactUnit(kind="base", subject="Napoleon", relation="was", object="short")
    assert (negated_gate(unit, text) is not None) is negated
    parts = fact_parts(Fact(subject="Napoleon", relation="was", object="short"))
    assert polarity_differs(parts, analyse(text)) is negated


def test_a_multi_word_synonym_is_one_relation_word_for_both_readers() -> None:
    """The birth group holds "came into the world": "born" states it, its words need not."""
    from triqua.core.reading.analysis import analyse
    from triqua.core.reading.fact_parts import relation_hit, relation_words

    assert [p for p, _, _ in relation_phrases("came into the world in")] == ["came into the world"]
    words = relation_words(analyse("came into the world in"))
    assert stem("born") in words[0]
    assert relation_hit(words, analyse("Ada was born in Paris.")) is not None
    unit = FactUnit(kind="base", subject="Ada", relation="came into the world in", object="")
    assert unstated_words(unit, "Ada was born in Paris.") == []
    assert unstated_words(unit, "Ada lived in Paris.") != []
