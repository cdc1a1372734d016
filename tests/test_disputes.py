"""A support the evidence itself disputes with a confirmed rival name does not stand alone.

Evidence that states the claim and, in another passage, a rival value in the same slot
("The Eiffel Tower is in Rome." beside "The Eiffel Tower is in Paris.") leaves the unit
insufficient, its reason naming both passages; so does a birth's or a death's own word with
another place or year ("born in Paris" beside "born in Warsaw"), the reading the grounding
rule shares (``core.reading.disputes``). A relation that takes many objects ("lived in"), a
rival about another subject, a later move and a region that may hold the place dispute
nothing.
"""

from __future__ import annotations

import pytest

from triqua.engines.offline.verify.verifier import get_verifier
from triqua.schema import Evidence, Fact, Status

pytestmark = pytest.mark.slow  # loads the embedder and the judge


def _verify(fact: Fact, texts: list[str]) -> tuple[Status, str, list[str]]:
    evidence = [
        Evidence.build(document_id=f"doc-{i}", text=t, retriever="test")
        for i, t in enumerate(texts)
    ]
    verdict = get_verifier().verify(fact, evidence)
    return verdict.status, verdict.rationale, [ev.id for ev in evidence]


def test_a_support_beside_a_rival_value_is_left_insufficient_naming_both_passages() -> None:
    fact = Fact(subject="The Eiffel Tower", relation="is in", object="Rome")
    texts = ["The Eiffel Tower is in Rome.", "The Eiffel Tower is in Paris."]
    for order in (texts, texts[::-1]):
        status, rationale, ids = _verify(fact, order)
        assert status == Status.INSUFFICIENT
        assert "the evidence disagrees" in rationale
        assert all(f"[{i}]" in rationale for i in ids)


def test_a_support_alone_still_stands() -> None:
    fact = Fact(subject="The Eiffel Tower", relation="is in", object="Rome")
    status, _, _ = _verify(fact, ["The Eiffel Tower is in Rome."])
    assert status == Status.SUPPORTED


@pytest.mark.parametrize(
    ("fact", "texts"),
    [
        (
            Fact(subject="Marie Curie", relation="was born in", object="Paris"),
            ["Marie Curie was born in Paris.", "Marie Curie was born in Warsaw in 1867."],
        ),
        (
            Fact(subject="Albert Einstein", relation="died in", object="1950"),
            [
                "Albert Einstein died in 1950.",
                "Albert Einstein died in Princeton on 18 April 1955.",
            ],
        ),
        (
            Fact(subject="The capital of Canada", relation="is", object="Toronto"),
            ["The capital of Canada is Toronto.", "The capital of Canada is Ottawa."],
        ),
    ],
    ids=["birthplace", "death year", "role only one holds"],
)
def test_a_value_only_one_can_hold_in_another_passage_disputes_the_support(
    fact: Fact, texts: list[str]
) -> None:
    status, rationale, ids = _verify(fact, texts)
    assert status == Status.INSUFFICIENT
    assert "the evidence disagrees" in rationale
    assert all(f"[{i}]" in rationale for i in ids)


@pytest.mark.parametrize(
    ("fact", "texts"),
    [
        (
            Fact(subject="Ernest Hemingway", relation="lived in", object="Paris"),
            ["Ernest Hemingway lived in Paris.", "Ernest Hemingway lived in Key West."],
        ),
        (
            Fact(subject="Marie Curie", relation="was born in", object="Warsaw"),
            ["Marie Curie was born in Warsaw.", "Pierre Curie was born in Paris."],
        ),
        (
            Fact(subject="Marie Curie", relation="was born in", object="Warsaw"),
            ["Marie Curie was born in Warsaw.", "In 1891 Marie Curie moved to Paris."],
        ),
        (
            Fact(subject="Albert Einstein", relation="was born in", object="Ulm"),
            ["Albert Einstein was born in Ulm.", "His son Hans Albert Einstein was born in Bern."],
        ),
        (
            Fact(subject="Albert Einstein", relation="was born in", object="Ulm"),
            [
                "Albert Einstein was born in Ulm.",
                "Albert Einstein was born in the Kingdom of Württemberg in the German Empire.",
            ],
        ),
    ],
    ids=["many objects", "another subject", "a later move", "a longer name", "a region"],
)
def test_no_rival_of_the_same_slot_disputes_nothing(fact: Fact, texts: list[str]) -> None:
    status, rationale, _ = _verify(fact, texts)
    assert status == Status.SUPPORTED, rationale
