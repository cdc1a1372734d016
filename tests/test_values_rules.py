"""The value rules file: every worked example of every rule, and one reading for all readers.

The examples live beside their rules in ``core/reading/values/data/values.json``; each is a
test here. The grounding rule (``core.reading.quote_values``) and the offline verifier
(``core.reading.analysis``) read values with the same reader, so an approximate value reaches
as far in one as in the other.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from triqua.core.reading.analysis import analyse, values_relation
from triqua.core.reading.quote_values import missing_values
from triqua.core.reading.values.carried import read_values, values_match
from triqua.core.reading.values.dates import date_relation, find_dates
from triqua.core.reading.values.numbers import find_numbers
from triqua.core.reading.values.table import (
    NAME_RULES,
    RULES,
    RULES_PATH,
    Example,
    examples,
    load_rules,
)
from triqua.engines.offline.verify.verifier import get_verifier
from triqua.schema import Evidence, Fact, FactUnit, Qualifier, Status

EXAMPLES = examples()


@pytest.mark.parametrize(
    "example", EXAMPLES, ids=[f"{e.rule}:{e.claim}|{e.evidence}" for e in EXAMPLES]
)
def test_every_example_of_the_rules_file_holds(example: Example) -> None:
    if example.rule in NAME_RULES:  # names: every name of the claim written in the evidence
        unit = FactUnit(kind="base", subject="It", relation="is", object=example.claim)
        assert (missing_values(unit, example.evidence) == []) is example.matches
        return
    assert values_match(example.claim, example.evidence) is example.matches


def test_every_rule_has_examples_that_match_and_examples_that_do_not() -> None:
    raw = json.loads(RULES_PATH.read_text(encoding="utf-8"))
    rules = {name for name in raw if not name.startswith("_")}
    assert rules == {e.rule for e in EXAMPLES if e.matches}
    assert rules == {e.rule for e in EXAMPLES if not e.matches}


def test_a_broken_rules_file_is_a_clear_error(tmp_path: Path) -> None:
    raw = json.loads(RULES_PATH.read_text(encoding="utf-8"))
    del raw["tolerance"]["relative"]
    broken = tmp_path / "values.json"
    broken.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(RuntimeError, match="value rules"):
        load_rules(broken)
    (tmp_path / "bad.json").write_text("[1]", encoding="utf-8")
    with pytest.raises(RuntimeError, match="not a JSON object"):
        load_rules(tmp_path / "bad.json")


@pytest.mark.parametrize(
    ("evidence", "carried"),
    [("1,040", True), ("950", True), ("1,060", False), ("900", False), ("1,080", False)],
)
def test_the_grounding_rule_and_the_offline_verifier_reach_as_far_from_about_1000(
    evidence: str, carried: bool
) -> None:
    """One tolerance: "about 1,000" is 950–1,050 for both readers (5 %, the rules file's)."""
    assert RULES.relative_tolerance == 0.05
    unit = FactUnit(kind="base", subject="The town", relation="has", object="about 1,000 people")
    grounded = missing_values(unit, f"The town has {evidence} people") == []
    offline = values_relation(analyse("about 1,000 people"), analyse(f"{evidence} people"))
    assert grounded is carried
    assert (offline[0] == "match") is carried


def test_an_approximate_year_reaches_five_years_for_both_readers() -> None:
    unit = FactUnit(kind="base", subject="Gutenberg", relation="was born", object="around 1400")
    assert missing_values(unit, "Gutenberg was born in 1403") == []
    assert missing_values(unit, "Gutenberg was born in 1410") == ["1400"]
    assert values_relation(analyse("around 1400"), analyse("in 1403"))[0] == "match"
    assert values_relation(analyse("around 1400"), analyse("in 1410"))[0] == ("conflict")


def test_numbers_read_words_scales_spans_and_percentages() -> None:
    two = find_numbers("two million people")[0]
    assert two.readings == ((2e6, "count", 0.5e6),) and two.noun == "people"
    assert two.figure == "two million"
    span = find_numbers("310–320 mg a day")[0]
    assert span.readings[0][0] == pytest.approx(315e-6) and span.text == "310–320 mg"
    between = find_numbers("between 10 and 20 km")[0]
    assert between.readings[0][:2] == (15_000.0, "length") and between.start == 0
    assert find_numbers("45 per cent")[0].readings[0][:2] == (45.0, "percent")
    assert [n.readings[0][0] for n in find_numbers("twenty-five years")] == [25.0]
    assert find_numbers("one of the largest") == []
    assert find_numbers("a citation [2] here") == []


def test_dates_read_eras_centuries_and_approximate_years() -> None:
    assert [(d.year, d.year_hi) for d in find_dates("Caesar died in 44 BC.")] == [(-44, None)]
    assert [d.year for d in find_dates("Vesuvius erupted in AD 79.")] == [79]
    bc_century = find_dates("the 5th century BC")[0]
    assert (bc_century.year, bc_century.year_hi) == (-500, -401)
    late = find_dates("the late sixteenth century")[0]
    assert (late.year, late.year_hi) == (1566, 1599)
    around = find_dates("born around 1880")[0]
    assert around.approx == "both" and around.year == 1880
    assert date_relation(find_dates("44 BC")[0], find_dates("AD 44")[0]) == "conflict"


def test_the_grounding_rule_reports_a_value_as_the_unit_writes_it() -> None:
    unit = FactUnit(kind="base", subject="Bob", relation="won", object="two prizes in 1903")
    assert missing_values(unit, "Bob won three prizes in 1904") == ["two", "1903"]
    assert read_values("two prizes in 1903").dates[0].text == "1903"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("fact", "evidence"),
    [
        (
            Fact(
                subject="Johannes Gutenberg",
                relation="was born in",
                object="Mainz",
                qualifiers=[Qualifier(label="point in time", value="around 1400")],
            ),
            "Johannes Gutenberg was born in Mainz in 1403.",
        ),
        (
            Fact(subject="The adult dose", relation="is", object="315 mg"),
            "The adult dose is 310–320 mg.",
        ),
    ],
)
def test_the_offline_verifier_supports_an_approximate_year_and_a_value_inside_a_span(
    fact: Fact, evidence: str
) -> None:
    passage = Evidence.build(document_id="d", text=evidence, retriever="supplied")
    verdict = get_verifier().verify(fact, [passage])
    assert [u.status for u in verdict.unit_verdicts] == [Status.SUPPORTED] * len(fact.units())


def test_text_without_a_digit_is_read_for_centuries_in_words_only() -> None:
    """Only a century in words is a date without a digit: the other patterns are skipped."""
    from triqua.core.reading.values import dates

    digitless = [
        "She lived in the late nineteenth century, in May, on the first of June, AD.",
        "In the mid-fifth century BC, Herodotus wrote in Ionic Greek.",
        "No date here at all.",
    ]
    for text in digitless:
        skipped = [p for p in dates._DATE_PATTERNS if p not in dates._WORDED_PATTERNS]
        assert all(p.search(text) is None for p in skipped), text
    assert [d.text for d in find_dates(digitless[0])] == ["late nineteenth century"]
    assert [d.year for d in find_dates("He was born on 5 May 1821, in the 19th century.")] == [
        1821,
        1800,
    ]
