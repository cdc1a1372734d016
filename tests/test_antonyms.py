"""The relation antonyms table: a window writing the opposite of a fact's word states the opposite.

``core/reading/data/antonyms.json`` pairs words that state opposite things of one slot
("increases" / "decreases", "won" / "lost", "opened" / "closed"), with facts and sentences
that must and must not be read as stating the opposite. Each example is run through the
shared reader (``antonyms.opposite_in``) and the statement gates both engines ask of a
window (``statements.refusal``).
"""

from __future__ import annotations

import pytest

from triqua.core.reading.analysis import analyse
from triqua.core.reading.antonyms import antonym_rules, opposite_in
from triqua.core.reading.statements import refusal
from triqua.engines.offline.verify.verifier import get_verifier
from triqua.schema import Evidence, Status

from .written_facts import written_fact

EXAMPLES = antonym_rules()["examples"]
CASES = [(f, s, True) for f, s in EXAMPLES["match"]] + [
    (f, s, False) for f, s in EXAMPLES["no_match"]
]


@pytest.mark.parametrize(("fact", "sentence", "opposed"), CASES)
def test_a_sentence_writing_the_opposite_word_is_read_as_the_opposite(
    fact: str, sentence: str, opposed: bool
) -> None:
    parsed = written_fact(fact)
    found = opposite_in(analyse(parsed.relation), analyse(parsed.object), analyse(sentence))
    assert (found is not None) is opposed


@pytest.mark.parametrize(("fact", "sentence"), [(f, s) for f, s in EXAMPLES["match"]])
def test_the_statement_gates_refuse_a_window_stating_the_opposite(fact: str, sentence: str) -> None:
    reason = refusal(written_fact(fact), sentence)
    assert reason is not None


def test_every_pair_has_two_sides_of_words() -> None:
    for pair in antonym_rules()["pairs"]:
        assert len(pair) == 2
        assert all(side and all(isinstance(w, str) and w for w in side) for side in pair)


CONTRADICTS = antonym_rules()["contradicts"]


@pytest.mark.parametrize(
    ("fact", "sentence", "contradicts"),
    [(f, s, True) for f, s in CONTRADICTS["match"]]
    + [(f, s, False) for f, s in CONTRADICTS["no_match"]],
)
def test_only_opposites_that_never_both_hold_contradict_on_the_offline_engine(
    fact: str, sentence: str, contradicts: bool
) -> None:
    verdict = get_verifier().verify(written_fact(fact), [_evidence(sentence)])
    assert (verdict.status == Status.CONTRADICTED) is contradicts
    assert verdict.status != Status.SUPPORTED


def _evidence(text: str) -> Evidence:
    return Evidence.build(document_id="doc", text=text, retriever="supplied")
