"""The offline verifier and the grounding rule read the acronyms a passage spells alike.

"U.S." names "the United States" in both checks: the verifier's analysis of a sentence
(``core.reading.analysis``) and the grounding rule's value gate (``core.reading.acronyms``)
take the initials from one reader, so a name the one spells out the other does too.
"""

from __future__ import annotations

import pytest

from triqua.core.reading.acronyms import (
    own_acronym,
    qualifies,
    qualifies_name,
    spelled_initials,
    spelled_out,
)
from triqua.core.reading.analysis import analyse
from triqua.core.reading.name_match import name_words_in

PASSAGES = [
    "Alaska is a state of the United States.",
    "the United States Supreme Court ruled",
    "The United Nations met in New York.",
    "He studied at the University of Sydney.",
    "The Bank of England Act passed.",
    "The North Atlantic Treaty Organization grew.",
]


@pytest.mark.parametrize("passage", PASSAGES)
def test_both_checks_read_the_same_initials(passage: str) -> None:
    read = analyse(passage).acronyms
    assert read == spelled_initials(passage)
    for letters in read:
        assert spelled_out(letters, passage)


@pytest.mark.parametrize(
    ("passage", "letters", "spelled"),
    [
        ("the United States Supreme Court ruled", "us", True),
        ("the United States Supreme Court ruled", "ussc", True),
        ("The United Nations met in New York.", "un", True),
        ("The United Nations met in New York.", "tu", False),  # "The" gives no initial
        ("The Bank of England Act passed.", "bea", True),  # "of" inside a name
        ("He studied at the University of Sydney.", "us", False),  # two letters, a word apart
    ],
)
def test_a_passage_spells_the_initials_of_its_names(
    passage: str, letters: str, spelled: bool
) -> None:
    assert (letters in analyse(passage).acronyms) is spelled


@pytest.mark.parametrize(
    ("part", "sentence", "before", "named"),
    [
        ("a state of the United States", "Alaska is a U.S. state.", "", True),
        ("a U.S. state", "Alaska is a state of the United States.", "", True),
        ("Construction Time Again", "Depeche Mode released CTA.", "", True),
        (
            "Construction Time Again",
            "Depeche Mode released CTA.",
            "The Chicago Transit Authority.",
            False,
        ),
        (
            "CTA",
            "Depeche Mode released Construction Time Again.",
            "The Chicago Transit Authority.",
            False,
        ),
        ("the United Kingdom", "Alaska is a U.S. state.", "", False),
    ],
)
def test_a_part_s_name_is_named_by_its_acronym_and_its_acronym_by_the_name(
    part: str, sentence: str, before: str, named: bool
) -> None:
    assert name_words_in(analyse(part), analyse(sentence), before) is named


#: (the unit's text, the acronym it writes, quote, passage before it, carried): an acronym
#: that only qualifies the name after it is left out of that name, and only then.
QUALIFYING = [
    ("victory in the 1986 FIFA world cup", "fifa",
     "Maradona captained Argentina during the 1986 World Cup.", "", True),
    ("won the 1986 FIFA World Cup", "fifa", "The World Cup of 1986 was won by Argentina.", "",
     True),
    ("worked for the NASA Space Flight Center", "nasa",
     "She worked at the Goddard Space Flight Center.", "", False),  # another name before it
    ("won the 1986 FIFA World Cup", "fifa", "Argentina won the 1986 Rugby World Cup.", "",
     False),
    ("won the 1986 FIFA World Cup", "fifa", "Argentina won the 1986 ICC World Cup.", "",
     False),  # another acronym in its place
    ("won the FIFA World Cup", "fifa", "Argentina won the Women's World Cup.", "", False),
    ("won the 1986 FIFA world cup", "fifa", "Argentina won the 1986 world cup.", "", False),
    ("won the 1999 FIFA World Cup", "fifa", "Sweden won the 1999 World Cup.",
     "The Federation of International Floorball Associations (FIFA) met.", False),
    ("won the FA Cup", "fa", "Arsenal won the Cup.", "", False),  # one word is no name
    ("joined the US Air Force", "us", "Ann joined the Air Force.", "", False),  # a country's
]  # fmt: skip


@pytest.mark.parametrize(
    ("said", "letters", "quote", "before", "carried"),
    QUALIFYING,
    ids=[f"{q[0]}<-{q[2]}" for q in QUALIFYING],
)
def test_an_acronym_qualifying_a_name_may_be_left_out_of_it(
    said: str, letters: str, quote: str, before: str, carried: bool
) -> None:
    assert qualifies(letters, said, quote, before) is carried


#: (the object, the acronym it writes, the window's sentence, named): the value gate leaves
#: out an acronym of any length that only qualifies the capitalised name after it, when the
#: window writes that name bare; never when another name or acronym stands in its place.
QUALIFYING_NAMES = [
    ("a female U.S. Supreme Court justice", "us",
     "Discover the story of the Supreme Court’s first female justice.", True),
    ("a U.S. Supreme Court justice", "us", "She was sworn in on the Supreme Court in 1981.",
     True),
    ("the U.S. Air Force", "us", "He joined the Air Force in 1950.", True),
    ("a female U.S. Supreme Court justice", "us",
     "She was the first female justice of the Texas Supreme Court.", False),
    ("the U.S. Air Force", "us", "He joined the Royal Air Force in 1950.", False),
    ("the U.S. Air Force", "us", "He joined the Indian Air Force in 1950.", False),
    ("the U.S. Open", "us", "She won the Open in 1990.", False),  # one word is no name
    ("a U.S. Supreme Court justice", "us", "She was a supreme court justice.", False),
]  # fmt: skip


@pytest.mark.parametrize(
    ("part", "letters", "sentence", "named"),
    QUALIFYING_NAMES,
    ids=[f"{q[0]}<-{q[2]}" for q in QUALIFYING_NAMES],
)
def test_the_value_gate_leaves_out_an_acronym_that_only_qualifies_a_name(
    part: str, letters: str, sentence: str, named: bool
) -> None:
    assert qualifies_name(letters, part, sentence) is named
    assert name_words_in(analyse(part), analyse(sentence)) is named


@pytest.mark.parametrize(
    ("acronym", "name", "own"),
    [
        ("BPE", "Byte Pair Encoding", True),
        ("BPE", "byte pair encoding", True),
        ("U.S.A.", "United States of America", True),
        ("HC", "Byte Pair Encoding", False),
        ("Bpe", "Byte Pair Encoding", False),  # not written as an acronym
        ("UN", "Union", False),  # one word spells no acronym
    ],
)
def test_own_acronym_spells_the_names_initials(acronym: str, name: str, own: bool) -> None:
    assert own_acronym(acronym, name) is own


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        ("Brenda Hale was President of the UK Supreme Court.", "us"),
        ("The NASA Ames Research Center is in California.", "na"),
    ],
)
def test_an_acronym_gives_no_initial_to_the_words_beside_it(text: str, absent: str) -> None:
    assert absent not in spelled_initials(text)
    assert "sc" in spelled_initials("the UK Supreme Court") | spelled_initials(
        "the United States Supreme Court"
    )


def test_an_undotted_us_is_a_name_word_the_name_gate_checks() -> None:
    part = analyse("the US Supreme Court")
    assert "us" in {t.stem for t in part.content}
    other = analyse("Brenda Hale served as President of the UK Supreme Court from 2017 to 2020.")
    assert not name_words_in(part, other)
    own = analyse("Sonia Sotomayor has served on the US Supreme Court since 2009.")
    assert name_words_in(part, own)
    spelled = analyse("Sonia Sotomayor has served on the United States Supreme Court since 2009.")
    assert name_words_in(part, spelled)


def test_a_text_in_capitals_keeps_its_function_words_out_of_its_content() -> None:
    assert "us" not in {t.stem for t in analyse("GIVE US THE VOTE").content}
    assert "us" not in {t.stem for t in analyse("They told us the news.").content}


def test_a_name_s_last_words_after_another_name_word_do_not_name_it() -> None:
    from triqua.core.reading.name_match import name_match

    other = analyse("Brenda Hale served as President of the UK Supreme Court.")
    assert name_match(analyse("the U.S. Supreme Court"), other) == 0.0
    assert name_match(analyse("the US Supreme Court"), other) == 0.0
    spelled = analyse("Sotomayor joined the United States Supreme Court in 2009.")
    assert name_match(analyse("the US Supreme Court"), spelled) > 0.0
    assert name_match(analyse("Marie Curie"), analyse("Pierre and Marie Curie met.")) > 0.0
    assert name_match(analyse("Marie Curie"), analyse("Pierre Curie was born in Paris.")) == 0.0
