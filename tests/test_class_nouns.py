"""The class nouns table: a window giving the subject another class does not state "X is a Y".

``core/reading/data/class_nouns.json`` lists the heads that name no class of their own and
the groups of heads that may name the same thing, with facts and windows that must and must
not be read as giving the subject another class. Each example is run through the reader
(``class_nouns.class_rival``), the offline verifier's value gates
(``gates.values_present``) and, for a general head, the grounding rule's statement gates
(``statements.refusal``).
"""

from __future__ import annotations

import pytest

from triqua.core.reading.analysis import analyse
from triqua.core.reading.class_nouns import (
    class_nouns,
    class_rival,
    fact_class,
    general_head_unwritten,
)
from triqua.core.reading.fact_parts import fact_parts
from triqua.core.reading.statements import refusal
from triqua.engines.offline.verify.findings import Sentence
from triqua.engines.offline.verify.gates import values_present

from .written_facts import written_fact

EXAMPLES = class_nouns()["examples"]
CASES = [(f, s, True) for f, s in EXAMPLES["match"]] + [
    (f, s, False) for f, s in EXAMPLES["no_match"]
]


@pytest.mark.parametrize(("fact", "window", "rival"), CASES)
def test_a_window_giving_the_subject_another_class_is_read_as_a_rival(
    fact: str, window: str, rival: bool
) -> None:
    parsed = written_fact(fact)
    found = class_rival(parsed.subject, parsed.relation, parsed.object, analyse(window))
    assert (found is not None) is rival


@pytest.mark.parametrize(("fact", "window"), [(f, w) for f, w in EXAMPLES["match"]])
def test_the_value_gates_refuse_a_window_giving_another_class(fact: str, window: str) -> None:
    parsed = written_fact(fact)
    sentence = Sentence(
        "e", 0, 0, analyse(window), end=len(window), subject=1.0, passage_text=window
    )
    assert values_present(parsed, fact_parts(parsed), sentence) is False


@pytest.mark.parametrize(
    ("fact", "head"),
    [
        ("Youtube | is | a website", "websit"),
        ("Craig David | is | a pop music performer", "performer"),
        ("Vietnam | is | a place", None),  # a head naming no class of its own
        ("Paris | is | the capital of France", None),  # not an indefinite class
        ("Marie Curie | was born in | Warsaw", None),  # not a copula
    ],
)
def test_a_fact_gives_a_class_only_as_an_indefinite_copular_object(
    fact: str, head: str | None
) -> None:
    parsed = written_fact(fact)
    assert fact_class(parsed.subject, parsed.relation, parsed.object) == head


@pytest.mark.parametrize(
    ("fact", "window", "unwritten"),
    [(f, w, True) for f, w in class_nouns()["general_head"]["unwritten"]]
    + [(f, w, False) for f, w in class_nouns()["general_head"]["written"]],
)
def test_a_general_head_needs_every_word_around_it_written(
    fact: str, window: str, unwritten: bool
) -> None:
    parsed = written_fact(fact)
    found = general_head_unwritten(parsed.relation, parsed.object, analyse(window))
    assert (found is not None) is unwritten, found


@pytest.mark.parametrize(
    ("fact", "window", "unwritten"),
    [(f, w, True) for f, w in class_nouns()["general_head"]["unwritten"]]
    + [(f, w, False) for f, w in class_nouns()["general_head"]["written"]],
)
def test_the_grounding_rule_refuses_a_cited_class_without_a_word_of_the_object(
    fact: str, window: str, unwritten: bool
) -> None:
    why = refusal(written_fact(fact), window)
    assert (why is not None and "leaves out" in why) is unwritten, why
