"""Tests of the offline rule-based TriQua decomposer (spaCy loaded once for the module)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from triqua.engines.offline.decompose.decomposer import (
    DECOMPOSER_REVISION,
    ChunkInput,
    RuleDecomposer,
    get_decomposer,
)
from triqua.schema import Fact

from .conftest import triples


def only(facts: list[Fact], subject: str, relation: str, obj: str) -> Fact:
    found = [f for f in facts if (f.subject, f.relation, f.object) == (subject, relation, obj)]
    assert len(found) == 1, [f.to_string() for f in facts]
    return found[0]


def quals(fact: Fact) -> set[tuple[str, str]]:
    return {(q.label, q.value) for q in fact.qualifiers}


# --------------------------------------------------------------------------- API


def test_revision_names_rules_and_model() -> None:
    assert DECOMPOSER_REVISION.startswith("offline-rules/")
    assert "+en_core_web_sm-3.8" in DECOMPOSER_REVISION


def test_get_decomposer_is_a_singleton(decomposer: RuleDecomposer) -> None:
    assert get_decomposer() is decomposer


def test_facts_carry_chunk_index_offset_and_no_id(decomposer: RuleDecomposer) -> None:
    text = "Paris is the capital of France."
    [fact] = decomposer.decompose(text, offset=100, chunk_index=3)
    assert fact.id == ""
    assert fact.chunk_index == 3
    assert fact.span is not None
    assert (fact.span.start, fact.span.end) == (100, 100 + len(text))
    assert fact.source_text == text


def test_decompose_many_matches_decompose(decomposer: RuleDecomposer) -> None:
    chunks: list[ChunkInput | str] = [
        ChunkInput("Marie Curie was born in Warsaw.", offset=0, chunk_index=0),
        ChunkInput(
            "She moved to Paris in 1891.",
            offset=32,
            chunk_index=1,
            previous_chunk="Marie Curie was born in Warsaw.",
        ),
        "Paris is the capital of France.",
    ]
    batched = decomposer.decompose_many(chunks)
    single = [
        decomposer.decompose("Marie Curie was born in Warsaw.", offset=0, chunk_index=0),
        decomposer.decompose(
            "She moved to Paris in 1891.",
            offset=32,
            chunk_index=1,
            previous_chunk="Marie Curie was born in Warsaw.",
        ),
        decomposer.decompose("Paris is the capital of France."),
    ]
    assert batched == single
    assert [len(b) for b in batched] == [1, 1, 1]
    assert batched[1][0].subject == "Marie Curie"


# --------------------------------------------------------------------------- base triples


def test_copular_sentence(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Paris is the capital of France.")
    assert triples(facts) == {("Paris", "is", "the capital of France")}


def test_prepositional_object_folds_into_relation(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Marie Curie was born in Warsaw.")
    assert triples(facts) == {("Marie Curie", "was born in", "Warsaw")}


def test_negation_is_kept_in_the_relation(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Einstein did not win the Nobel Prize in Chemistry.")
    assert ("Einstein", "did not win", "the Nobel Prize in Chemistry") in triples(facts)
    facts = decomposer.decompose("Einstein never won a second Nobel Prize.")
    assert triples(facts) == {("Einstein", "never won", "a second Nobel Prize")}


def test_passive_agent_and_open_complement(decomposer: RuleDecomposer) -> None:
    assert triples(decomposer.decompose("Hamlet was written by Shakespeare.")) == {
        ("Hamlet", "was written by", "Shakespeare")
    }
    assert triples(decomposer.decompose("Einstein wanted to become a doctor.")) == {
        ("Einstein", "wanted to become", "a doctor")
    }


def test_france_example(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose(
        "As of 2026, France has a population of 64.5 million, excluding overseas departments."
    )
    assert len(facts) == 1
    [fact] = facts
    assert fact.subject == "France"
    assert "population" in fact.relation
    assert fact.object == "64.5 million"
    assert quals(fact) == {("point in time", "2026"), ("excluding", "overseas departments")}


def test_ronaldo_example(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose(
        "Ronaldo played for Corinthians, where he won the Campeonato Paulista "
        "and the Copa do Brasil."
    )
    only(facts, "Ronaldo", "played for", "Corinthians")
    paulista = only(facts, "Ronaldo", "won", "the Campeonato Paulista")
    copa = only(facts, "Ronaldo", "won", "the Copa do Brasil")
    assert quals(paulista) == quals(copa) == {("played for", "Corinthians")}
    assert len(facts) == 3


# --------------------------------------------------------------------------- qualifiers


@pytest.mark.parametrize(
    ("text", "base", "qualifier"),
    [
        (
            "Marie Curie won the Nobel Prize in Physics in 1903.",
            ("Marie Curie", "won", "the Nobel Prize in Physics"),
            ("point in time", "1903"),
        ),
        (
            "The Declaration of Independence was signed by Hancock on 4 July 1776.",
            ("The Declaration of Independence", "was signed by", "Hancock"),
            ("point in time", "4 July 1776"),
        ),
        (
            "As of 2020, Apple employed 147,000 people.",
            ("Apple", "employed", "147,000 people"),
            ("point in time", "2020"),
        ),
        (
            "Obama has lived in Chicago since 1985.",
            ("Obama", "has lived in", "Chicago"),
            ("start time", "1985"),
        ),
        (
            "The museum closed its doors until 2005.",
            ("The museum", "closed", "The museum's doors"),
            ("end time", "2005"),
        ),
        (
            "The company hired 500 workers in Paris.",
            ("The company", "hired", "500 workers"),
            ("location", "Paris"),
        ),
        (
            "The company sold the building for $5 million.",
            ("The company", "sold", "the building"),
            ("quantity", "$5 million"),
        ),
        (
            "The law covers all citizens except diplomats.",
            ("The law", "covers", "all citizens"),
            ("excluding", "diplomats"),
        ),
        (
            "The team, including Smith, won the cup.",
            ("The team", "won", "the cup"),
            ("including", "Smith"),
        ),
        (
            "According to the BBC, the company hired 500 workers.",
            ("the company", "hired", "500 workers"),
            ("stated in", "the BBC"),
        ),
        (
            "The airline cancelled the flight due to bad weather.",
            ("The airline", "cancelled", "the flight"),
            ("cause", "bad weather"),
        ),
        (
            "The city rebuilt the bridge because of the war.",
            ("The city", "rebuilt", "the bridge"),
            ("cause", "the war"),
        ),
        (
            "Einstein moved to Paris because Einstein got a job there.",
            ("Einstein", "moved to", "Paris"),
            ("cause", "Einstein got a job there"),
        ),
        (
            "After the war, Einstein moved to Berlin.",
            ("Einstein", "moved to", "Berlin"),
            ("follows", "the war"),
        ),
        (
            "Before joining Apple, Jobs worked at IBM.",
            ("Jobs", "worked at", "IBM"),
            ("precedes", "joining Apple"),
        ),
    ],
)
def test_qualifier_types(
    decomposer: RuleDecomposer,
    text: str,
    base: tuple[str, str, str],
    qualifier: tuple[str, str],
) -> None:
    fact = only(decomposer.decompose(text), *base)
    assert qualifier in quals(fact)


def test_from_to_gives_start_and_end_time(decomposer: RuleDecomposer) -> None:
    fact = only(
        decomposer.decompose("Obama served as president from 2009 to 2017."),
        "Obama",
        "served as",
        "president",
    )
    assert [(q.label, q.value) for q in fact.qualifiers] == [
        ("start time", "2009"),
        ("end time", "2017"),
    ]


def test_main_object_place_is_not_a_location_qualifier(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Marie Curie was born in Warsaw.")
    fact = only(facts, "Marie Curie", "was born in", "Warsaw")
    assert fact.qualifiers == []


@pytest.mark.parametrize(
    ("text", "fact", "place"),
    [
        (
            "Tim Berners-Lee invented the World Wide Web at CERN.",
            ("Tim Berners-Lee", "invented", "the World Wide Web"),
            "CERN",
        ),
        (
            "Gates founded Microsoft in Albuquerque.",
            ("Gates", "founded", "Microsoft"),
            "Albuquerque",
        ),
    ],
)
def test_a_place_hung_on_a_named_object_is_a_location_qualifier(
    decomposer: RuleDecomposer, text: str, fact: tuple[str, str, str], place: str
) -> None:
    facts = decomposer.decompose(text)
    assert triples(facts) == {fact}
    assert ("location", place) in quals(only(facts, *fact))


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Paris is the capital of France.", ("Paris", "is", "the capital of France")),
        (
            "Marie Curie studied at the University of Paris.",
            ("Marie Curie", "studied at", "the University of Paris"),
        ),
        (
            "Marie Curie won the Nobel Prize in Physics.",
            ("Marie Curie", "won", "the Nobel Prize in Physics"),
        ),
        (
            "Hinton earned a PhD in Artificial Intelligence at Edinburgh.",
            ("Hinton", "earned", "a PhD in Artificial Intelligence at Edinburgh"),
        ),
    ],
)
def test_a_place_that_is_part_of_the_thing_stays_in_the_object(
    decomposer: RuleDecomposer, text: str, fact: tuple[str, str, str]
) -> None:
    assert fact in triples(decomposer.decompose(text))


# --------------------------------------------------------------------------- splitting


def test_coordinated_objects_split(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Lionel Messi plays for Inter Miami and the Argentina team.")
    assert triples(facts) == {
        ("Lionel Messi", "plays for", "Inter Miami"),
        ("Lionel Messi", "plays for", "the Argentina team"),
    }


def test_coordinated_verbs_split_and_share_fronted_qualifiers(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose(
        "In 1905, Einstein published four papers and received a doctorate."
    )
    wrote = only(facts, "Einstein", "published", "four papers")
    won = only(facts, "Einstein", "received", "a doctorate")
    assert quals(wrote) == quals(won) == {("point in time", "1905")}


def test_coordinated_subjects_split(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Tom and Jerry live in New York.")
    assert triples(facts) == {("Tom", "live in", "New York"), ("Jerry", "live in", "New York")}


def test_appositive_is_its_own_fact(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose(
        "Marie Curie, a Polish-born physicist, won the Nobel Prize in Physics in 1903."
    )
    appositive = only(facts, "Marie Curie", "is", "a Polish-born physicist")
    won = only(facts, "Marie Curie", "won", "the Nobel Prize in Physics")
    assert appositive.qualifiers == []
    assert quals(won) == {("point in time", "1903")}
    assert len(facts) == 2


def test_relative_clause_is_its_own_fact(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Marie Curie, who was born in Warsaw, moved to Paris in 1891.")
    only(facts, "Marie Curie", "was born in", "Warsaw")
    moved = only(facts, "Marie Curie", "moved to", "Paris")
    assert quals(moved) == {("point in time", "1891")}


def test_relative_clause_on_a_predicate_noun_describes_the_subject(
    decomposer: RuleDecomposer,
) -> None:
    facts = decomposer.decompose("Lionel Messi is a footballer who plays for Inter Miami.")
    assert triples(facts) == {
        ("Lionel Messi", "is", "a footballer"),
        ("Lionel Messi", "plays for", "Inter Miami"),
    }


# --------------------------------------------------------------------------- pronouns


def test_pronoun_resolved_within_the_chunk(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose(
        "Marie Curie was born in Warsaw. She moved to Paris. Its university hired her."
    )
    assert ("Marie Curie", "moved to", "Paris") in triples(facts)
    assert ("Paris's university", "hired", "Marie Curie") in triples(facts)


def test_it_resolves_to_a_non_person(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose(
        "Gustave Eiffel designed the Eiffel Tower. It attracts millions of visitors."
    )
    assert ("the Eiffel Tower", "attracts", "millions of visitors") in triples(facts)


def test_pronoun_resolved_from_previous_chunk(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose(
        "He plays for Inter Miami.", previous_chunk="Lionel Messi was born in Rosario."
    )
    assert triples(facts) == {("Lionel Messi", "plays for", "Inter Miami")}


def test_pronoun_resolved_from_question(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose(
        "He plays for Inter Miami.", question="Tell me a bio of Lionel Messi"
    )
    assert triples(facts) == {("Lionel Messi", "plays for", "Inter Miami")}


def test_chunk_wins_over_previous_chunk_and_question(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose(
        "Pele was born in Brazil. He played for Santos.",
        previous_chunk="Lionel Messi was born in Rosario.",
        question="Tell me about Diego Maradona",
    )
    assert ("Pele", "played for", "Santos") in triples(facts)


def test_unresolvable_pronoun_yields_nothing(decomposer: RuleDecomposer) -> None:
    assert decomposer.decompose("He plays for Inter Miami.") == []


# --------------------------------------------------------------------------- non-facts


@pytest.mark.parametrize(
    "text",
    [
        "I think this is a great question.",
        "What a wonderful city!",
        "Is Paris big?",
        "It might be interesting to learn more.",
        "I'm sorry, I can't help with that.",
        "Paris is a beautiful city.",
        "Tell me more about it.",
    ],
)
def test_non_factual_sentences_yield_nothing(decomposer: RuleDecomposer, text: str) -> None:
    assert decomposer.decompose(text) == []


def test_hedged_sentence_keeps_its_concrete_fact(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("I think Paris is the capital of France.")
    assert triples(facts) == {("Paris", "is", "the capital of France")}


# --------------------------------------------------------------------------- spans

_POOL = [
    "Paris is the capital of France.",
    "Marie Curie was born in Warsaw.",
    "She moved to Paris in 1891.",
    "Is Paris big?",
    "Ronaldo played for Corinthians, where he won the Copa do Brasil.",
    "<b>Hamlet</b> was written by Shakespeare. 🎭",
    "Tom and Jerry live in New York.",
    "Hello!",
]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sentences=st.lists(st.sampled_from(_POOL), min_size=0, max_size=5),
    separators=st.lists(st.sampled_from([" ", "  ", "\n", "\n\n", "\t"]), min_size=5, max_size=5),
    prefix=st.text(max_size=30),
    index=st.integers(min_value=0, max_value=50),
)
def test_spans_point_at_the_source_text(
    decomposer: RuleDecomposer,
    sentences: list[str],
    separators: list[str],
    prefix: str,
    index: int,
) -> None:
    chunk = "".join(s + sep for s, sep in zip(sentences, separators, strict=False))
    full = prefix + chunk + " trailing text."
    facts = decomposer.decompose(chunk, offset=len(prefix), chunk_index=index)
    for fact in facts:
        assert fact.span is not None
        assert full[fact.span.start : fact.span.end] == fact.source_text
        assert fact.source_text == fact.source_text.strip() != ""
        assert fact.chunk_index == index
    if "Paris is the capital of France." in sentences:
        assert any(f.object == "the capital of France" for f in facts)


# --------------------------------------------------------------------------- robustness


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n\t  ",
        "🎉🎉🎉 😀",
        "<html><body><p></p></body></html>",
        "....!!!???",
        "\x00\x01\x02",
        "שלום עולם. مرحبا بالعالم.",
        "(((",
        "a" * 20_000,
    ],
)
def test_odd_inputs_yield_nothing(decomposer: RuleDecomposer, text: str) -> None:
    assert decomposer.decompose(text) == []


def test_markup_emoji_and_rtl_around_facts(decomposer: RuleDecomposer) -> None:
    text = "<p>Paris is the <b>capital</b> of France.</p> مرحبا. 🇫🇷 Émile Zola was born in Paris."
    facts = decomposer.decompose(text)
    assert triples(facts) == {
        ("Paris", "is", "the capital of France"),
        ("Émile Zola", "was born in", "Paris"),
    }
    for fact in facts:
        assert fact.span is not None
        assert text[fact.span.start : fact.span.end] == fact.source_text


@pytest.mark.slow
def test_five_thousand_word_sentence_finishes_quickly(decomposer: RuleDecomposer) -> None:
    phrase = "the council of Paris and the mayor of Lyon met in 2020 with "
    text = (phrase * 400).strip() + "."
    assert len(text.split()) >= 5000
    started = time.perf_counter()
    facts = decomposer.decompose(text, offset=7)
    assert time.perf_counter() - started < 15
    for fact in facts:
        assert fact.span is not None
        assert text[fact.span.start - 7 : fact.span.end - 7] == fact.source_text


_VOCAB = [
    "the",
    "a",
    "Paris",
    "France",
    "Messi",
    "he",
    "she",
    "it",
    "they",
    "his",
    "its",
    "who",
    "which",
    "where",
    "and",
    "but",
    ",",
    ".",
    ";",
    "!",
    "?",
    "is",
    "was",
    "has",
    "won",
    "played",
    "born",
    "in",
    "on",
    "from",
    "to",
    "since",
    "until",
    "because",
    "of",
    "due",
    "according",
    "excluding",
    "except",
    "after",
    "before",
    "as",
    "2020",
    "5",
    "million",
    "$",
    "%",
    "Copa",
    "do",
    "Brasil",
    "van",
    "der",
    "Berg",
    "de",
    "la",
    "not",
    "There",
    "are",
    "(",
    ")",
    '"',
    "'",
    "-",
    "🎉",
    "<b>",
    "</b>",
    "I",
    "you",
    "think",
    "might",
    "great",
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=st.lists(st.sampled_from(_VOCAB), max_size=40),
    noise=st.text(max_size=20),
    previous=st.sampled_from([None, "Messi won.", ""]),
)
def test_word_soup_never_crashes_and_keeps_spans(
    decomposer: RuleDecomposer, words: list[str], noise: str, previous: str | None
) -> None:
    text = " ".join(words) + noise
    for fact in decomposer.decompose(text, offset=5, previous_chunk=previous):
        assert fact.span is not None
        assert text[fact.span.start - 5 : fact.span.end - 5] == fact.source_text
        assert fact.subject and fact.relation


def test_concurrent_calls_agree(decomposer: RuleDecomposer) -> None:
    texts = [
        "Marie Curie was born in Warsaw. She moved to Paris in 1891.",
        "Ronaldo played for Corinthians, where he won the Copa do Brasil.",
        "Tom and Jerry live in New York.",
    ] * 4
    expected = [decomposer.decompose(t) for t in texts]
    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(decomposer.decompose, texts)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Turing's birthplace was Maida Vale.", ("Turing", "was born in", "Maida Vale")),
        ("The birthplace of Alan Turing was Maida Vale.",
         ("Alan Turing", "was born in", "Maida Vale")),
        ("Newton's date of birth is 1643.", ("Newton", "was born in", "1643")),
        ("Marie Curie was a physicist. Her birthplace was Warsaw.",
         ("Marie Curie", "was born in", "Warsaw")),
        ("Einstein's alma mater is ETH Zurich.", ("Einstein", "studied at", "ETH Zurich")),
    ],
)  # fmt: skip
def test_a_possessive_property_subject_is_read_as_its_relation(
    text: str, expected: tuple[str, str, str]
) -> None:
    facts = get_decomposer().analyse(text).facts
    assert expected in {(f.subject, f.relation, f.object) for f in facts}


def test_word_soup_that_parses_to_no_relation_gives_no_fact(decomposer: RuleDecomposer) -> None:
    """A dangling conjunction with noise ("because-°Ç") is listed as not decomposed."""
    assert decomposer.decompose("because-°Ç") == []


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        ("There is a capital called Mogadishu.", ("Mogadishu", "is", "a capital")),
        ("There is a river named Thames.", ("Thames", "is", "a river")),
        ("There are 20 regions in Italy.", ("Italy", "has", "20 regions")),
    ],
)
def test_existential_names_what_it_says_there_is(
    decomposer: RuleDecomposer, text: str, triple: tuple[str, str, str]
) -> None:
    assert {(f.subject, f.relation, f.object) for f in decomposer.decompose(text)} == {triple}


def test_existential_naming_several_things_says_none_is_them(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("There are three other Brazilian footballers named Fernando.")
    assert not any(f.subject == "Fernando" for f in facts)


@pytest.mark.parametrize(
    ("text", "relation", "obj"),
    [
        ("T2 Trainspotting is set in and around a city.", "is set in and around", "a city"),
        ("The film was shot in and around Edinburgh.", "was shot in and around", "Edinburgh"),
    ],
)
def test_joined_prepositions_share_their_object(
    decomposer: RuleDecomposer, text: str, relation: str, obj: str
) -> None:
    (fact,) = decomposer.decompose(text)
    assert (fact.relation, fact.object) == (relation, obj)
