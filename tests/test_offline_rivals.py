"""A rival place after a bare "is in" contradicts a fact only when gate and judge agree.

"is in Paris" puts another place in the slot of "is in Rome" and of "is in France" alike;
only the judge can tell which one it contradicts. A scripted judge shows each side: the gate
without the judge, and the judge without the gate, leave the fact open.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from triqua.engines.offline.verify.verifier import AlignmentVerifier
from triqua.models.entailment import Thresholds
from triqua.schema import Evidence, Fact, Status

Answer = Callable[[str, str], float]


class ContradictingJudge:
    """A judge that never entails; its contradiction comes from a function of the pair."""

    def __init__(self, answer: Answer, *, rival: float = 0.95) -> None:
        self.answer = answer
        self.revision = "scripted"
        self.thresholds = Thresholds(entailed=0.5, veto=0.2, rival=rival)

    def predict(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        rows = [[0.0, 1.0 - self.answer(p, h), self.answer(p, h)] for p, h in pairs]
        return np.array(rows, np.float32)


def verify(fact: Fact, text: str, answer: Answer, *, rival: float = 0.95) -> Status:
    judge = ContradictingJudge(answer, rival=rival)
    verifier = AlignmentVerifier(entailment=judge)  # type: ignore[arg-type]
    evidence = Evidence.build(document_id="doc", text=text, retriever="supplied")
    return verifier.verify(fact, [evidence]).status


EIFFEL = "The Eiffel Tower is in Paris. It was built in 1889."


def test_a_rival_place_the_judge_contradicts_contradicts_the_fact() -> None:
    fact = Fact(subject="The Eiffel Tower", relation="is in", object="Rome")
    assert verify(fact, EIFFEL, lambda p, h: 0.99) == Status.CONTRADICTED


def test_a_rival_place_the_judge_does_not_contradict_leaves_the_fact_open() -> None:
    # "is in France" against "is in Paris": the gate sees another place, the judge no conflict.
    fact = Fact(subject="The Eiffel Tower", relation="is in", object="France")
    assert verify(fact, EIFFEL, lambda p, h: 0.87) == Status.INSUFFICIENT


def test_the_judge_without_a_rival_name_contradicts_nothing() -> None:
    # No other place fills the slot, so the judge's contradiction alone is not trusted.
    fact = Fact(subject="The Eiffel Tower", relation="is in", object="Rome")
    assert verify(fact, "The Eiffel Tower was built in 1889.", lambda p, h: 0.99) != (
        Status.CONTRADICTED
    )


def test_an_unreachable_rival_threshold_leaves_the_rival_to_the_rules() -> None:
    eiffel = Fact(subject="The Eiffel Tower", relation="is in", object="Rome")
    assert verify(eiffel, EIFFEL, lambda p, h: 0.99, rival=1.01) == Status.INSUFFICIENT
