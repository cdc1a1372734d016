"""The entailment judge as a second opinion on an LLM judge's "supported" units."""

from __future__ import annotations

from collections.abc import Sequence

from tests.test_offline_judge import FixedEntailment
from triqua.context import Context
from triqua.core.verify_batches import BatchItem
from triqua.engines.base import BatchJudgeResult, Judge, JudgeResult
from triqua.engines.factory import engine, model_key, register_model
from triqua.engines.offline.entailment import shipped_revision
from triqua.engines.second_opinion import SecondOpinionJudge
from triqua.schema import Evidence, Fact, FactUnit, Status, UnitVerdict, Verdict
from triqua.testing import ScriptedChatModel

PASSAGE = "Albert Einstein was born in Ulm in 1879. He later moved to Munich."
EVIDENCE = Evidence.build(document_id="d1", text=PASSAGE, retriever="supplied")
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


def test_supported_unit_the_judge_finds_not_entailed_is_withheld() -> None:
    model = FixedEntailment(0.01)
    judge = SecondOpinionJudge(CitingJudge("born in Ulm"), "shipped", model=model)  # type: ignore[arg-type]
    verdict = judge.verify(FOOTBALLER, [EVIDENCE]).verdict
    assert verdict.status == Status.INSUFFICIENT
    unit = verdict.unit_verdicts[0]
    assert unit.status == Status.INSUFFICIENT and unit.quote is None
    assert unit.grounding is not None and "does not state it" in unit.grounding
    # The quote was read in its whole sentence, against the unit written as a sentence.
    assert model.asked == [
        ("Albert Einstein was born in Ulm in 1879.", "Albert Einstein was a footballer.")
    ]
    assert judge.revision == "citing" and judge.second_opinion == "fixed-0.01-0.0"


def test_entailed_support_is_kept_and_closed_book_is_not_reviewed() -> None:
    model = FixedEntailment(0.9)
    judge = SecondOpinionJudge(CitingJudge("born in Ulm"), "shipped", model=model)  # type: ignore[arg-type]
    born = Fact(subject="Albert Einstein", relation="was born in", object="Ulm")
    assert judge.verify(born, [EVIDENCE]).verdict.status == Status.SUPPORTED
    sceptic = SecondOpinionJudge(CitingJudge("x"), "shipped", model=FixedEntailment(0.0))  # type: ignore[arg-type]
    assert sceptic.verify(born, [], closed_book=True).verdict.status == Status.SUPPORTED


def test_batched_verdicts_are_reviewed_one_by_one() -> None:
    model = FixedEntailment(0.01)
    judge = SecondOpinionJudge(CitingJudge("born in Ulm"), "shipped", model=model)  # type: ignore[arg-type]
    assert judge.batched
    items = [BatchItem(fact=FOOTBALLER, evidence=(EVIDENCE,))] * 2
    results = judge.verify_batch(items).results
    assert [r.verdict.status for r in results if r is not None] == [Status.INSUFFICIENT] * 2


def test_a_quote_not_in_the_cited_passage_is_left_to_the_grounding_rule() -> None:
    model = FixedEntailment(0.0)
    judge = SecondOpinionJudge(CitingJudge("made up words"), "shipped", model=model)  # type: ignore[arg-type]
    verdict = judge.verify(FOOTBALLER, [EVIDENCE]).verdict
    assert verdict.status == Status.SUPPORTED and model.asked == []


def test_llm_judges_get_the_second_opinion_unless_rules_are_asked_for() -> None:
    name = register_model("second-opinion-test", ScriptedChatModel(responder=lambda *_: "{}"))
    wrapped = engine(model_key(Context(model=name), "verify"))
    assert isinstance(wrapped, SecondOpinionJudge)
    assert wrapped.second_opinion == shipped_revision()
    assert "|verifier=" in model_key(Context(model=name), "verify").model_id
    plain = engine(model_key(Context(model=name, verifier="rules"), "verify"))
    assert not isinstance(plain, SecondOpinionJudge)


def test_a_quote_holding_every_word_of_the_unit_is_not_second_guessed() -> None:
    model = FixedEntailment(0.0)
    judge = SecondOpinionJudge(CitingJudge("born in Ulm"), "shipped", model=model)  # type: ignore[arg-type]
    born = Fact(subject="Albert Einstein", relation="was born in", object="Ulm")
    assert judge.verify(born, [EVIDENCE]).verdict.status == Status.SUPPORTED
    assert model.asked == []
