"""Tests of the offline verifier's calibrated scorer: shipped weights, and its hard limits.

The scorer may only decide what the rules leave open: a value missing from the evidence
is never supported and a rival value stays contradicted, however eager the scorer is.
"""

from __future__ import annotations

import json

import pytest

from triqua.engines.offline.fact_match import fact_parts
from triqua.engines.offline.scorer import (
    _PATH,
    FEATURES,
    ScorerModel,
    by_scorer,
    eligible,
    features,
    get_scorer,
    load_scorer,
)
from triqua.engines.offline.verifier import VERIFIER_REVISION, AlignmentVerifier, get_verifier
from triqua.schema import Evidence, Fact, Status

#: A scorer that says yes to everything it is asked about.
EAGER = ScorerModel(revision="eager", weights=(0.0,) * len(FEATURES), bias=50.0, threshold=0.5)


def ev(text: str) -> Evidence:
    return Evidence.build(document_id="doc", text=text, retriever="supplied")


@pytest.fixture(scope="module")
def verifier() -> AlignmentVerifier:
    shared = get_verifier()
    shared.warm_up()
    return shared


@pytest.fixture(scope="module")
def eager() -> AlignmentVerifier:
    return AlignmentVerifier(scorer=EAGER)


def test_shipped_weights_load_with_their_revision() -> None:
    model = get_scorer()
    raw = json.loads(_PATH.read_text(encoding="utf-8"))
    assert set(raw["weights"]) == set(FEATURES)
    assert model.revision == raw["revision"] and model.revision.startswith("scorer/")
    assert model.revision in VERIFIER_REVISION  # new weights, new cache keys
    assert 0.0 < model.threshold < 1.0
    assert load_scorer() == model


def test_unreadable_weights_raise_a_clear_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "scorer.json"
    bad.write_text(json.dumps({"revision": "x", "weights": {"cosine": 1.0}, "bias": 0}))
    with pytest.raises(RuntimeError, match="scorer"):
        load_scorer(bad)


def test_score_grows_with_cosine_and_coverage() -> None:
    model = get_scorer()
    low = {"cosine": 0.2, "subject_named": 0.0, "passage_coverage": 0.2}
    high = {"cosine": 0.85, "subject_named": 1.0, "passage_coverage": 1.0}
    assert model.score(high) > model.score(low)
    assert model.score(high) >= model.threshold > model.score(low)


def test_clear_paraphrase_is_supported_by_the_scorer(verifier: AlignmentVerifier) -> None:
    fact = Fact(
        subject="The Great Barrier Reef",
        relation="is",
        object="the largest coral reef system in the world",
    )
    evidence = [
        ev(
            "Off the coast of Queensland, the Great Barrier Reef forms the biggest system of "
            "coral reefs on the planet."
        )
    ]
    verdict = verifier.verify(fact, evidence)
    assert verdict.status == Status.SUPPORTED
    record = json.loads(verdict.raw_output or "{}")
    why = record["units"][0]["why"]
    assert why.startswith("aligned by scorer ")
    assert float(why.split()[-1]) >= get_scorer().threshold


def test_unrelated_sentence_about_the_subject_is_not_supported(
    verifier: AlignmentVerifier,
) -> None:
    fact = Fact(subject="Lake Baikal", relation="is", object="the deepest lake of the world")
    evidence = [ev("Lake Baikal attracts many tourists who come for the ice in winter.")]
    assert verifier.verify(fact, evidence).status == Status.INSUFFICIENT


def test_rival_value_stays_contradicted_whatever_the_scorer(eager: AlignmentVerifier) -> None:
    evidence = [ev("Mount Everest, at 8,849 metres, is the highest mountain above sea level.")]
    fact = Fact(subject="Mount Everest", relation="is", object="9,000 metres high")
    verdict = eager.verify(fact, evidence)
    assert verdict.status == Status.CONTRADICTED
    assert verdict.error_spans and verdict.error_spans[0].startswith("9,000 metres")


def test_missing_number_is_never_supported_whatever_the_scorer(eager: AlignmentVerifier) -> None:
    evidence = [ev("The Millau Viaduct is a very long cable-stayed bridge in southern France.")]
    fact = Fact(subject="The Millau Viaduct", relation="is", object="2,460 metres long")
    assert eager.verify(fact, evidence).status == Status.INSUFFICIENT
    parts = fact_parts(fact)
    _, top, by_place = eager._align([fact], evidence)[0]
    assert top  # the sentence is aligned, but the number is not in it
    base, _ = eager._judge_base(fact, parts, top)
    finding, bound = by_scorer(fact, parts, top, base, [], by_place, EAGER)
    assert finding.status == Status.INSUFFICIENT and bound == []
    assert not eligible(fact, parts, top[0])
    assert set(features(fact, parts, top[0], by_place)) == set(FEATURES)


def test_another_relation_is_never_a_paraphrase_whatever_the_scorer(
    eager: AlignmentVerifier,
) -> None:
    evidence = [ev("Marie Curie died in Passy, and she was buried in Warsaw.")]
    fact = Fact(subject="Marie Curie", relation="was born in", object="Warsaw")
    assert eager.verify(fact, evidence).status != Status.SUPPORTED


def test_negated_evidence_is_never_supported_whatever_the_scorer(
    eager: AlignmentVerifier,
) -> None:
    evidence = [ev("Pluto is not a planet of the Solar System any more, astronomers decided.")]
    fact = Fact(subject="Pluto", relation="is", object="a planet of the Solar System")
    assert eager.verify(fact, evidence).status != Status.SUPPORTED
