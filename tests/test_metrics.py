"""Tests of TriQuaScore, unit labelling, normalisation and the evaluation helpers."""

from __future__ import annotations

import pytest

from triqua.metrics import (
    classification_report,
    label_units,
    normalize,
    pearson_spearman_mae,
    score_facts,
    selective_risk,
    unit_key,
)
from triqua.schema import Fact, Qualifier, Status, UnitVerdict, Verdict

# Shorthands: Supported, Contradicted, Unverified (insufficient evidence), Not checkable.
S, C, U, N = Status.SUPPORTED, Status.CONTRADICTED, Status.INSUFFICIENT, Status.NOT_CHECKABLE


def fact(s: str, r: str, o: str, *qualifiers: tuple[str, str]) -> Fact:
    return Fact(
        subject=s,
        relation=r,
        object=o,
        qualifiers=[Qualifier(label=label, value=value) for label, value in qualifiers],
    )


def statuses(f: Fact, v: Verdict) -> list[Status]:
    return [status for _, status in label_units(f, v)]


# "As of 2026, France has a population of 64.5 million, excluding overseas departments."
FRANCE = fact(
    "France",
    "has population",
    "64.5 million",
    ("point in time", "2026"),
    ("excluding", "overseas departments"),
)

# "Ronaldo played for Corinthians, where he won the Campeonato Paulista and the Copa do Brasil."
PAULISTA = fact("Ronaldo", "won", "Campeonato Paulista", ("played for", "Corinthians"))
COPA = fact("Ronaldo", "won", "Copa do Brasil", ("played for", "Corinthians"))


# --- normalisation and unit identity -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026.", "2026"),
        ("Overseas Departments", "overseas departments"),
        ("  (France,  has population, 64.5 million)  ", "france has population 64.5 million"),
        ("64.5", "64.5"),
        ("1,000 goals", "1000 goals"),
        ("Paris/London", "paris london"),
        ("STRASSE", "strasse"),
        ("Straße", "strasse"),
        ("ﬁnal", "final"),  # NFKC expands the ligature
        ("Ｆｒａｎｃｅ", "france"),  # full-width letters
        ("São Paulo!", "são paulo"),
        ("", ""),
        ("...", ""),
    ],
)
def test_normalize_folds_case_width_and_punctuation(text: str, expected: str) -> None:
    assert normalize(text) == expected


def test_normalize_keeps_decimal_point_distinct() -> None:
    assert normalize("64.5") != normalize("645")
    assert normalize("1,5") != normalize("15")  # not a thousands group: not merged


def test_unit_count_of_the_france_fact() -> None:
    units = FRANCE.units()
    assert [u.kind for u in units] == ["base", "qualifier", "qualifier"]


def test_unit_key_ignores_case_and_punctuation() -> None:
    a = fact("France", "has population", "64.5 million").units()[0]
    b = fact("france.", "Has Population", "64.5 Million!").units()[0]
    assert unit_key(a) == unit_key(b)


def test_same_qualifier_on_two_subjects_is_two_units() -> None:
    q = ("point in time", "1990")
    pairs = [
        (fact("Alice", "moved to", "Paris", q), Verdict(status=S)),
        (fact("Bob", "moved to", "Rome", q), Verdict(status=S)),
    ]
    assert unit_key(pairs[0][0].units()[1]) != unit_key(pairs[1][0].units()[1])
    scores = score_facts(pairs)
    assert scores.units_raw == 4
    assert scores.units_total == 4


def test_same_qualifier_on_same_subject_is_one_unit() -> None:
    q = ("point in time", "1990")
    pairs = [
        (fact("Alice", "moved to", "Paris", q), Verdict(status=S)),
        (fact("Alice", "married", "Bob", q), Verdict(status=S)),
    ]
    assert unit_key(pairs[0][0].units()[1]) == unit_key(pairs[1][0].units()[1])
    scores = score_facts(pairs)
    assert (scores.units_raw, scores.units_total) == (4, 3)


def test_base_and_qualifier_keys_never_collide() -> None:
    base = fact("a", "b", "c").units()[0]
    qualifier = fact("a", "x", "y", ("b", "c")).units()[1]
    assert unit_key(base) != unit_key(qualifier)


# --- labelling units ----------------------------------------------------------------------


def test_france_year_wrong_via_error_span() -> None:
    verdict = Verdict(status=C, error_spans=["2026"])
    assert statuses(FRANCE, verdict) == [S, C, S]
    scores = score_facts([(FRANCE, verdict)])
    assert scores.triqua_score == pytest.approx(2 / 3)
    assert scores.claim_level_score == 0.0
    assert scores.no_dedup_score == pytest.approx(2 / 3)
    assert scores.factscore_precision == 0.0
    assert scores.contradiction_rate == 1.0
    assert (scores.units_total, scores.units_supported, scores.units_raw) == (3, 2, 3)


def test_france_year_wrong_via_unit_verdicts() -> None:
    verdict = Verdict(
        status=C,
        unit_verdicts=[
            UnitVerdict(unit="(France, has population, 64.5 million)", kind="base", status=S),
            UnitVerdict(unit="(point in time, 2026)", kind="qualifier", status=C),
            UnitVerdict(unit="(excluding, overseas departments)", kind="qualifier", status=S),
        ],
    )
    assert statuses(FRANCE, verdict) == [S, C, S]
    scores = score_facts([(FRANCE, verdict)])
    assert scores.triqua_score == pytest.approx(2 / 3)
    assert scores.claim_level_score == 0.0


@pytest.mark.parametrize(
    ("span", "expected"),
    [
        ("2026.", [S, C, S]),
        ("Overseas Departments", [S, S, C]),
        ("(excluding, overseas departments)", [S, S, C]),
        ("As of 2026", [S, C, S]),  # quoted from the sentence: the value lies in the span
        ("64.5 million", [C, S, S]),
    ],
)
def test_error_span_maps_after_normalisation(span: str, expected: list[Status]) -> None:
    assert statuses(FRANCE, Verdict(status=C, error_spans=[span])) == expected


def test_wrong_components_map_like_spans() -> None:
    verdict = Verdict(status=C, wrong_components=["(Point in time, 2026)"])
    assert statuses(FRANCE, verdict) == [S, C, S]
    assert statuses(FRANCE, Verdict(status=C, wrong_components=["base triple"])) == [C, S, S]


def test_span_does_not_match_inside_a_word() -> None:
    # "202" is part of "2026" but not a word of any unit: the error is not located.
    assert statuses(FRANCE, Verdict(status=C, error_spans=["202"])) == [C, C, C]


def test_unlocated_error_makes_the_whole_fact_wrong() -> None:
    assert statuses(FRANCE, Verdict(status=C)) == [C, C, C]
    assert statuses(FRANCE, Verdict(status=U, error_spans=["Berlin"])) == [U, U, U]


def test_insufficient_span_marks_only_its_unit() -> None:
    verdict = Verdict(status=U, error_spans=["overseas departments"])
    assert statuses(FRANCE, verdict) == [S, S, U]


def test_supported_and_not_checkable_verdicts_apply_to_all_units() -> None:
    assert statuses(FRANCE, Verdict(status=S, error_spans=["2026"])) == [S, S, S]
    assert statuses(FRANCE, Verdict(status=N)) == [N, N, N]


def test_partial_unit_verdicts_fall_back_to_spans_for_the_rest() -> None:
    verdict = Verdict(
        status=C,
        error_spans=["overseas departments"],
        unit_verdicts=[UnitVerdict(unit="(point in time, 2026)", kind="qualifier", status=U)],
    )
    assert statuses(FRANCE, verdict) == [S, U, C]


def test_unit_verdict_carrying_the_error_locates_it() -> None:
    verdict = Verdict(
        status=C,
        unit_verdicts=[UnitVerdict(unit="point in time: 2026", kind="qualifier", status=C)],
    )
    assert statuses(FRANCE, verdict) == [S, C, S]


def test_unit_verdict_kind_must_match() -> None:
    # A unit verdict of the wrong kind names no unit, so the fact-level verdict decides.
    verdict = Verdict(
        status=S,
        unit_verdicts=[UnitVerdict(unit="(point in time, 2026)", kind="base", status=C)],
    )
    assert statuses(FRANCE, verdict) == [S, S, S]


def test_later_unit_verdict_replaces_earlier() -> None:
    verdict = Verdict(
        status=S,
        unit_verdicts=[
            UnitVerdict(unit="(point in time, 2026)", kind="qualifier", status=U),
            UnitVerdict(unit="(point in time, 2026)", kind="qualifier", status=S),
        ],
    )
    assert statuses(FRANCE, verdict) == [S, S, S]


# --- scores -------------------------------------------------------------------------------


def test_ronaldo_dedup_all_supported() -> None:
    scores = score_facts([(PAULISTA, Verdict(status=S)), (COPA, Verdict(status=S))])
    assert (scores.units_raw, scores.units_total, scores.units_supported) == (4, 3, 3)
    assert scores.triqua_score == 1.0
    assert scores.claim_level_score == 1.0


def test_ronaldo_one_trophy_wrong() -> None:
    pairs = [
        (PAULISTA, Verdict(status=S)),
        (COPA, Verdict(status=C, error_spans=["Copa do Brasil"])),
    ]
    scores = score_facts(pairs)
    assert (scores.units_raw, scores.units_total, scores.units_supported) == (4, 3, 2)
    assert scores.triqua_score == pytest.approx(2 / 3)
    assert scores.no_dedup_score == pytest.approx(3 / 4)
    assert scores.claim_level_score == 0.5
    assert scores.factscore_precision == 0.5
    assert scores.contradiction_rate == 0.5


@pytest.mark.parametrize("reverse", [False, True])
def test_ronaldo_shared_qualifier_conflict_contradicted_wins(reverse: bool) -> None:
    pairs = [
        (PAULISTA, Verdict(status=S)),
        (COPA, Verdict(status=C, error_spans=["Corinthians"])),
    ]
    scores = score_facts(pairs[::-1] if reverse else pairs)
    # Units: Paulista base (S), Copa base (S), shared (played for, Corinthians) -> C.
    assert (scores.units_total, scores.units_supported) == (3, 2)
    assert scores.triqua_score == pytest.approx(2 / 3)
    assert scores.no_dedup_score == pytest.approx(3 / 4)


@pytest.mark.parametrize("reverse", [False, True])
def test_duplicate_supported_wins_over_insufficient(reverse: bool) -> None:
    pairs = [
        (PAULISTA, Verdict(status=U, error_spans=["Corinthians"])),
        (COPA, Verdict(status=S)),
    ]
    scores = score_facts(pairs[::-1] if reverse else pairs)
    assert (scores.units_total, scores.units_supported) == (3, 3)
    assert scores.triqua_score == 1.0
    assert scores.claim_level_score == 0.5
    assert scores.abstentions == 1


def test_not_checkable_units_are_left_out() -> None:
    pairs = [
        (FRANCE, Verdict(status=C, error_spans=["2026"])),
        (fact("I", "think", "so"), Verdict(status=N)),
    ]
    scores = score_facts(pairs)
    assert scores.units_raw == 3
    assert scores.triqua_score == pytest.approx(2 / 3)
    assert scores.factscore_precision == 0.0
    assert scores.facts_total == 2


def test_facts_by_status_counts_every_status() -> None:
    pairs = [
        (PAULISTA, Verdict(status=S)),
        (COPA, Verdict(status=U)),
        (FRANCE, Verdict(status=U)),
    ]
    scores = score_facts(pairs)
    assert scores.facts_by_status == {
        "supported": 1,
        "contradicted": 0,
        "insufficient_evidence": 2,
        "not_checkable": 0,
    }
    assert scores.abstentions == 2
    assert scores.contradiction_rate == 0.0


@pytest.mark.parametrize(
    "pairs",
    [
        [],
        [(FRANCE, Verdict(status=N)), (PAULISTA, Verdict(status=N))],
    ],
    ids=["empty", "all-not-checkable"],
)
def test_nothing_checkable_gives_undefined_scores(pairs: list[tuple[Fact, Verdict]]) -> None:
    scores = score_facts(pairs)
    assert scores.triqua_score is None
    assert scores.no_dedup_score is None
    assert scores.claim_level_score is None
    assert scores.factscore_precision is None
    assert scores.contradiction_rate is None
    assert (scores.units_total, scores.units_raw) == (0, 0)
    assert scores.facts_total == len(pairs)


# --- selective risk -----------------------------------------------------------------------


def test_selective_risk_default_thresholds_trace_the_curve() -> None:
    rows = selective_risk([0.9, 0.8, 0.3, 0.3], [True, False, True, False])
    assert [r["threshold"] for r in rows] == [0.3, 0.8, 0.9]
    assert [r["coverage"] for r in rows] == [1.0, 0.5, 0.25]
    assert [r["risk"] for r in rows] == [0.5, 0.5, 0.0]
    # Overall-correct rate N⁻¹ Σ aₙ·zₙ with N = 4: threshold 0.3 releases all four, two of
    # them correct (0.9 and the first 0.3) -> 2/4; 0.8 releases 0.9 (correct) and 0.8
    # (wrong) -> 1/4; 0.9 releases only the correct 0.9 -> 1/4.
    assert [r["overall_correct"] for r in rows] == [0.5, 0.25, 0.25]


def test_selective_risk_releasing_nothing_is_never_correct() -> None:
    # Three of four items are correct (plain accuracy 0.75), but a threshold above every
    # confidence releases none of them: Σ aₙ·zₙ = 0, so the overall-correct rate is 0 / 4.
    (row,) = selective_risk([0.2, 0.4, 0.6, 0.8], [True, True, True, False], thresholds=[0.9])
    assert row["covered"] == 0
    assert row["overall_correct"] == 0.0
    assert row["risk"] is None


def test_selective_risk_uncovered_threshold_is_undefined() -> None:
    (row,) = selective_risk([0.2, 0.4], [True, True], thresholds=[0.5])
    assert row["covered"] == 0
    assert row["coverage"] == 0.0
    assert row["risk"] is None


def test_selective_risk_empty_and_invalid_input() -> None:
    (row,) = selective_risk([], [], thresholds=[0.5])
    assert row["coverage"] is None and row["overall_correct"] is None
    with pytest.raises(ValueError, match="confidences"):
        selective_risk([0.5], [True, False])
    with pytest.raises(ValueError, match="NaN"):
        selective_risk([float("nan")], [True])


# --- correlations -------------------------------------------------------------------------


def test_pearson_spearman_mae_drops_missing_predictions() -> None:
    result = pearson_spearman_mae([0.1, None, 0.5, 0.9], [0.0, 1.0, 0.6, 1.0])
    assert result["n"] == 3
    assert result["pearson"] == pytest.approx(0.9933, abs=1e-4)
    assert result["spearman"] == pytest.approx(1.0)
    assert result["mae"] == pytest.approx(0.1)


def test_pearson_spearman_mae_undefined_cases() -> None:
    few = pearson_spearman_mae([0.5, None], [0.5, 0.1])
    assert few == {"n": 1, "pearson": None, "spearman": None, "mae": None}
    constant = pearson_spearman_mae([0.5, 0.5, 0.5], [0.1, 0.2, 0.3])
    assert constant["pearson"] is None and constant["spearman"] is None
    assert constant["mae"] == pytest.approx(0.3)
    with pytest.raises(ValueError, match="gold"):
        pearson_spearman_mae([0.1], [0.1, 0.2])


# --- classification report ----------------------------------------------------------------


def test_classification_report_counts_by_hand() -> None:
    gold = ["s", "s", "s", "c", "c", "i"]
    pred = ["s", "s", "c", "c", "s", "s"]
    report = classification_report(gold, pred, ["s", "c", "i", "n"])
    assert report["confusion_matrix"] == [
        [2, 1, 0, 0],
        [1, 1, 0, 0],
        [1, 0, 0, 0],
        [0, 0, 0, 0],
    ]
    s, c, i, n = (report["per_class"][k] for k in "scin")
    assert (s["precision"], s["recall"], s["support"]) == (0.5, pytest.approx(2 / 3), 3)
    assert s["f1"] == pytest.approx(4 / 7)
    assert (c["precision"], c["recall"], c["f1"]) == (0.5, 0.5, 0.5)
    assert (i["precision"], i["recall"], i["f1"]) == (None, 0.0, 0.0)
    assert (n["precision"], n["recall"], n["f1"]) == (None, None, None)
    assert report["macro_f1"] == pytest.approx((4 / 7 + 0.5 + 0.0) / 3)
    assert report["balanced_accuracy"] == pytest.approx((2 / 3 + 0.5 + 0.0) / 3)
    assert report["accuracy"] == pytest.approx(3 / 6)
    assert report["n"] == 6


def test_classification_report_empty_and_unknown_labels() -> None:
    empty = classification_report([], [], ["a", "b"])
    assert empty["macro_f1"] is None and empty["balanced_accuracy"] is None
    assert empty["accuracy"] is None
    assert empty["confusion_matrix"] == [[0, 0], [0, 0]]
    with pytest.raises(ValueError, match="not in the label list"):
        classification_report(["a"], ["z"], ["a", "b"])
    with pytest.raises(ValueError, match="predictions"):
        classification_report(["a"], [], ["a"])


def test_classification_report_accepts_status_values() -> None:
    report = classification_report([S, C], [S, S], list(Status))
    assert report["labels"] == [s.value for s in Status]
    assert report["per_class"]["supported"]["recall"] == 1.0
