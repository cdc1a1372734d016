"""Property tests of TriQuaScore: bounds, dedup, order independence and the extremes."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from triqua.metrics import normalize, score_facts
from triqua.schema import Fact, Qualifier, Scores, Status, UnitVerdict, Verdict

# Fixed examples, no example database: every run checks the same cases.
DETERMINISTIC = settings(derandomize=True, database=None, max_examples=100)
FEWER = settings(DETERMINISTIC, max_examples=50)

# Small vocabularies so that repeated units (and so dedup) happen often.
WORDS = st.sampled_from(["France", "france.", "Ronaldo", "Paris", "1990", "64.5", "won"])
LABELS = st.sampled_from(["point in time", "location", "played for"])

facts = st.builds(
    Fact,
    subject=WORDS,
    relation=WORDS,
    object=WORDS,
    qualifiers=st.lists(st.builds(Qualifier, label=LABELS, value=WORDS), max_size=3),
)


@st.composite
def verdicts(draw: st.DrawFn, fact: Fact, status: Status | None = None) -> Verdict:
    """A verdict on ``fact`` with error spans and unit verdicts drawn from its own parts."""
    parts = [fact.subject, fact.object, *(q.value for q in fact.qualifiers), "Berlin"]
    unit_verdicts = [
        UnitVerdict(unit=u.text, kind=u.kind, status=draw(st.sampled_from(list(Status))))
        for u in fact.units()
        if status is None and draw(st.booleans())
    ]
    return Verdict(
        status=status or draw(st.sampled_from(list(Status))),
        error_spans=draw(st.lists(st.sampled_from(parts), max_size=2)),
        unit_verdicts=unit_verdicts,
    )


@st.composite
def checked(draw: st.DrawFn, status: Status | None = None) -> list[tuple[Fact, Verdict]]:
    """A list of facts, each with a verdict (of ``status`` when given)."""
    fs = draw(st.lists(facts, max_size=6))
    return [(f, draw(verdicts(f, status))) for f in fs]


RATIOS = [
    "triqua_score",
    "claim_level_score",
    "no_dedup_score",
    "factscore_precision",
    "contradiction_rate",
]


def ratios(scores: Scores) -> list[float | None]:
    return [getattr(scores, name) for name in RATIOS]


@DETERMINISTIC
@given(checked())
def test_scores_are_in_unit_interval_or_undefined(pairs: list[tuple[Fact, Verdict]]) -> None:
    scores = score_facts(pairs)
    for value in ratios(scores):
        assert value is None or 0.0 <= value <= 1.0
    assert (scores.triqua_score is None) == (scores.units_raw == 0)


@DETERMINISTIC
@given(checked())
def test_dedup_never_adds_units(pairs: list[tuple[Fact, Verdict]]) -> None:
    scores = score_facts(pairs)
    assert scores.units_supported <= scores.units_total <= scores.units_raw
    assert scores.units_raw <= sum(len(f.units()) for f, _ in pairs)
    assert sum(scores.facts_by_status.values()) == scores.facts_total == len(pairs)


@DETERMINISTIC
@given(st.data())
def test_order_of_facts_does_not_change_scores(data: st.DataObject) -> None:
    pairs = data.draw(checked())
    shuffled = data.draw(st.permutations(pairs))
    assert score_facts(shuffled) == score_facts(pairs)


@FEWER
@given(checked(Status.SUPPORTED).filter(bool))
def test_all_supported_scores_one(pairs: list[tuple[Fact, Verdict]]) -> None:
    scores = score_facts(pairs)
    assert scores.triqua_score == 1.0
    assert scores.no_dedup_score == 1.0
    assert scores.claim_level_score == 1.0
    assert scores.factscore_precision == 1.0
    assert scores.contradiction_rate == 0.0


@FEWER
@given(st.lists(facts, min_size=1, max_size=6))
def test_all_contradicted_scores_zero(fs: list[Fact]) -> None:
    scores = score_facts([(f, Verdict(status=Status.CONTRADICTED)) for f in fs])
    assert scores.triqua_score == 0.0
    assert scores.no_dedup_score == 0.0
    assert scores.claim_level_score == 0.0
    assert scores.factscore_precision == 0.0
    assert scores.contradiction_rate == 1.0


@pytest.mark.slow
@DETERMINISTIC
@given(st.text())
def test_normalize_is_idempotent_and_punctuation_free(text: str) -> None:
    once = normalize(text)
    assert normalize(once) == once
    assert once == once.strip()
    assert "  " not in once
    for i, ch in enumerate(once):
        if ch == ".":
            assert once[i - 1].isdigit() and once[i + 1].isdigit()
        else:
            assert ch == " " or ch.isalnum() or unicodedata.category(ch).startswith("M")
