"""The grounding rule names the one a sentence is about: not a possessor, not a longer name,
not someone with other initials, not a lower-case common word."""

from __future__ import annotations

import pytest

from triqua.core.grounding.rule import check_quote
from triqua.core.reading.quote_values import missing_values
from triqua.schema import FactUnit, Status
from triqua.testing.readers import EntailingReader


def base(subject: str, relation: str, obj: str) -> FactUnit:
    return FactUnit(kind="base", subject=subject, relation=relation, object=obj)


def reason(unit: FactUnit, quote: str) -> str | None:
    """The downgrade reason for a supported unit quoting ``quote`` whole, or None."""
    outcome = check_quote(unit, Status.SUPPORTED, ["ev-1"], quote, {"ev-1": quote})
    return None if outcome.ok else outcome.reason


@pytest.mark.parametrize(
    ("unit", "quote", "lacking"),
    [
        # A possessor is another person than the one the clause is about.
        (base("Pierre Curie", "won", "the Nobel Prize in Chemistry"),
         "Curie, Pierre's wife Marie, won the Nobel Prize in Chemistry", "pierre curie"),
        (base("Pierre Curie", "won", "the Nobel Prize in Chemistry"),
         "Pierre Curie's wife Marie won the Nobel Prize in Chemistry", "pierre curie"),
        # A longer name is another place: a compass point or "New" before it, a suffix after.
        (base("Sudan", "borders", "Ethiopia"), "South Sudan borders Ethiopia", "sudan"),
        (base("Virginia", "borders", "Ohio"), "West Virginia borders Ohio", "virginia"),
        (base("South Sudan", "borders", "Ethiopia"), "Sudan borders Ethiopia", "south sudan"),
        (base("Niger", "borders", "Chad"), "Nigeria borders Chad", "niger"),
        (base("Chad", "borders", "Niger"), "Chad borders Nigeria", "niger"),
        # Initials that differ name another person.
        (base("George H. W. Bush", "was", "president"), "George W. Bush was president",
         "george h w bush"),
        (base("George W. Bush", "was", "president"), "George H. W. Bush was president",
         "george w bush"),
        # A capitalised name is not carried by a lower-case common word.
        (base("Ravi", "sells", "Apple phones"), "Ravi sells apple phones", "apple"),
        (base("Ravi", "photographed", "Bush"), "Ravi photographed a bush", "bush"),
        (base("The Bush family", "owned", "a ranch"), "The bush family owned a ranch", "bush"),
    ],
)  # fmt: skip
def test_another_referent_does_not_carry_the_name(unit: FactUnit, quote: str, lacking: str) -> None:
    assert reason(unit, quote) == f"quote lacks value {lacking}"


@pytest.mark.parametrize(
    ("unit", "quote"),
    [
        (base("Pierre Curie", "won", "the Nobel Prize in Physics"),
         "Pierre Curie won the Nobel Prize in Physics"),
        (base("Obama", "was born in", "Hawaii"), "Barack Obama was born in Hawaii"),
        (base("Barack Obama's father", "was from", "Kenya"), "Obama's father was from Kenya"),
        (base("Paris", "is the capital of", "France"), "Paris is France's capital"),
        (base("Marie Curie", "won", "the Nobel Prize"),
         "Marie Skłodowska Curie won the Nobel Prize"),
        (base("Curie", "won", "the Nobel Prize"), "Marie Curie won the Nobel Prize"),
        (base("Sudan", "borders", "Ethiopia"), "Sudan borders Ethiopia"),
        (base("Ravi", "cooks", "Japan food"), "Ravi cooks Japanese food"),
        (base("George W. Bush", "was", "president"), "President George W. Bush was in office"),
        (base("George Bush", "was", "president"), "George W. Bush was president"),
        (base("Recruiters", "screen", "candidates"), "A recruiter screens candidates"),
    ],
)  # fmt: skip
def test_the_same_referent_carries_the_name(unit: FactUnit, quote: str) -> None:
    assert reason(unit, quote) is None


@pytest.mark.parametrize(
    ("subject", "passage", "stands"),
    [
        # The passage names another Curie in full, never Pierre: its "Curie" is Marie.
        ("Pierre Curie", "Marie Curie was a physicist. Curie won the Nobel Prize in Chemistry.",
         False),
        ("Marie Curie", "Marie Curie was a physicist. Curie won the Nobel Prize in Chemistry.",
         True),
        # Named in full before, the surname is theirs unless another Curie is named after.
        ("Pierre Curie", "Pierre Curie married Marie Curie. Curie won the Nobel Prize in "
         "Chemistry.", False),
        ("Marie Curie", "Pierre Curie married Marie Curie. Curie won the Nobel Prize in "
         "Chemistry.", True),
        ("Pierre Curie", "Marie Curie married Pierre Curie. Curie won the Nobel Prize in "
         "Chemistry.", True),
        ("Pierre Curie", "Curie won the Nobel Prize in Chemistry.", True),
    ],
)  # fmt: skip
def test_a_surname_the_passage_gives_to_another_person_does_not_name_the_subject(
    subject: str, passage: str, stands: bool
) -> None:
    unit = base(subject, "won", "the Nobel Prize in Chemistry")
    quote = "Curie won the Nobel Prize in Chemistry"
    outcome = check_quote(unit, Status.SUPPORTED, ["ev-1"], quote, {"ev-1": passage})
    assert outcome.ok is stands


@pytest.mark.parametrize(
    ("title", "stands"),
    [('"Sense and Prejudice"', False), ('"Sense and Sensibility"', True),
     ("“Pride and Prejudice”", True)],
)  # fmt: skip
def test_a_quoted_title_must_be_written_whole(title: str, stands: bool) -> None:
    quote = "Jane Austen wrote Pride and Prejudice and Sense and Sensibility"
    outcome = reason(base("Jane Austen", "wrote", title), quote)
    assert (outcome is None) is stands
    if not stands:
        assert "Sense and Prejudice" in (outcome or "")


@pytest.mark.parametrize(
    ("subject", "quote", "stands"),
    [
        ("Elizabeth I", "Elizabeth II was Queen of England", False),
        ("Elizabeth II", "Elizabeth I was Queen of England", False),
        ("Henry VIII", "Henry VII was King of England", False),
        ("Elizabeth I", "Elizabeth I was Queen of England", True),
        ("Queen Elizabeth II", "Elizabeth II was Queen of England", True),
    ],
)
def test_another_numeral_is_another_monarch(subject: str, quote: str, stands: bool) -> None:
    title = "King of England" if "King" in quote else "Queen of England"
    assert (reason(base(subject, "was", title), quote) is None) is stands


@pytest.mark.parametrize(
    ("subject", "quote", "stands"),
    [
        # A subject of three words is called by its surname alone once named.
        ("Sandra Day O'Connor", "O'Connor was confirmed unanimously by the Senate", True),
        ("John Paul Jones", "Jones was confirmed unanimously by the Senate", True),
        # Another person of that surname, or a longer name, is still someone else.
        ("Sandra Day O'Connor", "Brian O'Connor was confirmed unanimously by the Senate",
         False),
        ("Sandra Day O'Connor", "o'connor was confirmed unanimously by the Senate", False),
        ("Henry Ward Beecher", "Harriet Beecher Stowe was confirmed unanimously by the Senate",
         False),
    ],
)  # fmt: skip
def test_a_long_subject_is_carried_by_its_surname(subject: str, quote: str, stands: bool) -> None:
    unit = base(subject, "was confirmed by", "the Senate")
    assert (reason(unit, quote) is None) is stands


_NOMINATION = (
    "During the campaign, Emil Haddad promised to nominate a woman to the court. "
    "He made good on that promise in 1981, when he announced Ada Novak's nomination. "
    "Novak's confirmation Hearings were broadcast live, and she was confirmed."
)


@pytest.mark.parametrize(
    ("before", "carried"),
    [
        # The sentence right before names the base object "He" stands for.
        ("During the campaign, Emil Haddad promised to nominate a woman to the court. ", True),
        # Named further back, or not at all, it is not carried.
        ("Emil Haddad promised to nominate a woman. Lise Brandt opposed it. ", False),
        ("During the campaign, a woman was promised a seat on the court. ", False),
    ],
)
def test_a_pronoun_carries_a_qualifier_s_base_object_named_right_before(
    before: str, carried: bool
) -> None:
    unit = FactUnit(
        kind="qualifier", subject="Ada Novak", relation="was nominated by",
        object="President Emil Haddad", label="point in time", value="1981",
    )  # fmt: skip
    quote = _NOMINATION.split(". ", 1)[1]
    lacking = missing_values(unit, quote, before)
    assert (lacking == []) is carried
    if not carried:
        assert lacking == ["president emil haddad"]


@pytest.mark.parametrize(
    ("passage", "stands"),
    [
        # The passage names her, and the surname after it is hers.
        ("Sandra Day O'Connor was a justice. O'Connor was born in El Paso.", True),
        # Only another O'Connor is named before: the surname is his.
        ("The writer Frank O'Connor was Irish. O'Connor was born in El Paso.", False),
        # Another O'Connor is named after her and right before the surname: it is his.
        (
            "Sandra Day O'Connor was a justice. The writer Frank O'Connor was Irish. "
            "O'Connor was born in El Paso.",
            False,
        ),
        (
            "Marie Curie was a chemist. Pierre Curie was a physicist. Curie was born in Paris.",
            False,
        ),
    ],
)
def test_a_surname_alone_is_the_one_named_last_before_it(passage: str, stands: bool) -> None:
    quote = passage.rsplit(". ", 1)[1]
    subject = "Marie Curie" if "Curie" in passage else "Sandra Day O'Connor"
    unit = base(subject, "was born in", "Paris" if "Curie" in passage else "El Paso")
    outcome = check_quote(unit, Status.SUPPORTED, ["e"], quote, {"e": passage})
    assert outcome.ok is stands, outcome.reason


@pytest.mark.parametrize(
    ("passage", "quote", "lacking"),
    [
        # The base object and the year are written, said of another person.
        ("Albert Einstein was born in Ulm in 1879.", "Albert Einstein was born in Ulm in 1879",
         ["isaac newton"]),
        ("The writer Frank Newton was Irish. Newton was born in Ulm in 1879.",
         "Newton was born in Ulm in 1879", ["isaac newton"]),
        # A pronoun says it of someone: of the one named right before, or of no one known.
        ("Isaac Newton was a physicist. Albert Einstein was a German physicist. "
         "He was born in Ulm in 1879.", "He was born in Ulm in 1879", ["isaac newton"]),
        ("He was born in Ulm in 1879.", "He was born in Ulm in 1879", ["isaac newton"]),
        # Said of the subject, by name or by a pronoun, or of no one else: carried.
        ("Isaac Newton was born in Ulm in 1879.", "Isaac Newton was born in Ulm in 1879", []),
        ("Isaac Newton was a physicist. He was born in Ulm in 1879.",
         "He was born in Ulm in 1879", []),
        ("Ulm saw a famous birth in 1879.", "Ulm saw a famous birth in 1879", []),
    ],
)  # fmt: skip
def test_a_qualifier_said_of_another_subject_lacks_its_base_subject(
    passage: str, quote: str, lacking: list[str]
) -> None:
    unit = FactUnit(
        kind="qualifier", subject="Isaac Newton", relation="was born in", object="Ulm",
        label="point in time", value="1879",
    )  # fmt: skip
    before = passage[: passage.index(quote)]
    assert missing_values(unit, quote, before) == lacking


_RIVAL = (
    "During the campaign, Emil Haddad promised to nominate a woman to the court. "
    "He lost the election in 1981, when Ada Novak was nominated by {slot}."
)


@pytest.mark.parametrize(
    ("slot", "stands"),
    [
        # "his rival" holds the relation's slot: Ada Novak was not nominated by Haddad.
        ("his rival", False),
        ("a rival of his", False),
        # The slot refers back to him, or names him: the window gives him the relation.
        ("him", True),
        ("President Emil Haddad", True),
    ],
)
@pytest.mark.parametrize("rule", ["judged", "judge", "strict"])
def test_the_object_must_hold_the_relation_s_slot(slot: str, stands: bool, rule: str) -> None:
    passage = _RIVAL.format(slot=slot)
    quote = passage.split(". ", 1)[1]
    unit = FactUnit(
        kind="qualifier", subject="Ada Novak", relation="was nominated by",
        object="Emil Haddad", label="point in time", value="1981",
    )  # fmt: skip
    outcome = check_quote(
        unit, Status.SUPPORTED, ["e"], quote, {"e": passage}, reader=EntailingReader(),
        grounding=rule,  # type: ignore[arg-type]
    )  # fmt: skip
    assert outcome.ok is stands, outcome.reason
    if not stands:
        assert outcome.reason is not None and "relation's slot" in outcome.reason


@pytest.mark.parametrize(
    ("subject", "quote"),
    [
        # A letter with a stroke is its base letter, as an accented one is.
        ("Marie Skłodowska Curie", "Marie Sklodowska Curie was born in Warsaw"),
        ("Marie Sklodowska Curie", "Marie Skłodowska Curie was born in Warsaw"),
        ("Søren Kierkegaard", "Soren Kierkegaard was born in Copenhagen"),
        ("Lech Wałęsa", "Lech Walesa was born in Popowo"),
    ],
)
def test_a_name_is_matched_without_its_accents_or_strokes(subject: str, quote: str) -> None:
    city = quote.rsplit(" ", 1)[1]
    assert reason(base(subject, "was born in", city), quote) is None


@pytest.mark.parametrize(
    ("obj", "quote", "lacking"),
    [
        # A title is no word of the name: the surname alone writes it, as for any person.
        ("President Emil Haddad", "In 1981 Haddad nominated Ada Novak", []),
        # Another person with that surname does not.
        ("President Emil Haddad", "In 1981 Lina Haddad nominated Ada Novak",
         ["president emil haddad"]),
    ],
)  # fmt: skip
def test_a_title_is_no_word_of_the_name(obj: str, quote: str, lacking: list[str]) -> None:
    assert missing_values(base("Ada Novak", "was nominated by", obj), quote) == lacking


@pytest.mark.parametrize(
    ("before", "lacking"),
    [
        ("Justice Emil Haddad served on the Supreme Court. ", []),
        ("Lina Brandt was a justice. ", ["justice emil haddad"]),
    ],
)
def test_a_qualifier_value_naming_the_subject_is_carried_as_the_subject(
    before: str, lacking: list[str]
) -> None:
    unit = FactUnit(
        kind="qualifier", subject="Justice Emil Haddad", relation="served on",
        object="the Supreme Court", label="end time",
        value="Justice Emil Haddad's retirement in 1975",
    )  # fmt: skip
    quote = "He served on the Supreme Court from 1939 to 1975."
    assert missing_values(unit, quote, before) == lacking


def test_an_object_saying_something_of_a_name_is_read_by_the_judge_not_the_slot() -> None:
    """ "his roles" is how a window writes "Doug Sheehan's roles": no other holder."""
    unit = base("Doug Sheehan", "is known for", "Doug Sheehan's roles in soap operas")
    passage = "Doug Sheehan is an actor. He is known for his roles in soap operas."
    outcome = check_quote(
        unit, Status.SUPPORTED, ["e"], passage.split(". ")[1], {"e": passage},
        reader=EntailingReader(),
    )  # fmt: skip
    assert outcome.ok, outcome.reason


ADA_MARRIED = base("Ada Lovelace", "married", "William King")
ADA_TRANSLATED = base("Ada Lovelace", "translated", "an article")
GILBERTO_LEFT = base("Gilberto Silva", "left", "Arsenal")
SITI_HELD = base("Siti Rahmah Kassim", "held", "the seat")


@pytest.mark.parametrize(
    ("unit", "quote", "before", "carried"),
    [
        # The given name alone is the person the passage (or its title) named in full.
        (ADA_TRANSLATED, "Ada translated an article.", "Ada Lovelace\n\n", True),
        (ADA_MARRIED, "She married William King in 1835.",
         "Ada Lovelace\n\nIn 1842 Ada translated an article by Luigi Menabrea. ", True),
        # Not when nothing before names her in full, nor beside another of that given name.
        (ADA_TRANSLATED, "Ada translated an article.", "", False),
        (ADA_TRANSLATED, "Ada translated an article.", "Ada Lovelace met Ada Smith. ", False),
        (ADA_MARRIED, "She married William King in 1835.",
         "Ada Byron was a poet. Ada Lovelace was his daughter. Ada translated an article. ",
         False),
        (ADA_MARRIED, "She married William King in 1835.",
         "Ada Lovelace\n\nAda Smith translated an article. ", False),
        # The name written longer, with middle names or a particle, or after a title the
        # reader does not know, is the same person; a given name of two words counts whole.
        (GILBERTO_LEFT, "He left Arsenal in 2008.",
         "Gilberto Silva\n\nGilberto Aparecido da Silva (born 1976) is a footballer. "
         "Gilberto began his career with América Mineiro. ", True),
        (GILBERTO_LEFT, "Gilberto left Arsenal in 2008.",
         "Gilberto Aparecido da Silva (born 1976) is a footballer. Gilberto Silva moved. ", True),
        (SITI_HELD, "She held the seat.",
         "Siti Rahmah Kassim\n\nDatuk Siti Rahmah Kassim was an independence fighter. "
         "Siti Rahmah began her career at 18. ", True),
        # Not another person who only shares the given name or the surname.
        (GILBERTO_LEFT, "He left Arsenal in 2008.",
         "Gilberto Silva\n\nGilberto Santos da Costa met Gilberto Silva. "
         "Gilberto began his career with América Mineiro. ", False),
        (GILBERTO_LEFT, "He left Arsenal in 2008.",
         "Gilberto Silva\n\nGilberto Carlos met Ana Silva. Gilberto began his career there. ",
         False),
        (SITI_HELD, "She held the seat.",
         "Siti Rahmah Kassim\n\nSiti Rahmah Kassim met Siti Aminah. Siti began her career. ",
         False),
    ],
)  # fmt: skip
def test_a_given_name_alone_carries_the_person_named_in_full_before(
    unit: FactUnit, quote: str, before: str, carried: bool
) -> None:
    lacking = missing_values(unit, quote, before, classes=True, owners=True)
    assert (lacking == []) is carried, lacking


def test_a_sentence_end_closes_a_name_run() -> None:
    """'… in Wilmington, Delaware. Shue is …' names no 'Delaware Shue', so 'Shue' is the
    Andrew Shue named before."""
    from triqua.core.reading.values.names import name_runs

    text = "He was born in Wilmington, Delaware. Shue is an actor."
    assert [run.name for run in name_runs(text)] == ["wilmington", "delaware", "shue"]
    unit = FactUnit(kind="base", subject="Andrew Shue", relation="married in", object="1994")
    before = "Andrew Shue is an American actor. He was born in Wilmington, Delaware. "
    assert missing_values(unit, "Shue married Jennifer Hageney in 1994.", before) == []
    assert [run.name for run in name_runs("Dr. Smith met John F. Kennedy.")] == [
        "dr smith",
        "john f kennedy",
    ]


def test_a_core_name_is_the_run_of_proper_nouns_closing_it() -> None:
    """'Born in Bastia, Corsica, Rami began …' gives the clause Rami, not 'Bastia Corsica Rami'."""
    from triqua.core.reading.reference import typed_core_names

    assert typed_core_names("Born in Bastia, Corsica, Rami began his career.") == [
        ("Rami", "PERSON")
    ]
    names = [n for n, _ in typed_core_names("Jean-Paul Sartre met Simone de Beauvoir.")]
    assert names[0] == "Jean Paul Sartre"
    # A possessor's "'s" keeps its name in the run: "Ninth Symphony" alone would be another
    # name beside Beethoven, and "It" after the sentence would refer to no one.
    names = [n for n, _ in typed_core_names("Beethoven's Ninth Symphony was his last symphony.")]
    assert names == ["Beethoven Ninth Symphony"]


def test_a_he_or_she_is_not_the_other_gender_named_just_before() -> None:
    """'Pierre Curie was a physicist. She was born in Warsaw' — she is Marie Curie, named
    before him; a 'he' after him stays his (no support of Marie Curie)."""
    unit = FactUnit(kind="base", subject="Marie Curie", relation="was born in", object="Warsaw")
    before = "Marie Curie was a chemist. Pierre Curie was a physicist. "
    assert missing_values(unit, "She was born in Warsaw.", before) == []
    assert missing_values(unit, "He was born in Warsaw.", before) == ["marie curie"]


def test_a_quoted_title_split_by_a_sentence_end_leaves_no_speech_open() -> None:
    """'the film "Dev.D" in 2009. She has since …': the title's quotes close in the passage,
    though a sentence split falls inside them, so "She" is no speaker's pronoun."""
    from triqua.core.reading.speech import open_quotation

    before = 'Kalki Koechlin is an actress. She made her debut with the film "Dev.D" in 2009. '
    assert open_quotation(before) == ""
    assert open_quotation('Einstein wrote: "I was born in Ulm. ') == '"'
    unit = FactUnit(kind="base", subject="Kalki Koechlin", relation="appeared in", object="films")
    assert missing_values(unit, "She has since appeared in films.", before) == []


def test_a_peers_title_before_the_surname_names_the_same_person() -> None:
    """'Baroness Fritchie' after 'Rennie Fritchie' is she: a title is no word of a name."""
    unit = FactUnit(kind="base", subject="Rennie Fritchie", relation="was born in", object="1942")
    before = "Rennie Fritchie is a civil servant. Baroness Fritchie chaired the board. "
    assert missing_values(unit, "She was born in 1942.", before) == []
    assert missing_values(unit, "Baroness Fritchie was born in 1942.", "") == []


@pytest.mark.parametrize(
    ("before", "carried"),
    [
        # A plural subject is none of one "she": she goes on about the one named before.
        ("Lina Medina is a Peruvian woman. Her parents thought she had a tumour. ", True),
        ("Lina Medina is a Peruvian woman. Doctors examined her in Lima. ", True),
        # A singular one may be her: "Her mother" is another woman.
        ("Lina Medina is a Peruvian woman. Her mother thought she had a tumour. ", False),
        # Nor does a plural subject carry the name across another person's sentence.
        ("Lina Medina is a Peruvian woman. Ann Smith was a nurse. Her parents moved. ", False),
    ],
)
def test_a_he_or_she_after_a_plural_subject_goes_on_about_the_one_before(
    before: str, carried: bool
) -> None:
    unit = base("Lina Medina", "was", "pregnant")
    lacking = missing_values(unit, "She was seven months pregnant.", before)
    assert (lacking == []) is carried, lacking


@pytest.mark.parametrize(
    ("sentence", "carried"),
    [
        # The name a relative clause gives the one it describes is no other person.
        ("Ji Sung, whose real name is Kwak Tae-geun, was born in 1977 in South Korea. ", True),
        ("Ji Sung, whose birth name is Kwak Tae-geun, is a South Korean actor. ", True),
        # Another person named beside him still may be the "he".
        ("Ji Sung met Kwak Tae-geun in Seoul. ", False),
        ("Ji Sung met Lee Min-ho, whose real name is Kwak Tae-geun. ", False),
    ],
)
def test_a_name_a_relative_clause_gives_the_subject_is_no_other_person(
    sentence: str, carried: bool
) -> None:
    unit = base("Ji Sung", "is", "an actor")
    lacking = missing_values(unit, "He is a well-known actor.", "Ji Sung\n\n" + sentence)
    assert (lacking == []) is carried, lacking
