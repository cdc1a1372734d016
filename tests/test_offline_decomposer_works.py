"""Works named by their titles: the subject of their clause, "it" in what follows, never "he".

The signs of a work are data (``engines/offline/data/titles.json``) with examples run as
tests: a title that is also a pronoun or a determiner ("More", "Her") is the subject of a
clause that says it is a work, while "More was spent on defence" still names nothing; and a
title that looks like a person's name ("Jerry Maguire is a 1996 film") is no antecedent of
"he" or "she".
"""

from __future__ import annotations

import pytest

from triqua.engines.offline.decompose.decomposer import RuleDecomposer
from triqua.engines.offline.decompose.titles import title_examples

from .conftest import triples

EXAMPLES = title_examples()


@pytest.mark.parametrize(("text", "subject", "relation", "obj"), EXAMPLES["subject"])
def test_title_opening_a_sentence_is_its_subject(
    decomposer: RuleDecomposer, text: str, subject: str, relation: str, obj: str
) -> None:
    facts = decomposer.decompose(text)
    assert [(f.subject, f.relation, f.object) for f in facts] == [(subject, relation, obj)]


@pytest.mark.parametrize("text", EXAMPLES["no_subject"])
def test_quantity_word_as_subject_still_names_nothing(
    decomposer: RuleDecomposer, text: str
) -> None:
    assert decomposer.decompose(text) == []


@pytest.mark.parametrize(("text", "subject", "relation"), EXAMPLES["work"])
def test_work_is_no_antecedent_of_he_or_she(
    decomposer: RuleDecomposer, text: str, subject: str, relation: str
) -> None:
    facts = decomposer.decompose(text)
    assert (subject, relation) not in {(f.subject, f.relation) for f in facts}


@pytest.mark.parametrize(("text", "subject", "relation", "obj"), EXAMPLES["it"])
def test_work_is_the_antecedent_of_it(
    decomposer: RuleDecomposer, text: str, subject: str, relation: str, obj: str
) -> None:
    facts = decomposer.decompose(text)
    assert (subject, relation, obj) in {(f.subject, f.relation, f.object) for f in facts}


def test_work_lexicon_has_examples_of_each_kind() -> None:
    assert all(len(EXAMPLES[kind]) >= 2 for kind in ("subject", "no_subject", "work", "it"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Jane Austen wrote Pride and Prejudice.",
            {("Jane Austen", "wrote", "Pride and Prejudice")},
        ),
        ("Tolstoy wrote War and Peace.", {("Tolstoy", "wrote", "War and Peace")}),
        # Two objects, no title: each is a fact.
        (
            "Marie Curie studied physics and chemistry.",
            {("Marie Curie", "studied", "physics"), ("Marie Curie", "studied", "chemistry")},
        ),
    ],
)
def test_a_title_holding_and_is_one_object(
    decomposer: RuleDecomposer, text: str, expected: set[tuple[str, str, str]]
) -> None:
    """ "Pride and Prejudice" is one novel, not "Pride" and "Prejudice"."""
    assert triples(decomposer.decompose(text)) == expected
