"""The agent gate: a passive's or a participle's "by" agent must be the fact's own.

Both engines ask it of a window through the statement gates (``core.reading.statements``): the
offline verifier of every support, the grounding rule of every window an LLM judge cites.
"""

from __future__ import annotations

import pytest

from triqua.core.reading.agents import other_agent
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
