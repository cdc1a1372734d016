"""The entailment judge as the grounding rule's reader of an LLM judge's "supported" units."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tests.test_offline_judge import FixedEntailment
from triqua.context import Context, GroundingMode
from triqua.core.plan.verify_batches import BatchItem
from triqua.core.verdicts.settling import settle
from triqua.engines.base import BatchJudgeResult, Judge, JudgeResult
from triqua.engines.factory import engine, model_key, register_model
from triqua.engines.second_opinion import SecondOpinionJudge
from triqua.models.entailment import shipped_revision
from triqua.schema import Evidence, Fact, FactUnit, Status, UnitVerdict, Verdict
from triqua.testing import ScriptedChatModel

PASSAGE = "Albert Einstein was born in Ulm in 1879. He later moved to Munich."
EVIDENCE = Evidence.build(document_id="d1", text=PASSAGE, retriever="supplied")
BORN = "Albert Einstein was born in Ulm"
FOOTBALLER = Fact(subject="Albert Einstein", relation="was", object="a footballer")


class CitingJudge(Judge):
    """An LLM-like judge that calls every fact supported, quoting ``quote`` from d1."""

    revision = "citing"
    batched = True

    def __init__(self, quote: str) -> None:
        self.quote = quote

    def verify(
        self,
        fact: Fact,
        evidence: Sequence[Evidence],
        *,
        units: Sequence[FactUnit] | None = None,
        closed_book: bool = False,
    ) -> JudgeResult:
        unit = UnitVerdict(
            unit=fact.units()[0].text,
            kind="base",
            status=Status.SUPPORTED,
            evidence_ids=[EVIDENCE.id],
            quote=self.quote,
        )
        verdict = Verdict(
            status=Status.SUPPORTED,
            unit_verdicts=[unit],
            evidence_ids=[EVIDENCE.id],
            quote=self.quote,
            basis="parametric" if closed_book else "evidence",
            judge=self.revision,
        )
        return JudgeResult(verdict=verdict)

    def verify_batch(
        self, items: Sequence[BatchItem], *, closed_book: bool = False
    ) -> BatchJudgeResult:
        return BatchJudgeResult(
            results=[self.verify(i.fact, i.evidence, closed_book=closed_book) for i in items]
        )


def judged(
    judge: Judge, fact: Fact, *, closed_book: bool = False, grounding: GroundingMode = "judge"
) -> Verdict:
    """The judge's verdict as a run stores it: settled with the judge's reader."""
    evidence = [] if closed_book else [EVIDENCE]
    result = judge.verify(fact, evidence, closed_book=closed_book)
    return settle(fact, result.verdict, evidence, reader=judge.reader, grounding=grounding)


@pytest.mark.parametrize(
    ("grounding", "reason"),
    [
        ("strict", "does not state 'footballer'"),
        ("judge", "finds the cited text not entailing it (0.01 < 0.50)"),
    ],
)
def test_supported_unit_the_judge_finds_not_entailed_is_withheld(
    grounding: GroundingMode, reason: str
) -> None:
    model = FixedEntailment(0.01)
    judge = SecondOpinionJudge(CitingJudge(BORN), "shipped", model=model)  # type: ignore[arg-type]
    verdict = judged(judge, FOOTBALLER, grounding=grounding)
    assert verdict.status == Status.INSUFFICIENT
    unit = verdict.unit_verdicts[0]
    assert unit.status == Status.INSUFFICIENT and unit.quote is None
    assert unit.grounding is not None
    assert reason in unit.grounding
    window = ("Albert Einstein was born in Ulm in 1879.", "Albert Einstein was a footballer.")
    if grounding == "judge":
        # The quote was read in its whole sentence, which names the subject.
        assert model.asked == [window]
        return
    assert "not entailed (0.01" in unit.grounding
    # The quote was read in its whole sentence (and with the next one, which refers back
    # to the subject), against the unit written as a sentence.
    assert model.asked == [window, (PASSAGE, "Albert Einstein was a footballer.")]
    assert judge.revision == "citing" and judge.second_opinion == "fixed-0.01-0.0"


def test_entailed_paraphrase_is_kept_and_closed_book_is_not_read() -> None:
    model = FixedEntailment(0.9)
    judge = SecondOpinionJudge(CitingJudge(BORN), "shipped", model=model)  # type: ignore[arg-type]
    native = Fact(subject="Albert Einstein", relation="hailed from", object="Ulm")
    assert judged(judge, native).status == Status.SUPPORTED
    assert model.asked  # "native" is a paraphrase the reader had to read
    sceptic = SecondOpinionJudge(CitingJudge("x"), "shipped", model=FixedEntailment(0.0))  # type: ignore[arg-type]
    assert judged(sceptic, native, closed_book=True).status == Status.SUPPORTED


def test_batched_verdicts_are_read_one_by_one() -> None:
    model = FixedEntailment(0.01)
    judge = SecondOpinionJudge(CitingJudge(BORN), "shipped", model=model)  # type: ignore[arg-type]
    assert judge.batched
    items = [BatchItem(fact=FOOTBALLER, evidence=(EVIDENCE,))] * 2
    results = judge.verify_batch(items).results
    statuses = [
        settle(FOOTBALLER, r.verdict, [EVIDENCE], reader=judge.reader).status
        for r in results
        if r is not None
    ]
    assert statuses == [Status.INSUFFICIENT] * 2


def test_a_quote_not_in_the_cited_passage_is_refused_before_reading() -> None:
    model = FixedEntailment(1.0)
    judge = SecondOpinionJudge(CitingJudge("made up words"), "shipped", model=model)  # type: ignore[arg-type]
    verdict = judged(judge, FOOTBALLER)
    assert verdict.status == Status.INSUFFICIENT and model.asked == []
    assert "quote not found" in (verdict.grounding or "")


def test_without_a_reader_every_content_word_must_be_stated() -> None:
    verdict = judged(CitingJudge(BORN), FOOTBALLER)
    assert verdict.status == Status.INSUFFICIENT
    assert "does not state 'footballer'" in (verdict.grounding or "")


def test_llm_judges_get_the_second_opinion_unless_rules_are_asked_for() -> None:
    name = register_model("second-opinion-test", ScriptedChatModel(responder=lambda *_: "{}"))
    wrapped = engine(model_key(Context(model=name), "verify"))
    assert isinstance(wrapped, SecondOpinionJudge)
    assert wrapped.second_opinion == shipped_revision()
    assert "|verifier=" in model_key(Context(model=name), "verify").model_id
    plain = engine(model_key(Context(model=name, verifier="rules"), "verify"))
    assert not isinstance(plain, SecondOpinionJudge)


def test_a_quote_holding_every_word_of_the_unit_is_not_second_guessed_when_strict() -> None:
    model = FixedEntailment(0.0)
    judge = SecondOpinionJudge(CitingJudge(BORN), "shipped", model=model)  # type: ignore[arg-type]
    born = Fact(subject="Albert Einstein", relation="was born in", object="Ulm")
    assert judged(judge, born, grounding="strict").status == Status.SUPPORTED
    assert model.asked == []  # every word stated: the reader is not asked
    # The default rule reads meaning, not words: the judge decides, and here finds nothing.
    assert judged(judge, born).status == Status.INSUFFICIENT
    assert model.asked
