"""Tests of a pronoun with no name before it standing for the fact's subject (both engines)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from triqua.core.reading.orphans import opens_document, orphan_description, orphan_pronoun
from triqua.core.reading.quote_values import missing_values
from triqua.core.verdicts.settling import settle
from triqua.engines.offline.verify.reading import orphan_bar
from triqua.engines.offline.verify.verifier import AlignmentVerifier, get_verifier
from triqua.models.entailment import Thresholds
from triqua.models.reader import EntailmentReader
from triqua.schema import Evidence, Fact, FactUnit, Status, UnitVerdict, Verdict

LAKERS = "He played point guard for the Los Angeles Lakers for 13 seasons."

LAKERS_TEAM = "the Los Angeles Lakers"
GATES = "He co-founded the software company Microsoft with Paul Allen in 1975."

#: (subject, sentence, text read before it, the pronoun it may stand for or None).
CASES = [
    ("Magic Johnson", LAKERS, "", "he"),
    ("Kelly Preston", "She also starred in the films Old Dogs and Broken Bridges.", "", "she"),
    ("The Tessaly Bridge", "It crosses the river Vell.", "\n", "it"),
    ("The Rolling Stones", "They toured Europe in 1965.", "", "they"),
    # The fact's value is no rival; another thing of the subject's kind may be meant.
    ("The Rolling Stones", "They toured with the Kinks in Europe.", "", None),
    # Another person in the sentence may be meant as well ("… with Paul Allen": anyone who
    # co-founded it with him), unless the fact names them as its value.
    ("Bill Gates", GATES, "", None),
    ("Sandra Bullock", "She was an executive producer of the sitcom George Lopez.", "", "she"),
    # A name before the pronoun may be its referent: a namesake, a title, anyone.
    ("Alan Turing", "He was born in London.", "James Turing was a banker. ", None),
    ("The Tessaly Bridge", "It crosses the river Vell.", "Orlan Viaduct\n", None),
    ("Magic Johnson", LAKERS, "The team signed a guard in 1979. Kareem Abdul-Jabbar ", None),
    # The pronoun must fit the subject.
    ("Mary Whitfield", LAKERS, "", None),
    ("Mary Whitfield", "It was founded in 1990.", "", None),
    ("University of Queensland", "She was founded in 1909.", "", None),
    # A subject with no name is never carried so, nor a sentence opening otherwise.
    ("the system", "It learns from data.", "", None),
    ("Magic Johnson", "His team won five titles.", "", None),
    ("Magic Johnson", "The guard played for the Lakers.", "", None),
]


@pytest.mark.parametrize(("subject", "sentence", "before", "expected"), CASES)
def test_orphan_pronoun_stands_only_where_nothing_else_can(
    subject: str, sentence: str, before: str, expected: str | None
) -> None:
    values = {
        "Sandra Bullock": "an executive producer of George Lopez",
        "Kelly Preston": "the film Broken Bridges",
        "The Rolling Stones": "Europe",
    }.get(subject, "")
    assert orphan_pronoun(subject, sentence, before, values) == expected


#: (subject, sentence, text read before it, the description it may be or None).
DESCRIPTIONS = [
    ("Reign Over Me", "The film was released on March 23, 2007.", "", "The film"),
    # A name after the description is the sentence's own value, not its referent.
    (
        "Liverpool",
        "The city celebrated its 800th anniversary with Stavanger, Norway.",
        "",
        "The city",
    ),
    ("Make It", "The multi-camera series aired from 2013 to 2015.", "", "The multi-camera series"),
    # A name before it may be what it refers back to; a described other is someone else.
    ("Reign Over Me", "The film was released in 2007.", "Titanic\n", None),
    ("Reign Over Me", "Distributed by Columbia Pictures, the film was released in 2007.", "", None),
    ("Reign Over Me", "The director of the film was born in 1970.", "", None),
    ("Reign Over Me", "The other film was released in 2007.", "", None),
    ("Reign Over Me", "The band's album was released in 2007.", "", None),
    # A person is "he" or "she", never "the guard"; a subject with no name is never carried.
    ("Magic Johnson", "The guard played for the Lakers.", "", None),
    ("Kelly Preston", "The actress starred in the film Broken Bridges.", "", None),
    ("the system", "The system learns from data.", "", None),
]


@pytest.mark.parametrize(("subject", "sentence", "before", "expected"), DESCRIPTIONS)
def test_orphan_description_stands_only_where_nothing_else_can(
    subject: str, sentence: str, before: str, expected: str | None
) -> None:
    assert orphan_description(subject, sentence, before) == expected


def test_a_passage_opens_its_document_at_offset_0_or_as_an_excerpt_with_none() -> None:
    assert opens_document(0) and opens_document(None)
    assert not opens_document(1) and not opens_document(250)


def test_orphan_bar_is_above_the_cards_entailed_and_follows_a_retrained_card() -> None:
    class Card:
        def __init__(self, thresholds: Thresholds) -> None:
            self.thresholds = thresholds

    shipped = Card(Thresholds(entailed=0.56, supports=0.2, rival=0.9))
    assert orphan_bar(shipped) == pytest.approx(0.73)  # type: ignore[arg-type]
    no_rival = Card(Thresholds(entailed=0.6, supports=0.2))
    assert orphan_bar(no_rival) == pytest.approx(0.8)  # type: ignore[arg-type]


def test_grounding_carries_the_subject_by_an_orphan_pronoun_only() -> None:
    unit = FactUnit(
        kind="base",
        subject="Magic Johnson",
        relation="played for",
        object="the Los Angeles Lakers",
    )
    assert "magic johnson" not in missing_values(unit, LAKERS, "", opens=True)
    named = "Kareem Abdul-Jabbar was a center. "
    assert "magic johnson" in missing_values(unit, LAKERS, named, opens=True)
    # A passage not known to open its document may follow a name the reader never sees.
    assert "magic johnson" in missing_values(unit, LAKERS, "")


class EntailingJudge:
    """A judge that finds every window entailing every hypothesis: the gates decide."""

    revision = "entails-all"
    thresholds = Thresholds(entailed=0.5, veto=0.2)

    def predict(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        return np.array([[0.99, 0.01, 0.0] for _ in pairs], np.float32)


def _llm_verdict(start: int | None, *, strict: bool = False) -> Verdict:
    """An LLM judge's "supported" for Magic Johnson quoting LAKERS, as grounding settles it."""
    fact = Fact(subject="Magic Johnson", relation="played for", object=LAKERS_TEAM)
    evidence = Evidence.build(document_id="doc", text=LAKERS, retriever="supplied", start=start)
    (unit,) = fact.units()
    judged = Verdict(
        status=Status.SUPPORTED,
        evidence_ids=[evidence.id],
        unit_verdicts=[
            UnitVerdict(
                unit=unit.text,
                kind=unit.kind,
                status=Status.SUPPORTED,
                evidence_ids=[evidence.id],
                quote=LAKERS,
            )
        ],
    )
    judge = EntailingJudge()
    reader = None if strict else EntailmentReader(judge, paraphrase=0.5)  # type: ignore[arg-type]
    return settle(fact, judged, [evidence], reader=reader)


@pytest.mark.parametrize("strict", [False, True])
def test_llm_path_reads_an_orphan_pronoun_only_in_a_passage_opening_its_document(
    strict: bool,
) -> None:
    # A chunk cut from inside a document ("He …" at offset 250) may follow any name.
    inside = _llm_verdict(250, strict=strict)
    assert inside.status is Status.INSUFFICIENT
    assert "quote lacks value magic johnson" in (inside.grounding or "")
    # The same text opening its document, or handed over as an excerpt with no offset.
    assert _llm_verdict(0, strict=strict).status is Status.SUPPORTED
    assert _llm_verdict(None, strict=strict).status is Status.SUPPORTED


@pytest.fixture(scope="module")
def verifier() -> AlignmentVerifier:
    return get_verifier()


def _verdict(verifier: AlignmentVerifier, passage: str, start: int | None = None) -> Status:
    evidence = Evidence.build(document_id="doc", text=passage, retriever="supplied", start=start)
    claim = Fact(subject="Magic Johnson", relation="played for", object=LAKERS_TEAM)
    return verifier.verify(claim, [evidence]).status


def test_offline_orphan_excerpt_supports_the_subject(verifier: AlignmentVerifier) -> None:
    assert _verdict(verifier, LAKERS) == Status.SUPPORTED


def test_offline_pronoun_after_another_name_supports_nothing(verifier: AlignmentVerifier) -> None:
    passage = f"Kareem Abdul-Jabbar was an American basketball player. {LAKERS}"
    assert _verdict(verifier, passage) == Status.INSUFFICIENT


def test_offline_pronoun_beside_another_person_supports_nothing(
    verifier: AlignmentVerifier,
) -> None:
    evidence = Evidence.build(document_id="doc", text=GATES, retriever="supplied")
    claim = Fact(subject="Bill Gates", relation="co-founded", object="Microsoft")
    assert verifier.verify(claim, [evidence]).status == Status.INSUFFICIENT


def test_offline_excerpt_from_inside_a_document_supports_nothing(
    verifier: AlignmentVerifier,
) -> None:
    assert _verdict(verifier, LAKERS, start=250) == Status.INSUFFICIENT


FILM = "The film was released on March 23, 2007."
RELEASED = Fact(subject="Reign Over Me", relation="was released in", object="2007")


@pytest.mark.parametrize(
    ("passage", "start", "expected"),
    [
        # The judge reads the excerpt's description resolved: "Reign Over Me was released …".
        (FILM, None, Status.SUPPORTED),
        (FILM, 0, Status.SUPPORTED),
        # Another film named before it, or a chunk from inside a document: no one's.
        (f"Titanic was released in 1997. {FILM}", None, Status.INSUFFICIENT),
        (FILM, 250, Status.INSUFFICIENT),
        # A described other is someone else.
        ("The other film was released on March 23, 2007.", None, Status.INSUFFICIENT),
    ],
)
def test_offline_description_opening_an_excerpt_stands_for_the_subject(
    verifier: AlignmentVerifier, passage: str, start: int | None, expected: Status
) -> None:
    evidence = Evidence.build(document_id="doc", text=passage, retriever="supplied", start=start)
    judge = verifier.entailment
    assert judge is not None
    reader = EntailmentReader(judge, paraphrase=judge.thresholds.supports)
    raw = verifier.verify(RELEASED, [evidence])
    assert settle(RELEASED, raw, [evidence], reader=reader).status == expected
