"""Evaluation statistics by their definitions, each on a small example worked out by hand."""

from __future__ import annotations

import pytest

from triqua.evals.claims import ClaimOutcome, claim_confidence
from triqua.evals.claims_summary import summarize_claims
from triqua.evals.factscore import BioResult, summarize_bios
from triqua.evals.plots import calibration_svg
from triqua.evals.stats import (
    calibration_table,
    coverage_overall,
    definite_coverage_overall,
    f1_at_k,
    per_fact_rates,
)
from triqua.schema import ClaimRecord, Fact, Qualifier, ReverifyRound, Status, UnitVerdict, Verdict

S, C, N = "supported", "contradicted", "insufficient_evidence"


def test_calibration_table_by_hand() -> None:
    # Four bins of width 0.25.
    # [0, 0.25):   0.05 wrong, 0.15 right, 0.15 wrong -> n 3, mean conf 0.35/3, accuracy 1/3
    # [0.25, 0.75): empty (two bins)
    # [0.75, 1]:   0.85, 0.95, 0.95 right, 0.95 wrong, 1.0 right -> n 5, mean conf 4.7/5 = 0.94,
    #              accuracy 4/5 = 0.8 (1.0 falls in the last bin)
    # ECE = 3/8 * |1/3 - 0.35/3| + 5/8 * |0.8 - 0.94| = 0.08125 + 0.0875 = 0.16875
    table = calibration_table(
        [0.05, 0.15, 0.15, 0.85, 0.95, 0.95, 0.95, 1.0],
        [False, True, False, True, True, True, False, True],
        bins=4,
    )
    counts = [b["count"] for b in table["bins"]]
    assert counts == [3, 0, 0, 5]
    first, second, _, last = table["bins"]
    assert (first["lower"], first["upper"]) == (0.0, 0.25)
    assert first["mean_confidence"] == pytest.approx(0.35 / 3)
    assert first["accuracy"] == pytest.approx(1 / 3)
    assert second["accuracy"] is None and second["mean_confidence"] is None
    assert last["mean_confidence"] == pytest.approx(0.94)
    assert last["accuracy"] == pytest.approx(0.8)
    assert table["ece"] == pytest.approx(0.16875)
    assert table["n"] == 8
    assert table["accuracy"] == pytest.approx(5 / 8)


def test_calibration_of_a_perfectly_calibrated_judge_is_zero() -> None:
    # Ten items at confidence 0.7 (bin [0.7, 0.8)), seven right: accuracy 0.7 = confidence.
    table = calibration_table([0.7] * 10, [True] * 7 + [False] * 3, bins=10)
    assert table["ece"] == pytest.approx(0.0)
    assert table["bins"][7]["count"] == 10


def test_calibration_bins_survive_floating_point() -> None:
    # 0.57 * 100 is 56.99999999999999 in floating point; it still belongs to [0.57, 0.58).
    table = calibration_table([0.57], [True], bins=100)
    assert table["bins"][57]["count"] == 1


def test_calibration_plot_draws_a_bar_per_filled_bin() -> None:
    table = calibration_table([0.05, 0.95, 0.95], [False, True, False], bins=4)
    svg = calibration_svg(table["bins"], title="judge", subtitle="n=3")
    # Two filled bins: two bars (plus the frame and background rectangles), two mean dots.
    assert svg.count('fill-opacity="0.55"') == 2
    assert svg.count("<circle") == 2
    assert svg.startswith("<svg") and "judge" in svg


def test_calibration_table_empty_and_invalid() -> None:
    empty = calibration_table([], [])
    assert empty["n"] == 0 and empty["ece"] is None
    assert all(b["count"] == 0 for b in empty["bins"])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        calibration_table([1.2], [True])
    with pytest.raises(ValueError, match="correctness"):
        calibration_table([0.5], [True, False])
    with pytest.raises(ValueError, match="bins"):
        calibration_table([0.5], [True], bins=0)


def test_elementcheck_coverage_and_overall_by_hand() -> None:
    # Six rows, binary labels (s: supported, n: not supported); row #4 and #5 gave the
    # checker no fact, so they are not covered whatever their label: coverage 4/6.
    # Covered: #0 s/s, #1 s/n, #2 n/n, #3 n/n -> recall(s) 1/2, recall(n) 2/2 -> BA 0.75.
    # Overall = 4/6 * 0.75 = 0.5. "Not supported" verdicts are covered, not abstentions.
    gold = ["s", "s", "n", "n", "s", "n"]
    pred = ["s", "n", "n", "n", "n", "n"]
    covered = [True, True, True, True, False, False]
    result = coverage_overall(gold, pred, covered)
    assert (result["n"], result["covered"]) == (6, 4)
    assert result["coverage"] == pytest.approx(4 / 6)
    assert result["balanced_accuracy"] == pytest.approx(0.75)
    assert result["overall"] == pytest.approx(0.5)
    nothing = coverage_overall(["s"], ["n"], [False])
    assert nothing["coverage"] == 0.0 and nothing["overall"] is None
    with pytest.raises(ValueError, match="coverage flags"):
        coverage_overall(["s"], ["n"], [])


def test_definite_coverage_and_overall_by_hand() -> None:
    # Eight cases with a definite gold label; three predictions abstain (N: not enough evidence).
    # Covered: #0 S/S, #1 S/S, #3 C/C, #4 C→S, #7 C/C -> coverage 5/8 = 0.625.
    # Among covered: recall(S) = 2/2 = 1, recall(C) = 2/3 -> balanced accuracy 5/6.
    # Overall = 0.625 * 5/6 = 0.5208333...
    gold = [S, S, S, C, C, C, S, C]
    pred = [S, S, N, C, S, N, N, C]
    result = definite_coverage_overall(gold, pred, (S, C))
    assert (result["n"], result["covered"]) == (8, 5)
    assert result["coverage"] == pytest.approx(0.625)
    assert result["balanced_accuracy"] == pytest.approx(5 / 6)
    assert result["overall"] == pytest.approx(0.625 * 5 / 6)


def test_definite_coverage_when_everything_abstains() -> None:
    result = definite_coverage_overall([S, C], [N, N], (S, C))
    assert result["coverage"] == 0.0
    assert result["balanced_accuracy"] is None and result["overall"] is None
    with pytest.raises(ValueError, match="not definite"):
        definite_coverage_overall([N], [S], (S, C))


def test_trigger_counts_a_fact_only_when_a_round_judged_it() -> None:
    fact = Fact(subject="Marie Curie", relation="won", object="the Nobel Prize")
    verdict = Verdict(status=Status.INSUFFICIENT)
    stopped = ReverifyRound(round=1, units=["(Marie Curie, won, the Nobel Prize)"], queries=[])
    judged = stopped.model_copy(
        update={
            "unit_verdicts": [
                UnitVerdict(unit=fact.units()[0].text, kind="base", status=Status.INSUFFICIENT)
            ]
        }
    )
    record = ClaimRecord(claim_id="c", claim_text=fact.to_string(), fact=fact, verdict=verdict)
    assert not record.rejudged
    assert not record.model_copy(update={"rounds": [stopped]}).rejudged
    assert record.model_copy(update={"rounds": [stopped, judged]}).rejudged


def test_f1_at_k_by_hand_with_the_median_k() -> None:
    # Totals 4, 2, 8, 10 -> median K = (4 + 8) / 2 = 6.
    # #1: P 3/4, R 3/6 = 0.5       -> F1 = 2 * 0.75 * 0.5 / 1.25 = 0.6
    # #2: no supported fact        -> 0
    # #3: P 6/8, R min(6/6, 1) = 1 -> 2 * 0.75 / 1.75 = 0.857142...
    # #4: P 2/10, R 2/6            -> 2 * 0.2 * (1/3) / (0.2 + 1/3) = 0.25
    # mean = (0.6 + 0 + 6/7 + 0.25) / 4 = 0.4267857...
    result = f1_at_k([3, 0, 6, 2], [4, 2, 8, 10])
    assert result["k"] == 6.0
    assert result["per_response"] == pytest.approx([0.6, 0.0, 6 / 7, 0.25])
    assert result["mean"] == pytest.approx((0.6 + 6 / 7 + 0.25) / 4)


def test_f1_at_k_with_a_set_k() -> None:
    # K = 2: recall is 1 for every response with at least 2 supported facts.
    # #1: P 0.75 -> 2 * 0.75 / 1.75 = 6/7; #3 the same; #4: P 0.2 -> 0.4 / 1.2 = 1/3.
    result = f1_at_k([3, 0, 6, 2], [4, 2, 8, 10], k=2)
    assert result["per_response"] == pytest.approx([6 / 7, 0.0, 6 / 7, 1 / 3])
    assert result["mean"] == pytest.approx((12 / 7 + 1 / 3) / 4)


def test_f1_at_k_undefined_and_invalid() -> None:
    # Median of 0, 0, 3 is 0: no K, so no F1@K.
    assert f1_at_k([0, 0, 1], [0, 0, 3])["mean"] is None
    with pytest.raises(ValueError, match="between 0"):
        f1_at_k([3], [2])
    with pytest.raises(ValueError, match="positive"):
        f1_at_k([1], [2], k=0)


def test_per_fact_rates_by_hand() -> None:
    # 8 facts, 2 re-verified, 12 model calls, 4 searches -> 0.25, 1.5, 0.5.
    rates = per_fact_rates(8, reverified=2, model_calls=12, search_calls=4)
    assert rates == {
        "facts": 8,
        "reverify_trigger_rate": 0.25,
        "model_calls_per_fact": 1.5,
        "search_calls_per_fact": 0.5,
    }
    # A path that never re-verifies has no trigger rate (not a rate of 0).
    assert (
        per_fact_rates(8, reverified=None, model_calls=0, search_calls=0)["reverify_trigger_rate"]
        is None
    )
    assert (
        per_fact_rates(0, reverified=0, model_calls=0, search_calls=0)["model_calls_per_fact"]
        is None
    )


PARIS = Fact(subject="Paris", relation="is capital of", object="France")
FRANCE = Fact(
    subject="France",
    relation="has population",
    object="64.5 million",
    qualifiers=[Qualifier(label="point in time", value="2026")],
)
LYON = Fact(subject="Lyon", relation="is in", object="France")


def _wrong_year(confidence: float | None) -> Verdict:
    return Verdict(
        status=Status.INSUFFICIENT,
        confidence=confidence,
        unit_verdicts=[
            UnitVerdict(unit=FRANCE.triple_text, kind="base", status=Status.SUPPORTED),
            UnitVerdict(unit="(point in time, 2026)", kind="qualifier", status=Status.CONTRADICTED),
        ],
    )


def test_claim_confidence_follows_the_deciding_facts() -> None:
    # Supported needs both facts: the weaker one (0.7) bounds it.
    supported = [
        (PARIS, Verdict(status=Status.SUPPORTED, confidence=0.9)),
        (FRANCE, Verdict(status=Status.SUPPORTED, confidence=0.7)),
    ]
    assert claim_confidence(supported, Status.SUPPORTED) == 0.7
    # Contradicted needs one contradicted unit: FRANCE (0.8) and LYON (0.6) each have one,
    # PARIS (0.95, supported) does not decide it -> the strongest of 0.8 and 0.6.
    contradicted = [
        (PARIS, Verdict(status=Status.SUPPORTED, confidence=0.95)),
        (FRANCE, _wrong_year(0.8)),
        (LYON, Verdict(status=Status.CONTRADICTED, confidence=0.6)),
    ]
    assert claim_confidence(contradicted, Status.CONTRADICTED) == 0.8
    # A deciding fact without a confidence leaves the claim's confidence unknown.
    assert claim_confidence([(FRANCE, _wrong_year(None))], Status.CONTRADICTED) is None
    assert claim_confidence([], Status.INSUFFICIENT) is None


def _outcome(i: int, gold: str, triqua: str, direct: str, **fields: object) -> ClaimOutcome:
    return ClaimOutcome(index=i, gold=gold, triqua=triqua, direct=direct, **fields)  # type: ignore[arg-type]


def test_summarize_claims_binary_coverage_calibration_and_cost() -> None:
    outcomes = [
        _outcome(1, S, S, S, facts=2, triqua_confidence=0.9, reverified=1, model_calls=3),
        _outcome(2, S, N, S, facts=1, triqua_confidence=0.6, reverified=0, model_calls=2),
        _outcome(3, C, C, N, facts=1, triqua_confidence=0.8, reverified=1, model_calls=2),
        _outcome(4, N, N, N, facts=0, reverified=0, model_calls=1),
        _outcome(5, "partial", N, S, facts=2, reverified=0, model_calls=3, search_calls=2),
        _outcome(6, "partial", S, S, facts=1, reverified=0, model_calls=2),
        _outcome(7, "partial", N, N, facts=0, reverified=0, model_calls=1),
        _outcome(8, S, "", "", error="boom"),
    ]
    summary = summarize_claims(outcomes, bins=2)

    # Binary view, 4 three-way rows + 3 partial rows (gold: not supported).
    # gold      S S n n n n n      (n = not supported)
    # triqua    S n n n n S n  -> [[1, 1], [1, 4]]: recall S 1/2, recall n 4/5
    # direct    S S n n S S n  -> [[2, 0], [2, 3]]: recall S 1, recall n 3/5
    assert summary["binary_rows"] == 7
    triqua, direct = summary["binary"]["triqua"], summary["binary"]["direct"]
    assert triqua["labels"] == ["supported", "not_supported"]
    assert triqua["confusion_matrix"] == [[1, 1], [1, 4]]
    assert triqua["accuracy"] == pytest.approx(5 / 7)
    assert triqua["balanced_accuracy"] == pytest.approx((1 / 2 + 4 / 5) / 2)
    assert triqua["per_class"]["supported"]["f1"] == pytest.approx(0.5)
    assert direct["confusion_matrix"] == [[2, 0], [2, 3]]
    assert direct["per_class"]["supported"]["f1"] == pytest.approx(2 / 3)  # P 2/4, R 1

    # ElementCheck's Coverage over the 7 rows that did not fail: triqua had no fact in #4
    # and #7 -> covered 5/7; binary on covered (#1 S/S, #2 S/n, #3 n/n, #5 n/n, #6 n/S):
    # recall S 1/2, recall n 2/3 -> BA 7/12, Overall 5/7 * 7/12. The direct baseline
    # always has the claim to check: covered 7/7.
    coverage = summary["coverage"]["triqua"]
    assert (coverage["n"], coverage["covered"]) == (7, 5)
    assert coverage["balanced_accuracy"] == pytest.approx(7 / 12)
    assert coverage["overall"] == pytest.approx(5 / 7 * 7 / 12)
    assert summary["coverage"]["direct"]["covered"] == 7

    # The definite view, over rows with gold S or C (#1-#3). triqua: S, N, C -> covered
    # 2/3, both right (recall S = recall C = 1) -> Overall 2/3. direct: S, S, N -> 2/3.
    definite = summary["definite_coverage"]["triqua"]
    assert definite["coverage"] == pytest.approx(2 / 3)
    assert definite["balanced_accuracy"] == pytest.approx(1.0)
    assert definite["overall"] == pytest.approx(2 / 3)
    assert summary["definite_coverage"]["direct"]["covered"] == 2

    # Calibration on 3-way rows with a confidence (#4 has none). Two bins: 0.9 right,
    # 0.6 wrong, 0.8 right all fall in [0.5, 1]: mean 2.3/3, accuracy 2/3,
    # ECE = |2/3 - 2.3/3| = 0.1.
    calibration = summary["calibration"]["triqua"]
    assert calibration["without_confidence"] == 1
    assert [b["count"] for b in calibration["bins"]] == [0, 3]
    assert calibration["ece"] == pytest.approx(0.1)
    assert summary["calibration"]["direct"]["n"] == 0

    # Cost: 7 facts over the rows that ran, 2 re-verified, 14 model calls, 2 searches.
    assert summary["cost"] == {
        "facts": 7,
        "reverify_trigger_rate": pytest.approx(2 / 7),
        "model_calls_per_fact": pytest.approx(2.0),
        "search_calls_per_fact": pytest.approx(2 / 7),
    }


def test_claims_trigger_rate_is_undefined_when_the_path_never_reverifies() -> None:
    summary = summarize_claims([_outcome(1, S, S, S, facts=2), _outcome(2, C, C, C, facts=1)])
    assert summary["cost"]["reverify_trigger_rate"] is None
    assert summary["cost"]["model_calls_per_fact"] == 0.0


@pytest.mark.slow
def test_summarize_bios_f1_at_k_and_cost_over_checked_bios() -> None:
    def bio(topic: str, status: str, **fields: int) -> BioResult:
        return BioResult(topic=topic, status=status, gold=0.5, **fields)  # type: ignore[arg-type]

    results = [
        bio(
            "a",
            "scored",
            facts=5,
            facts_checkable=4,
            facts_supported=3,
            reverified=1,
            model_calls=7,
            search_calls=3,
        ),
        bio(
            "b",
            "scored",
            facts=8,
            facts_checkable=8,
            facts_supported=6,
            reverified=2,
            model_calls=10,
            search_calls=5,
        ),
        bio("c", "undefined", facts=1, facts_checkable=0, model_calls=1),
        bio("d", "error", facts_checkable=9, facts_supported=9, model_calls=4),
    ]
    # Checked bios a, b, c (d failed). K = 3 (set):
    # a: P 3/4, R 1 -> 2 * 0.75 / 1.75 = 6/7; b: P 6/8, R 1 -> 6/7; c: 0. Mean 4/7.
    summary = summarize_bios(results, k=3)
    assert summary["f1_at_k"]["k"] == 3
    assert summary["f1_at_k"]["mean"] == pytest.approx(4 / 7)
    # Default K: median of 4, 8, 0 = 4. a: P 0.75, R 3/4 -> 0.75; b: P 0.75, R 1 -> 6/7.
    assert summarize_bios(results)["f1_at_k"]["per_response"] == pytest.approx([0.75, 6 / 7, 0])
    # Facts 5 + 8 + 1 = 14; re-verified 3; model calls 18; searches 8.
    assert summary["cost"] == {
        "facts": 14,
        "reverify_trigger_rate": pytest.approx(3 / 14),
        "model_calls_per_fact": pytest.approx(18 / 14),
        "search_calls_per_fact": pytest.approx(8 / 14),
    }


def test_correlations_match_scipy_with_ties_and_constants() -> None:
    """The numpy correlations give SciPy's values (None where SciPy gives NaN)."""
    import warnings

    import numpy as np

    scipy_stats = pytest.importorskip("scipy.stats")
    from triqua.evals.stats import average_ranks, pearson_spearman_mae

    rng = np.random.default_rng(7)
    for case in range(200):
        n = int(rng.integers(2, 25))
        x = rng.integers(0, 4, n).astype(float)  # many ties, sometimes constant
        y = rng.normal(size=n) if case % 2 else np.round(rng.normal(size=n))
        assert average_ranks(x) == pytest.approx(scipy_stats.rankdata(x))
        ours = pearson_spearman_mae(list(x), list(y))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = {
                "pearson": scipy_stats.pearsonr(x, y).statistic,
                "spearman": scipy_stats.spearmanr(x, y).statistic,
            }
        for name, expected in theirs.items():
            if ours[name] is None:
                assert np.isnan(expected), (name, x, y)
            else:
                assert ours[name] == pytest.approx(expected, abs=1e-9), (name, x, y)
