"""The judge's value pairs: each kind's label, no evaluation row copied, the same by seed."""

from __future__ import annotations

import json
import random
import re
import sys
from itertools import islice
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "training"))

from value_pairs import (  # noqa: E402
    banned_shingles,
    make_pairs,
    sentences,
    shingles,
    source_sentences,
)
from value_phrases import centuries, dates, life_dates, restrictors, synonyms  # noqa: E402
from value_rewrites import (  # noqa: E402
    CONTRADICTED,
    ENTAILED,
    NEUTRAL,
    Rewrite,
    approximations,
    comparatives,
    number_forms,
    ordinals,
    unit_conversions,
)


def _made(rewrite, sentence: str, seeds: int = 6) -> list[Rewrite]:
    """The rewrites of ``sentence`` over a few seeds, so every option shows."""
    return [r for seed in range(seeds) for r in rewrite(sentence, random.Random(seed))]


def _labels(made: list[Rewrite]) -> set[int]:
    return {r.label for r in made}


def test_number_forms_write_the_same_count_otherwise_and_a_rival_as_contradicted() -> None:
    made = _made(number_forms, "The city has a population of 64,500,000 people.")
    assert _labels(made) == {ENTAILED, CONTRADICTED}
    for r in made:
        same = "64.5 million people" in r.hypothesis
        assert (r.label == ENTAILED) == same, r
    words = _made(number_forms, "She won 3 prizes for her novels.")
    assert any(r.label == ENTAILED and "three prizes" in r.hypothesis for r in words)
    assert all("3 prizes" not in r.hypothesis for r in words if r.label == CONTRADICTED)


def test_unit_conversions_keep_the_length_and_contradict_another() -> None:
    made = _made(unit_conversions, "The tower is 330 metres tall.")
    assert _labels(made) == {ENTAILED, CONTRADICTED}
    factor = {"km": 1000, "miles": 1609.344, "feet": 0.3048}
    for r in made:
        m = re.search(r"is ([\d,.]+) (km|miles|feet|metres) tall", r.hypothesis)
        assert m, r
        metres = float(m[1].replace(",", "")) * factor.get(m[2], 1.0)
        assert (abs(metres - 330) < 10) == (r.label == ENTAILED) or m[2] == "metres", r
        if m[2] == "metres":  # the same figure in another unit is a rival
            assert r.label == CONTRADICTED


def test_approximations_reach_five_per_cent_of_the_value() -> None:
    made = _made(approximations, "The hotel has 1,250 rooms.")
    assert _labels(made) == {ENTAILED, CONTRADICTED}
    for r in made:
        m = re.search(
            r"(about|around|approximately|roughly|some|circa) ([\d,]+) rooms", r.hypothesis
        )
        assert m, r
        near = abs(float(m[2].replace(",", "")) - 1250) <= 0.05 * 1250
        assert near == (r.label == ENTAILED), r


def test_comparatives_are_entailed_on_the_right_side_only() -> None:
    made = _made(comparatives, "The hotel has 412 rooms.")
    assert _labels(made) == {ENTAILED, CONTRADICTED}
    for r in made:
        m = re.search(r"(more than|fewer than|less than|at least) ([\d,]+)", r.hypothesis)
        assert m, r
        bound = float(m[2].replace(",", ""))
        rooms = 412
        holds = (
            rooms > bound
            if m[1] == "more than"
            else rooms < bound
            if "than" in m[1]
            else rooms >= bound
        )
        assert holds == (r.label == ENTAILED), r
    bounded = _made(comparatives, "More than 300 people attended the concert.")
    by_label = {r.label: r.hypothesis for r in bounded}
    assert by_label[ENTAILED].startswith("More than 2")  # a looser bound
    assert re.match(r"[34]\d\d people", by_label[NEUTRAL])  # an exact value past it
    assert re.match(r"2\d\d people", by_label[CONTRADICTED])  # a value on the wrong side


def test_ordinals_in_words_and_digits_match_and_another_place_contradicts() -> None:
    made = _made(ordinals, "He was the twelfth president of the society.")
    assert any(r.label == ENTAILED and "the 12th president" in r.hypothesis for r in made)
    assert all("12th" not in r.hypothesis for r in made if r.label == CONTRADICTED)
    assert _labels(made) == {ENTAILED, CONTRADICTED}
    assert not _made(ordinals, "It is one of the first chords guitarists learn.")


def test_a_year_entails_its_century_and_decade_and_a_span_is_neutral_to_a_year() -> None:
    made = _made(centuries, "The church was built in 1850 by monks.")
    assert _labels(made) == {ENTAILED, CONTRADICTED}
    right = ("19th century", "nineteenth century", "1850s")
    for r in made:
        assert any(w in r.hypothesis for w in right) == (r.label == ENTAILED), r
    span = _made(centuries, "The castle was rebuilt in the 1890s by its owners.")
    for r in span:
        year = int(re.search(r"in (\d{4})", r.hypothesis)[1])  # type: ignore[index]
        assert r.label == (NEUTRAL if 1890 <= year <= 1899 else CONTRADICTED), r


def test_a_full_date_entails_its_month_and_year_and_a_month_added_is_neutral() -> None:
    made = _made(dates, "She was born on 10 December 1903 in Paris.")
    assert _labels(made) == {ENTAILED, CONTRADICTED}
    for r in made:
        if r.label == ENTAILED:
            assert "1903" in r.hypothesis and not re.search(
                r"\b(?!10\b)\d{1,2} December", r.hypothesis
            )
    assert any(r.label == CONTRADICTED and "1903" not in r.hypothesis for r in made)
    added = _made(dates, "The company moved to Lyon in 1903.")
    assert added and all(
        r.label == NEUTRAL and re.search(r"in [A-Z][a-z]+ 1903", r.hypothesis) for r in added
    )


def test_restrictors_one_of_is_not_the_and_not_the_only() -> None:
    largest = _made(restrictors, "Sydney is one of the largest cities in Australia.")
    assert {(r.hypothesis, r.label) for r in largest} == {
        ("Sydney is the largest city in Australia.", NEUTRAL)
    }
    founders = _made(restrictors, "Ada was one of the founders of the club.")
    assert {r.label for r in founders} == {CONTRADICTED}
    assert all(re.search(r"the (only|sole) founder of", r.hypothesis) for r in founders)
    the = _made(restrictors, "Sydney is the largest city in Australia.")
    assert {(r.hypothesis, r.label) for r in the} == {
        ("Sydney is one of the largest cities in Australia.", ENTAILED),
        ("Sydney is the biggest city in Australia.", ENTAILED),
    }


def test_a_restrictor_that_says_the_same_keeps_the_sentence_entailed() -> None:
    sole = _made(restrictors, "Ada was the sole candidate on the ballot.")
    assert {(r.hypothesis, r.label) for r in sole} == {
        ("Ada was the only candidate on the ballot.", ENTAILED)
    }
    greatest = _made(restrictors, "She was the greatest writer of the age.")
    assert greatest and all("greatest" in r.hypothesis for r in greatest)  # not "biggest"


def test_life_dates_after_a_name_entail_birth_and_death_and_another_year_contradicts() -> None:
    made = _made(life_dates, "Ada Lovelace (10 December 1815 – 27 November 1852) was a writer.")
    found = {(r.hypothesis, r.label) for r in made}
    assert ("Ada Lovelace was born in 1815.", ENTAILED) in found
    assert ("Ada Lovelace died in 1852.", ENTAILED) in found
    assert ("Ada Lovelace was born in 1852.", CONTRADICTED) in found
    for r in made:
        year = int(re.search(r"in (\d{4})", r.hypothesis)[1])  # type: ignore[index]
        stated = 1815 if "born" in r.hypothesis else 1852
        assert r.label == (ENTAILED if year == stated else CONTRADICTED), r
    living = _made(life_dates, "Jane Okafor (born 1961) is a Nigerian writer.")
    assert {r.label for r in living if "died" in r.hypothesis} == {NEUTRAL}
    assert not _made(life_dates, "The Great War (1914–1918) changed Europe.")


def test_synonyms_are_entailed_and_near_misses_neutral() -> None:
    made = _made(synonyms, "She wrote the novel in Rome.")
    assert ("She penned the novel in Rome.", ENTAILED) in {(r.hypothesis, r.label) for r in made}
    assert ("She published the novel in Rome.", NEUTRAL) in {(r.hypothesis, r.label) for r in made}


@pytest.mark.parametrize(
    "sentence",
    [
        "He lives at number 73 on the square.",
        "The Supreme Court ruled 7–1 in the government's favour.",
        "An adult needs 300 to 400 mg of magnesium a day.",
        "See https://example.org/stats/1046201/medals for 2021.",
    ],
)
def test_labels_scores_spans_and_links_are_not_rewritten_as_quantities(sentence: str) -> None:
    for rewrite in (number_forms, approximations, comparatives, unit_conversions):
        assert not _made(rewrite, sentence), rewrite.__name__


def test_generated_pairs_never_copy_an_evaluation_row() -> None:
    banned = banned_shingles()
    cases = [json.loads(line) for line in (ROOT / "tests/data/offline_cases.jsonl").open()]
    lies = [json.loads(line) for line in (ROOT / "benchmarks/data/plausible_lies.jsonl").open()]
    evaluation = [s for c in cases for s in sentences(c["evidence"])]
    evaluation += [s for lie in lies for e in lie["evidence"] for s in sentences(e)]
    fresh = ["The hotel has 1,250 rooms and was built in 1850."]
    rows = [(s, "train", "test-data") for s in [*evaluation, *fresh]]
    made = list(make_pairs(rows, random.Random(1), banned))
    assert made and {r["premise"] for r in made} == set(fresh)
    # Nor does any pair of the shared data share eight words in a row with one.
    sample = list(islice(source_sentences(), 0, None, 12))
    for row in make_pairs(sample, random.Random(2), banned):
        assert not shingles(str(row["premise"])) & banned
        assert not shingles(str(row["hypothesis"])) & banned
        assert row["split"] in ("train", "dev")


def test_pairs_are_the_same_for_the_same_seed() -> None:
    sample = list(islice(source_sentences(), 0, None, 40))
    first = list(make_pairs(sample, random.Random(13), set()))
    again = list(make_pairs(sample, random.Random(13), set()))
    other = list(make_pairs(sample, random.Random(14), set()))
    assert first and first == again
    assert first != other
