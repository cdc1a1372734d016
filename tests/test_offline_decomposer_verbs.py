"""Tests of the offline decomposer on sentences the small parser misreads.

``en_core_web_sm`` parses some plain clauses as one noun phrase ("Alexander Fleming
discovered penicillin." with "discovered" as an adjective of "penicillin") or tags the verb
as a noun ("The Titanic sank in 1912."); the parse repairs rebuild them as clauses. A name
read as a clausal subject ("T2 Trainspotting is a film") or ending in a pronoun's word
("Francis I", "Doctor Who"), and a partitive ("some of the brightest objects"), name things.
"""

from __future__ import annotations

import pytest

from triqua.engines.offline.decompose.decomposer import RuleDecomposer
from triqua.engines.offline.decompose.misread_verbs import noun_phrase_examples
from triqua.nlp.pipeline import load_nlp

from .conftest import triples


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        (
            "Alexander Fleming discovered penicillin.",
            ("Alexander Fleming", "discovered", "penicillin"),
        ),
        ("Humphry Davy isolated sodium.", ("Humphry Davy", "isolated", "sodium")),
        ("Chopin composed nocturnes.", ("Chopin", "composed", "nocturnes")),
        ("Mary Anning painted maps.", ("Mary Anning", "painted", "maps")),
        ("Gutenberg patented maps.", ("Gutenberg", "patented", "maps")),
        ("The Romans observed sodium.", ("The Romans", "observed", "sodium")),
        ("Fleming never patented penicillin.", ("Fleming", "never patented", "penicillin")),
    ],
)
def test_past_verb_read_as_a_modifier_is_the_verb(
    decomposer: RuleDecomposer, text: str, triple: tuple[str, str, str]
) -> None:
    assert triples(decomposer.decompose(text)) == {triple}


@pytest.mark.parametrize(
    ("text", "triple", "qualifiers"),
    [
        (
            "In 1807, Humphry Davy isolated sodium.",
            ("Humphry Davy", "isolated", "sodium"),
            [("point in time", "1807")],
        ),
        (
            "Sedgwick married actor Kevin Bacon on September 4, 1988.",
            ("Sedgwick", "married", "actor Kevin Bacon"),
            [("point in time", "September 4, 1988")],
        ),
        (
            "Burrell's music style blends gospel with jazz elements.",
            ("Burrell's music style", "blends", "gospel"),
            [("instrument", "jazz elements")],
        ),
        (
            "After retiring from military service, Jones founded consulting firms Ironhand"
            " Security LLC and Jones Group International LLC.",
            ("Jones", "founded", "consulting firms"),
            [("follows", "retiring from military service")],
        ),
    ],
)
def test_misread_verb_after_an_opening_phrase_or_inside_a_name(
    decomposer: RuleDecomposer,
    text: str,
    triple: tuple[str, str, str],
    qualifiers: list[tuple[str, str]],
) -> None:
    facts = [f for f in decomposer.decompose(text) if (f.subject, f.relation) == triple[:2]]
    assert triples(facts) == {triple}
    assert [(q.label, q.value) for q in facts[0].qualifiers] == qualifiers


def test_rebuilt_clause_keeps_its_adverbial_and_its_qualifiers(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Alexander Fleming first discovered penicillin.")
    assert triples(facts) == {("Alexander Fleming", "discovered", "penicillin")}
    assert [(q.label, q.value) for q in facts[0].qualifiers] == [("ordinal", "first")]


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        (
            "Isaac Newton, the English mathematician, discovered gravity.",
            ("Isaac Newton", "discovered", "gravity"),
        ),
        (
            "Einstein, a German-born physicist, developed relativity.",
            ("Einstein", "developed", "relativity"),
        ),
    ],
)
def test_verb_after_an_appositive_takes_the_name_as_subject(
    decomposer: RuleDecomposer, text: str, triple: tuple[str, str, str]
) -> None:
    found = triples(decomposer.decompose(text))
    assert triple in found
    # The appositive is the name's, and the verb phrase is no identity of it.
    assert not any(obj.startswith(triple[1]) for _, _, obj in found)


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        ("The Titanic sank in 1912.", ("The Titanic", "sank in", "1912")),
        ("A man dances at a wedding.", ("A man", "dances at", "a wedding")),
        ("A person waves at the camera.", ("A person", "waves at", "the camera")),
    ],
)
def test_verb_tagged_as_a_noun_after_its_subject_is_the_verb(
    decomposer: RuleDecomposer, text: str, triple: tuple[str, str, str]
) -> None:
    assert triples(decomposer.decompose(text)) == {triple}


def test_rebuilt_sentence_keeps_its_bounds_and_is_a_referent(decomposer: RuleDecomposer) -> None:
    text = "Alexander Fleming discovered penicillin. He won the Nobel Prize in 1945."
    facts = decomposer.decompose(text)
    assert triples(facts) == {
        ("Alexander Fleming", "discovered", "penicillin"),
        ("Alexander Fleming", "won", "the Nobel Prize"),
    }
    spans = {f.relation: text[f.span.start : f.span.end] for f in facts if f.span}
    assert spans == {
        "discovered": "Alexander Fleming discovered penicillin.",
        "won": "He won the Nobel Prize in 1945.",
    }


@pytest.mark.parametrize(
    "text",
    ["The developed world.", "Alexander Fleming, renowned bacteriologist.", "A published paper."],
)
def test_noun_phrase_with_a_participle_stays_a_noun_phrase(
    decomposer: RuleDecomposer, text: str
) -> None:
    facts = decomposer.decompose(text)
    assert not any(f.relation in {"developed", "renowned", "published"} for f in facts)


def test_repair_keeps_one_root_per_sentence() -> None:
    from triqua.engines.offline.decompose.merges import repair_tokens

    doc = load_nlp()("Alexander Fleming discovered penicillin. Chopin composed nocturnes.")
    repair_tokens(doc)
    sents = list(doc.sents)
    assert [s.text for s in sents] == [
        "Alexander Fleming discovered penicillin.",
        "Chopin composed nocturnes.",
    ]
    assert [s.root.text for s in sents] == ["discovered", "composed"]
    assert [sum(t.head.i == t.i for t in s) for s in sents] == [1, 1]


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        (
            "T2 Trainspotting is a 2017 British comedy drama film.",
            ("T2 Trainspotting", "is", "a 2017 British comedy drama film"),
        ),
        (
            "COLING 2020 was the 28th International Conference on Computational Linguistics.",
            (
                "COLING 2020",
                "was",
                "the 28th International Conference on Computational Linguistics",
            ),
        ),
        ("Sinking sand is a natural phenomenon.", ("Sinking sand", "is", "a natural phenomenon")),
        (
            "Gathering additional information about small datasets can be done through surveys.",
            (
                "Gathering additional information about small datasets",
                "can be done through",
                "surveys",
            ),
        ),
    ],
)
def test_name_read_as_a_clausal_subject_is_the_subject(
    decomposer: RuleDecomposer, text: str, triple: tuple[str, str, str]
) -> None:
    assert triples(decomposer.decompose(text)) == {triple}


@pytest.mark.parametrize("text", ["That he left surprised everyone.", "To err is human."])
def test_clausal_subject_that_is_a_clause_names_no_subject(
    decomposer: RuleDecomposer, text: str
) -> None:
    assert decomposer.decompose(text) == []


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        ("Francis I of France was a king.", ("Francis I of France", "was", "a king")),
        (
            "Justin Chatwin did not perform in Doctor Who.",
            ("Justin Chatwin", "did not perform in", "Doctor Who"),
        ),
        (
            "Quasars are some of the brightest objects in the universe.",
            ("Quasars", "are", "some of the brightest objects in the universe"),
        ),
        (
            "Some of his most famous works include portraits of Louis XV.",
            ("Some of his most famous works", "include", "portraits of Louis XV"),
        ),
        (
            "The forces of black holes are stronger than those of neutron stars.",
            ("The forces of black holes", "are stronger than", "those of neutron stars"),
        ),
        (
            "The population of Paris is larger than that of Rome.",
            ("The population of Paris", "is larger than", "that of Rome"),
        ),
    ],
)
def test_pronoun_word_in_a_name_or_a_partitive_names_something(
    decomposer: RuleDecomposer, text: str, triple: tuple[str, str, str]
) -> None:
    assert triples(decomposer.decompose(text)) == {triple}


@pytest.mark.parametrize(
    "text", ["Some of them won awards.", "I love Paris.", "Paris is larger than that of them."]
)
def test_unresolved_pronoun_still_names_nothing(decomposer: RuleDecomposer, text: str) -> None:
    assert decomposer.decompose(text) == []


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        ("Wolves hunt in packs.", ("Wolves", "hunt in", "packs")),
        ("Ants hunt during winter.", ("Ants", "hunt during", "winter")),
        ("Frogs travel in rivers.", ("Frogs", "travel in", "rivers")),
        ("Sharks feed insects.", ("Sharks", "feed", "insects")),
        ("Monks hunt fish.", ("Monks", "hunt", "fish")),
        ("A child hugs a birdhouse.", ("A child", "hugs", "a birdhouse")),
        ("Duff McKagan dances sometimes.", ("Duff McKagan", "dances", "")),
    ],
)
def test_present_verb_tagged_as_a_noun_after_its_subject_is_the_verb(
    decomposer: RuleDecomposer, text: str, triple: tuple[str, str, str]
) -> None:
    assert triples(decomposer.decompose(text)) == {triple}


def test_phrase_after_a_rebuilt_object_is_the_verbs_qualifier(decomposer: RuleDecomposer) -> None:
    facts = decomposer.decompose("Bats hunt insects at night.")
    assert triples(facts) == {("Bats", "hunt", "insects")}
    assert [(q.label, q.value) for q in facts[0].qualifiers] == [("point in time", "night")]
    facts = decomposer.decompose("Copper displaces iron from its compounds.")
    assert triples(facts) == {("Copper", "displaces", "iron")}


def test_heading_without_a_full_stop_keeps_its_compound(decomposer: RuleDecomposer) -> None:
    # "tax" is a verb's base form after a plural, but a heading is no sentence.
    facts = decomposer.decompose("Sales tax rates in Texas")
    assert not any(f.relation == "tax" for f in facts)


def test_verb_forms_come_from_the_models_lemmatizer_tables() -> None:
    from triqua.nlp.verb_forms import is_base_verb, is_third_person_verb

    assert [is_base_verb(w) for w in ("hunt", "travel", "song", "dances")] == [
        True,
        True,
        False,
        False,
    ]
    assert [is_third_person_verb(w) for w in ("dances", "carries", "has", "products", "bass")] == [
        True,
        True,
        True,
        False,
        False,
    ]


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        (
            "Jessica Biel got engaged to Eric Winter.",
            ("Jessica Biel", "got engaged to", "Eric Winter"),
        ),
        ("Nara was engaged to Eric Winter.", ("Nara", "was engaged to", "Eric Winter")),
        (
            "Nara was married to Icardi's teammate Maxi López.",
            ("Nara", "was married to", "Icardi's teammate Maxi López"),
        ),
        (
            "Tom Hanks has since been re-elected in several federal elections.",
            ("Tom Hanks", "has been re-elected in", "several federal elections"),
        ),
    ],
)
def test_passive_verb_gets_its_subject_auxiliaries_and_tag(
    decomposer: RuleDecomposer, text: str, triple: tuple[str, str, str]
) -> None:
    assert triples(decomposer.decompose(text)) == {triple}


def test_word_hung_on_a_verb_as_an_auxiliary_by_mistake_moves_nothing(
    decomposer: RuleDecomposer,
) -> None:
    text = "Re-release [ ] On October 2, 2007, Exciter was re-released as a two-disc set."
    assert not any("re-release was" in f.relation for f in decomposer.decompose(text))


def test_evaluative_relative_clause_leaves_the_main_clause_a_fact(
    decomposer: RuleDecomposer,
) -> None:
    text = (
        "Heyward-Bey played college football at the University of Maryland where he had"
        " impressive statistics."
    )
    facts = decomposer.decompose(text)
    assert triples(facts) == {("Heyward-Bey", "played", "college football")}
    assert [(q.label, q.value) for q in facts[0].qualifiers] == [
        ("location", "the University of Maryland")
    ]
    # A restrictive relative clause is part of the complement, and judged with it.
    assert decomposer.decompose("Paris is a city that is beautiful.") == []


NOUN_PHRASES = noun_phrase_examples()


@pytest.mark.parametrize("text", NOUN_PHRASES["fragment"])
def test_noun_phrase_fragment_is_no_clause(decomposer: RuleDecomposer, text: str) -> None:
    # "Harvard educated lawyer." is a lawyer, not Harvard educating one; "Sales tax rates."
    # is a compound noun, not sales taxing rates.
    assert decomposer.decompose(text) == []


@pytest.mark.parametrize(("text", "subject", "relation", "obj"), NOUN_PHRASES["clause"])
def test_misread_clause_beside_the_fragments_keeps_its_verb(
    decomposer: RuleDecomposer, text: str, subject: str, relation: str, obj: str
) -> None:
    assert triples(decomposer.decompose(text)) == {(subject, relation, obj)}


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        (
            "Bill Gates stepped down as CEO of Microsoft in January 2000.",
            ("Bill Gates", "stepped down as", "CEO of Microsoft"),
        ),
        (
            "Richard Nixon stepped down as president in 1974.",
            ("Richard Nixon", "stepped down as", "president"),
        ),
        ("Queen Beatrix gave up the throne in 2013.", ("Queen Beatrix", "gave up", "the throne")),
    ],
)
def test_a_particle_read_as_an_adverb_stays_in_the_relation(
    decomposer: RuleDecomposer, text: str, triple: tuple[str, str, str]
) -> None:
    """ "stepped down as CEO" is no "stepped as CEO": the particle makes the verb."""
    assert triple in triples(decomposer.decompose(text))


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        (
            "Ronald Reagan was elected President of the United States.",
            ("Ronald Reagan", "was elected", "President of the United States"),
        ),
        (
            "Jimmy Carter was elected Governor of Georgia.",
            ("Jimmy Carter", "was elected", "Governor of Georgia"),
        ),
    ],
)
def test_an_object_predicate_is_the_object(
    decomposer: RuleDecomposer, text: str, triple: tuple[str, str, str]
) -> None:
    assert triples(decomposer.decompose(text)) == {triple}


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        (
            "Alexander Fleming died before discovering penicillin.",
            ("Alexander Fleming", "died before discovering", "penicillin"),
        ),
        (
            "Antoni Gaudí died before completing the Sagrada Família.",
            ("Antoni Gaudí", "died before completing", "the Sagrada Família"),
        ),
    ],
)
def test_a_gerund_after_a_preposition_gives_its_object(
    decomposer: RuleDecomposer, text: str, triple: tuple[str, str, str]
) -> None:
    assert triples(decomposer.decompose(text)) == {triple}


def test_a_gerund_beside_a_direct_object_is_no_object(decomposer: RuleDecomposer) -> None:
    found = triples(decomposer.decompose("Marie Curie won the prize after discovering radium."))
    assert ("Marie Curie", "won", "the prize") in {t[:3] for t in found}


def test_a_prepositional_object_that_is_a_gerund_stays_the_object(
    decomposer: RuleDecomposer,
) -> None:
    found = triples(decomposer.decompose("Sourcers focus on finding candidates for open roles."))
    assert found == {("Sourcers", "focus on", "finding candidates for open roles")}


def test_an_object_predicate_not_written_as_a_title_stays_out_of_the_object(
    decomposer: RuleDecomposer,
) -> None:
    found = triples(decomposer.decompose("John Paul II was elected pope in 1978."))
    assert found == {("John Paul II", "was elected in", "1978")}


def test_noun_parsed_as_an_open_clausal_complement_is_the_object(
    decomposer: RuleDecomposer,
) -> None:
    """The parser hangs "printing" on "invented" as an xcomp: it is what was invented."""
    facts = decomposer.decompose("Johannes Gutenberg invented printing in Strasbourg.")
    assert triples(facts) == {("Johannes Gutenberg", "invented", "printing in Strasbourg")}


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        (
            "Ada Lovelace saw the Analytical Engine built.",
            ("Ada Lovelace", "saw", "the Analytical Engine built"),
        ),
        (
            "Marie Curie watched the tower demolished.",
            ("Marie Curie", "watched", "the tower demolished"),
        ),
    ],
)
def test_a_noun_with_a_bare_participle_is_the_verbs_object(
    decomposer: RuleDecomposer, text: str, triple: tuple[str, str, str]
) -> None:
    assert triples(decomposer.decompose(text)) == {triple}


def test_a_reported_clause_stays_the_reporters_frame(decomposer: RuleDecomposer) -> None:
    """A reporting verb's clause is its own fact, stated by the reporter, not an object."""
    facts = decomposer.decompose("Marie Curie said the war ended.")
    assert all(f.relation != "said" for f in facts)


def test_present_verb_parsed_as_a_compound_of_its_object_is_the_verb(
    decomposer: RuleDecomposer,
) -> None:
    """The tagger reads "exports" as a verb, the parse as a modifier of "wool"."""
    facts = decomposer.decompose("Port Adley exports wool.")
    assert triples(facts) == {("Port Adley", "exports", "wool")}
