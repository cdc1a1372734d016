"""Opinions, read by one reader: its examples run against the decomposer and the classifier.

The words are data (``core/text/data/opinion.json``) shared by the offline decomposer and
the check-worthiness rules. For the decomposer, a complement that only praises or blames
states an opinion and gives no fact: superlatives of praise ("one of the greatest
footballers of all time") and words evaluative in any form ("overrated"), while superlatives
of measure ("the highest mountain") and praise adjectives without "most" ("an influential
physicist") stay facts. For the classifier, a personal stance, a summing-up with an
evaluative word, or a tribute makes a sentence an opinion; evaluative wording in a sentence
stating something checkable does not.
"""

from __future__ import annotations

import pytest

from triqua.core.text import opinion
from triqua.core.text.checkworthy import classify
from triqua.engines.offline.decompose import appositives, arguments
from triqua.engines.offline.decompose.decomposer import RuleDecomposer

EXAMPLES = opinion.opinion_examples()


@pytest.mark.parametrize("text", EXAMPLES["no_fact"])
def test_evaluative_complement_yields_no_fact(decomposer: RuleDecomposer, text: str) -> None:
    assert decomposer.decompose(text) == []


@pytest.mark.parametrize(("text", "subject", "relation", "obj"), EXAMPLES["fact"])
def test_checkable_complement_keeps_its_fact(
    decomposer: RuleDecomposer, text: str, subject: str, relation: str, obj: str
) -> None:
    facts = decomposer.decompose(text)
    assert [(f.subject, f.relation, f.object) for f in facts] == [(subject, relation, obj)]


@pytest.mark.parametrize("text", EXAMPLES["opinion"])
def test_opinion_sentence_is_set_aside(text: str) -> None:
    judgement = classify(text)
    assert judgement.label == "opinion" and judgement.reason


@pytest.mark.parametrize("text", EXAMPLES["checkworthy"])
def test_evaluative_wording_with_a_checkable_claim_stays(text: str) -> None:
    assert classify(text).checkworthy


def test_decomposer_reads_opinions_with_the_shared_reader() -> None:
    assert arguments.is_evaluative is opinion.is_evaluative
    assert appositives.is_evaluative_word is opinion.is_evaluative_word


def test_lexicon_has_examples_of_each_kind() -> None:
    assert all(len(EXAMPLES[k]) >= 3 for k in ("no_fact", "fact", "opinion", "checkworthy"))
