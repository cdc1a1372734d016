"""The gates every support passes: a statement, not a keyword list; no rival in the slot.

A scripted judge that entails everything shows that the gates, not the judge, keep these
windows from supporting: a line of tags or a search string states nothing, and a clause that
puts another name in the relation's slot states another fact.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from triqua.core.grounding.rule import check_quote
from triqua.core.reading.analysis import analyse
from triqua.core.reading.keyword_lists import is_list
from triqua.core.reading.slot_words import head_rival, named_head_rival, unique_head_rival
from triqua.core.reading.statements import refusal
from triqua.core.verdicts.settling import settle
from triqua.engines.offline.verify.verifier import AlignmentVerifier
from triqua.engines.second_opinion import reader_for
from triqua.models.entailment import Thresholds
from triqua.models.reader import EntailmentReader
from triqua.schema import Evidence, Fact, FactUnit, Status


class EntailingJudge:
    """A judge that finds every window entailing every hypothesis."""

    revision = "entails-all"
    thresholds = Thresholds(entailed=0.5, veto=0.2)

    def predict(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        return np.array([[0.99, 0.01, 0.0] for _ in pairs], np.float32)


def status(fact: Fact, *texts: str) -> Status:
    """The fact's status as a run settles it: the verifier's, read by the grounding rule."""
    judge = EntailingJudge()
    verifier = AlignmentVerifier(entailment=judge)  # type: ignore[arg-type]
    evidence = [
        Evidence.build(document_id=f"d{i}", text=t, retriever="supplied")
        for i, t in enumerate(texts)
    ]
    reader = EntailmentReader(judge, paraphrase=judge.thresholds.supports)  # type: ignore[arg-type]
    return settle(fact, verifier.verify(fact, evidence), evidence, reader=reader).status


@pytest.mark.parametrize(
    "text",
    [
        "Tags: Eiffel Tower, Rome, is in, Italy, travel, landmarks, city break",
        "Keywords: Alexander Fleming discovered insulin, medicine, Nobel, 1921",
        "Related searches: Mount Kilimanjaro is in Peru, Andes trekking, volcano summit",
        "berlin wall fell 1975 cold war germany history",
        "Notable people of the region: Niels Novak, Werner Brandt, Gdansk.",
        "Famous residents: Marie Curie, Pierre Curie, Paris.",
    ],
)
def test_tag_lines_and_search_strings_are_lists(text: str) -> None:
    assert is_list(text)


@pytest.mark.parametrize(
    "text",
    [
        "She spoke English, French, German, Italian and Polish.",
        "Platinum, gold and mercury dissolve in aqua regia, but iridium and silver do not.",
        "The Eiffel Tower is in Paris",
        "John Smith, the former CFO, is the CEO of Acme Corp",
        "She spoke three languages: English, French, German.",
        "The company has offices in three cities: Paris, London, Berlin.",
    ],
)
def test_prose_is_no_list(text: str) -> None:
    assert not is_list(text)


def test_a_keyword_line_never_supports_even_when_the_judge_entails_it() -> None:
    fact = Fact(subject="The Eiffel Tower", relation="is in", object="Rome")
    tags = "Tags: Eiffel Tower, Rome, is in, Italy, travel, landmarks, city break"
    assert status(fact, tags) == Status.INSUFFICIENT


def test_another_name_in_the_relations_slot_never_supports() -> None:
    fact = Fact(subject="Apple", relation="is headquartered in", object="Seattle")
    text = (
        "Apple opened a large engineering office in Seattle in 2017, but the company is "
        "headquartered in Cupertino, California."
    )
    assert status(fact, text) == Status.INSUFFICIENT


def test_the_object_named_beside_another_in_the_slot_still_supports() -> None:
    fact = Fact(subject="Iceland", relation="belongs to", object="the Schengen Area")
    text = "Iceland belongs to the European Economic Area and the Schengen Area."
    assert status(fact, text) == Status.SUPPORTED


_MORRISON = Fact(subject="Toni Morrison", relation="won", object="the Nobel Prize in Literature")


def test_a_conjoined_object_of_the_same_verb_is_no_rival() -> None:
    """ "won A in 1988 and B in 1993": each prize fills the slot of "won"."""
    text = "Toni Morrison won the Pulitzer Prize in 1988 and the Nobel Prize in Literature in 1993."
    assert refusal(_MORRISON, text) is None
    assert status(_MORRISON, text) == Status.SUPPORTED


@pytest.mark.parametrize(
    "text",
    [
        # Another verb takes the object: she was nominated for it, the slot of "won" holds
        # the Pulitzer Prize.
        "Toni Morrison won the Pulitzer Prize in 1988 and was nominated for the Nobel Prize "
        "in Literature in 1993.",
        # The conjunct is another prize, though it begins with the object's words.
        "Toni Morrison won the Pulitzer Prize in 1988 and the Nobel Prize in Physics in 1993.",
    ],
)
def test_a_conjunct_of_another_verb_or_another_name_still_rivals(text: str) -> None:
    assert refusal(_MORRISON, text) == "the cited text puts another name in the relation's slot"


def test_a_relation_of_many_objects_has_no_rival_in_its_slot() -> None:
    fact = Fact(subject="Alan Turing", relation="lived in", object="Paris")
    text = "Alan Turing lived in London and later in Paris."
    assert status(fact, text) == Status.SUPPORTED


def test_a_containing_place_written_after_the_slots_name_is_the_object() -> None:
    """Each place after a comma contains the one before it: the object, not a rival."""
    fact = Fact(subject="Ann Smith", relation="was born in", object="the United States")
    text = "Ann Smith was born in Chicago, Illinois, United States."
    assert status(fact, text) == Status.SUPPORTED
    assert refusal(fact, text) is None


@pytest.mark.parametrize(
    ("obj", "text"),
    [
        ("Canada", "Ann Smith was born in Chicago, Illinois, United States."),
        ("Paris", "Ann Smith was born in Rome."),
        ("Seattle", "Apple is headquartered in Cupertino, California, near San Jose."),
    ],
)
def test_a_place_chain_without_the_object_still_rivals_it(obj: str, text: str) -> None:
    subject = text.split(" was ")[0].split(" is ")[0]
    relation = "was born in" if " born " in text else "is headquartered in"
    assert status(Fact(subject=subject, relation=relation, object=obj), text) != Status.SUPPORTED


def test_a_name_inside_the_object_is_no_rival() -> None:
    fact = Fact(subject="The Rhine", relation="rises in", object="the Swiss Alps")
    text = "The Rhine rises in the Swiss Alps and flows into the North Sea."
    assert status(fact, text) == Status.SUPPORTED


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        # The slot's name is the object's own, written with words between.
        (Fact(subject="Gilberto Silva", relation="won", object="the FA Cup with Arsenal"),
         "He also won the FA Cup twice with Arsenal."),
        # A name before a plural noun names the noun's kind: the noun fills the slot.
        (Fact(subject="Francesco Mimbelli", relation="served in", object="China"),
         "In the late 1920s, he served on Royal Italian Navy gunboats in China."),
    ],
)  # fmt: skip
def test_a_name_of_the_object_or_of_a_nouns_kind_is_no_slot_rival(fact: Fact, text: str) -> None:
    assert refusal(fact, text) is None


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        (Fact(subject="Francesco Mimbelli", relation="served in", object="China"),
         "In the late 1920s, he served in Libya with the Royal Italian Navy."),
        (Fact(subject="Apple", relation="is headquartered in", object="Seattle"),
         "Apple is headquartered in Cupertino near Seattle."),
    ],
)  # fmt: skip
def test_another_name_in_the_slot_still_rivals_the_object(fact: Fact, text: str) -> None:
    assert refusal(fact, text) is not None


@pytest.mark.parametrize("grounding", ["strict", "judge"])
@pytest.mark.parametrize(
    ("subject", "relation", "obj", "quote", "reason"),
    [
        ("Bats", "are", "blind", "Bats are not blind.", "negates it"),
        ("The Eiffel Tower", "is in", "Rome", "Tags: Eiffel Tower, Rome, is in, Italy", "list"),
        (
            "Apple",
            "is headquartered in",
            "Seattle",
            "Apple opened an office in Seattle, but the company is headquartered in Cupertino.",
            "another name",
        ),
        (
            "Albert Einstein",
            "was born in",
            "Princeton",
            "Albert Einstein was born in 1879. He died in Princeton in 1955.",
            "different sentences",
        ),
        (
            "Sydney",
            "is",
            "the capital of Australia",
            "Sydney is the largest city of Australia, but Canberra is the capital of Australia.",
            "to 'Canberra'",
        ),
    ],
)
def test_a_cited_window_on_the_llm_path_passes_the_same_gates(
    grounding: str, subject: str, relation: str, obj: str, quote: str, reason: str
) -> None:
    """An eager judge quoting a misleading sentence verbatim is downgraded under both rules.

    Read by the shipped judge the quote never grounds; read by a judge that entails
    everything it still does not, and the reason is the gate's.
    """
    unit = FactUnit(kind="base", subject=subject, relation=relation, object=obj)
    for judge in (reader_for("shipped"), EntailmentReader(EntailingJudge())):  # type: ignore[arg-type]
        outcome = check_quote(
            unit,
            Status.SUPPORTED,
            ["ev-1"],
            quote,
            {"ev-1": quote},
            source=f"{subject} {relation} {obj}.",
            reader=judge,
            grounding=grounding,  # type: ignore[arg-type]
        )
        assert not outcome.ok
    assert outcome.reason is not None and reason in outcome.reason


def test_a_true_statement_still_grounds_on_the_llm_path() -> None:
    unit = FactUnit(kind="base", subject="Marie Curie", relation="was born in", object="Warsaw")
    quote = "Marie Curie was born in Warsaw in 1867."
    outcome = check_quote(
        unit, Status.SUPPORTED, ["ev-1"], quote, {"ev-1": quote}, reader=reader_for("shipped")
    )
    assert outcome.ok, outcome.reason


def test_a_year_beside_a_works_noun_is_not_the_relations_word() -> None:
    """The relation gate reads words, not which year a noun carries: a lie must stay out.

    "a 2002 film, shot in 2001" holds 2001 and "film"; were "film" a word of "released",
    the gate would let an entailing judge support "was released in 2001".
    """
    fact = Fact(subject="Signs", relation="was released in", object="2001")
    assert status(fact, "Signs is a 2002 film, shot in 2001.") != Status.SUPPORTED


def test_polarity_is_read_where_the_object_is_written_not_at_another_clauses_word() -> None:
    """ "no overall charge" of one clause does not deny "a positive charge" of the next."""
    from triqua.core.reading.statements import refusal
    from triqua.schema import Fact

    charge = Fact(subject="Hydrogen atoms", relation="have", object="a positive charge")
    text = (
        "There is no overall charge to a water molecule, but there is a slight positive "
        "charge on each hydrogen atom."
    )
    assert refusal(charge, text) is None
    assert refusal(charge, "The hydrogen atoms have no positive charge.") is not None


@pytest.mark.parametrize(
    ("obj", "relation", "sentence", "rival"),
    [
        (
            "a 2017 British comedy drama book",
            "is",
            "It is a 2017 British comedy drama film.",
            "film",
        ),
        ("a city", "is", "Prescott is a county in Arizona, United States.", "county"),
        ("seven world titles", "won", "He won seven world championships.", "championships"),
        ("a city", "is", "Prescott is a city in Yavapai County.", None),
        ("a 2017 film", "is", "It is a 2017 American film.", None),
        ("a vast galaxy", "is", "The Milky Way is a barred spiral galaxy.", None),
        ("a city", "is", "Prescott became a county seat.", None),
        # After a copula the class given is a rival though the object's modifiers are not
        # written; a word of a name ("United States") does not write the head.
        ("a U.S. state", "is", "Ohio is a city in the Midwest of the United States.", "city"),
        ("a U.S. state", "is", "Ohio is a state in the Midwest.", None),
        ("a famous landmark", "is", "It is a wrought-iron lattice tower.", None),
        # A year before a noun labels it: the class is the noun after the year.
        ("a film", "is", "Daag is a 1973 painting by Yash Chopra.", "painting"),
        ("a film", "is", "Daag is a 1973 Indian romantic drama film.", None),
        ("a 1973 film", "is", "Daag is a 1973 painting by Yash Chopra.", "painting"),
        ("a film", "is", "Daag is a 1973 British painting.", None),
    ],
)
def test_head_rival_reads_another_word_ending_the_objects_phrase(
    obj: str, relation: str, sentence: str, rival: str | None
) -> None:
    assert head_rival(analyse(obj), analyse(relation), analyse(sentence)) == rival


@pytest.mark.parametrize(
    ("obj", "relation", "sentence", "rival"),
    [
        # An ordinal or superlative lead-in picks out one thing: another head is another one.
        (
            "the first published novel",
            "wrote",
            "She wrote the first published algorithm for a computing machine.",
            "algorithm",
        ),
        (
            "the largest tropical desert",
            "is",
            "It is the largest tropical rainforest.",
            "rainforest",
        ),
        ("the first female astronomer", "was", "She was the first female cosmonaut.", "cosmonaut"),
        # The same head, a kind of the head, or no unique thing named: none.
        (
            "the first published algorithm",
            "wrote",
            "She wrote the first algorithm published for a computing machine.",
            None,
        ),
        ("the largest tropical forest", "is", "It is the largest tropical rainforest.", None),
        ("seven world titles", "won", "He won seven world championships.", None),
        ("a 2017 British comedy drama book", "is", "It is a 2017 British comedy drama film.", None),
    ],
)
def test_unique_head_rival_reads_another_head_after_an_ordinal_or_superlative(
    obj: str, relation: str, sentence: str, rival: str | None
) -> None:
    assert unique_head_rival(analyse(obj), analyse(relation), analyse(sentence)) == rival


COLOSSEUM = (
    "The Colosseum or Coliseum ([kɒləˈsiːəm]), also known as the Flavian Amphitheatre (Latin:"
    " Amphitheatrum Flavium; Italian: Anfiteatro Flavio [aŋfiteˈaːtro ˈflaːvjo] or Colosseo"
    " [kolosˈsɛːo]), is an oval amphitheatre in the centre of the city of {}."
)


def test_a_bracketed_aside_is_no_clause_that_takes_the_object() -> None:
    # A pronunciation or a translation in brackets is read as no clause of the sentence.
    fact = Fact(subject="The Colosseum", relation="is in", object="Italy")
    assert refusal(fact, COLOSSEUM.format("Rome, Italy")) is None
    assert status(fact, COLOSSEUM.format("Rome, Italy")) == Status.SUPPORTED
    # The clause gates still read the sentence: another city's clause is not the object's.
    assert status(fact, COLOSSEUM.format("New York")) != Status.SUPPORTED


def test_a_negation_reaches_the_verb_of_its_infinitive() -> None:
    # "never had the chance again to win" denies the win: its "never" stands six words
    # before the relation's word, not four.
    text = (
        "After losing at his first WrestleMania match that April, Styles never had the"
        " chance again to win his first WWE Championship."
    )
    won = Fact(subject="A.J. Styles", relation="won", object="a WWE Championship")
    assert status(won, text) != Status.SUPPORTED
    never = Fact(subject="A.J. Styles", relation="never won", object="a WWE Championship")
    assert status(never, text) == Status.SUPPORTED


@pytest.mark.parametrize(
    ("fact", "window"),
    [
        (Fact(subject="Pele", relation="played for", object="Santos"), "Pelé played for Santos."),
        (
            Fact(subject="Marie Skłodowska Curie", relation="was born in", object="Warsaw"),
            "Marie Sklodowska Curie was born in Warsaw.",
        ),
        (
            Fact(subject="Marie Curie", relation="was born as", object="Maria Skłodowska"),
            "Marie Curie was born as Maria Sklodowska in Warsaw.",
        ),
    ],
)
def test_a_name_written_without_its_accents_or_strokes_is_the_same_name(
    fact: Fact, window: str
) -> None:
    assert refusal(fact, window) is None


@pytest.mark.parametrize(
    ("window", "refused"),
    [
        # The subject's acronym holds the clause: it is the subject.
        ("CTA is one of the best Depeche Mode albums.", False),
        # Another acronym, or another name, is another one.
        ("SOFAD is one of the best Depeche Mode albums.", True),
        ("Violator is one of the best Depeche Mode albums.", True),
    ],
)
def test_the_subject_s_acronym_owns_its_clause(window: str, refused: bool) -> None:
    fact = Fact(subject="Construction Time Again", relation="is", object="a Depeche Mode album")
    assert (refusal(fact, window) is not None) is refused


@pytest.mark.parametrize(
    ("obj", "evidence"),
    [
        ("a state of the United States", "Alaska is a U.S. state."),
        ("a U.S. state", "Alaska is a state of the United States."),
    ],
)
def test_a_name_and_its_acronym_state_each_other_both_ways(obj: str, evidence: str) -> None:
    fact = Fact(subject="Alaska", relation="is", object=obj)
    assert status(fact, evidence) == Status.SUPPORTED


@pytest.mark.parametrize(
    ("obj", "evidence", "supported"),
    [
        ("the album Construction Time Again", "Depeche Mode released the album CTA in 1983.", True),
        (
            "the album Construction Time Again",
            "The Chicago Transit Authority runs the trains. "
            "Depeche Mode released the album CTA in 1983.",
            False,
        ),
        (
            "the album CTA",
            "The Chicago Transit Authority runs the trains. "
            "Depeche Mode released the album Construction Time Again in 1983.",
            False,
        ),
    ],
)
def test_an_acronym_the_passage_spells_as_another_name_does_not_stand_for_it(
    obj: str, evidence: str, supported: bool
) -> None:
    fact = Fact(subject="Depeche Mode", relation="released", object=obj)
    assert (status(fact, evidence) == Status.SUPPORTED) is supported


def test_a_head_written_only_inside_another_name_is_not_the_objects_class() -> None:
    county, city = analyse("a county"), analyse("a city")
    copula = analyse("is")
    inside = analyse("Prescott is a city in Yavapai County, Arizona, United States.")
    assert named_head_rival(county, copula, inside) == "city"
    assert named_head_rival(city, copula, inside) is None  # its own class
    own = analyse("Prescott is a county seat in Yavapai County.")
    assert named_head_rival(county, copula, own) is None  # "county" as a word of its own
