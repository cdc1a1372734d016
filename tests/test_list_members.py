"""The list members reader's worked examples: a list that names a slot's members states no other.

``core/reading/data/list_members.json`` carries facts with texts whose list names the members
of the fact's slot and leaves its object out ("responsible for a variety of tasks, including
developing job descriptions, …" for "responsible for hiring candidates") and texts that do
not (the object among the members, its head written outside the list, no relation before
the list); each is read by :func:`triqua.core.reading.list_members.left_out_of_list`; the
offline verifier reads no support in a window the reader refuses, and the grounding rule
refuses it as a cited window.
"""

from __future__ import annotations

import pytest

from triqua.core.reading.fact_parts import fact_parts
from triqua.core.reading.list_members import left_out_of_list, list_members_rules, list_spans
from triqua.core.reading.part_match import said_object
from triqua.core.reading.statements import refusal
from triqua.engines.offline.verify.verifier import AlignmentVerifier
from triqua.schema import Evidence, Fact, Status

EXAMPLES = list_members_rules()["examples"]
CASES = [(*e, True) for e in EXAMPLES["match"]] + [(*e, False) for e in EXAMPLES["no_match"]]


def _left_out(subject: str, relation: str, obj: str, text: str) -> str | None:
    fact = Fact(subject=subject, relation=relation, object=obj)
    parts = fact_parts(fact)
    return left_out_of_list(parts, said_object(fact, parts), text)


def test_both_ways_are_exemplified() -> None:
    assert EXAMPLES["match"] and EXAMPLES["no_match"]


@pytest.mark.parametrize(
    ("subject", "relation", "obj", "text", "expected"), CASES, ids=[c[3][:40] for c in CASES]
)
def test_a_list_of_the_slots_members_leaves_out_an_object_it_does_not_name(
    subject: str, relation: str, obj: str, text: str, expected: bool
) -> None:
    assert (_left_out(subject, relation, obj, text) is not None) is expected


def test_a_list_is_read_after_its_opener_and_as_a_bare_enumeration() -> None:
    opened = "It treats conditions such as asthma, arthritis and migraine."
    bare = "The museum holds paintings, drawings, photographs and prints."
    assert [opened[a:b] for a, b in list_spans(opened)] == [
        "such as asthma, arthritis and migraine."
    ]
    assert [bare[a:b] for a, b in list_spans(bare)] == [
        "paintings, drawings, photographs and prints."
    ]
    assert list_spans("Paris is the capital of France.") == ()


def test_two_members_without_an_opener_are_no_list() -> None:
    assert list_spans("She plays the violin and the piano.") == ()


def test_the_offline_verifier_reads_no_support_in_a_list_that_leaves_the_object_out() -> None:
    # Factcheck-Bench's worked example: the judge reads "hiring candidates" close to the list.
    text = (
        "Recruiters are responsible for a variety of tasks, including developing job "
        "descriptions, posting job ads on various platforms, screening resumes and cover "
        "letters, conducting phone and in-person interviews, and checking references."
    )
    evidence = [Evidence.build(document_id="recruiters", text=text, retriever="test")]
    verifier = AlignmentVerifier()

    def status(obj: str) -> Status:
        fact = Fact(subject="Recruiters", relation="are", object=obj, source_text="")
        return verifier.verify(fact, evidence).status

    assert status("responsible for hiring candidates") != Status.SUPPORTED
    assert status("responsible for screening resumes") == Status.SUPPORTED


@pytest.mark.parametrize(
    ("subject", "relation", "obj", "text"),
    EXAMPLES["match"],
    ids=[e[3][:40] for e in EXAMPLES["match"]],
)
def test_the_grounding_rule_refuses_a_cited_list_that_leaves_the_object_out(
    subject: str, relation: str, obj: str, text: str
) -> None:
    reason = refusal(Fact(subject=subject, relation=relation, object=obj), text)
    assert reason is not None and "leaves the object out" in reason


def test_the_grounding_rule_keeps_a_cited_list_that_names_the_object() -> None:
    text = "The Harlow clinic treats a range of conditions such as asthma, arthritis and migraine."
    fact = Fact(subject="The Harlow clinic", relation="treats", object="asthma")
    assert refusal(fact, text) is None
