"""The learned entailment judge inside the offline verifier: what the rule gates never let by.

A judge that says "entailed" (or "contradicted") to everything shows the gates: a value
the evidence lacks, a sentence about someone else, a negated sentence and a year the
window does not state are never supported, however sure the judge is.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from triqua.engines.offline.verify.verifier import AlignmentVerifier
from triqua.models.entailment import Thresholds
from triqua.schema import Evidence, Fact, Qualifier, Status


class FixedEntailment:
    """A judge with one answer for every pair, recording what it was asked."""

    def __init__(self, entailed: float, contradicted: float = 0.0) -> None:
        self.row = np.array([entailed, 1 - entailed - contradicted, contradicted], np.float32)
        self.revision = f"fixed-{entailed}-{contradicted}"
        self.thresholds = Thresholds(entailed=0.5, veto=0.2)
        self.asked: list[tuple[str, str]] = []

    def predict(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        self.asked += list(pairs)
        return np.tile(self.row, (len(pairs), 1))


def ev(text: str) -> Evidence:
    return Evidence.build(document_id="doc", text=text, retriever="supplied")


@pytest.fixture()
def eager() -> AlignmentVerifier:
    return AlignmentVerifier(entailment=FixedEntailment(0.99))  # type: ignore[arg-type]


def test_judge_supports_a_paraphrase_the_rules_leave_open() -> None:
    judge = FixedEntailment(0.95)
    verifier = AlignmentVerifier(entailment=judge)  # type: ignore[arg-type]
    fact = Fact(subject="The Rhine", relation="meets", object="the North Sea")
    verdict = verifier.verify(fact, [ev("The Rhine reaches the North Sea near Rotterdam.")])
    assert verdict.status == Status.SUPPORTED
    assert "entailed by the judge 0.95" in verdict.rationale
    assert verdict.quote == "The Rhine reaches the North Sea near Rotterdam."
    assert (
        "The Rhine reaches the North Sea near Rotterdam.",
        "The Rhine meets the North Sea.",
    ) in judge.asked
    assert verdict.judge == verifier.revision and judge.revision in verifier.revision


@pytest.mark.parametrize(
    ("fact", "evidence"),
    [
        (("Lagos", "has a population of", "21 million"), "Lagos has about 15 million inhabitants."),
        (("Marie Curie", "was born in", "Paris"), "Marie Curie was born in Warsaw in 1867."),
        (
            ("Ada Lovelace", "is", "a member of the club"),
            "Ada Lovelace is not a member of the club.",
        ),
        (("Pierre Curie", "discovered", "radium"), "Marie Curie discovered radium with her team."),
    ],
    ids=["missing-number", "missing-name", "negated", "other-person"],
)
def test_eager_judge_never_supports_past_the_gates(
    eager: AlignmentVerifier, fact: tuple[str, str, str], evidence: str
) -> None:
    subject, relation, obj = fact
    verdict = eager.verify(Fact(subject=subject, relation=relation, object=obj), [ev(evidence)])
    assert verdict.status != Status.SUPPORTED


def test_eager_judge_never_supports_a_year_the_window_lacks(eager: AlignmentVerifier) -> None:
    fact = Fact(
        subject="Marie Curie",
        relation="won",
        object="the Nobel Prize in Chemistry",
        qualifiers=[Qualifier(label="point in time", value="1911")],
    )
    verdict = eager.verify(fact, [ev("Marie Curie won the Nobel Prize in Chemistry for radium.")])
    statuses = [u.status for u in verdict.unit_verdicts]
    assert statuses[0] == Status.SUPPORTED
    assert statuses[1] != Status.SUPPORTED and verdict.status != Status.SUPPORTED


def test_judge_qualifier_support_rests_on_the_base_window(eager: AlignmentVerifier) -> None:
    fact = Fact(
        subject="Alan Turing",
        relation="worked at",
        object="Bletchley Park",
        qualifiers=[Qualifier(label="point in time", value="the Second World War")],
    )
    text = "Alan Turing worked at Bletchley Park during the war against Germany (Second World War)."
    verdict = eager.verify(fact, [ev(text)])
    assert [u.status for u in verdict.unit_verdicts] == [Status.SUPPORTED, Status.SUPPORTED]


def test_a_qualifier_a_single_sentence_supports_reads_no_wider_window() -> None:
    judge = FixedEntailment(0.99)
    verifier = AlignmentVerifier(entailment=judge)  # type: ignore[arg-type]
    fact = Fact(
        subject="Alan Turing",
        relation="worked at",
        object="Bletchley Park",
        qualifiers=[Qualifier(label="manner", value="as a codebreaker")],
    )
    first = "Alan Turing worked at Bletchley Park, where he broke German ciphers."
    text = f"{first} He later moved to Manchester."
    verdict = verifier.verify(fact, [ev(text)])
    assert [u.status for u in verdict.unit_verdicts] == [Status.SUPPORTED, Status.SUPPORTED]
    assert verdict.unit_verdicts[1].quote == first
    assert {premise for premise, _ in judge.asked} == {first}  # the two sentences never


def test_judge_never_contradicts_on_its_own() -> None:
    verifier = AlignmentVerifier(entailment=FixedEntailment(0.01, 0.97))  # type: ignore[arg-type]
    fact = Fact(subject="The chef", relation="opened", object="a Japanese restaurant")
    verdict = verifier.verify(fact, [ev("The chef opened a Mexican restaurant in Lisbon.")])
    assert verdict.status == Status.INSUFFICIENT  # another restaurant is not a false one


def test_a_relation_the_lexicon_knows_must_be_stated_by_its_words(
    eager: AlignmentVerifier,
) -> None:
    fact = Fact(subject="Tomas Wren", relation="was born in", object="Lisbon")
    verdict = eager.verify(fact, [ev("Tomas Wren was buried in Lisbon after a long career.")])
    assert verdict.status != Status.SUPPORTED


def test_a_relation_worded_otherwise_reaches_the_judge(eager: AlignmentVerifier) -> None:
    # No word of the "build" group, and none of another relation in the object's place.
    fact = Fact(subject="The Koru Bridge", relation="was built in", object="the 12th century")
    text = "The Koru Bridge is a 12th-century stone crossing over the river Wend."
    assert eager.verify(fact, [ev(text)]).status == Status.SUPPORTED
    fact = Fact(subject="Ilse Maren", relation="won", object="nine national titles")
    text = "Ilse Maren is a Danish rower. She holds the record of 9 national titles."
    assert eager.verify(fact, [ev(text)]).status == Status.SUPPORTED


def test_a_relation_worded_otherwise_needs_the_cards_entailed_threshold() -> None:
    judge = FixedEntailment(0.4)
    judge.thresholds = Thresholds(entailed=0.6, supports=0.3)
    verifier = AlignmentVerifier(entailment=judge)  # type: ignore[arg-type]
    fact = Fact(subject="The Koru Bridge", relation="was built in", object="the 12th century")
    worded = "The Koru Bridge was built in the 12th century over the river Wend."
    otherwise = "The Koru Bridge is a 12th-century stone crossing over the river Wend."
    assert verifier.verify(fact, [ev(worded)]).status == Status.SUPPORTED
    assert verifier.verify(fact, [ev(otherwise)]).status != Status.SUPPORTED
    judge.row[:] = [0.7, 0.3, 0.0]
    assert verifier.verify(fact, [ev(otherwise)]).status == Status.SUPPORTED


def test_another_relations_word_before_the_object_is_refused(eager: AlignmentVerifier) -> None:
    fact = Fact(subject="Pell Arno", relation="was born in", object="Ghent")
    for text in (
        "Pell Arno died in Ghent after a long illness.",
        "Pell Arno was entombed in Ghent beside his brother.",
        "Pell Arno was a painter. He was celebrated in Ghent in his lifetime.",
    ):
        assert eager.verify(fact, [ev(text)]).status != Status.SUPPORTED, text


def test_a_window_stating_neither_relation_nor_object_is_refused(
    eager: AlignmentVerifier,
) -> None:
    fact = Fact(subject="Pell Arno", relation="was born in", object="the old port district")
    text = "Pell Arno painted the harbour at dawn."
    assert eager.verify(fact, [ev(text)]).status != Status.SUPPORTED


def test_a_qualifier_date_is_never_inferred_by_the_judge(eager: AlignmentVerifier) -> None:
    fact = Fact(
        subject="Hana Lisk",
        relation="served on",
        object="the city council",
        qualifiers=[Qualifier(label="end time", value="Hana Lisk's retirement in 2004")],
    )
    text = (
        "Hana Lisk served on the city council. She retired from politics in 2009, and the "
        "council hall was renamed in 2004."
    )
    verdict = eager.verify(fact, [ev(text)])
    assert verdict.unit_verdicts[1].status != Status.SUPPORTED


def test_unsure_judge_leaves_the_unit_insufficient() -> None:
    verifier = AlignmentVerifier(entailment=FixedEntailment(0.3, 0.5))  # type: ignore[arg-type]
    fact = Fact(subject="The Rhine", relation="meets", object="the North Sea")
    verdict = verifier.verify(fact, [ev("The Rhine reaches the North Sea near Rotterdam.")])
    assert verdict.status == Status.INSUFFICIENT
