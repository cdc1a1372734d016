"""The agent gate: a passive's or a participle's "by" agent must be the fact's own.

Both engines ask it of a window through the statement gates (``core.reading.statements``): the
offline verifier of every support, the grounding rule of every window an LLM judge cites.
"""

from __future__ import annotations

import pytest

from triqua.core.reading.agents import other_agent, other_patient
from triqua.core.reading.statements import refusal
from triqua.schema import Fact

PSYCHO = "Psycho (1960), directed by Alfred Hitchcock, starred Anthony Perkins."
OWNED = "Skype is owned by Microsoft, while Google owns Android."


@pytest.mark.parametrize(
    ("fact", "text", "other"),
    [
        (
            Fact(subject="Stanley Kubrick", relation="directed", object="Psycho"),
            PSYCHO,
            "Hitchcock",
        ),
        (Fact(subject="Skype", relation="is owned by", object="Google"), OWNED, "Microsoft"),
        (
            Fact(subject="Bill Gates", relation="founded", object="Oracle"),
            "Oracle was founded in 1977 by Larry Ellison, two years after Bill Gates started "
            "Microsoft.",
            "Ellison",
        ),
        (
            Fact(subject="Frankenstein", relation="was written by", object="Lord Byron"),
            "Frankenstein was written by Mary Shelley, whose friend Lord Byron lived nearby.",
            "Mary Shelley",
        ),
    ],
)
def test_another_agent_refuses_the_window(fact: Fact, text: str, other: str) -> None:
    why = refusal(fact, text)
    assert why is not None and other in why, why


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        (Fact(subject="Alfred Hitchcock", relation="directed", object="Psycho"), PSYCHO),
        (Fact(subject="Skype", relation="is owned by", object="Microsoft"), OWNED),
        (Fact(subject="Larry Ellison", relation="founded", object="Oracle"),
         "Oracle was founded by Larry Ellison in 1977."),
        (Fact(subject="Oracle", relation="was founded in", object="1977"),
         "Oracle was founded in 1977 by Larry Ellison."),
        (Fact(subject="Oracle", relation="was founded by", object="Larry Ellison"),
         "Larry Ellison founded Oracle, which was later bought by nobody."),
    ],
)  # fmt: skip
def test_the_facts_own_agent_passes(fact: Fact, text: str) -> None:
    assert refusal(fact, text) is None


def test_an_active_statement_of_the_fact_outweighs_another_agent() -> None:
    text = "The label was bought by Sony in 1988, and later Universal bought the label."
    assert other_agent(text, {"buy"}, {"universal"}, {"label"}) is None
    assert other_agent(text[: text.index(",")], {"buy"}, {"universal"}, {"label"}) == "Sony"


def test_a_pronoun_for_the_facts_agent_as_the_passives_patient_refuses() -> None:
    """ "It is joined by the Inn" after "The Danube …": the Danube is joined, it joins nothing."""
    text = "The Danube flows through Vienna. It is joined by the Inn at Passau."
    why = refusal(Fact(subject="The Danube", relation="joins", object="the Inn"), text)
    assert why is not None and "Inn" in why, why
    assert (
        refusal(Fact(subject="The Danube", relation="is joined by", object="the Inn"), text) is None
    )


@pytest.mark.parametrize(
    ("fact", "text", "other"),
    [
        (
            Fact(subject="Paul McCartney", relation="wrote", object="the song"),
            "Paul McCartney sang the song, which John Lennon had written in 1965.",
            "John Lennon",
        ),
    ],
)
def test_another_name_doing_it_actively_refuses_the_window(
    fact: Fact, text: str, other: str
) -> None:
    """An active clause (or one whose relative pronoun stands for the patient) with another
    name as its subject gives the relation to that name."""
    why = refusal(fact, text)
    assert why is not None and other in why, why


def test_the_reader_finds_an_active_doer_of_the_facts_patient() -> None:
    text = "Thomas Edison invented the light bulb in 1879."
    assert other_agent(text, {"invent"}, {"nikola", "tesla"}, {"light", "bulb"}) == "Thomas Edison"
    assert other_agent(text, {"invent"}, {"thoma", "edison"}, {"light", "bulb"}) is None
    assert other_agent(text, {"invent"}, {"nikola", "tesla"}, {"telephon"}) is None


RADIUM = (
    "Radium was discovered in 1898. Henri Becquerel discovered radioactivity two years earlier."
)


def test_the_agents_other_patient_refuses_a_conjunction_of_two_clauses() -> None:
    """Becquerel discovered radioactivity; no one is said to have discovered radium."""
    fact = Fact(subject="Radium", relation="was discovered by", object="Henri Becquerel")
    why = refusal(fact, RADIUM)
    assert why is not None and "radioactivity" in why, why
    active = Fact(subject="Henri Becquerel", relation="discovered", object="radium")
    why = refusal(active, RADIUM)
    assert why is not None and "radioactivity" in why, why


@pytest.mark.parametrize(
    "text",
    [
        "Radium was discovered in 1898. Marie Curie discovered it with her husband Pierre.",
        "Marie Curie discovered polonium in July. Radium was discovered by her in December.",
        "Marie Curie discovered polonium and radium in 1898.",
    ],
)
def test_a_pronoun_or_a_conjunct_may_carry_the_patient_or_agent(text: str) -> None:
    fact = Fact(subject="Radium", relation="was discovered by", object="Marie Curie")
    assert other_patient(text, {"discover"}, {"mari", "curi"}, {"radium"}) is None
    assert refusal(fact, text) is None


def test_a_passive_done_to_an_agent_sharing_a_word_with_the_patient_refuses() -> None:
    """ "The Rhine … It is joined by the Lower Rhine" states no Rhine joining the Lower Rhine."""
    text = "The Rhine flows through Basel. It is joined by the Aare and the Lower Rhine."
    why = refusal(Fact(subject="The Rhine", relation="joins", object="the Lower Rhine"), text)
    assert why is not None and "Lower Rhine" in why, why
    assert (
        refusal(Fact(subject="The Rhine", relation="is joined by", object="the Aare"), text) is None
    )


def test_a_window_opening_with_the_passives_pronoun_reads_the_roles() -> None:
    """A cited window "It is joined by the Lower Rhine." is the Rhine's, joined, not joining."""
    text = "It is joined by the Aare and the Lower Rhine."
    why = refusal(Fact(subject="The Rhine", relation="joins", object="the Lower Rhine"), text)
    assert why is not None and "Lower Rhine" in why, why
    fleming = "It was discovered by Alexander Fleming in 1928."
    fact = Fact(subject="Alexander Fleming", relation="discovered", object="penicillin")
    assert refusal(fact, fleming) is None


@pytest.mark.parametrize(
    "text",
    [
        "Brazil beat Germany 2-0 in the final to win the 2002 World Cup, their fifth title.",
        "Brazil beat Germany in the final and won the 2002 World Cup.",
    ],
)
def test_a_verb_without_a_subject_shares_its_head_verbs(text: str) -> None:
    """ "to win" and "and won" have Brazil, the subject of "beat", as who won."""
    assert other_patient(text, {"win", "beat"}, {"brazil"}, {"cup"}) is None
    assert (
        refusal(Fact(subject="Brazil", relation="won", object="the 2002 World Cup"), text) is None
    )


def test_a_shared_subject_still_refuses_another_patient_of_its_own_verb() -> None:
    """Brazil beat Germany, not France: "to win" shares Brazil without taking France."""
    text = "Brazil beat Germany in the final to win the cup. France lost the semi-final."
    why = refusal(Fact(subject="Brazil", relation="beat", object="France"), text)
    assert why is not None, why
