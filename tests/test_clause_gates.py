"""The clause gates: a window states a fact only when its clauses do, on both engines.

A judge that entails everything shows that the gates, not the judge, keep these windows
from supporting: the relation's clause belongs to another name, a bare noun or a namesake;
the object is spread over two clauses; the subject's own clause names another value. The
same gates answer the grounding rule on the LLM path (``statement_refusal``), and true
paraphrases of each shape still pass.
"""

from __future__ import annotations

import pytest

from tests.test_offline_statement_gates import status
from triqua.models.reader import statement_refusal
from triqua.schema import Fact, FactUnit, Status

LIES = [
    pytest.param(
        ("The Rosetta Stone", "is located in", "Cairo"),
        "The Rosetta Stone was first studied in Cairo and is now kept in the British Museum.",
        "relation's slot",
        id="a-place-where-it-was-studied-beside-where-it-is-kept",
    ),
    pytest.param(
        ("Zurich", "is the capital of", "Switzerland"),
        "Zurich is the largest city of Switzerland, but Bern is the capital of Switzerland.",
        "to 'Bern'",
        id="relation-word-in-another-names-clause",
    ),
    pytest.param(
        ("The Bolshoi Theatre", "is based in", "Saint Petersburg"),
        "The Mariinsky Theatre is based in Saint Petersburg, and the Bolshoi Theatre is based "
        "in Moscow.",
        "to 'The Mariinsky Theatre'",
        id="a-name-on-the-subject-s-head-word-with-a-name-word-of-its-own",
    ),
    pytest.param(
        ("Ada Lovelace", "translated", "an article by Charles Babbage"),
        "Ada Lovelace translated an article by Luigi Menabrea about the Analytical Engine, "
        "which Charles Babbage had designed.",
        "is by 'Luigi Menabrea'",
        id="the-object-s-author-another",
    ),
    pytest.param(
        ("Iron", "is", "the most abundant metal in the Earth's crust"),
        "Iron is a common metal, whereas aluminium is the most abundant metal in the Earth's "
        "crust.",
        "to 'aluminium'",
        id="bare-noun-owns-the-clause",
    ),
    pytest.param(
        ("Saturn", "is", "the largest planet of the Solar System"),
        "Jupiter is the largest planet of the Solar System, and Saturn comes second.",
        "to 'Jupiter'",
        id="another-entity-opens-the-sentence",
    ),
    pytest.param(
        ("Lindbergh", "took off from", "Paris"),
        "Lindbergh took off from New York, and he landed in Paris the next day.",
        "across clauses",
        id="object-in-another-clause",
    ),
    pytest.param(
        ("Emily Brontë", "wrote", "Agnes Grey"),
        "Anne Brontë wrote Agnes Grey in 1847.",
        "to 'Anne Brontë'",
        id="namesake-with-another-given-name",
    ),
    pytest.param(
        ("Henry James Carter", "was", "the first mayor of Springfield"),
        "Henry Carter was the first mayor of Springfield.",
        "to 'Henry Carter'",
        id="namesake-that-lacks-a-name-word",
    ),
    pytest.param(
        ("Caroline Kennedy", "is", "a diplomat"),
        "Bouvier Kennedy (born November 27, 1957) is an American author and diplomat.",
        "to 'Bouvier Kennedy'",
        id="a-namesake-lacking-the-given-name",
    ),
    pytest.param(
        ("The national language of Austria", "is", "Hungarian"),
        "Hungarian is the national language of most of Austria's neighbours to the east, but "
        "the national language of Austria is German.",
        "another value, 'German'",
        id="subjects-clause-names-another-value",
    ),
    pytest.param(
        ("Lake Tanganyika", "is", "the largest lake in Africa"),
        "Lake Tanganyika is the longest lake in Africa. Lake Victoria is the largest lake in "
        "Africa.",
        "to 'Lake Victoria'",
        id="another-name-sharing-a-word-with-the-subject",
    ),
    pytest.param(
        ("Mariner 9", "reached Mars in", "1969"),
        "Mariner 6 reached Mars in 1969, and Mariner 9 reached Mars in 1971.",
        "to 'Mariner 6'",
        id="a-numbered-name-holds-another-bare-year",
    ),
    pytest.param(
        ("Soyuz 5", "docked on", "16 January 1969"),
        "Soyuz 4 docked on 16 January 1969, while Soyuz 5 docked on 18 January 1969.",
        "to 'Soyuz 4'",
        id="a-numbered-name-holds-another-date",
    ),
    pytest.param(
        ("Pierre Dupont", "was born in", "Marseille"),
        "Mayor Pierre Dupont welcomed the novelist Claire Martin, who was born in Marseille.",
        "Claire Martin'",
        id="a-relative-clause-read-from-its-verb-is-its-noun-s",
    ),
    pytest.param(
        ("Pierre Curie", "won", "a second Nobel Prize"),
        "Marie Curie, the wife of Pierre Curie, won a second Nobel Prize in 1911.",
        "to 'Marie Curie'",
        id="an-apposition-naming-the-subject-after-a-preposition-is-no-alias",
    ),
    pytest.param(
        ("Marco Rossi", "joined Juventus in", "2019"),
        "Marco Rossi joined Juventus at the age of 15. He joined Napoli in 2019.",
        "different sentences",
        id="the-name-the-relation-s-verb-takes-in-another-sentence-than-the-year",
    ),
    pytest.param(
        ("The house cat", "can weigh", "300 kilograms"),
        "The tiger can weigh 300 kilograms, far more than the house cat at 5 kilograms.",
        "to 'The tiger'",
        id="a-description-holds-it-before-the-subject-it-is-compared-to",
    ),
]

PARAPHRASES = [
    pytest.param(
        ("The Mona Lisa", "is located in", "Paris"),
        "The Mona Lisa was painted in Florence and is now kept in the Louvre in Paris.",
        id="a-place-kept-in-a-building-in-the-object",
    ),
    pytest.param(
        ("The Bolshoi Theatre", "is based in", "Moscow"),
        "The Mariinsky Theatre is based in Saint Petersburg, and the Bolshoi Theatre is based "
        "in Moscow.",
        id="the-relation-written-again-for-the-subject",
    ),
    pytest.param(
        ("Bern", "is the capital of", "Switzerland"),
        "Bern is the capital of Switzerland, and Zurich is its largest city.",
        id="the-subjects-clause-beside-another",
    ),
    pytest.param(
        ("Mozart", "was born in", "Salzburg"),
        "Wolfgang Amadeus Mozart was born and raised in Salzburg.",
        id="conjoined-verbs-share-the-place",
    ),
    pytest.param(
        ("Emily Brontë", "wrote", "Wuthering Heights"),
        "Emily Jane Brontë wrote Wuthering Heights.",
        id="a-fuller-name-is-the-subject",
    ),
    pytest.param(
        ("Nitrogen", "is", "the most abundant gas in the atmosphere"),
        "Nitrogen is the most abundant gas in the atmosphere, whereas oxygen makes up a fifth "
        "of it.",
        id="the-subjects-clause-before-a-bare-noun",
    ),
    pytest.param(
        ("Lindbergh", "took off from", "New York"),
        "Lindbergh took off from New York, and he landed in Paris the next day.",
        id="the-object-in-the-relations-clause",
    ),
    pytest.param(
        ("The national language of Austria", "is", "German"),
        "The national language of Austria is German.",
        id="the-subjects-own-value",
    ),
    pytest.param(
        ("Ada Lovelace", "is known for", "Ada Lovelace's notes on the Analytical Engine"),
        "Ada Lovelace was an English mathematician. She is known for her notes on the "
        "Analytical Engine.",
        id="the-subjects-possessive-stands-for-her",
    ),
    pytest.param(
        ("Tom Sawyer", "is", "the hero of the novel"),
        "Mark Twain wrote a famous book. It follows a boy named Tom Sawyer, who is the hero of "
        "the novel.",
        id="a-relative-clause-belongs-to-its-noun",
    ),
    pytest.param(
        ("Marie Curie", "was", "the first woman to win a Nobel Prize"),
        "Eve Curie was the daughter of Marie Curie, the first woman to win a Nobel Prize.",
        id="an-apposition-belongs-to-its-noun",
    ),
    pytest.param(
        ("Kilimanjaro", "is", "the highest mountain in Africa"),
        "Mount Kilimanjaro is the highest mountain in Africa.",
        id="a-fuller-name-sharing-the-subjects-word",
    ),
    pytest.param(
        ("Apollo11", "landed on", "the Moon"),
        "Apollo11 landed on the Moon in July 1969.",
        id="a-name-with-digits-is-its-own",
    ),
    pytest.param(
        ("Mariner 9", "reached Mars in", "1971"),
        "Mariner 6 reached Mars in 1969, and Mariner 9 reached Mars in 1971.",
        id="a-numbered-name-with-its-own-year",
    ),
    pytest.param(
        ("The Suez Canal", "opened in", "1869"),
        "Ferdinand de Lesseps opened the Suez Canal in 1869 after ten years of work.",
        id="an-agent-acting-on-the-subject-holds-no-rival-year",
    ),
    pytest.param(
        ("Caroline Kennedy", "is", "a diplomat"),
        "Caroline Bouvier Kennedy (born November 27, 1957) is an American author and diplomat.",
        id="a-fuller-name-whose-given-name-the-recogniser-leaves-out",
    ),
    pytest.param(
        ("Harbour Lights", "is", "a 1998 drama film"),
        "Harbour Lights is a 1998 British romantic drama film directed by Ann Holt.",
        id="a-year-labelling-one-film-counts-no-films",
    ),
    pytest.param(
        ("Louis XVI", "was crowned in", "1775"),
        "Louis XV was crowned in 1722, and Louis XVI was crowned in 1775.",
        id="a-numbered-name-in-roman-numerals-with-its-own-year",
    ),
    pytest.param(
        ("Claire Martin", "was born in", "Marseille"),
        "Mayor Pierre Dupont welcomed the novelist Claire Martin, who was born in Marseille.",
        id="the-noun-a-relative-clause-describes-holds-it",
    ),
    pytest.param(
        ("Marie Curie", "won", "a second Nobel Prize"),
        "Marie Curie, the wife of Pierre Curie, won a second Nobel Prize in 1911.",
        id="the-owner-of-an-apposition-naming-another-holds-it",
    ),
    pytest.param(
        ("The tiger", "can weigh", "300 kilograms"),
        "The tiger can weigh 300 kilograms, far more than the house cat at 5 kilograms.",
        id="the-subject-compared-to-another-holds-its-own-value",
    ),
    pytest.param(
        ("The Great Fire", "broke out in", "64 AD"),
        "The Great Fire of Rome broke out in 64 AD. It burned for six days.",
        id="a-year-with-an-era-in-the-relation-s-sentence",
    ),
]


@pytest.mark.parametrize(("triple", "text", "reason"), LIES)
def test_offline_a_window_whose_clauses_state_another_fact_never_supports(
    triple: tuple[str, str, str], text: str, reason: str
) -> None:
    subject, relation, obj = triple
    fact = Fact(subject=subject, relation=relation, object=obj)
    assert status(fact, text) != Status.SUPPORTED


@pytest.mark.parametrize(("triple", "text", "reason"), LIES)
def test_llm_grounding_refuses_the_same_windows(
    triple: tuple[str, str, str], text: str, reason: str
) -> None:
    subject, relation, obj = triple
    unit = FactUnit(kind="base", subject=subject, relation=relation, object=obj)
    why = statement_refusal(unit, text)
    assert why is not None and reason in why


@pytest.mark.parametrize(("triple", "text"), PARAPHRASES)
def test_a_true_paraphrase_still_passes_both_engines(
    triple: tuple[str, str, str], text: str
) -> None:
    subject, relation, obj = triple
    fact = Fact(subject=subject, relation=relation, object=obj)
    assert status(fact, text) == Status.SUPPORTED
    unit = FactUnit(kind="base", subject=subject, relation=relation, object=obj)
    assert statement_refusal(unit, text) is None


def test_a_label_before_a_colon_owns_no_clause() -> None:
    """ "Note: X became Y" states X's fact; the label is no other owner of the clause."""
    from triqua.core.reading.analysis import analyse
    from triqua.core.reading.clause_owners import held_by_another

    text = "Passage for: Gerhard Fischer became a citizen in 1941."
    subject, obj = analyse("Gerhard Fischer"), analyse("a citizen")
    assert held_by_another(subject, obj, text, {"becam"}) is None
    other = "Passage for: Hans Weber became a citizen in 1941."
    assert held_by_another(subject, obj, other, {"becam"}) == "Hans Weber"


def test_an_object_written_whole_is_one_phrase_whatever_its_parse() -> None:
    """ "Copa do Brasil" (its "do" parsed as a verb) is held whole by the clause that wins it."""
    from triqua.core.reading.fact_parts import fact_parts
    from triqua.core.reading.statements import clause_refusal
    from triqua.schema import Fact

    cup = Fact(subject="Ronaldo", relation="won", object="the Copa do Brasil")
    text = "Ronaldo also won the Copa do Brasil with Corinthians in 2009."
    assert clause_refusal(fact_parts(cup), text) is None
    # Written whole but never met by the relation's clause, it is still not stated.
    elsewhere = "Ronaldo won a title in Madrid. The Copa do Brasil is a cup."
    assert clause_refusal(fact_parts(cup), elsewhere) is not None


def test_an_author_after_a_description_in_the_by_phrase_is_the_object_s() -> None:
    """ "album by South Korean girl group Blackpink" gives the album its own author."""
    unit = FactUnit(
        kind="base",
        subject="Blackpink in Your Area",
        relation="is",
        object="a compilation album by Blackpink",
    )
    text = (
        "Blackpink in Your Area is the first Japanese compilation album, and first double "
        "album by South Korean girl group Blackpink."
    )
    assert statement_refusal(unit, text) is None


def test_a_year_with_an_era_in_another_sentence_than_the_relation_is_refused() -> None:
    """The digits of "218 BC" are the object's words: the relation's sentence must hold them."""
    unit = FactUnit(
        kind="base", subject="Hannibal", relation="crossed the Alps in", object="218 BC"
    )
    text = "Hannibal became commander in 218 BC. He crossed the Alps with war elephants."
    assert "different sentences" in (statement_refusal(unit, text) or "")


def test_a_pronoun_sentence_with_the_relation_s_name_and_the_year_passes() -> None:
    """The sentence writing the verb's name and the year states the fact, whatever came before."""
    unit = FactUnit(kind="base", subject="Marco Rossi", relation="joined Napoli in", object="2019")
    text = "Marco Rossi joined Juventus at the age of 15. He joined Napoli in 2019."
    assert statement_refusal(unit, text) is None


@pytest.mark.parametrize(
    ("triple", "text", "holder"),
    [
        pytest.param(
            ("Brazil", "has won the World Cup", "four times"),
            "Brazil has won the World Cup five times. Germany has won it four times.",
            "Germany",
            id="a-count-where-its-number-is-written-by-another",
        ),
        pytest.param(
            ("Germany", "has won the World Cup", "four times"),
            "Brazil has won the World Cup five times. Germany has won it four times.",
            None,
            id="a-count-where-its-number-is-written-by-the-subject",
        ),
        pytest.param(
            ("Wikipedia", "was launched in", "2001"),
            "Wikipedia is an encyclopedia. Jimmy Wales and Larry Sanger launched it in 2001.",
            None,
            id="a-pronoun-object-of-a-relation-writing-no-noun-may-be-the-subject",
        ),
    ],
)
def test_a_count_is_held_by_the_clause_writing_its_number(
    triple: tuple[str, str, str], text: str, holder: str | None
) -> None:
    """The role gate on the LLM path: a quantity is stated where its number is written, and
    "it" stands for the noun a relation writes ("won the World Cup"), not for the subject."""
    subject, relation, obj = triple
    unit = FactUnit(kind="base", subject=subject, relation=relation, object=obj)
    why = statement_refusal(unit, text)
    if holder is None:
        assert why is None, why
    else:
        assert why is not None and f"to {holder!r}" in why, why
