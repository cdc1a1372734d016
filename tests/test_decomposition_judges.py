"""Decomposition-quality rule judges (TriQua §4.2), Cohen's κ, and their per-label rates."""

from __future__ import annotations

import pytest

from triqua.evals.decomposition_judges import (
    containment,
    judge_decontextualised,
    judge_entailed,
    judge_qualifiers,
    rule_diagnosis,
)
from triqua.evals.decomposition_quality import judge_facts, quality_summary, rule_judge
from triqua.evals.stats import cohen_kappa
from triqua.schema import Fact

CURIE = "Marie Curie won the Nobel Prize in Physics in 1903."


def fact(text: str, source_text: str = "") -> Fact:
    return Fact.parse(text, source_text=source_text)


# -- (a) entailment by containment ----------------------------------------------------------


def test_containment_counts_content_words_with_inflections_and_months() -> None:
    assert containment("Marie Curie won Nobel Prizes", CURIE) == 1.0
    # "Chemistry" is not in the sentence: 3 of 4 content words.
    assert containment("Curie won Nobel Chemistry", CURIE) == pytest.approx(3 / 4)
    assert containment("1949-12-18", "He was born on December 18, 1949.") == 1.0
    assert containment("of the", CURIE) is None


def test_entailed_fact_passes_and_added_element_fails() -> None:
    good = fact("(Marie Curie, won, Nobel Prize in Physics)-(point in time, 1903)")
    assert judge_entailed(good, CURIE).passed
    added = fact("(Marie Curie, won, Nobel Prize in Physics)-(location, Stockholm)")
    verdict = judge_entailed(added, CURIE)
    assert not verdict.passed
    assert verdict.elements == ["(location, Stockholm)"]


def test_entailment_takes_a_resolved_name_from_the_text_before() -> None:
    resolved = fact("(Marie Curie, won, Nobel Prize in Physics)")
    sentence = "She won the Nobel Prize in Physics."
    assert not judge_entailed(resolved, sentence).passed
    assert judge_entailed(resolved, sentence, context="Marie Curie was a physicist.").passed
    # Only names come from the context: a common noun must be in the sentence itself.
    invented = fact("(Marie Curie, won, physicist award)")
    assert not judge_entailed(invented, sentence, context="Marie Curie was a physicist.").passed


def test_containment_threshold_is_applied() -> None:
    partial = fact("(Curie, won, Nobel Chemistry)")  # 3 of 4 content words in CURIE
    assert not judge_entailed(partial, CURIE, threshold=0.8).passed
    assert judge_entailed(partial, CURIE, threshold=0.75).passed


# -- (b) decontextualisation ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("(He, won, Nobel Prize)", "pronoun 'He'"),
        ("(Marie Curie, married, her colleague)", "pronoun 'her'"),
        ("(This company, was founded in, Paris)", "demonstrative 'This'"),
        ("(Marie Curie, won, Nobel Prize)-(point in time, last year)", "relative time"),
        ("(Marie Curie, moved to, Paris)-(point in time, two years later)", "relative time"),
        ("(The film, was, recently released)", "relative time 'recently'"),
        ("(Paris, is, larger)", "bare comparative 'larger'"),
        ("(The team, became, more successful)", "bare comparative"),
    ],
)
def test_context_dependent_facts_fail(text: str, why: str) -> None:
    verdict = judge_decontextualised(fact(text))
    assert not verdict.passed
    assert why in verdict.reason


@pytest.mark.parametrize(
    "text",
    [
        "(Marie Curie, won, Nobel Prize in Physics)-(point in time, 1903)",
        "(Paris, is larger than, Lyon)",
        "(France, has population, more than 60 million)",
        '(Frank Sinatra, recorded, "My Way")-(point in time, 1969)',
        "(Marie Curie, said that, radium glows)",
        "(Peter Water, was, a member of parliament)",
    ],
)
def test_standalone_facts_pass(text: str) -> None:
    verdict = judge_decontextualised(fact(text))
    assert verdict.passed, verdict.reason


# -- (c) qualifier misuse -------------------------------------------------------------------


def test_preposition_label_fails() -> None:
    verdict = judge_qualifiers(fact("(France, has population, 64.5 million)-(except, overseas)"))
    assert not verdict.passed
    assert verdict.elements == ["(except, overseas)"]
    assert judge_qualifiers(
        fact("(France, has population, 64.5 million)-(excluding, overseas)")
    ).passed
    assert not judge_qualifiers(fact("(Curie, won, Nobel Prize)-(in, 1903)")).passed
    assert not judge_qualifiers(fact("(Curie, lived, Paris)-(as of, 1900)")).passed


def test_general_property_as_qualifier_fails() -> None:
    verdict = judge_qualifiers(fact("(Marie Curie, won, Nobel Prize)-(nationality, Polish)"))
    assert not verdict.passed
    assert "general property" in verdict.reason


def test_qualifier_of_a_qualifier_fails() -> None:
    by_label = fact("(Zidane, played, final)-(location, Berlin)-(country of location, Germany)")
    by_value = fact("(Ronaldo, joined, club)-(team, Real Madrid)-(league of Real Madrid, La Liga)")
    for item in (by_label, by_value):
        verdict = judge_qualifiers(item)
        assert not verdict.passed
        assert len(verdict.elements) == 1 and "qualifies" in verdict.reason


def test_well_used_qualifiers_pass() -> None:
    good = fact(
        "(Marie Curie, won, Nobel Prize)-(point in time, 1903)-(location, Stockholm)"
        "-(together with, Pierre Curie)-(start time, 1903)"
    )
    assert judge_qualifiers(good).passed
    assert judge_qualifiers(fact("(Paris, is capital of, France)")).passed


# -- Cohen's κ ------------------------------------------------------------------------------


def test_cohen_kappa_on_a_hand_computed_table() -> None:
    # 10 items: both yes 4, both no 3, A yes/B no 2, A no/B yes 1.
    # p_o = 7/10; A yes 6/10, B yes 5/10; p_e = .6*.5 + .4*.5 = .5; κ = (.7-.5)/.5 = 0.4.
    a = [1, 1, 1, 1, 0, 0, 0, 1, 1, 0]
    b = [1, 1, 1, 1, 0, 0, 0, 0, 0, 1]
    assert cohen_kappa(a, b) == pytest.approx(0.4)
    assert cohen_kappa(a, a) == pytest.approx(1.0)
    assert cohen_kappa([1, 1], [1, 1]) is None  # chance agreement 1: undefined
    assert cohen_kappa([], []) is None
    with pytest.raises(ValueError, match="raters"):
        cohen_kappa([1], [1, 0])


# -- summary --------------------------------------------------------------------------------


def test_rates_per_criterion_mode_and_label() -> None:
    text = f"Marie Curie was a physicist. {CURIE} She was Polish."
    good = fact(
        "(Marie Curie, won, Nobel Prize in Physics)-(point in time, 1903)",
        source_text=CURIE,
    )
    misused = fact(
        "(Marie Curie, won, Nobel Prize)-(point in time, 1903)-(nationality, Polish)",
        source_text=CURIE,
    )
    vague = fact("(She, was, Polish)", source_text="She was Polish.")
    judged = judge_facts(
        [(text, [good, misused], ["plain", "plain"]), (text, [vague], ["chunks"])],
        {"rules": rule_judge()},
    )
    summary = quality_summary(judged)
    criteria = summary["criteria"]
    assert criteria["entailed"]["rules"] == {"n": 3, "pass_rate": pytest.approx(2 / 3)}
    assert criteria["decontextualised"]["rules"]["pass_rate"] == pytest.approx(2 / 3)
    assert criteria["qualifiers_ok"]["rules"] == {"n": 2, "pass_rate": 0.5}
    assert summary["by_mode"]["chunks"]["criteria"]["decontextualised"]["rules"]["pass_rate"] == 0
    labels = {row["label"]: row for row in summary["by_label"]}
    assert labels["point in time"]["qualifiers"] == 2
    assert labels["point in time"]["qualifiers_ok"]["rules"] == 1.0
    assert labels["nationality"]["qualifiers_ok"]["rules"] == 0.0
    # "Polish" is not in the source sentence: the nationality qualifier is not entailed.
    assert labels["nationality"]["entailed"]["rules"] == 0.0
    assert "kappa" not in summary


def test_rule_diagnosis_judges_all_three_criteria() -> None:
    diagnosis = rule_diagnosis(fact("(He, won, Nobel Prize)-(in, 1903)"), "He won it in 1903.")
    assert set(diagnosis.verdicts) == {"entailed", "decontextualised", "qualifiers_ok"}
    assert not diagnosis.verdicts["decontextualised"].passed
    assert not diagnosis.verdicts["qualifiers_ok"].passed


@pytest.mark.parametrize(
    "text",
    [
        "(The album, debuted at, number six on the US Billboard 200)",
        "(Princess Margaret, appeared in, films including Me Before You)",
        "(The Closer, aired for, seven seasons)",
        "(Owen, grew up with, an older sister)",
        "(Kakru, was, the former head of the department)",
    ],
)
def test_names_titles_and_kinship_are_not_references(text: str) -> None:
    verdict = judge_decontextualised(fact(text))
    assert verdict.passed, verdict.reason


def test_capitalised_pronoun_at_the_start_is_a_reference() -> None:
    assert not judge_decontextualised(fact("(Her research, focused on, epidemiology)")).passed
    assert not judge_decontextualised(fact("(Stevenson, abandoned, that career)")).passed


def test_wikidata_scope_properties_are_not_bare_prepositions() -> None:
    # "including" (P1012) and "excluding" (P1011) are Wikidata qualifier properties.
    from triqua.evals.decomposition_judges import qualifiers as judges

    assert "including" not in judges._PREPOSITIONS
    assert "excluding" not in judges._PREPOSITIONS
    assert "in" in judges._PREPOSITIONS
