"""A hyphenated word with a bound prefix stays one token and parses as the verb it is."""

from __future__ import annotations

import pytest

from triqua.core.reading.words import stem
from triqua.engines.offline.decompose.decomposer import RuleDecomposer
from triqua.nlp.hyphen_words import hyphen_examples
from triqua.nlp.pipeline import load_nlp

from .conftest import triples

EXAMPLES = hyphen_examples()


@pytest.mark.parametrize(("text", "word"), EXAMPLES["whole"])
def test_prefixed_word_is_one_token(text: str, word: str) -> None:
    assert word in [t.text for t in load_nlp()(text)]


@pytest.mark.parametrize(("text", "word"), EXAMPLES["split"])
def test_other_hyphenated_word_still_splits(text: str, word: str) -> None:
    tokens = [t.text for t in load_nlp()(text)]
    assert word not in tokens
    assert word.split("-")[0] in tokens


def test_hyphenated_verb_keeps_each_conjunct_its_subject_and_object() -> None:
    facts = RuleDecomposer().decompose(
        "Larry Page co-founded Google, and Jack Dorsey co-founded Twitter."
    )
    assert triples(facts) == {
        ("Larry Page", "co-founded", "Google"),
        ("Jack Dorsey", "co-founded", "Twitter"),
    }


def test_hyphenated_verb_keeps_its_object_before_a_with_phrase() -> None:
    (fact,) = RuleDecomposer().decompose("Elton John co-wrote Your Song with Tim Rice.")
    assert (fact.subject, fact.relation, fact.object) == ("Elton John", "co-wrote", "Your Song")
    assert [(q.label, q.value) for q in fact.qualifiers] == [("together with", "Tim Rice")]


@pytest.mark.parametrize(("text", "word"), EXAMPLES["whole"])
def test_prefixed_word_stems_as_the_word_after_its_prefix(text: str, word: str) -> None:
    # The word reader splits "re-elected" at the hyphen; a parsed token must meet it there.
    assert stem(word) == stem(word.partition("-")[2])


def test_other_hyphenated_word_keeps_its_stem_whole() -> None:
    assert stem("well-known") != stem("known")
