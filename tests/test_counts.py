"""What a count counts: a count of a kind, or of a part, never states the whole's count."""

from __future__ import annotations

import pytest

import triqua
from triqua.core.reading.counts import counted_slot, counts, counts_groups, states_count
from triqua.core.reading.label_lines import RULES_PATH
from triqua.core.reading.rules_file import read_rules_file
from triqua.core.reading.statements import refusal, unit_refusal
from triqua.schema import Fact, FactUnit, Status

GROUPS = read_rules_file(RULES_PATH, "restating")["group_nouns"]["examples"]
PHELPS = "He won 28 Olympic medals, 23 of them gold."
LEWIS = "He won ten Olympic medals, including nine gold medals."


def test_a_count_reads_its_number_noun_and_lower_case_kinds() -> None:
    (count,) = counts("He won 23 Olympic gold medals.")
    assert (count.number, count.noun, count.kinds) == ("23", "medal", frozenset({"gold"}))
    assert count.phrase == "23 gold medals"
    (worded,) = counts("She won nine Olympic medals.")
    assert (worded.number, worded.kinds) == ("9", frozenset())


@pytest.mark.parametrize(
    ("window", "obj", "written"),
    [
        (PHELPS, "23 Olympic medals", "23 gold medals"),
        ("He won 23 Olympic gold medals.", "23 Olympic medals", "23 gold medals"),
        (LEWIS, "nine Olympic medals", "nine gold medals"),
        ("The library holds 2,000 manuscripts, 300 of them illuminated.", "300 manuscripts",
         "300 illuminated manuscripts"),
    ],
)  # fmt: skip
def test_a_count_of_a_kind_or_a_part_never_states_the_whole(
    window: str, obj: str, written: str
) -> None:
    """ "23 of them gold" states 23 gold medals, never 23 medals."""
    assert counted_slot(window, obj) == written
    why = refusal(Fact(subject="Michael Phelps", relation="won", object=obj), window)
    assert why is not None and written in why, why


@pytest.mark.parametrize(
    ("window", "obj"),
    [
        (PHELPS, "23 Olympic gold medals"),
        (PHELPS, "28 Olympic medals"),
        ("He won 23 gold medals.", "23 Olympic gold medals"),  # a name the window leaves out
        (LEWIS, "nine Olympic gold medals"),
        ("She speaks 12 different languages.", "12 languages"),  # "different" stresses
    ],
)
def test_the_count_of_the_objects_own_kind_passes(window: str, obj: str) -> None:
    assert counted_slot(window, obj) is None


PIG = (
    "The diploid chromosome number of the pig is 2 n = 38, consisting of 18 autosomal"
    " chromosome pairs, which vary in length and morphology, and two sex chromosomes."
)
PAIRS = "Pigs have 19 chromosome pairs for a total of 38 chromosomes."


@pytest.mark.parametrize(
    ("window", "obj", "written"),
    [
        (PIG, "38 chromosomes", None),  # "= 38" counts no "=": a sign is no noun
        (PAIRS, "38 chromosomes", None),  # a count of pairs is no rival of the whole's
        ("Humans have 23 pairs of chromosomes, 46 in all.", "46 chromosomes", None),
        (PIG, "18 chromosomes", "18 autosomal chromosome pairs"),  # 18 counts pairs
        (PAIRS, "19 chromosomes", "19 chromosome pairs"),
        ("The Burj Khalifa, which has 163 floors, is 828 metres tall.", "828 floors",
         "828 metres"),
    ],
)  # fmt: skip
def test_a_number_counts_words_and_a_pairs_count_counts_pairs(
    window: str, obj: str, written: str | None
) -> None:
    """A number after a sign counts nothing; "19 chromosome pairs" never counts chromosomes."""
    assert counted_slot(window, obj) == written


@pytest.mark.parametrize(("window", "obj"), GROUPS["match"])
def test_a_count_of_groups_neither_states_nor_contradicts_the_things_count(
    window: str, obj: str
) -> None:
    """ "19 chromosome pairs" counts pairs: no rival of "38 chromosomes" (data examples)."""
    assert counts_groups(window, obj)


@pytest.mark.parametrize(("window", "obj"), GROUPS["no_match"])
def test_a_count_of_the_thing_itself_is_read_as_written(window: str, obj: str) -> None:
    assert not counts_groups(window, obj)


@pytest.mark.parametrize(
    ("window", "obj", "written"),
    [
        ("Humans have 23 chromosome pairs.", "23 chromosomes", "23 chromosome pairs"),
        ("Humans have 23 pairs of chromosomes.", "23 chromosomes", "23 pairs"),
        ("Humans have 23 chromosome pairs, 46 chromosomes in all.", "46 chromosomes", None),
    ],
)
def test_a_count_of_groups_never_states_the_things_count(
    window: str, obj: str, written: str | None
) -> None:
    assert counted_slot(window, obj) == written


def test_offline_reads_no_contradiction_from_a_count_of_pairs() -> None:
    """ "19 chromosome pairs" is no rival of "38 chromosomes"; "23 pairs" states no 23."""
    facts = {
        "Pigs have 38 chromosomes.": "Since pigs have 19 chromosome pairs, they vary.",
        "Humans have 23 chromosomes.": "Humans have 23 chromosome pairs.",
    }
    for claim, passage in facts.items():
        report = triqua.check(claim, documents=[passage], cache=False, store=False)
        statuses = [u.status for r in report.records for u in r.verdict.unit_verdicts]
        assert statuses and set(statuses) == {Status.INSUFFICIENT}, (claim, statuses)


def test_the_part_reading_states_the_parts_kind_only() -> None:
    """The reading of "23 of them gold" states 23 gold medals on the grounding rule's gates."""
    reading = "He won 23 Olympic gold medals."
    gold = FactUnit(kind="base", subject="He", relation="won", object="23 Olympic gold medals")
    medals = FactUnit(kind="base", subject="He", relation="won", object="23 Olympic medals")
    assert unit_refusal(gold, reading) is None
    why = unit_refusal(medals, reading)
    assert why is not None and "23 gold medals" in why, why


def test_a_sentence_writing_the_objects_own_count_states_it_beside_the_whole() -> None:
    """ "ten Olympic medals, including nine gold medals" contradicts no "nine gold medals"."""
    assert states_count(LEWIS, "nine Olympic gold medals")
    assert states_count(PHELPS, "23 Olympic gold medals")  # the part's reading
    assert not states_count(LEWIS, "nine Olympic medals")
    assert not states_count(LEWIS, "the Olympic title")


def test_offline_reads_no_contradiction_from_the_wholes_count() -> None:
    passage = f"Carl Lewis is an American sprinter. {LEWIS}"
    report = triqua.check(
        "Carl Lewis won nine Olympic gold medals.", documents=[passage], cache=False, store=False
    )
    statuses = [u.status for r in report.records for u in r.verdict.unit_verdicts]
    assert statuses and Status.CONTRADICTED not in statuses, statuses


def test_a_number_between_a_and_a_singular_noun_labels_it_and_counts_nothing() -> None:
    """ "a 2003 romantic comedy film" is one film of 2003: no count, no rival count."""
    assert counts("Down with Love is a 2003 romantic comedy film.") == frozenset()
    assert counts("It is a 1992 film.") == frozenset()
    film = "Down with Love is a 2003 romantic comedy film."
    assert counted_slot(film, "a 2003 comedy film") is None
    why = refusal(
        Fact(subject="Down with Love", relation="is", object="a 2003 comedy film"),
        "Down with Love is a 2003 romantic comedy film.",
    )
    assert why is None, why


def test_a_number_before_a_plural_noun_still_counts_it() -> None:
    (count,) = counts("The tower has 163 floors.")
    assert (count.number, count.noun) == ("163", "floor")
    (one,) = counts("He won one medal.")
    assert (one.number, one.noun) == ("1", "medal")


@pytest.mark.parametrize(
    ("window", "obj"),
    [
        ("He won two consecutive Ligue 1 titles in 2011 and 2012.", "a Ligue 1 title"),
        ("The team has won three Formula 1 championships.", "a Formula 1 championship"),
    ],
)
def test_digits_closing_a_name_count_nothing(window: str, obj: str) -> None:
    """ "Ligue 1" is a league's name: "two Ligue 1 titles" counts two titles, not one."""
    assert all(c.number != "1" for c in counts(window))
    assert counted_slot(window, obj) is None


@pytest.mark.parametrize(
    ("window", "obj", "rival"),
    [
        ("In 2010 he won 5 bronze medals.", "5 medals", "5 bronze medals"),
        ("In Ligue 1 he scored 12 headed goals.", "12 goals", "12 headed goals"),
    ],
)
def test_digits_after_a_common_word_still_count(window: str, obj: str, rival: str) -> None:
    """A number after a verb counts as before: "5 bronze medals" states no "5 medals"."""
    assert counted_slot(window, obj) == rival
