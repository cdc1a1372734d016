"""Recall and hygiene of the offline decomposer: fallback facts, junk, labels, coreference."""

from __future__ import annotations

import pytest

from triqua.engines.offline.decompose.decomposer import RuleDecomposer
from triqua.engines.offline.decompose.hygiene import is_junk_argument
from triqua.engines.offline.engine import OfflineDecomposer
from triqua.engines.offline.labels import BARE_PREPOSITIONS, MARKER_LABELS, label_for
from triqua.schema import Chunk, Fact
from triqua.sentences import is_list_marker, unmatched_sentences

from .conftest import triples


def quals(fact: Fact) -> set[tuple[str, str]]:
    return {(q.label, q.value) for q in fact.qualifiers}


# --------------------------------------------------------------------------- recall


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The Rhine flows into the North Sea.", ("The Rhine", "flows into", "the North Sea")),
        (
            "The Volga empties into the Caspian Sea.",
            ("The Volga", "empties into", "the Caspian Sea"),
        ),
        ("The Moon orbits Jupiter.", ("The Moon", "orbits", "Jupiter")),
        ("Greta Garbo acts.", ("Greta Garbo", "acts", "")),
        ("Ludwig van Beethoven composed.", ("Ludwig van Beethoven", "composed", "")),
        ("The old bridge collapsed.", ("The old bridge", "collapsed", "")),
        ("The treaty was not ratified.", ("The treaty", "was not ratified", "")),
    ],
)
def test_declarative_sentence_yields_a_clause_fact(
    decomposer: RuleDecomposer, text: str, expected: tuple[str, str, str]
) -> None:
    assert expected in triples(decomposer.decompose(text))


def test_a_reported_clause_the_rules_miss_is_read_not_its_frame(
    decomposer: RuleDecomposer,
) -> None:
    # A gerund subject defeats the clause rules; the frame alone, (evidence, suggests, ""),
    # would state nothing checkable.
    [fact] = decomposer.decompose(
        "New evidence suggests that glassmaking in the valley began around the 4th century."
    )
    assert fact.subject == "glassmaking in the valley"
    assert fact.relation.startswith("began")
    assert "4th century" in fact.object
    assert quals(fact) == {("stated by", "New evidence")}


def test_intransitive_fact_has_an_empty_object(decomposer: RuleDecomposer) -> None:
    [fact] = decomposer.decompose("Tilda Swinton acts.")
    assert (fact.subject, fact.relation, fact.object, fact.qualifiers) == (
        "Tilda Swinton",
        "acts",
        "",
        [],
    )


def test_relative_time_adverbial_is_a_qualifier_and_pronoun_resolved(
    decomposer: RuleDecomposer,
) -> None:
    facts = decomposer.decompose(
        "Shaquille Oneal signed with Miami in 2004. He was traded two years later."
    )
    traded = [f for f in facts if f.relation == "was traded"]
    assert [(f.subject, f.object) for f in traded] == [("Shaquille Oneal", "")]
    assert quals(traded[0]) == {("point in time", "two years later")}


@pytest.mark.parametrize(
    "text",
    [
        "Is the river long?",
        "What a journey!",
        "Absolutely stunning views.",
        "He was waived three days later.",
        "They won.",
    ],
)
def test_sentences_without_a_fact_are_listed_as_not_decomposed(
    decomposer: RuleDecomposer, text: str
) -> None:
    found = decomposer.analyse(text, offset=40)
    assert found.facts == []
    assert [(s.start, s.end) for s in found.undecomposed] == [(40, 40 + len(text))]


def test_not_decomposed_spans_point_at_the_skipped_sentences(decomposer: RuleDecomposer) -> None:
    text = "Oslo is the capital of Norway. Why? She sings.  Bergen lies on the coast."
    found = decomposer.analyse(text, offset=7)
    skipped = [text[s.start - 7 : s.end - 7] for s in found.undecomposed]
    assert skipped == ["Why?", "She sings."]
    assert ("Oslo", "is", "the capital of Norway") in triples(found.facts)
    assert decomposer.analyse("  \n ... ").undecomposed == []


def test_a_list_marker_cut_off_as_a_sentence_is_not_left_undecomposed(
    decomposer: RuleDecomposer,
) -> None:
    text = "1. Oslo is the capital of Norway.\n2. Bergen lies on the coast.\n3. Why?"
    found = decomposer.analyse(text)
    skipped = [text[s.start : s.end] for s in found.undecomposed]
    assert skipped == ["3. Why?"]  # "1." and "2." state nothing; a real sentence still counts
    assert ("Oslo", "is", "the capital of Norway") in triples(found.facts)
    chunk = Chunk(index=0, start=0, end=len(text), text=text)
    spans = unmatched_sentences(chunk, [f.span for f in found.facts])
    assert [text[s.start : s.end].removeprefix("3. ") for s in spans] == ["Why?"]
    assert is_list_marker("iv.") and is_list_marker("(b)") and not is_list_marker("Why?")


def test_a_markdown_table_is_not_parsed_as_sentences_and_is_listed_whole(
    decomposer: RuleDecomposer,
) -> None:
    table = "| Name | Year |\n|------|------|\n| Marie Curie | 1903 |\n| Pierre Curie | 1903 |"
    text = f"Oslo is the capital of Norway.\n\n{table}\n\nBergen lies on the coast."
    found = decomposer.analyse(text, offset=5)
    assert triples(found.facts) == {
        ("Oslo", "is", "the capital of Norway"),
        ("Bergen", "lies on", "the coast"),
    }
    assert all("|" not in f.subject + f.relation + f.object for f in found.facts)
    skipped = [text[s.start - 5 : s.end - 5] for s in found.undecomposed]
    assert skipped == [table]


def test_offline_engine_returns_not_decomposed_sentences() -> None:
    text = "Lisbon is a port. Where is Porto?"
    chunk = Chunk(index=2, start=100, end=100 + len(text), text=text)
    result = OfflineDecomposer().decompose(chunk, previous_chunk=None, question=None, chunked=True)
    assert len(result.facts) == 1
    assert [(s.start, s.end) for s in result.undecomposed] == [(118, 100 + len(text))]


# --------------------------------------------------------------------------- hygiene


def test_subject_never_comes_from_a_fronted_prepositional_phrase(
    decomposer: RuleDecomposer,
) -> None:
    facts = decomposer.decompose(
        "Ada Lovelace was a mathematician. Together with Charles Babbage and Michael Faraday, "
        "she was invited to the lecture."
    )
    invited = [f for f in facts if f.relation.startswith("was invited")]
    assert invited and {f.subject for f in invited} == {"Ada Lovelace"}
    assert {v for f in invited for _, v in quals(f)} >= {"Charles Babbage", "Michael Faraday"}
    assert all(label == "together with" for f in invited for label, _ in quals(f))


def test_came_into_the_world_means_born(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Frida Kahlo came into the world in Coyoacan.")
    assert triples(facts) == {("Frida Kahlo", "was born in", "Coyoacan")}
    assert not any(f.object == "the world" for f in facts)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The concert takes place in Vienna.", ("The concert", "takes place in", "Vienna")),
        ("Grace Kelly gave birth to Caroline.", ("Grace Kelly", "gave birth to", "Caroline")),
        ("Johann Strauss passed away in Vienna.", ("Johann Strauss", "died in", "Vienna")),
    ],
)
def test_idioms_read_as_their_meaning(
    decomposer: RuleDecomposer, text: str, expected: tuple[str, str, str]
) -> None:
    assert expected in triples(decomposer.decompose(text))


def test_coordinated_years_split_into_separate_facts(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Serena Williams won the tournament in 2002 and 2015.")
    won = [f for f in facts if f.object == "the tournament"]
    assert sorted(q.value for f in won for q in f.qualifiers) == ["2002", "2015"]
    assert all(len(f.qualifiers) == 1 for f in won)
    assert all(f.qualifiers[0].label == "point in time" for f in won)


def test_coordinated_places_split_into_separate_facts(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("The band performed the song in Oslo and Helsinki.")
    assert sorted(quals(f).pop() for f in facts) == [("location", "Helsinki"), ("location", "Oslo")]


def test_month_list_without_own_years_stays_one_value(decomposer: RuleDecomposer) -> None:
    [fact] = decomposer.decompose("The museum hosted the show in March and April 2020.")
    assert [q.value for q in fact.qualifiers] == ["March and April 2020"]


@pytest.mark.parametrize(
    "text",
    [
        "Ice melts at 0 degrees Celsius at sea level.",
        "Tom has four brothers, Ben, Sam, Joe and Max.",
        "Water freezes at 32 degrees Fahrenheit.",
    ],
)
def test_no_fact_on_a_bare_number_unit_or_determiner(decomposer: RuleDecomposer, text: str) -> None:
    facts = decomposer.decompose(text)
    assert facts
    for fact in facts:
        assert not is_junk_argument(fact.subject, "subject"), fact.to_string()
        assert not is_junk_argument(fact.object, "object"), fact.to_string()


@pytest.mark.parametrize(
    ("text", "role", "junk"),
    [
        ("100 degrees", "subject", True),
        ("three siblings", "subject", True),
        ("about 40 %", "subject", True),
        ("both", "object", True),
        ("the", "subject", True),
        ("degrees", "object", True),
        ("", "subject", True),
        ("", "object", False),
        ("1961", "object", False),
        ("three siblings", "object", False),
        ("Two of his films", "subject", False),
        ("The 1998 World Cup", "subject", False),
        ("Marie Curie", "subject", False),
    ],
)
def test_junk_argument_rule(text: str, role: str, junk: bool) -> None:
    assert is_junk_argument(text, role) is junk


# --------------------------------------------------------------------------- labels


@pytest.mark.parametrize(
    ("text", "qualifier"),
    [
        ("Nina Simone recorded the album in 1965.", ("point in time", "1965")),
        ("Nina Simone recorded the album in Chicago.", ("location", "Chicago")),
        ("Nina Simone recorded the album on 4 May 1965.", ("point in time", "4 May 1965")),
        ("Nina Simone recorded the album during the war.", ("point in time", "the war")),
        ("Nina Simone recorded the album at Carnegie Hall.", ("location", "Carnegie Hall")),
        ("Nina Simone recorded the album for three weeks.", ("duration", "three weeks")),
        ("Nina Simone recorded the album with Ray Charles.", ("together with", "Ray Charles")),
        ("Nina Simone recorded the album after the tour.", ("follows", "the tour")),
        ("Nina Simone recorded the album before the tour.", ("precedes", "the tour")),
        ("Nina Simone sang the song since 1959.", ("start time", "1959")),
        ("Nina Simone led the group until 1970.", ("end time", "1970")),
        ("The hall was closed because of the storm.", ("cause", "the storm")),
        ("The team played the final despite the storm.", ("context", "despite the storm")),
    ],
)
def test_qualifier_labels_are_properties(
    decomposer: RuleDecomposer, text: str, qualifier: tuple[str, str]
) -> None:
    facts = decomposer.decompose(text)
    assert any(qualifier in quals(f) for f in facts), [f.to_string() for f in facts]


def test_no_fact_carries_a_bare_preposition_label(decomposer: RuleDecomposer) -> None:
    text = (
        "Louis Pasteur worked on vaccines for years. He lectured in Lille on Mondays. "
        "He travelled to Arbois by train with his wife. The lab opened near the river "
        "during the spring of 1888. It was funded by donors from France and Russia."
    )
    facts = decomposer.decompose(text)
    assert facts
    labels = {q.label for f in facts for q in f.qualifiers}
    assert not labels & BARE_PREPOSITIONS, labels


def test_label_table_never_maps_to_a_bare_preposition() -> None:
    for marker, labels in MARKER_LABELS.items():
        for kind in ("time", "place", "agent", "other"):
            assert labels.label(kind) not in BARE_PREPOSITIONS, (marker, kind)
    assert label_for("in", "time") == "point in time"
    assert label_for("in", "place") == "location"
    assert label_for("nonsense", "other") is None


# --------------------------------------------------------------------------- coreference


def test_she_skips_men_named_in_her_sentence(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose(
        "Jane Goodall studied chimpanzees. With Louis Leakey, she founded a research centre."
    )
    founded = [f for f in facts if f.relation == "founded"]
    assert [f.subject for f in founded] == ["Jane Goodall"]


def test_she_and_he_pick_the_person_of_their_gender(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose(
        "Pierre married Sophie Martin in Lyon. She opened a bakery. He taught chemistry."
    )
    assert ("Sophie Martin", "opened", "a bakery") in triples(facts)
    assert ("Pierre", "taught", "chemistry") in triples(facts)


def test_gendered_noun_marks_a_person(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose(
        "Sam Taylor is an actress. Sam Smith is an actor. She directed a film."
    )
    assert ("Sam Taylor", "directed", "a film") in triples(facts)


def test_it_never_takes_a_person(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Frank Gehry designed the museum. It opened in 1997.")
    opened = [f for f in facts if f.relation.startswith("opened")]
    assert [f.subject for f in opened] == ["the museum"]


def test_surname_stands_for_the_full_name(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Nikola Tesla was born in Smiljan. Tesla moved to New York.")
    assert ("Nikola Tesla", "moved to", "New York") in triples(facts)


def test_shared_surname_is_left_as_written(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose(
        "Venus Williams and Serena Williams played in Paris. Williams won the final."
    )
    assert ("Williams", "won", "the final") in triples(facts)
