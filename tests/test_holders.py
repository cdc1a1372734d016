"""Whose clause holds the object: a relative clause and an inverted copula.

"Unlike Venus, which is the hottest planet, Mercury …" gives "the hottest planet" to Venus
(the relative clause describes Venus, it is no part of Venus's name), and "The first man to
walk on the Moon was Neil Armstrong" gives the role to Armstrong. Both engines ask the
clause gates of a window (``core.reading.statements.refusal``).
"""

from __future__ import annotations

import pytest

from triqua.core.reading.statements import refusal
from triqua.nlp.clauses import clause_owner, window_parse
from triqua.schema import Fact

ISLES = "Unlike Greenland, which is the largest island in the world, Iceland is volcanic."
PEAK = "The highest mountain in Africa is Kilimanjaro, while Mount Kenya is second."


@pytest.mark.parametrize(
    ("fact", "text", "other"),
    [
        (Fact(subject="Iceland", relation="is", object="the largest island in the world"),
         ISLES, "Greenland"),
        (Fact(subject="Mount Kenya", relation="is", object="the highest mountain in Africa"),
         PEAK, "Kilimanjaro"),
        (Fact(subject="Iceland", relation="is", object="the largest island in the world"),
         "Greenland, the largest island in the world, lies west of Iceland.", "Greenland"),
    ],
)  # fmt: skip
def test_the_role_given_to_another_refuses_the_window(fact: Fact, text: str, other: str) -> None:
    why = refusal(fact, text)
    assert why is not None and other in why, why


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        (Fact(subject="Greenland", relation="is", object="the largest island in the world"),
         ISLES),
        (Fact(subject="Kilimanjaro", relation="is", object="the highest mountain in Africa"), PEAK),
        (Fact(subject="Greenland", relation="is", object="the largest island in the world"),
         "Greenland, which belongs to Denmark, is the largest island in the world."),
    ],
)  # fmt: skip
def test_the_roles_own_holder_passes(fact: Fact, text: str) -> None:
    assert refusal(fact, text) is None


LEGS = "Unlike beetles, which have six legs, scorpions have eight legs."


def test_a_count_in_another_ones_clause_refuses_the_window() -> None:
    why = refusal(Fact(subject="Scorpions", relation="have", object="six legs"), LEGS)
    assert why is not None and "beetles" in why, why
    assert refusal(Fact(subject="Scorpions", relation="have", object="eight legs"), LEGS) is None


def test_an_owner_whose_apposition_names_the_subject_is_the_subjects() -> None:
    """An infobox line parsed as one subject, the fact's subject in apposition to it (a
    Factcheck-Bench passage of the grounding set's tune half)."""
    text = (
        "The Meaning Of Love , released on April 26, 1982 Leave In Silence , released on "
        "August 16, 1982 Previous Album Speak & Spell Next Album Construction Time Again A "
        "Broken Frame is the second studio album by English electronic music band Depeche Mode ."
    )
    fact = Fact(subject="A Broken Frame", relation="is", object="an album from Depeche Mode")
    assert refusal(fact, text) is None


def test_a_date_object_counts_no_words() -> None:
    from triqua.core.reading.analysis import analyse
    from triqua.core.reading.holders import counts_in

    assert counts_in(analyse("February 19, 1784")) == set()
    assert counts_in(analyse("six legs")) == {"six"}


def test_a_relative_clause_with_its_own_subject_is_that_subjects() -> None:
    """'Corinthians, where he won the cup' is his statement, not the club's."""
    doc = window_parse("Ronaldo played for Corinthians, where he won the Copa do Brasil.")
    copa = next(t for t in doc if t.text == "Copa")
    owner = clause_owner(copa)
    assert owner is not None and owner.text == "he"
    described = window_parse("Unlike Venus, which is the hottest planet, Mercury is small.")
    planet = next(t for t in described if t.text == "planet")
    owner = clause_owner(planet)
    assert owner is not None and owner.text == "Venus"


def test_a_clause_on_the_subjects_complement_is_the_subjects() -> None:
    """'X is a Y who Z': the relative clause on the copula's complement is said of X."""
    doc = window_parse("Adil Rami is a French footballer who was born in Bastia.")
    owner = clause_owner(next(t for t in doc if t.text == "Bastia"))
    assert owner is not None and owner.text == "Rami"
    fact = Fact(subject="Darrius Heyward-Bey", relation="played for", object="the Oakland Raiders")
    text = "Darrius Heyward-Bey is a former wide receiver who played for the Oakland Raiders."
    assert refusal(fact, text) is None
    # A relative clause on another noun is still that noun's.
    other = window_parse(
        "Berlin is the capital of Germany, which borders France, whose capital is Paris."
    )
    owner = clause_owner(next(t for t in other if t.text == "Paris"))
    assert owner is not None and owner.text == "capital"
    fact = Fact(subject="Paris", relation="is", object="the capital of Germany")
    why = refusal(
        fact, "Berlin is the capital of Germany, which borders France, whose capital is Paris."
    )
    assert why is not None and "Berlin" in why, why


def test_an_object_in_one_phrase_with_the_subject_is_not_anothers() -> None:
    """'born in Bastia, Corsica' writes that Bastia is in Corsica whoever was born there."""
    text = "Adil Rami is a French footballer who was born in 1985 in Bastia, Corsica."
    assert refusal(Fact(subject="Bastia", relation="is in", object="Corsica"), text) is None
    # The subject written elsewhere in the clause, or by a pronoun's antecedent sentence,
    # leaves the object to the clause's owner.
    why = refusal(Fact(subject="Iceland", relation="is", object="the largest island in the world"),
                  "Greenland, the largest island in the world, lies west of Iceland.")  # fmt: skip
    assert why is not None and "Greenland" in why, why
    married = "Marie Sklodowska married Pierre Curie in 1895. She was born in Warsaw in 1867."
    why = refusal(Fact(subject="Pierre Curie", relation="was born in", object="Warsaw"), married)
    assert why is not None and "Sklodowska" in why, why


def test_a_particle_of_the_subjects_name_is_part_of_it() -> None:
    """'bin Laden' is Osama bin Laden, no namesake."""
    fact = Fact(subject="Osama bin Laden", relation="was killed by", object="U.S. Navy SEALs")
    assert (
        refusal(fact, "After years of evading capture, bin Laden was killed by U.S. Navy SEALs.")
        is None
    )


def test_a_subject_named_only_in_a_participle_of_anothers_clause_stays_anothers() -> None:
    """'Canberra …, chosen as a compromise between Sydney and Melbourne' gives Sydney nothing."""
    text = (
        "Canberra is the capital city of Australia, chosen as a compromise between Sydney "
        "and Melbourne."
    )
    why = refusal(Fact(subject="Sydney", relation="is the capital of", object="Australia"), text)
    assert why is not None and "Canberra" in why, why


@pytest.mark.parametrize(
    ("fact", "text", "other"),
    [
        # A name in one phrase with the object's noun is said to be it, whoever owns the
        # clause: the name is read at its head word ("Blue" of "Blue Bloods").
        (Fact(subject="Blue Bloods", relation="is", object="the television series"),
         'Moynahan is known for her role in the television series "Blue Bloods".', None),
        (Fact(subject="Al-Qaeda", relation="is", object="an Islamic extremist group"),
         "Osama bin Laden was the founder of the Islamic extremist group al-Qaeda.", None),
        (Fact(subject="Lee Bo-young", relation="is", object="an actress"),
         "In 2013, Ji Sung married fellow actress Lee Bo-young.", None),
        (Fact(subject="Lagoa da Prata", relation="is in", object="Brazil"),
         "Silva is a footballer who was born in Lagoa da Prata, Brazil.", None),
        (Fact(subject="Sex and the City", relation="is", object="the television series"),
         'Moynahan made her debut in the television series "Sex and the City".', None),
        # A relative clause on a conjunct complement is the copula's subject's; one on a
        # common noun's apposition is the name's it stands beside, a dotted name too.
        (Fact(subject="Vaira Vike-Freiberga", relation="served as",
              object="the President of Latvia"),
         "Vaira Vike-Freiberga is a Latvian professor, scholar, and politician who served as "
         "the President of Latvia.", None),
        (Fact(subject="The Street League", relation="organizes", object="football matches"),
         "Gilberto is a patron of The Street League, a UK-based charity that organizes "
         "football matches.", None),
        (Fact(subject="DoSomething.org", relation="encourages", object="young people"),
         "Shue co-founded CafeMom, a site for mothers, and DoSomething.org, a nonprofit "
         "organization that encourages young people to volunteer.", None),
        (Fact(subject="CafeMom", relation="encourages", object="young people"),
         "Shue co-founded CafeMom, a site for mothers, and DoSomething.org, a nonprofit "
         "organization that encourages young people to volunteer.", "DoSomething.org"),
        (Fact(subject="Pierre Dupont", relation="was born in", object="Marseille"),
         "Mayor Pierre Dupont welcomed the novelist Claire Martin, who was born in Marseille.",
         "Claire Martin"),
        # Not a name another verb's phrase holds apart from the object.
        (Fact(subject="Lagoa da Prata", relation="is in", object="Brazil"),
         "Silva was born in Lagoa da Prata and later moved to Brazil.", "Silva"),
        (Fact(subject="Blue Bloods", relation="is", object="the television series"),
         "Tom Selleck, star of the television series, wrote Blue Bloods.", "Tom Selleck"),
        (Fact(subject="Kick the Moon", relation="is", object="a film"),
         "Cha Seung-won appeared in Kick the Moon, and Jang Jin directed a film.", "Jang Jin"),
        (Fact(subject="Marie Curie", relation="is", object="a physicist"),
         "Pierre Curie, the physicist, married Marie Curie.", "Pierre Curie"),
    ],
)  # fmt: skip
def test_a_name_in_one_phrase_with_the_object_is_said_to_be_it(
    fact: Fact, text: str, other: str | None
) -> None:
    why = refusal(fact, text)
    if other is None:
        assert why is None, why
    else:
        assert why is not None and other in why, why
