"""Evaluation metrics on small hand-made inputs with known answers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from triqua.context import Context
from triqua.evals.claims import ClaimOutcome, claim_status, direct_facts
from triqua.evals.claims_summary import summarize_claims
from triqua.evals.diagnostics import DecomposedText, decomposition_stats
from triqua.evals.factscore import BioResult, summarize_bios
from triqua.evals.guard import (
    COMPLEX_SHARE,
    CostEstimate,
    complex_share,
    confirm,
    count_sentences,
    estimate_cost,
)
from triqua.schema import Fact, Qualifier, Status, UnitVerdict, Verdict

FRANCE = Fact(
    subject="France",
    relation="has population",
    object="64.5 million",
    qualifiers=[Qualifier(label="point in time", value="2026")],
)
PARIS = Fact(subject="Paris", relation="is capital of", object="France")


def _bio(topic: str, status: str, gold: float | None = None, **scores: float) -> BioResult:
    return BioResult(topic=topic, status=status, gold=gold, **scores)  # type: ignore[arg-type]


def test_summarize_bios_known_correlations_and_counts() -> None:
    results = [
        _bio("a", "scored", 0.0, triqua_score=0.1, claim_level_score=0.0, no_dedup_score=0.1),
        _bio("b", "scored", 0.5, triqua_score=0.5, claim_level_score=1.0, no_dedup_score=0.5),
        _bio("c", "scored", 1.0, triqua_score=0.9, claim_level_score=0.5, no_dedup_score=0.9),
        _bio("d", "undefined", 0.2),
        _bio("e", "declined"),
        _bio("f", "no_gold"),
        _bio("g", "no_evidence", 0.8),
        _bio("h", "error", 0.4),
    ]
    summary = summarize_bios(results)
    assert summary["counts"] == {
        "scored": 3,
        "declined": 1,
        "no_gold": 1,
        "no_evidence": 1,
        "undefined": 1,
        "error": 1,
    }
    triqua = summary["variants"]["triqua_score"]
    assert triqua["n"] == 3
    assert triqua["pearson"] == pytest.approx(1.0)
    assert triqua["spearman"] == pytest.approx(1.0)
    assert triqua["mae"] == pytest.approx(0.2 / 3)
    assert triqua["mean"] == pytest.approx(0.5)
    claim = summary["variants"]["claim_level_score"]
    assert claim["pearson"] == pytest.approx(0.5)
    assert claim["spearman"] == pytest.approx(0.5)
    assert claim["mae"] == pytest.approx(1 / 3)
    assert summary["mean_gold_scored"] == pytest.approx(0.5)
    # Every bio with a gold score: 0, 0.5, 1, 0.2, 0.8, 0.4.
    assert summary["mean_gold_eligible"] == pytest.approx(2.9 / 6)


def test_summarize_bios_constant_predictions_have_no_correlation() -> None:
    results = [_bio(t, "scored", g, triqua_score=0.0) for t, g in (("a", 0.2), ("b", 0.9))]
    triqua = summarize_bios(results)["variants"]["triqua_score"]
    assert triqua["pearson"] is None and triqua["spearman"] is None
    assert triqua["mae"] == pytest.approx(0.55)


def _verdict(status: Status, **fields: object) -> Verdict:
    return Verdict(status=status, **fields)  # type: ignore[arg-type]


def test_claim_supported_only_when_every_unit_is() -> None:
    supported = _verdict(Status.SUPPORTED)
    assert claim_status([(PARIS, supported), (FRANCE, supported)]) is Status.SUPPORTED
    insufficient = _verdict(Status.INSUFFICIENT, error_spans=["2026"])
    assert claim_status([(PARIS, supported), (FRANCE, insufficient)]) is Status.INSUFFICIENT


def test_claim_contradicted_when_any_unit_is() -> None:
    wrong_year = _verdict(
        Status.INSUFFICIENT,
        unit_verdicts=[
            UnitVerdict(unit=FRANCE.triple_text, kind="base", status=Status.INSUFFICIENT),
            UnitVerdict(unit="(point in time, 2026)", kind="qualifier", status=Status.CONTRADICTED),
        ],
    )
    assert claim_status([(PARIS, _verdict(Status.SUPPORTED)), (FRANCE, wrong_year)]) is (
        Status.CONTRADICTED
    )


def test_claim_without_checkable_units_is_insufficient() -> None:
    assert claim_status([]) is Status.INSUFFICIENT
    assert claim_status([(PARIS, _verdict(Status.NOT_CHECKABLE))]) is Status.INSUFFICIENT


def _outcome(i: int, gold: str, triqua: str, direct: str, **fields: object) -> ClaimOutcome:
    return ClaimOutcome(index=i, gold=gold, triqua=triqua, direct=direct, **fields)  # type: ignore[arg-type]


def test_summarize_claims_confusion_and_partial_bands() -> None:
    sup, con, ins = "supported", "contradicted", "insufficient_evidence"
    outcomes = [
        _outcome(1, sup, sup, sup, facts=2),
        _outcome(2, sup, ins, sup, facts=1),
        _outcome(3, con, con, ins, facts=1),
        _outcome(4, ins, ins, ins, facts=0),
        _outcome(5, "partial", ins, sup, triqua_score=0.5, facts=2),
        _outcome(6, "partial", sup, sup, triqua_score=1.0, facts=1),
        _outcome(7, "partial", ins, ins, triqua_score=None, facts=0),
        _outcome(8, sup, "", "", error="boom"),
    ]
    summary = summarize_claims(outcomes)
    assert summary["rows"] == 8 and summary["errors"] == 1 and summary["three_way_rows"] == 4
    triqua = summary["systems"]["triqua"]
    assert triqua["confusion_matrix"] == [[1, 0, 1], [0, 1, 0], [0, 0, 1]]
    assert triqua["balanced_accuracy"] == pytest.approx((0.5 + 1 + 1) / 3)
    assert triqua["per_class"]["insufficient_evidence"]["precision"] == pytest.approx(0.5)
    direct = summary["systems"]["direct"]
    assert direct["confusion_matrix"] == [[2, 0, 0], [0, 0, 1], [0, 0, 1]]
    assert direct["per_class"]["contradicted"]["f1"] == 0.0
    partial = summary["partial"]
    assert partial["rows"] == 3
    assert partial["triqua_score_bands"] == {"undefined": 1, "0": 0, "between": 1, "1": 1}
    assert partial["between_share"] == pytest.approx(1 / 3)
    assert partial["direct"] == {sup: 2, con: 0, ins: 1}
    assert summary["claims_without_facts"] == 2
    assert summary["facts_per_claim"] == pytest.approx(7 / 7)


def test_decomposition_stats_by_hand() -> None:
    simple = Fact(subject="Ada", relation="wrote", object="notes")
    twice = Fact(subject="ada", relation="Wrote", object="notes.")  # same unit after normalising
    dated = Fact(
        subject="Ada",
        relation="met",
        object="Babbage",
        qualifiers=[
            Qualifier(label="point in time", value="1833"),
            Qualifier(label="location", value="London"),
        ],
    )
    other = Fact(
        subject="Alan",
        relation="joined",
        object="Bletchley Park",
        qualifiers=[Qualifier(label="Point in time!", value="1939")],
    )
    stats = decomposition_stats(
        [DecomposedText((simple, dated, twice), 2), DecomposedText((other,), 2)]
    )
    assert stats["facts"] == 4 and stats["sentences"] == 4
    assert stats["facts_per_sentence"] == pytest.approx(1.0)
    assert (stats["simple_facts"], stats["complex_facts"]) == (2, 2)
    assert stats["complex_share"] == pytest.approx(0.5)
    assert stats["qualifiers_per_complex_fact"] == pytest.approx(1.5)
    assert stats["complex_by_qualifier_count"] == {"1": 1, "2": 1}
    assert stats["qualifier_labels"][0] == {
        "label": "point in time",
        "count": 2,
        "share": pytest.approx(2 / 3),
    }
    assert (stats["units_raw"], stats["units_dedup"]) == (7, 6)
    assert stats["dedup_removed_share"] == pytest.approx(1 / 7)


def test_decomposition_stats_of_nothing_are_undefined() -> None:
    stats = decomposition_stats([])
    assert stats["facts_per_sentence"] is None and stats["complex_share"] is None


@pytest.mark.slow
def test_direct_fact_keeps_the_whole_claim_in_one_triple() -> None:
    claim = "In 1980, the oldest justice on the Supreme Court was William O. Douglas."
    no_subject = "Over 300 people."
    fact, fallback = direct_facts([claim, no_subject])
    assert fact.subject == "the oldest justice on the Supreme Court"
    assert fact.relation == "was"
    assert "1980" in fact.object and "William O. Douglas" in fact.object
    assert not fact.qualifiers
    assert (fallback.subject, fallback.relation, fallback.object) == (no_subject, "", "")


def test_count_sentences_errs_high() -> None:
    assert count_sentences("") == 0
    assert count_sentences("One. Two! Three?") == 3
    assert count_sentences("No end punctuation") == 1
    assert count_sentences("Dr. Who left. Done") == 3


def test_estimate_cost_with_a_model_by_hand() -> None:
    context = Context(model="instance:estimate", reverify_rounds=2, chunk_size=300)
    texts = ["One. Two.", "Three!"]
    # 3 sentences -> 9 facts; 2 chunks; verify 9 x (1 + 0.357 x 2) = 15.426; refine
    # 9 x 0.714 = 6.426; 23.852 in all.
    estimate = estimate_cost(texts, context, retriever="supplied")
    assert (estimate.sentences, estimate.facts) == (3, 9)
    assert estimate.model_calls == 24 and estimate.searches == 0
    assert not estimate.offline
    with_baseline = estimate_cost(texts, context, retriever="supplied", extra_calls_per_text=1)
    assert with_baseline.model_calls == 26
    # Web search: min(budget, round(sentences x 3 x 1.714)) per text -> 10 + 5.
    assert estimate_cost(texts, context, retriever="tavily").searches == 15
    capped = Context(model="instance:estimate", max_searches=4)
    assert estimate_cost(texts, capped, retriever="tavily").searches == 8
    assert estimate_cost(texts, context, retriever="tavily", verify=False).model_calls == 2


def test_the_estimate_routes_facts_as_the_run_will() -> None:
    texts = ["One. Two.", "Three!"]
    every = Context(model="instance:estimate", reverify_rounds=2, routing="always_element")
    # Every fact complex: verify 9 x (1 + 2) = 27, refine 9 x 2 = 18, 2 chunks.
    assert estimate_cost(texts, every, retriever="supplied").model_calls == 47
    assert estimate_cost(texts, every, retriever="tavily").searches == 18 + 9
    none = Context(model="instance:estimate", reverify_rounds=2, routing="never_reverify")
    assert estimate_cost(texts, none, retriever="supplied").model_calls == 9 + 2
    assert complex_share(Context()) == COMPLEX_SHARE


def test_the_assumed_complex_share_is_the_one_routing_measured_on_the_bios() -> None:
    fidelity = (Path(__file__).resolve().parents[1] / "docs" / "fidelity.md").read_text("utf-8")
    measured = re.search(r"([\d.]+) % of facts complex at δ = 3", fidelity)
    assert measured is not None
    assert float(measured.group(1)) == pytest.approx(COMPLEX_SHARE * 100)


def test_offline_engine_costs_no_model_calls_and_never_asks() -> None:
    estimate = estimate_cost(["A long text. " * 500], Context(model=None), retriever="supplied")
    assert estimate.offline and estimate.model_calls == 0 and estimate.searches == 0
    asked: list[str] = []
    go = confirm(
        estimate,
        threshold=0,
        assume_yes=False,
        ask=lambda q: bool(asked.append(q)),
        say=lambda _: None,
    )
    assert go and asked == []


def test_confirm_asks_only_above_the_threshold() -> None:
    costly = CostEstimate(texts=1, sentences=1, facts=3, model_calls=300, searches=0, offline=False)
    said: list[str] = []
    assert not confirm(
        costly, threshold=200, assume_yes=False, ask=lambda q: False, say=said.append
    )
    assert said and "300 model calls" in said[0]
    assert confirm(costly, threshold=200, assume_yes=True, ask=lambda q: False, say=said.append)
    assert confirm(costly, threshold=300, assume_yes=False, ask=lambda q: False, say=said.append)
