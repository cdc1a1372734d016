"""Names and titles: nicknames, quoted titles and lists of titles read as what they are.

A person named with a quoted nickname ('Saul "Canelo" Álvarez') is "he" in what follows,
though the small tagger may read the nickname and the surname as a title; a quoted title
is never "he"; a list of names after a title ("series Doctor Who, Doomsday Dora in …") is
no appositive stating that one is the other.
"""

from __future__ import annotations

import pytest

from triqua.engines.offline.decompose.decomposer import RuleDecomposer


def test_he_after_a_quoted_nickname_resolves_to_the_full_name(
    decomposer: RuleDecomposer,
) -> None:
    text = (
        'Saul "Canelo" Álvarez is a Mexican professional boxer born on July 18, 1990. '
        "He won his first world title at the age of 21."
    )
    facts = decomposer.decompose(text)
    assert ('Saul "Canelo" Álvarez', "won") in {(f.subject, f.relation) for f in facts}


def test_quoted_title_is_no_persons_referent(decomposer: RuleDecomposer) -> None:
    # A quoted title after a common noun is no nickname: "he" finds no person in it.
    facts = decomposer.decompose('The novel "Emma" is long. He liked it.')
    assert not any("Emma" in f.subject and f.relation == "liked" for f in facts)


LIST = (
    "Annette Badland is an English actress. She has played Margaret Blaine in the BBC science"
    " fiction series Doctor Who, Doomsday Dora in The Sparticle Mystery, Birdie Henshall in"
    " the drama series Cutting It, and Babe Smith in soap opera EastEnders."
)


def test_list_of_roles_after_a_title_is_no_appositive(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose(LIST)
    assert not any(f.subject == "Doctor Who" for f in facts)
    assert ("Annette Badland", "has played", "Margaret Blaine") in {
        (f.subject, f.relation, f.object) for f in facts
    }


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        (
            "Marie Curie, a physicist and chemist, won the Nobel Prize.",
            ("Marie Curie", "is", "a physicist"),
        ),
        (
            "The band released Abbey Road, their final album, in 1969.",
            ("Abbey Road", "is", "their final album"),
        ),
        (
            "Larry Page, Google co-founder, was born in Michigan.",
            ("Larry Page", "is", "Google co-founder"),
        ),
    ],
)
def test_appositive_still_states_identity(
    decomposer: RuleDecomposer, text: str, triple: tuple[str, str, str]
) -> None:
    assert triple in {(f.subject, f.relation, f.object) for f in decomposer.decompose(text)}


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        ("Down With Love is a film.", ("Down With Love", "is", "a film")),
        ("In the End was released in 2001.", ("In the End", "was released in", "2001")),
        ("Across the Universe is a song.", ("Across the Universe", "is", "a song")),
        (
            "From the Hood to Hollywood premiered on Showtime.",
            ("From the Hood to Hollywood", "premiered on", "Showtime"),
        ),
        ("Down with Love is a 2003 film.", ("Down with Love", "is", "a 2003 film")),
        ("Doctor Who is a television series.", ("Doctor Who", "is", "a television series")),
    ],
)
def test_unquoted_title_opening_a_sentence_is_its_subject(
    decomposer: RuleDecomposer, text: str, triple: tuple[str, str, str]
) -> None:
    assert {(f.subject, f.relation, f.object) for f in decomposer.decompose(text)} == {triple}


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        (
            "Gone with the Wind was published in 1936.",
            ("Gone with the Wind", "was published in", "1936"),
        ),
        ("Barack Obama was born in Hawaii.", ("Barack Obama", "was born in", "Hawaii")),
    ],
)
def test_subject_the_parse_found_stays(
    decomposer: RuleDecomposer, text: str, triple: tuple[str, str, str]
) -> None:
    assert {(f.subject, f.relation, f.object) for f in decomposer.decompose(text)} == {triple}


@pytest.mark.parametrize("text", ["In London is a big museum.", "In 2001 was released a film."])
def test_place_or_date_opening_a_sentence_is_no_title(
    decomposer: RuleDecomposer, text: str
) -> None:
    assert not any(f.subject.startswith("In ") for f in decomposer.decompose(text))


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        # A name right after its common noun, no comma, is that noun's identity.
        ("Kelly Preston starred in the film Broken Bridges.",
         ("Kelly Preston", "starred in", "the film Broken Bridges")),
        ("Kelly Preston starred in the 2006 film Broken Bridges.",
         ("Kelly Preston", "starred in", "the 2006 film Broken Bridges")),
        ("Einstein met the physicist Max Planck in 1909.",
         ("Einstein", "met", "the physicist Max Planck")),
        ("The company Apple was founded in 1976.",
         ("The company Apple", "was founded in", "1976")),
    ],
)  # fmt: skip
def test_a_name_right_after_its_noun_stays_in_the_phrase(
    decomposer: RuleDecomposer, text: str, triple: tuple[str, str, str]
) -> None:
    found = {(f.subject, f.relation, f.object) for f in decomposer.decompose(text)}
    assert triple in found
    # No fact says the noun "is" its own name.
    assert not any(relation == "is" for _, relation, _ in found), found


def test_a_comma_appositive_still_states_a_property(decomposer: RuleDecomposer) -> None:
    found = {(f.subject, f.relation, f.object) for f in decomposer.decompose(
        "Marie Curie, a physicist, won the Nobel Prize."
    )}  # fmt: skip
    assert ("Marie Curie", "is", "a physicist") in found


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        (
            "Pride and Prejudice is a novel by Jane Austen.",
            ("Pride and Prejudice", "is", "a novel by Jane Austen"),
        ),
        (
            "Simon and Garfunkel was an American folk duo.",
            ("Simon and Garfunkel", "was", "an American folk duo"),
        ),
    ],
)
def test_names_joined_before_a_singular_verb_are_one_name(
    decomposer: RuleDecomposer, text: str, triple: tuple[str, str, str]
) -> None:
    assert {(f.subject, f.relation, f.object) for f in decomposer.decompose(text)} == {triple}


@pytest.mark.parametrize(
    ("text", "subjects"),
    [
        ("Marie and Pierre Curie were physicists.", {"Marie", "Pierre Curie"}),
        ("Paris and Rome are capitals.", {"Paris", "Rome"}),
    ],
)
def test_names_joined_before_a_plural_verb_stay_apart(
    decomposer: RuleDecomposer, text: str, subjects: set[str]
) -> None:
    assert {f.subject for f in decomposer.decompose(text)} == subjects


def test_title_ending_in_a_pronoun_word_is_the_it_that_follows(
    decomposer: RuleDecomposer,
) -> None:
    facts = decomposer.decompose("Doctor Who is a television series. It first aired in 1963.")
    assert ("Doctor Who", "aired in", "1963") in {(f.subject, f.relation, f.object) for f in facts}


def test_hyphenated_name_tagged_as_an_organisation_is_the_he_that_follows(
    decomposer: RuleDecomposer,
) -> None:
    # The tagger reads "Abdou-Lakhad Diallo" as an organisation; a name of capitalised
    # words (one hyphenated) in the subject is still the person "he" refers to.
    text = (
        "Abdou-Lakhad Diallo is a professional footballer. "
        "He plays as a centre-back for RB Leipzig."
    )
    facts = decomposer.decompose(text)
    assert ("Abdou-Lakhad Diallo", "plays as") in {(f.subject, f.relation) for f in facts}
