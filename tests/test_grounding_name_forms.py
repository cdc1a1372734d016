"""The grounding rule reads a name in its other forms, and not inside another one's.

An acronym stands for the name it spells only where the passage spells it as no other name;
a person's name written only inside a longer name ("Trump Tower", "Elizabeth Taylor") is
not the person.
"""

from __future__ import annotations

import pytest

from triqua.core.grounding.rule import check_quote
from triqua.core.reading.quote_values import missing_values
from triqua.schema import FactUnit, Status
from triqua.testing.readers import EntailingReader


def base(subject: str, relation: str, obj: str) -> FactUnit:
    return FactUnit(kind="base", subject=subject, relation=relation, object=obj)


US_PASSAGE = "The U.S. has fifty states. "


@pytest.mark.parametrize(
    ("unit", "before", "quote", "lacking"),
    [
        # An acronym is carried by the name it stands for, written whole.
        (base("Michigan", "is", "a U.S. state"), US_PASSAGE,
         "Michigan is a state in the Midwestern regions of the United States", []),
        (base("Michigan", "is", "a U.S. state"), "",
         "Michigan is a state in the Midwestern regions of the United States", []),
        (base("Ada Lind", "lived in", "the USA"), "",
         "Ada Lind lived in the United States of America", []),
        (base("Ada Lind", "worked for", "NASA"), "",
         "Ada Lind worked for the National Aeronautics and Space Administration", []),
        # Another name's initials do not carry it.
        (base("Michigan", "is", "a U.S. state"), US_PASSAGE,
         "Michigan is a state in the Midwestern regions of the United Kingdom", ["u s"]),
        (base("Ada Lind", "worked for", "NASA"), "", "Ada Lind worked for the National "
         "Science Foundation", ["nasa"]),
        # Initials are ambiguous: letters the passage spells as another name carry nothing.
        (base("Construction Time Again", "was released in", "1947"),
         "The Chicago Transit Authority runs the city's buses. ", "CTA was released in 1947",
         ["construction time again"]),
        (base("Ada Lind", "worked for", "the CTA"), "She rode the Chicago Transit Authority. ",
         "Ada Lind worked for the California Teachers Association", ["cta"]),
    ],
)  # fmt: skip
def test_an_acronym_is_carried_by_the_name_it_spells(
    unit: FactUnit, before: str, quote: str, lacking: list[str]
) -> None:
    assert missing_values(unit, quote, before) == lacking


def test_a_name_is_carried_by_its_acronym() -> None:
    unit = base("The Colosseum", "is in", "the United States")
    before = "The United States has no amphitheatre as old. "
    assert missing_values(unit, "The Colosseum is in Rome, not in the U.S.", before) == []
    assert missing_values(unit, "The Colosseum is in Rome, not in the U.K.", before) == [
        "united states"
    ]
    assert missing_values(unit, "The Colosseum is in Rome, not in the U.S.") == []
    unit = base("Construction Time Again", "was released in", "1983")
    assert missing_values(unit, "CTA was released in 1983") == []
    album = "Construction Time Again is an album. "
    assert missing_values(unit, "CTA was released in 1983", album) == []
    transit = "The Chicago Transit Authority runs the city's buses. "
    assert missing_values(unit, "CTA was released in 1983", transit) == ["construction time again"]


def assert_subject_lacking(unit: FactUnit, passage: str, quote: str) -> None:
    """The quote grounds nothing of ``unit``: its subject is not the one the quote names."""
    outcome = check_quote(
        unit, Status.SUPPORTED, ["e"], quote, {"e": passage}, reader=EntailingReader()
    )
    assert not outcome.ok
    assert outcome.reason == f"quote lacks value {unit.subject.lower()}"


@pytest.mark.parametrize(
    ("unit", "passage", "quote"),
    [
        # A building, a company or another person named after (or with) the subject.
        (base("Donald Trump", "is located on", "Fifth Avenue"),
         "Donald Trump is a real estate developer. Trump Tower is located on Fifth Avenue.",
         "Trump Tower is located on Fifth Avenue."),
        (base("Donald Trump", "opened in", "1983"), "Trump Tower opened in 1983.",
         "Trump Tower opened in 1983."),
        (base("Queen Elizabeth", "was born in", "1932"), "Elizabeth Taylor was born in 1932.",
         "Elizabeth Taylor was born in 1932."),
    ],
)  # fmt: skip
def test_a_name_written_only_inside_a_longer_one_is_not_the_person(
    unit: FactUnit, passage: str, quote: str
) -> None:
    assert_subject_lacking(unit, passage, quote)


@pytest.mark.parametrize(
    ("unit", "quote"),
    [
        (base("Isaac Newton", "published", "Principia"), "Isaac Newton's Principia appeared."),
        (base("Martin Luther King", "was born in", "Atlanta"),
         "Martin Luther King Jr. was born in Atlanta."),
        (base("Martin Luther King Jr.", "was born in", "Atlanta"),
         "Martin Luther King Jr. was born in Atlanta."),
        (base("Sammy Davis Jr.", "was born in", "Harlem"), "Sammy Davis Jr. was born in Harlem."),
        (base("Toyota", "is headquartered in", "Aichi"), "Toyota City is in Aichi."),
        # Post-nominal letters close a name as "Jr." does.
        (base("Bruce Shand", "was", "an officer in the British Army"),
         "Major Bruce Middleton Hope Shand MC (1917 - 2006) was an officer in the British Army."),
        (base("Ada Brook", "was", "a chemist"), "Dame Ada Brook OBE was a chemist."),
    ],
)  # fmt: skip
def test_a_name_closing_its_run_or_a_things_own_name_is_written(unit: FactUnit, quote: str) -> None:
    values = missing_values(unit, quote)
    assert unit.subject.lower().rstrip(".") not in values


@pytest.mark.parametrize(
    ("unit", "passage", "quote"),
    [
        # Another title before the same surname is another office holder.
        (base("President Clinton", "was born in", "Chicago"),
         "Senator Clinton was born in Chicago.", "Senator Clinton was born in Chicago."),
        (base("President Bush", "was born in", "1953"), "Governor Bush was born in 1953.",
         "Governor Bush was born in 1953."),
        # A title and surname are whoever the passage named last with that surname.
        (base("Ronald Reagan", "was born in", "1921"),
         "President Ronald Reagan married Nancy Reagan. Mrs. Reagan was born in 1921.",
         "Mrs. Reagan was born in 1921."),
    ],
)  # fmt: skip
def test_a_title_does_not_make_another_holder_of_the_surname_the_subject(
    unit: FactUnit, passage: str, quote: str
) -> None:
    assert_subject_lacking(unit, passage, quote)


@pytest.mark.parametrize(
    ("unit", "passage", "quote"),
    [
        (base("President Clinton", "was born in", "Hope"),
         "President Bill Clinton was born in Hope.", "President Bill Clinton was born in Hope."),
        (base("Ronald Reagan", "was born in", "Tampico"),
         "Nancy Reagan married Ronald Reagan. President Reagan was born in Tampico.",
         "President Reagan was born in Tampico."),
    ],
)  # fmt: skip
def test_a_title_aside_the_surname_still_writes_the_subject(
    unit: FactUnit, passage: str, quote: str
) -> None:
    outcome = check_quote(
        unit, Status.SUPPORTED, ["e"], quote, {"e": passage}, reader=EntailingReader()
    )
    assert outcome.ok, outcome.reason


def qualifier(subject: str, relation: str, obj: str, key: str, value: str) -> FactUnit:
    return FactUnit(
        kind="qualifier", subject=subject, relation=relation, object=obj, key=key, value=value
    )


#: A unit that writes the cup in lower case reads "FIFA" as a name of its own.
CUP = qualifier(
    "Diego Maradona", "led", "Argentina", "destination", "victory in the 1986 FIFA world cup"
)


def _grounded(unit: FactUnit, passage: str, quote: str, grounding: str = "judged") -> str | None:
    outcome = check_quote(
        unit, Status.SUPPORTED, ["e"], quote, {"e": passage}, reader=EntailingReader(),
        grounding=grounding,  # type: ignore[arg-type]
    )  # fmt: skip
    return outcome.reason


def test_an_acronym_qualifying_the_name_after_it_may_be_left_out_by_default() -> None:
    quote = "Maradona captained Argentina during the 1986 World Cup."
    assert _grounded(CUP, quote, quote) is None
    # The strict rule still wants every value written.
    assert _grounded(CUP, quote, quote, "strict") == "quote lacks value fifa"


@pytest.mark.parametrize(
    ("passage", "quote"),
    [
        # Another name or acronym in the acronym's place is another cup.
        ("Maradona captained Argentina during the 1986 Rugby World Cup.", None),
        ("Maradona captained Argentina during the 1986 ICC World Cup.", None),
        # A passage that spells the letters as another name is about that one.
        ("The Federation of International Floorball Associations (FIFA) ran it. Maradona "
         "captained Argentina during the 1986 World Cup.",
         "Maradona captained Argentina during the 1986 World Cup."),
    ],
)  # fmt: skip
def test_a_near_miss_of_a_qualifying_acronym_is_refused(passage: str, quote: str | None) -> None:
    reason = _grounded(CUP, passage, quote or passage)
    assert reason == "quote lacks value fifa"


@pytest.mark.parametrize(
    ("passage", "quote"),
    [
        # A namesake captained them.
        ("Hugo Maradona captained Argentina during the 1986 World Cup.", None),
        # "He" follows a sentence about another person.
        ("Diego Maradona was a forward. Carlos Bilardo coached Argentina. He captained "
         "Argentina during the 1986 World Cup.",
         "He captained Argentina during the 1986 World Cup."),
    ],
)  # fmt: skip
def test_a_left_out_acronym_carries_no_other_subject(passage: str, quote: str | None) -> None:
    reason = _grounded(CUP, passage, quote or passage) or ""
    assert reason.startswith("quote lacks value") and "fifa" not in reason


def test_a_generational_suffix_closes_the_name_and_tells_father_from_son() -> None:
    son = base("Martin Luther King Jr.", "was born in", "Atlanta")
    assert missing_values(son, "Martin Luther King Jr. was born in Atlanta.") == []
    assert missing_values(son, "Martin Luther King Sr. was born in Atlanta.") == [
        "martin luther king jr"
    ]


BPE = base("Byte Pair Encoding", "is used in", "natural language processing")
BPE_QUOTE = "It was also employed in natural language processing models."


@pytest.mark.parametrize(
    ("before", "lacking"),
    [
        # The acronym after a name is that name again: "It" still refers to it.
        ("Byte Pair Encoding (BPE) is a simple form of data compression. ", []),
        # A sentence naming it by its acronym goes on about it.
        ("Byte pair encoding (BPE) is a form of compression. There is an example of using"
         " BPE on a string. ", []),
        # Another name with its own acronym beside it: "It" may be either.
        ("Byte Pair Encoding (BPE) is a simple form of data compression. The Huffman Coding"
         " (HC) came first. ", ["byte pair encoding"]),
        ("Byte Pair Encoding and Huffman Coding (HC) are forms of compression. ",
         ["byte pair encoding"]),
        # The same letters spelling another name carry nothing.
        ("Byte Pair Encoding (BPE) is a form of compression. Brian Paul Evans (BPE) liked"
         " it. ", ["byte pair encoding"]),
    ],
)  # fmt: skip
def test_a_pronoun_refers_past_the_names_own_acronym(before: str, lacking: list[str]) -> None:
    assert missing_values(BPE, BPE_QUOTE, before, classes=True, owners=True) == lacking


def qualifier(subject: str, relation: str, obj: str, key: str, value: str) -> FactUnit:
    return FactUnit(
        kind="qualifier", subject=subject, relation=relation, object=obj, key=key, value=value
    )


@pytest.mark.parametrize(
    ("unit", "before", "quote", "lacking"),
    [
        # A possessive closes its name: "his Ph.D." carries "Travis Oliphant's Ph.D.".
        (base("Travis Oliphant", "received", "Travis Oliphant's Ph.D."),
         "Travis Oliphant is a data scientist. ",
         "He received his Ph.D. in Electrical Engineering in 2001.", []),
        # ... and the degree itself must still be written.
        (base("Travis Oliphant", "received", "Travis Oliphant's Ph.D."),
         "Travis Oliphant is a data scientist. ", "He received his M.Sc. in 2001.", ["ph d"]),
        # A qualifier's possessor naming its subject is the subject, carried by "He".
        (qualifier("Jesse Foppert", "made", "Jesse Foppert's Major League debut",
                   "point in time", "2003"),
         "Jesse Foppert is a baseball player. He was drafted by the San Francisco Giants. ",
         "He made his Major League debut with the Giants in 2003.", []),
        (qualifier("Jesse Foppert", "made", "Jesse Foppert's Major League debut",
                   "point in time", "2003"),
         "Jesse Foppert is a baseball player. ",
         "Tim Lincecum made his Major League debut with the Giants in 2003.", ["jesse foppert"]),
        # A particle is a word of the name: "bin Laden" is Osama bin Laden.
        (base("Osama bin Laden", "founded", "al-Qaeda"), "",
         "However, bin Laden founded al-Qaeda in 1988.", []),
        # A number word opening a name is carried by the name written word for word.
        (base("One Direction", "went on", "hiatus"), "Liam Payne is a singer. ",
         "After One Direction went on hiatus in 2016, Payne launched a solo career.", []),
        (base("One Direction", "went on", "hiatus"), "Liam Payne is a singer. ",
         "After the band went on hiatus in 2016, Payne launched a solo career.",
         ["One", "one direction"]),
    ],
)  # fmt: skip
def test_a_name_is_read_through_its_particles_possessives_and_number_words(
    unit: FactUnit, before: str, quote: str, lacking: list[str]
) -> None:
    assert missing_values(unit, quote, before, classes=True, owners=True) == lacking
