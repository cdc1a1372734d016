"""Offline decomposer: parenthesised asides and hyphenated words do not break the parse."""

from __future__ import annotations

import pytest

from triqua.engines.offline.decompose.asides import Aside, compact
from triqua.engines.offline.decompose.decomposer import RuleDecomposer

from .conftest import triples

# --------------------------------------------------------------------------- compacting


def test_compact_cuts_asides_with_the_space_before_and_maps_offsets_back() -> None:
    text = "Copper (Cu) displaces iron (Fe) from its compounds."
    cut = compact(text)
    assert cut.text == "Copper displaces iron from its compounds."
    assert cut.asides == (Aside(6, "Cu"), Aside(21, "Fe"))
    for pos, char in enumerate(cut.text):
        assert text[cut.to_original(pos)] == char
    assert cut.to_original(len(cut.text), end=True) == len(text)
    assert cut.to_original(6, end=True) == 6  # an end at a cut stays before the aside
    assert cut.to_original(6) == 11  # a start at a cut moves past it


@pytest.mark.parametrize(
    "text",
    [
        "(a) Copper melts at 1085 degrees.",  # nothing before it: no aside
        "Zinc ( ) melts.",  # empty
        "Zinc (" + "x" * 90 + ") melts.",  # too long to be an aside
    ],
)
def test_compact_leaves_text_that_holds_no_short_aside(text: str) -> None:
    assert compact(text).text == text


def test_compact_cuts_square_brackets_but_keeps_no_aside_of_them() -> None:
    # A citation mark or a pronunciation states nothing the fact checks; a Markdown link's
    # text ("[Paris](…)") is no aside.
    cut = compact("Basildon [ˈbæzɪldən] is a town.[1] It is in Essex.")
    assert cut.text == "Basildon is a town. It is in Essex."
    assert cut.asides == ()
    assert compact("See [Paris](https://x.org) too.").text.startswith("See [Paris]")
    assert (
        compact("It takes a Future[T] and a row[key].").text
        == "It takes a Future[T] and a row[key]."
    )
    assert compact("It was near the Hotel[citation needed].").text == "It was near the Hotel."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Basildon [ˈbæzɪldən] is the largest town in Essex.",
            {("Basildon", "is", "the largest town in Essex")},
        ),
        (
            "Paris is the capital of France.[1] It lies on the Seine.[2]",
            {("Paris", "is", "the capital of France"), ("Paris", "lies on", "the Seine")},
        ),
    ],
)
def test_bracketed_pronunciation_or_citation_mark_leaves_the_fact_whole(
    decomposer: RuleDecomposer, text: str, expected: set[tuple[str, str, str]]
) -> None:
    assert triples(decomposer.decompose(text)) == expected


def test_compact_cuts_only_the_inner_aside_of_nested_brackets() -> None:
    assert compact("Zinc (see the table (below)) melts.").text == "Zinc (see the table) melts."


# --------------------------------------------------------------------------- asides


@pytest.mark.parametrize(
    ("text", "main", "definitions"),
    [
        (
            "Copper (Cu) displaces iron (Fe) from its compounds.",
            ("Copper", "displaces", "iron"),
            {("Copper", "is", "Cu"), ("iron", "is", "Fe")},
        ),
        (
            "Gold (Au) resists corrosion.",
            ("Gold", "resists", "corrosion"),
            {("Gold", "is", "Au")},
        ),
        (
            "Magnesium (Mg) burns with a bright white flame.",
            ("Magnesium", "burns with", "a bright white flame"),
            {("Magnesium", "is", "Mg")},
        ),
        (
            "Bromine (Br) evaporates quickly at room temperature.",
            ("Bromine", "evaporates at", "room temperature"),
            {("Bromine", "is", "Br")},
        ),
        (
            "Dmitri Mendeleev (a Russian chemist) published the periodic table in 1869.",
            ("Dmitri Mendeleev", "published", "the periodic table"),
            {("Dmitri Mendeleev", "is", "a Russian chemist")},
        ),
    ],
)
def test_a_parenthesised_name_keeps_the_main_clause_and_becomes_a_definition(
    decomposer: RuleDecomposer,
    text: str,
    main: tuple[str, str, str],
    definitions: set[tuple[str, str, str]],
) -> None:
    facts = decomposer.decompose(text)
    assert main in triples(facts)
    assert definitions <= triples(facts)
    assert all(f.source_text == text for f in facts)  # spans cover the original sentence


@pytest.mark.parametrize(
    ("text", "main"),
    [
        (
            "John Smith (1901–1980) was an English painter.",
            ("John Smith", "was", "an English painter"),
        ),
        (
            "Marie Curie (born 7 November 1867) was a Polish physicist.",
            ("Marie Curie", "was", "a Polish physicist"),
        ),
        (
            "The Kingdom of Prussia (1701–1918) annexed Hanover in 1866.",
            ("The Kingdom of Prussia", "annexed", "Hanover"),
        ),
        (
            "Mount Everest (8,849 m) is the highest mountain.",
            ("Mount Everest", "is", "the highest mountain"),
        ),
    ],
)
def test_dates_measures_and_remarks_in_parentheses_give_no_definition(
    decomposer: RuleDecomposer, text: str, main: tuple[str, str, str]
) -> None:
    found = triples(decomposer.decompose(text))
    assert main in found
    assert not any(rel == "is" and subj == main[0] and obj != main[2] for subj, rel, obj in found)


def test_spans_of_later_sentences_stay_exact_after_a_cut(decomposer: RuleDecomposer) -> None:
    text = "Gold (Au) resists corrosion. Copper (Cu) conducts electricity well."
    facts = decomposer.decompose(text, offset=40)
    second = [f for f in facts if f.subject == "Copper"]
    assert second
    for fact in second:
        assert fact.span is not None
        assert fact.source_text == "Copper (Cu) conducts electricity well."
        assert text[fact.span.start - 40 : fact.span.end - 40] == fact.source_text


# --------------------------------------------------------------------------- hyphens


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "The hospital serves the Bertoua sub-district of the East Region.",
            ("The hospital", "serves", "the Bertoua sub-district of the East Region"),
        ),
        (
            "The town lies in the Abong-Mbang sub-division of the Adamawa Division.",
            ("The town", "lies in", "the Abong-Mbang sub-division of the Adamawa Division"),
        ),
        (
            "The river drains the Mbéré sub-basin of the Lom.",
            ("The river", "drains", "the Mbéré sub-basin of the Lom"),
        ),
        (
            "The painter moved to the Lot-et-Garonne department in 1920.",
            ("The painter", "moved to", "the Lot-et-Garonne department"),
        ),
        (
            "The Sino-Japanese War began in 1894.",
            ("The Sino-Japanese War", "began in", "1894"),
        ),
    ],
)
def test_hyphenated_words_stay_whole(
    decomposer: RuleDecomposer, text: str, fact: tuple[str, str, str]
) -> None:
    assert fact in triples(decomposer.decompose(text))


# --------------------------------------------------------------------------- misparsed clauses


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Copper displaces iron from its compounds.", ("Copper", "displaces", "iron")),
        ("Chlorine gas bleaches litmus paper.", ("Chlorine gas", "bleaches", "litmus paper")),
    ],
)
def test_a_verb_tagged_as_a_plural_noun_still_gives_the_clause(
    decomposer: RuleDecomposer, text: str, fact: tuple[str, str, str]
) -> None:
    assert triples(decomposer.decompose(text)) == {fact}


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            '"Attention Is All You Need" was published in 2017.',
            ('"Attention Is All You Need"', "was published in", "2017"),
        ),
        (
            '"Gone with the Wind" was published in 1936.',
            ('"Gone with the Wind"', "was published in", "1936"),
        ),
    ],
)
def test_a_quoted_title_with_a_verb_in_it_is_the_subject(
    decomposer: RuleDecomposer, text: str, fact: tuple[str, str, str]
) -> None:
    assert fact in triples(decomposer.decompose(text))


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            'Jane Austen wrote "Sense and Prejudice".',
            ("Jane Austen", "wrote", '"Sense and Prejudice"'),
        ),
        (
            "Jane Austen wrote \u201cSense and Prejudice\u201d in 1811.",
            ("Jane Austen", "wrote", "\u201cSense and Prejudice\u201d"),
        ),
        (
            'The novel "Pride and Prejudice" was written by Jane Austen.',
            ('The novel "Pride and Prejudice"', "was written by", "Jane Austen"),
        ),
        (
            'The film "Gone with the Wind" won eight Oscars.',
            ('The film "Gone with the Wind"', "won", "eight Oscars"),
        ),
        (
            'Vaswani wrote "Attention Is All You Need" in 2017.',
            ("Vaswani", "wrote", '"Attention Is All You Need"'),
        ),
    ],
)
def test_a_quoted_title_is_not_split_at_and_nor_cut_from_its_noun(
    decomposer: RuleDecomposer, text: str, fact: tuple[str, str, str]
) -> None:
    found = triples(decomposer.decompose(text))
    assert fact in found
    # No fact of a title's parts, and no quote mark left behind on its own.
    assert all(len(part) > 1 for t in found for part in t if '"' in part)
    assert {f for f in found if f[0] == fact[0]} == {fact}


def test_quoted_speech_is_no_title(decomposer: RuleDecomposer) -> None:
    found = triples(decomposer.decompose('Einstein said "God does not play dice".'))
    assert ("God", "does not play", "dice") in found


# --------------------------------------------------------------------------- life dates


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        (
            "Isaac Newton (1643\u20131727) was an English physicist.",
            {("Isaac Newton", "was born in", "1643"), ("Isaac Newton", "died in", "1727")},
        ),
        (
            "Alan Turing (1912 \u2013 1954) worked at Bletchley Park.",
            {("Alan Turing", "was born in", "1912"), ("Alan Turing", "died in", "1954")},
        ),
        (
            "Alan Turing (born 1912) worked at Bletchley Park.",
            {("Alan Turing", "was born in", "1912")},
        ),
        (
            "Alan Turing (b. 1912) worked at Bletchley Park.",
            {("Alan Turing", "was born in", "1912")},
        ),
        ("Alan Turing (died 1954) worked at Bletchley Park.", {("Alan Turing", "died in", "1954")}),
        (
            "Marie Curie (born 7 November 1867) was a Polish physicist.",
            {("Marie Curie", "was born on", "7 November 1867")},
        ),
    ],
)
def test_life_dates_after_a_name_are_facts_of_that_person(
    decomposer: RuleDecomposer, text: str, dates: set[tuple[str, str, str]]
) -> None:
    found = decomposer.analyse(text)
    assert dates <= triples(found.facts)
    assert found.undecomposed == []


def test_a_place_of_birth_in_the_aside_is_a_location(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Marie Curie (born 1867 in Warsaw) was a physicist.")
    born = [f for f in facts if f.relation == "was born in"]
    assert [(f.object, [(q.label, q.value) for q in f.qualifiers]) for f in born] == [
        ("1867", [("location", "Warsaw")])
    ]


@pytest.mark.parametrize(
    ("text", "aside"),
    [
        ("Mount Everest (8,849 m) is the highest mountain.", "(8,849 m)"),
        ("The Kingdom of Prussia (1701\u20131918) annexed Hanover in 1866.", "(1701\u20131918)"),
        ("Isaac Newton (c. 1643) was a physicist.", "(c. 1643)"),
    ],
)
def test_an_aside_with_a_value_that_gives_no_fact_is_listed_as_not_decomposed(
    decomposer: RuleDecomposer, text: str, aside: str
) -> None:
    found = decomposer.analyse(text, offset=7)
    assert found.facts  # the main clause still gives its fact
    assert [text[s.start - 7 : s.end - 7] for s in found.undecomposed] == [aside]


def test_an_aside_without_a_value_is_not_listed(decomposer: RuleDecomposer) -> None:
    found = decomposer.analyse("Gold (Au) resists corrosion. Tin (a soft metal) melts easily.")
    assert found.undecomposed == []
