"""A cited window that opens with a pronoun for a named subject is read as the pronoun's.

A small entailment judge does not link "She" to "Marie Curie": the grounding rules read a
window opening with the pronoun against the unit said of that pronoun too, and only for a
subject with a name the value gates found before the window.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from triqua.context import GroundingMode
from triqua.core.grounding.judged import pronoun_unit
from triqua.core.grounding.rule import check_quote
from triqua.schema import FactUnit, Status
from triqua.testing.readers import EntailingReader

PASSAGE = (
    "Marie Curie won the Nobel Prize in Physics in 1903. "
    "She was the first woman to win a Nobel Prize."
)
QUOTE = "She was the first woman to win a Nobel Prize."


class NameBoundJudge:
    """Entails a unit only from a sentence that opens with its subject and says "first woman".

    Like a small judge, it does not carry a name from one sentence to the pronoun of the next.
    """

    revision = "name-bound"
    threshold = paraphrase_threshold = grounding_threshold = 0.5
    judged_threshold = judged_some_threshold = 0.5

    def entailment(self, premises: Sequence[str], unit: FactUnit, source: str) -> float:
        sentences = [s for p in premises for s in p.split(". ")]
        stating = [s for s in sentences if "first woman" in s]
        return 0.9 if any(s.startswith(unit.subject) for s in stating) else 0.05


def base(subject: str, relation: str, obj: str) -> FactUnit:
    return FactUnit(kind="base", subject=subject, relation=relation, object=obj)


@pytest.mark.parametrize("rule", ["judged", "judge"])
def test_a_window_opening_with_a_pronoun_for_a_named_subject_is_read_as_its(
    rule: GroundingMode,
) -> None:
    unit = base("Marie Curie", "was", "a female Nobel laureate")
    outcome = check_quote(
        unit, Status.SUPPORTED, ["e"], QUOTE, {"e": PASSAGE},
        reader=NameBoundJudge(), grounding=rule,
    )  # fmt: skip
    assert outcome.ok, outcome.reason


def test_a_subject_without_a_name_is_not_carried_by_a_pronoun() -> None:
    unit = base("the winner", "was", "a female Nobel laureate")
    assert pronoun_unit(unit, QUOTE) is None
    outcome = check_quote(
        unit, Status.SUPPORTED, ["e"], QUOTE, {"e": PASSAGE}, reader=NameBoundJudge()
    )
    assert not outcome.ok


def test_a_window_naming_the_subject_or_opening_otherwise_is_read_as_it_stands() -> None:
    unit = base("Marie Curie", "was", "a female Nobel laureate")
    assert pronoun_unit(unit, "Curie was the first woman to win a Nobel Prize.") is None
    assert pronoun_unit(unit, "The first woman to win a Nobel Prize was she.") is None
    said = pronoun_unit(unit, QUOTE)
    assert said is not None and said.subject == "She" and said.object == unit.object


@pytest.mark.parametrize(
    ("unit", "passage"),
    [
        # "He" follows a sentence about another person: it is Einstein, not Newton.
        (
            base("Isaac Newton", "was born in", "Ulm in 1879"),
            "Isaac Newton was an English physicist. Albert Einstein was a German physicist. "
            "He was born in Ulm in 1879.",
        ),
        # The sentence before is about someone its opening pronoun only qualifies.
        (
            base("Marie Curie", "was born in", "Warsaw"),
            "Marie Curie was a physicist. Her sister Bronya studied medicine. "
            "She was born in Warsaw.",
        ),
        # "It" follows a sentence about another thing.
        (
            base("Paris", "is", "777 km long"),
            "Paris is in France. The Seine is a river. It is 777 km long.",
        ),
        (
            base("The Beatles", "formed in", "Liverpool in 1960"),
            "The Beatles were a band. The Rolling Stones were a rival band. "
            "They formed in Liverpool in 1960.",
        ),
        # An unnamed person acts on her in the sentence before: "She" may be either one.
        (
            base("Ann Smith", "won", "the case"),
            "Ann Smith was sued by her landlord. The lawyer defended her. She won the case.",
        ),
        # The sentence before is about a person known by another one ("the lawyer").
        (
            base("Ann Smith", "won", "the case"),
            "Ann Smith hired a lawyer. The lawyer argued for days. She won the case.",
        ),
        # The sentence before names a namesake, not the subject.
        (
            base("Marie Curie", "won", "the Nobel Prize in Physics in 1903"),
            "Marie Curie worked with Pierre Curie. Pierre Curie and Henri Becquerel were "
            "French. They won the Nobel Prize in Physics in 1903.",
        ),
    ],
)
@pytest.mark.parametrize("rule", ["judged", "judge", "strict"])
def test_a_pronoun_after_a_sentence_about_another_one_does_not_carry_the_subject(
    unit: FactUnit, passage: str, rule: GroundingMode
) -> None:
    quote = passage.rsplit(". ", 1)[1]
    outcome = check_quote(
        unit, Status.SUPPORTED, ["e"], quote, {"e": passage}, reader=EntailingReader(),
        grounding=rule,
    )  # fmt: skip
    assert not outcome.ok
    assert outcome.reason is not None and outcome.reason.startswith("quote lacks value")


_SPOKEN = 'Isaac Newton was a physicist. "He was born in Ulm in 1879," wrote Einstein of himself.'


@pytest.mark.parametrize(
    ("passage", "quote"),
    [
        # The pronoun is the speaker's: it is Einstein, not the Newton named before.
        (_SPOKEN, _SPOKEN.split(". ", 1)[1]),
        # A quote cut from inside the speech is still inside it.
        (_SPOKEN, "He was born in Ulm in 1879"),
        (_SPOKEN.replace('"He', "“He").replace(',"', ",”"), "He was born in Ulm in 1879"),
    ],
)
@pytest.mark.parametrize("kind", ["base", "qualifier"])
@pytest.mark.parametrize("rule", ["judged", "judge", "strict"])
def test_a_pronoun_in_direct_speech_does_not_carry_the_subject(
    passage: str, quote: str, kind: str, rule: GroundingMode
) -> None:
    dated = FactUnit(
        kind="qualifier", subject="Isaac Newton", relation="was born in", object="Ulm",
        label="point in time", value="1879",
    )  # fmt: skip
    unit = base("Isaac Newton", "was born in", "Ulm") if kind == "base" else dated
    outcome = check_quote(
        unit, Status.SUPPORTED, ["e"], quote, {"e": passage}, reader=EntailingReader(),
        grounding=rule,
    )  # fmt: skip
    assert not outcome.ok
    assert outcome.reason == "quote lacks value isaac newton"


@pytest.mark.parametrize(
    ("sentence", "stands"),
    [
        # Another person named before the pronoun in its own sentence is the nearer one.
        ("Einstein wrote that he was born in Ulm in 1879.", False),
        ("According to Albert Einstein, he was born in Ulm in 1879.", False),
        # A place or a date before it is no person; the subject's own name is the subject.
        ("In 1879, in Ulm, he was born.", True),
        ("After Newton left Ulm, he was born in Ulm in 1879.", True),
        # Nor is a work or an event that sets the scene ("In The Recruit, she played …").
        ("In The Principia, he was born in Ulm in 1879.", True),
        ("At Trinity College, he was born in Ulm in 1879.", True),
        # A person after another preposition may be the pronoun's.
        ("With Edmond Halley, he was born in Ulm in 1879.", False),
        # A phrase of "as" gives his own role, no other person; a clause of "as" names one.
        ("As President of the Royal Society, he was born in Ulm in 1879.", True),
        ("As Halley's assistant, he was born in Ulm in 1879.", True),
        ("As Edmond Halley wrote, he was born in Ulm in 1879.", False),
    ],
)
@pytest.mark.parametrize("rule", ["judged", "strict"])
def test_a_pronoun_after_another_person_in_its_sentence_does_not_carry_the_subject(
    sentence: str, stands: bool, rule: GroundingMode
) -> None:
    passage = f"Isaac Newton was a physicist. {sentence}"
    outcome = check_quote(
        base("Isaac Newton", "was born in", "Ulm"), Status.SUPPORTED, ["e"], sentence,
        {"e": passage}, reader=EntailingReader(), grounding=rule,
    )  # fmt: skip
    assert outcome.ok is stands, outcome.reason


@pytest.mark.parametrize(
    ("passage", "quote"),
    [
        # The speaker is the subject, but her "He" is someone she speaks of.
        ('Marie Curie met Einstein. "He was born in Warsaw," she said.',
         '"He was born in Warsaw," she said.'),
        ('"He was born in Warsaw," Marie Curie said of her brother.',
         '"He was born in Warsaw," Marie Curie said of her brother.'),
        ("Marie Curie wrote to Józef. “They were born in Warsaw,” she wrote.",
         "“They were born in Warsaw,” she wrote."),
        # Single quotes, curly or straight, around words are speech as double ones are.
        ("Marie Curie met Einstein. ‘He was born in Warsaw,’ she said.",
         "‘He was born in Warsaw,’ she said."),
        ("Marie Curie met Einstein. 'He was born in Warsaw,' she said.",
         "'He was born in Warsaw,' she said."),
        # Reported speech: "he" beside "she" may be either one.
        ("Marie Curie met Einstein. She said that he was born in Warsaw.",
         "She said that he was born in Warsaw."),
        ("Marie Curie met a man. She thought he was born in Warsaw.",
         "She thought he was born in Warsaw."),
    ],
)  # fmt: skip
@pytest.mark.parametrize("rule", ["judged", "judge", "strict"])
def test_speech_of_a_third_person_does_not_carry_its_speaker(
    passage: str, quote: str, rule: GroundingMode
) -> None:
    outcome = check_quote(
        base("Marie Curie", "was born in", "Warsaw"), Status.SUPPORTED, ["e"], quote,
        {"e": passage}, reader=EntailingReader(), grounding=rule,
    )  # fmt: skip
    assert not outcome.ok
    assert outcome.reason == "quote lacks value marie curie"


def test_speech_naming_the_subject_carries_it() -> None:
    passage = 'Pierre Curie wrote of his wife: "Marie Curie was born in Warsaw; she is Polish."'
    outcome = check_quote(
        base("Marie Curie", "was born in", "Warsaw"), Status.SUPPORTED, ["e"], passage,
        {"e": passage}, reader=EntailingReader(),
    )  # fmt: skip
    assert outcome.ok, outcome.reason


def test_a_pronoun_outside_the_speech_of_its_sentence_carries_the_subject() -> None:
    passage = "Isaac Newton was a physicist. He was born in Ulm, “a quiet town,” in 1879."
    outcome = check_quote(
        base("Isaac Newton", "was born in", "Ulm"), Status.SUPPORTED, ["e"],
        passage.split(". ", 1)[1], {"e": passage}, reader=EntailingReader(),
    )  # fmt: skip
    assert outcome.ok, outcome.reason


@pytest.mark.parametrize(
    "passage",
    [
        "Marie Curie was born in Warsaw. In 1891 she moved to Paris. She studied physics.",
        "Marie Curie was born in Warsaw. She moved to Paris in 1891. She studied physics.",
        "Marie Curie was born in Warsaw. Her move to Paris came in 1891. She studied physics.",
        "Marie Curie was born in Warsaw. The family was poor. She studied physics.",
        "Marie Curie was born in Warsaw.\n\nShe studied physics.",
        # The sentence before calls her by her surname alone.
        "Marie Curie was born in Warsaw. Curie moved to Paris in 1891. She studied physics.",
        # The sentence before opens with a common noun, capitalised only to open it.
        "Marie Curie was born in Warsaw. Poverty marked her youth. She studied physics.",
        "Marie Curie was born in Warsaw. Education was denied to women. She studied physics.",
    ],
)
def test_a_pronoun_carries_the_subject_through_sentences_that_name_no_one_else(
    passage: str,
) -> None:
    unit = base("Marie Curie", "studied", "physics")
    outcome = check_quote(
        unit, Status.SUPPORTED, ["e"], "She studied physics.", {"e": passage},
        reader=EntailingReader(),
    )  # fmt: skip
    assert outcome.ok, outcome.reason


@pytest.mark.parametrize(
    ("unit", "passage"),
    [
        # The pronoun is inside the subject phrase of someone else.
        (base("Marie Curie", "was born in", "Warsaw"),
         "Marie Curie was a physicist. Her rival was born in Warsaw."),
        (base("Marie Curie", "was born in", "Warsaw"),
         "Marie Curie was a physicist. The man who married her was born in Warsaw."),
        (base("John Smith", "won", "the case"),
         "John Smith was charged. The lawyer who defended him won the case."),
        (base("Parasite", "won", "the Golden Lion"),
         "Parasite is a film. A film that beat it won the Golden Lion."),
        (base("Parasite", "won", "the Golden Lion"),
         "Parasite is a film. The film that beat it won the Golden Lion."),
    ],
)  # fmt: skip
@pytest.mark.parametrize("rule", ["judged", "judge", "strict"])
def test_a_pronoun_inside_another_ones_subject_does_not_carry_the_subject(
    unit: FactUnit, passage: str, rule: GroundingMode
) -> None:
    quote = passage.split(". ", 1)[1]
    outcome = check_quote(
        unit, Status.SUPPORTED, ["e"], quote, {"e": passage}, reader=EntailingReader(),
        grounding=rule,
    )  # fmt: skip
    assert not outcome.ok
    assert outcome.reason == f"quote lacks value {unit.subject.lower()}"


@pytest.mark.parametrize(
    ("unit", "passage"),
    [
        (base("Marie Curie", "received", "the Nobel Prize"),
         "Marie Curie was a physicist. The Nobel Prize was awarded to her in 1911."),
        (base("Barack Obama's father", "was from", "Kenya"),
         "Barack Obama was president. His father was from Kenya."),
        (base("Parasite", "won", "the Palme d'Or"),
         "Parasite is a film. The film, which Bong directed, won the Palme d'Or."),
    ],
)  # fmt: skip
def test_a_pronoun_outside_another_ones_subject_carries_the_subject(
    unit: FactUnit, passage: str
) -> None:
    quote = passage.split(". ", 1)[1]
    outcome = check_quote(
        unit, Status.SUPPORTED, ["e"], quote, {"e": passage}, reader=EntailingReader()
    )
    assert outcome.ok, outcome.reason


@pytest.mark.parametrize(
    ("unit", "passage"),
    [
        # The sentence before joins the subject with another one: "the film" is either.
        (base("Parasite", "won", "the Palme d'Or"),
         "Parasite and Joker are films. The film won the Palme d'Or."),
        (base("Marie Curie", "won", "the Nobel Prize in Chemistry"),
         "Marie Curie and Irene Joliot-Curie were chemists. She won the Nobel Prize in "
         "Chemistry."),
        # The sentence before gives another person, or another film, a core part in it.
        (base("Pierre Curie", "was born in", "Warsaw"),
         "Pierre Curie married Marie Curie. She was born in Warsaw."),
        (base("Parasite", "won", "the Golden Lion"),
         "Parasite beat Joker at Cannes. The film won the Golden Lion."),
    ],
)  # fmt: skip
def test_a_reference_after_the_subject_joined_with_another_does_not_carry_it(
    unit: FactUnit, passage: str
) -> None:
    quote = passage.split(". ", 1)[1]
    outcome = check_quote(
        unit, Status.SUPPORTED, ["e"], quote, {"e": passage}, reader=EntailingReader()
    )
    assert not outcome.ok
    assert outcome.reason == f"quote lacks value {unit.subject.lower()}"


def test_a_reference_after_the_subject_named_by_part_of_its_name_carries_it() -> None:
    passage = "Syracuse is a city in New York. At the 2020 census, the city population was 145,170."
    outcome = check_quote(
        base("Syracuse New York", "had a population of", "145,170"), Status.SUPPORTED, ["e"],
        passage.split(". ", 1)[1], {"e": passage}, reader=EntailingReader(),
    )  # fmt: skip
    assert outcome.ok, outcome.reason


def test_a_reference_after_others_joined_beside_the_subject_carries_it() -> None:
    passage = (
        "Marie Curie won the Nobel Prize in Physics, together with Pierre Curie and Henri "
        "Becquerel. She won the Nobel Prize in Chemistry."
    )
    outcome = check_quote(
        base("Marie Curie", "won", "the Nobel Prize in Chemistry"), Status.SUPPORTED, ["e"],
        "She won the Nobel Prize in Chemistry.", {"e": passage}, reader=EntailingReader(),
    )  # fmt: skip
    assert outcome.ok, outcome.reason


@pytest.mark.parametrize(
    ("between", "carried"),
    [
        # A name inside the opening phrase is not the subject of the sentence before.
        ("Trained by Oskar Lindqvist, the young chemist won a national prize in 2009.", True),
        ("After Oskar Lindqvist retired, the laboratory moved to Uppsala.", True),
        # A name as that sentence's subject is another one the pronoun may be about.
        ("Oskar Lindqvist, trained in Uppsala, won a national prize in 2009.", False),
        ("In 2009, Oskar Lindqvist won a national prize.", False),
    ],
)
@pytest.mark.parametrize("rule", ["judged", "judge", "strict"])
def test_a_name_opening_the_sentence_before_is_not_its_subject(
    between: str, carried: bool, rule: GroundingMode
) -> None:
    passage = f"Lena Varga was a chemist. {between} She was born in Szeged."
    outcome = check_quote(
        base("Lena Varga", "was born in", "Szeged"), Status.SUPPORTED, ["e"],
        "She was born in Szeged.", {"e": passage}, reader=EntailingReader(), grounding=rule,
    )  # fmt: skip
    assert outcome.ok is carried, outcome.reason


@pytest.mark.parametrize("rule", ["judged", "judge"])
def test_a_pronoun_after_another_persons_sentence_inside_the_quote_does_not_carry_it(
    rule: GroundingMode,
) -> None:
    passage = "Ann Smith hired a lawyer. The lawyer defended her. She won the case."
    quote = "The lawyer defended her. She won the case."
    outcome = check_quote(
        base("Ann Smith", "won", "the case"), Status.SUPPORTED, ["e"], quote, {"e": passage},
        reader=EntailingReader(), grounding=rule,
    )  # fmt: skip
    assert outcome.reason == "quote lacks value ann smith"


@pytest.mark.parametrize(
    "passage",
    [
        "Ann Smith sued her landlord. She won the case.",
        "Ann Smith sued her landlord. The court heard the case. She won the case.",
        "Ann Smith was a lawyer. She won the case.",
    ],
)
def test_a_pronoun_after_no_other_person_still_carries_the_subject(passage: str) -> None:
    outcome = check_quote(
        base("Ann Smith", "won", "the case"), Status.SUPPORTED, ["e"], "She won the case.",
        {"e": passage}, reader=EntailingReader(),
    )  # fmt: skip
    assert outcome.ok, outcome.reason


class SurnameJudge:
    """Entails a unit from any premise writing its subject's surname: the sentence before a
    pronoun's window can fool it, as it fools a small judge."""

    revision = "surname"
    threshold = paraphrase_threshold = grounding_threshold = 0.5
    judged_threshold = judged_some_threshold = 0.5

    def entailment(self, premises: Sequence[str], unit: FactUnit, source: str) -> float:
        surname = unit.subject.split()[-1]
        named = surname not in ("He", "She", "It", "They")  # the unit said of a pronoun
        return 0.9 if named and any(surname in p for p in premises) else 0.05


@pytest.mark.parametrize(
    ("unit", "passage"),
    [
        (base("Carl Lund", "won", "the race"),
         "Carl Lund did not win the race. He was born in Oslo in 1901."),
        (base("Carl Lund", "won", "the race"),
         "Carl Lund trained the horse that won the race. He was born in Oslo in 1901."),
        (base("Carl Lund", "was", "a jockey"),
         "Carl Lund wanted to be a jockey. He was born in Oslo in 1901."),
    ],
)  # fmt: skip
@pytest.mark.parametrize("rule", ["judged", "judge"])
def test_the_sentence_before_a_pronoun_never_lends_the_window_the_units_words(
    unit: FactUnit, passage: str, rule: GroundingMode
) -> None:
    outcome = check_quote(
        unit, Status.SUPPORTED, ["e"], "He was born in Oslo in 1901.", {"e": passage},
        reader=SurnameJudge(), grounding=rule,
    )  # fmt: skip
    assert not outcome.ok
    assert "not entailing it (0.05 < 0.50)" in (outcome.reason or "")


@pytest.mark.parametrize("rule", ["judged", "judge"])
def test_the_sentence_before_a_pronoun_still_says_who_is_meant(rule: GroundingMode) -> None:
    passage = "Donald Trump is a businessman. In 2015, he declared his candidacy."
    outcome = check_quote(
        base("Donald Trump", "sought", "the presidency"), Status.SUPPORTED, ["e"],
        "In 2015, he declared his candidacy.", {"e": passage}, reader=SurnameJudge(),
        grounding=rule,
    )  # fmt: skip
    assert outcome.ok, outcome.reason
