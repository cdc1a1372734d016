"""A reference after a sentence that names two candidates refers to no one, on both engines.

A person named after a preposition ("corresponded with Galileo Galilei", "was succeeded by
Harry S. Truman") is a candidate for a later "he" or "she" unless the gender tells them apart,
of either gender when the name shows none; the place of a tenure ("began his career with
Shakhtar Donetsk") is no person, whatever the recogniser takes it for.

"Amazon bought Whole Foods and Microsoft bought LinkedIn. Its price was $26 billion." names
two buyers and two bought companies: "its" may mean any of them, so the sentence supports
no fact about one of them. So does "the university" after "Harvard University and Yale
University are …". A sentence that names only the subject keeps its reference the subject's.
"""

from __future__ import annotations

import pytest

import triqua
from triqua.context import GroundingMode
from triqua.core.grounding.rule import check_quote
from triqua.core.reading.person_roles import PERSON_ROLES_PATH
from triqua.core.reading.reference import (
    TENURES_PATH,
    coordinated_phrases,
    prepositional_persons,
)
from triqua.core.reading.rules_file import read_rules_file
from triqua.core.reading.values.name_rivals import reference_beside_another
from triqua.schema import FactUnit, Status
from triqua.testing.readers import EntailingReader

AMBIGUOUS = [
    pytest.param(
        ("LinkedIn's price", "was", "$26 billion"),
        "Amazon bought Whole Foods and Microsoft bought LinkedIn.",
        "Its price was $26 billion.",
        id="possessive-after-two-buyers",
    ),
    pytest.param(
        ("Nikola Tesla", "was born in", "Smiljan"),
        "Nikola Tesla and Thomas Edison both worked on electric power.",
        "He was born in Smiljan.",
        id="pronoun-after-two-coordinated-people",
    ),
    pytest.param(
        ("Yale University", "was founded in", "1701"),
        "Harvard University and Yale University are in New England.",
        "The university was founded in 1701.",
        id="class-noun-after-two-coordinated-names",
    ),
    pytest.param(
        ("Johannes Kepler", "was born in", "Sudbury"),
        "Johannes Kepler corresponded with Thomas Harriot.",
        "He was born in Sudbury.",
        id="he-after-a-person-after-with",
    ),
    pytest.param(
        ("Franklin D. Roosevelt", "was born in", "Missouri"),
        "Franklin D. Roosevelt was succeeded by Harry S. Truman.",
        "He was born in Missouri.",
        id="he-after-a-passives-agent",
    ),
    pytest.param(
        ("Richard Feynman", "founded", "the Princeton relativity group"),
        "Richard Feynman studied under John Wheeler.",
        "He founded the Princeton relativity group.",
        id="he-after-a-person-after-under",
    ),
    pytest.param(
        ("Johannes Kepler", "was born in", "Pisa"),
        "Johannes Kepler corresponded with Galileo Galilei.",
        "He was born in Pisa.",
        id="he-after-a-person-of-unknown-gender-after-with",
    ),
    pytest.param(
        ("Aristotle", "founded", "the Academy in Athens"),
        "Aristotle studied under Plato.",
        "He founded the Academy in Athens.",
        id="he-after-a-one-word-name-after-under",
    ),
]

CLEAR = [
    pytest.param(
        ("LinkedIn's price", "was", "$26 billion"),
        "LinkedIn runs a professional network.",
        "Its price was $26 billion.",
        id="possessive-after-the-subject-alone",
    ),
    pytest.param(
        ("Nikola Tesla", "was born in", "Smiljan"),
        "Nikola Tesla worked on electric power.",
        "He was born in Smiljan.",
        id="pronoun-after-the-subject-alone",
    ),
    pytest.param(
        ("Yale University", "was founded in", "1701"),
        "Yale University is in New Haven.",
        "The university was founded in 1701.",
        id="class-noun-after-the-subject-alone",
    ),
    pytest.param(
        ("Johannes Kepler", "was born in", "Weil der Stadt"),
        "Johannes Kepler worked in Prague.",
        "He was born in Weil der Stadt.",
        id="he-after-a-place-after-a-preposition",
    ),
    pytest.param(
        ("Marie Curie", "was born in", "Warsaw"),
        "Marie Curie worked with Pierre Curie.",
        "She was born in Warsaw.",
        id="she-after-a-man-after-with",
    ),
    pytest.param(
        ("Ada Lovelace", "married", "William King"),
        "Ada Lovelace translated an article by Luigi Menabrea.",
        "She married William King in 1835.",
        id="she-after-an-author-inside-a-phrase",
    ),
    pytest.param(
        ("Fernandinho", "joined", "Manchester City"),
        "Fernandinho began his career with Shakhtar Donetsk.",
        "He joined Manchester City in 2013.",
        id="he-after-a-club-of-a-career",
    ),
    pytest.param(
        ("Zlatan Ibrahimovic", "was born in", "Malmo"),
        "Zlatan Ibrahimovic played for Paris Saint-Germain.",
        "He was born in Malmo.",
        id="he-after-a-club-played-for",
    ),
]


def _unit(triple: tuple[str, str, str]) -> FactUnit:
    subject, relation, obj = triple
    return FactUnit(kind="base", subject=subject, relation=relation, object=obj)


@pytest.mark.parametrize(("triple", "before", "quote"), AMBIGUOUS)
@pytest.mark.parametrize("rule", ["judged", "judge", "strict"])
def test_llm_grounding_reads_no_referent_after_two_candidates(
    triple: tuple[str, str, str], before: str, quote: str, rule: GroundingMode
) -> None:
    assert _grounded(triple, before, quote, rule) is not None


@pytest.mark.parametrize(("triple", "before", "quote"), CLEAR)
@pytest.mark.parametrize("rule", ["judged", "judge", "strict"])
def test_llm_grounding_keeps_a_reference_to_the_one_named(
    triple: tuple[str, str, str], before: str, quote: str, rule: GroundingMode
) -> None:
    why = _grounded(triple, before, quote, rule)
    assert why is None, why


def _grounded(
    triple: tuple[str, str, str], before: str, quote: str, rule: GroundingMode
) -> str | None:
    """Why the LLM path's grounding rule downgrades ``quote`` after ``before`` (None: kept)."""
    outcome = check_quote(
        _unit(triple), Status.SUPPORTED, ["e"], quote, {"e": f"{before} {quote}"},
        reader=EntailingReader(), grounding=rule,
    )  # fmt: skip
    return None if outcome.ok else outcome.reason or "downgraded"


@pytest.mark.parametrize(("triple", "before", "quote"), AMBIGUOUS)
def test_offline_reads_no_referent_after_two_candidates(
    triple: tuple[str, str, str], before: str, quote: str
) -> None:
    statuses = _offline_statuses(triple, before, quote)
    assert statuses and Status.SUPPORTED not in statuses, statuses


@pytest.mark.parametrize(("triple", "before", "quote"), CLEAR[3:])
def test_offline_keeps_a_pronoun_no_person_after_a_preposition_may_take(
    triple: tuple[str, str, str], before: str, quote: str
) -> None:
    statuses = _offline_statuses(triple, before, quote)
    assert statuses and all(s == Status.SUPPORTED for s in statuses), statuses


def test_a_person_after_a_preposition_is_a_candidate_for_he_or_she_only() -> None:
    """The shared reading: "with Thomas Harriot" is a candidate for "He", never for "Its";
    so is a name that shows no gender ("with Galileo Galilei"), but not a club one began a
    career with ("with Shakhtar Donetsk"), which the small tagger takes for a person."""
    assert prepositional_persons("Johannes Kepler corresponded with Galileo Galilei.") == [
        "Galileo Galilei"
    ]
    assert prepositional_persons("Johannes Kepler worked in Prague.") == []
    assert prepositional_persons("Ada translated an article by Luigi Menabrea.") == []
    assert prepositional_persons("FROM BUSINESSMAN TO POLITICIAN Trump continued.") == []
    before = "Johannes Kepler corresponded with Thomas Harriot."
    assert reference_beside_another("johannes kepler", before, "He was born in Sudbury.")
    assert not reference_beside_another("johannes kepler", before, "Its orbit is an ellipse.")
    galileo = "Johannes Kepler corresponded with Galileo Galilei."
    assert reference_beside_another("johannes kepler", galileo, "He was born in Pisa.")
    club = "Fernandinho began his career with Shakhtar Donetsk."
    assert not reference_beside_another("fernandinho", club, "He spent eight seasons there.")
    assert not reference_beside_another(
        "marie curie", "Marie Curie worked with Pierre Curie.", "She was born in Warsaw."
    )


_TENURES = read_rules_file(TENURES_PATH, "tenures")["examples"]


@pytest.mark.parametrize(("sentence", "name"), _TENURES["persons"])
def test_a_name_in_a_persons_role_after_a_preposition_is_a_person(sentence: str, name: str) -> None:
    """The examples of ``data/tenures.json`` that must be read as persons."""
    assert name in prepositional_persons(sentence)


@pytest.mark.parametrize(("sentence", "name"), _TENURES["settings"])
def test_the_place_of_a_tenure_after_a_preposition_is_no_person(sentence: str, name: str) -> None:
    """The examples of ``data/tenures.json`` that must not: a club, a firm one served."""
    assert name not in prepositional_persons(sentence)


_ROLES = read_rules_file(PERSON_ROLES_PATH, "person roles")["examples"]


@pytest.mark.parametrize(("sentence", "name"), _ROLES["persons"])
def test_a_name_typed_a_body_is_a_person_by_a_persons_role(sentence: str, name: str) -> None:
    """The examples of ``data/person_roles.json`` that must be read as persons."""
    assert name in prepositional_persons(sentence)


@pytest.mark.parametrize(("sentence", "name"), _ROLES["others"])
def test_a_body_in_no_persons_role_is_no_person(sentence: str, name: str) -> None:
    """The examples of ``data/person_roles.json`` that must not: firms, universities."""
    assert name not in prepositional_persons(sentence)


def test_a_he_after_a_person_typed_a_body_may_be_either() -> None:
    """ "Enrico Fermi corresponded with Leo Szilard. He …": the "he" may be Szilard."""
    before = "Enrico Fermi corresponded with Leo Szilard."
    assert reference_beside_another("enrico fermi", before, "He was born in Budapest.")
    steve = "Bill Gates signed a deal with Siemens."
    assert not reference_beside_another("bill gates", steve, "He was born in Seattle.")


def test_a_sentence_names_a_candidate_beside_another_only_when_it_does() -> None:
    """The shared reading: two coordinated noun phrases, or two names in core parts."""
    assert coordinated_phrases("The snow leopard and the clouded leopard live in Asia.") == [
        ("The snow leopard", "the clouded leopard")
    ]
    assert coordinated_phrases("Tesla was funded by George Westinghouse and J. P. Morgan.") == []
    assert reference_beside_another(
        "linkedin", "Amazon bought Whole Foods and Microsoft bought LinkedIn."
    )
    assert reference_beside_another(
        "yale university", "Harvard University and Yale University are in New England."
    )
    assert not reference_beside_another("linkedin", "LinkedIn runs a professional network.")
    assert not reference_beside_another("linkedin", "Amazon bought Whole Foods.")


def _offline_statuses(triple: tuple[str, str, str], before: str, quote: str) -> list[Status]:
    """The unit statuses the offline engine gives the claim ``triple`` against the passage."""
    subject, relation, obj = triple
    claim = f"{subject} {relation} {obj}."
    report = triqua.check(claim, documents=[f"{before} {quote}"], cache=False, store=False)
    return [u.status for r in report.records for u in r.verdict.unit_verdicts]


def test_a_name_read_as_a_things_or_already_passed_over_is_no_candidate() -> None:
    """The shared reading: a name after an article ("against the Malayan Union") or set
    beside a common noun that is no person's ("his crime drama, Shiva") is none; a person
    noun keeps it one ("his friend Marcel Grossmann"). After a pronoun of the later one's
    gender, outside the name's phrase, the sentence already goes on about its subject."""
    union = "Siti Rahmah began her career in politics when she protested against the Malayan Union."
    assert "Malayan Union" not in prepositional_persons(union)
    drama = "Varma gained recognition for his crime drama, Shiva (1989)."
    assert prepositional_persons(drama) == []
    friend = "Einstein studied with his friend Marcel Grossmann."
    assert prepositional_persons(friend, frozenset(("friend",))) == ["Marcel Grossmann"]
    he = frozenset(("he", "him", "his", "himself"))
    costars = "Ji Sung had his breakthrough when he played a role alongside Lee Byung-hun."
    assert prepositional_persons(costars) and not prepositional_persons(costars, chained=he)
    galileo = "Johannes Kepler corresponded with Galileo Galilei about his telescope."
    assert prepositional_persons(galileo, chained=he) == ["Galileo Galilei"]
