"""Contextual claims rest on the resolved neighbours of the unresolved elements.

ElementCheck's re-verification puts the unresolved part of a sentence in the context of what
the first pass established: the neighbours whose base triple was supported. A neighbour the
first pass left unresolved is not context; one judged elsewhere (its verdict unknown here) is
kept; a sibling that repeats the fact's own base triple connects nothing new.
"""

from __future__ import annotations

from triqua.core.plan.contextual import contextual_claim, resolved_facts
from triqua.schema import Fact, Qualifier, Status, UnitVerdict, Verdict

SENTENCE = (
    "Gerhard Fischer, who founded Fischer Research Laboratory, moved to the United States in "
    "1929 and became a citizen in 1941."
)
MOVED = Fact(
    id="f1",
    subject="Gerhard Fischer",
    relation="moved to",
    object="the United States",
    qualifiers=[Qualifier(label="point in time", value="1929")],
    source_text=SENTENCE,
)
CITIZEN = Fact(
    id="f2",
    subject="Gerhard Fischer",
    relation="became",
    object="a citizen",
    qualifiers=[Qualifier(label="point in time", value="1941")],
    source_text=SENTENCE,
)
FOUNDED = Fact(
    id="f3",
    subject="Gerhard Fischer",
    relation="founded",
    object="Fischer Research Laboratory",
    source_text=SENTENCE,
)
FACTS = [MOVED, CITIZEN, FOUNDED]


def _verdict(fact: Fact, base: Status) -> Verdict:
    units = [
        UnitVerdict(unit=u.text, kind=u.kind, status=base if u.kind == "base" else s)
        for u, s in zip(fact.units(), [base, *[Status.INSUFFICIENT] * 3], strict=False)
    ]
    return Verdict(status=Status.INSUFFICIENT, unit_verdicts=units)


def test_only_neighbours_whose_base_was_supported_are_resolved() -> None:
    judged = [
        (MOVED, _verdict(MOVED, Status.SUPPORTED)),
        (CITIZEN, _verdict(CITIZEN, Status.INSUFFICIENT)),
        (FOUNDED, _verdict(FOUNDED, Status.SUPPORTED)),
    ]
    assert resolved_facts(FACTS, judged) == {"f1", "f3"}
    # A fact judged in another batch keeps its place: its verdict is unknown here.
    assert resolved_facts(FACTS, judged[:1]) == {"f1", "f2", "f3"}


def test_the_contextual_claim_carries_resolved_neighbours_not_unresolved_ones() -> None:
    units = CITIZEN.units()[1:]  # the pending year
    every = contextual_claim(CITIZEN, units, FACTS)
    assert "moved to the United States" in every.text
    resolved = contextual_claim(CITIZEN, units, FACTS, resolved={"f3"})
    assert "moved to the United States" not in resolved.text
    assert resolved.connecting == (FOUNDED,)
    assert resolved.text.endswith("where Gerhard Fischer founded Fischer Research Laboratory.")


def test_a_sibling_repeating_the_facts_own_base_is_no_context() -> None:
    other_year = MOVED.model_copy(
        update={"id": "f4", "qualifiers": [Qualifier(label="location", value="New York")]}
    )
    claim = contextual_claim(MOVED, MOVED.units()[1:], [MOVED, other_year])
    assert claim.connecting == ()
    assert "where" not in claim.text


def test_the_contextual_claim_reads_as_a_sentence_when_given_a_phrasing() -> None:
    from triqua.models.hypotheses import qualifier_phrase

    claim = contextual_claim(CITIZEN, CITIZEN.units()[1:], FACTS, {"f1"}, qualifier_phrase)
    # The judge reads the claim as its hypothesis: words, not a "label: value" notation.
    assert claim.text == (
        "Gerhard Fischer became a citizen in 1941, "
        "where Gerhard Fischer moved to the United States."
    )
    assert claim.fact.source_text == claim.text
    bare = contextual_claim(CITIZEN, CITIZEN.units()[1:], FACTS, {"f1"})
    assert "(point in time: 1941)" in bare.text
