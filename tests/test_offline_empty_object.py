"""A fact with an empty object is never supported by the rules' own words, only by a reading.

The rules' own-words support matches the subject, the relation and every value of the
object in one sentence; an empty object ("T2 Trainspotting | is set | ''") has nothing to
match, so any sentence naming the subject and the relation would pass. Scripted judges show
the rules, not the judge, decide: a judge that reads nothing leaves such a fact unsupported,
one that entails may still support it, and a stated object keeps its own-words support.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from triqua.engines.offline.verify.verifier import AlignmentVerifier
from triqua.models.entailment import Thresholds
from triqua.schema import Evidence, Fact, Status

TEXT = "T2 Trainspotting is set in Edinburgh, twenty years after the first film."


class ScriptedJudge:
    """A judge that gives every pair the same entailed/neutral/contradicted probabilities."""

    thresholds = Thresholds(entailed=0.5, veto=0.2)

    def __init__(self, probabilities: tuple[float, float, float]) -> None:
        self.revision = f"scripted-{probabilities}"
        self.probabilities = probabilities

    def predict(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        return np.array([self.probabilities for _ in pairs], np.float32)


NEUTRAL = ScriptedJudge((0.0, 1.0, 0.0))
ENTAILING = ScriptedJudge((0.99, 0.01, 0.0))


def status(fact: Fact, judge: ScriptedJudge, text: str = TEXT) -> Status:
    verifier = AlignmentVerifier(entailment=judge)  # type: ignore[arg-type]
    evidence = [Evidence.build(document_id="d0", text=text, retriever="supplied")]
    return verifier.verify(fact, evidence).status


def test_an_empty_object_is_not_supported_by_the_rules_own_words() -> None:
    fact = Fact(subject="T2 Trainspotting", relation="is set", object="")
    assert status(fact, NEUTRAL) != Status.SUPPORTED


def test_the_judge_may_still_read_a_fact_with_an_empty_object() -> None:
    fact = Fact(subject="T2 Trainspotting", relation="is set", object="")
    assert status(fact, ENTAILING) == Status.SUPPORTED


def test_a_stated_object_keeps_its_own_words_support() -> None:
    fact = Fact(subject="T2 Trainspotting", relation="is set in", object="Edinburgh")
    assert status(fact, NEUTRAL) == Status.SUPPORTED


def test_a_rival_object_is_still_contradicted() -> None:
    fact = Fact(subject="T2 Trainspotting", relation="is set in", object="Glasgow")
    assert status(fact, NEUTRAL) == Status.CONTRADICTED
