"""A cited support another passage of the run disputes is left insufficient (LLM path).

The grounding rule reads the quoted passage, and then the run's other sentences about the
subject for a rival value only one can hold (``core.grounding.disputes``, with the reader
the offline verifier shares): "Marie Curie was born in Paris." quoted from one passage
beside "Marie Curie was born in Warsaw in 1867." in another ends insufficient, its reason
naming both passages; agreeing passages, another person's birthplace and a reader that
reads no contradictions dispute nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tests.test_offline_judge import FixedEntailment
from triqua.core.grounding.rule import check_quote
from triqua.engines.second_opinion import EntailmentReader
from triqua.models.entailment import Thresholds
from triqua.schema import FactUnit, Status

BORN_PARIS = FactUnit(kind="base", subject="Marie Curie", relation="was born in", object="Paris")
QUOTE = "Marie Curie was born in Paris."


def reader(contradicted: float, *, own: bool = False) -> EntailmentReader:
    model = FixedEntailment(0.9, contradicted)
    model.thresholds = Thresholds(entailed=0.5, veto=0.2, rival=0.9)
    return EntailmentReader(model, paraphrase=0.5 if own else None)  # type: ignore[arg-type]


def ground(other: str, judge: object, unit: FactUnit = BORN_PARIS) -> tuple[bool, str]:
    passages = {"ev-a": QUOTE, "ev-b": other}
    outcome = check_quote(unit, Status.SUPPORTED, ["ev-a"], QUOTE, passages, reader=judge)  # type: ignore[arg-type]
    return outcome.ok, outcome.reason or ""


def test_a_rival_birthplace_in_another_passage_disputes_the_quoted_support() -> None:
    ok, why = ground("Marie Curie was born in Warsaw in 1867.", reader(0.95))
    assert not ok
    assert why.startswith("the evidence disagrees")
    assert "[ev-a]" in why and "[ev-b]" in why and "'Warsaw'" in why


def test_the_judge_must_confirm_the_rival() -> None:
    assert ground("Marie Curie was born in Warsaw in 1867.", reader(0.5))[0]


@pytest.mark.parametrize(
    "other",
    [
        "Marie Curie was born in Paris in 1867.",
        "Pierre Curie was born in Paris. Her daughter Irène Joliot-Curie was born in Paris.",
        "In 1891 Marie Curie moved to Warsaw.",
    ],
    ids=["agrees", "other people", "a later move"],
)
def test_a_passage_giving_no_rival_value_disputes_nothing(other: str) -> None:
    assert ground(other, reader(0.99))[0]


def test_the_offline_verifiers_own_reader_and_a_plain_reader_dispute_nothing() -> None:
    """The offline verifier reads disputes among its aligned sentences before grounding."""
    other = "Marie Curie was born in Warsaw in 1867."
    assert ground(other, reader(0.99, own=True))[0]

    class Plain:
        revision = "plain"
        threshold = paraphrase_threshold = grounding_threshold = 0.5

        def entailment(self, premises: Sequence[str], unit: FactUnit, source: str) -> float:
            return 0.99

    assert ground(other, Plain())[0]


def test_the_judge_is_asked_only_where_a_sentence_gives_a_rival() -> None:
    """A judge loaded on first read (``models.reader.LazyReader``) stays unloaded otherwise."""

    class Counting:
        revision = "counting"
        threshold = paraphrase_threshold = grounding_threshold = 0.5
        reads = 0

        @property
        def rival_threshold(self) -> float:
            self.reads += 1
            return 0.9

        def entailment(self, premises: Sequence[str], unit: FactUnit, source: str) -> float:
            return 0.99

        def contradiction(self, premises: Sequence[str], unit: FactUnit) -> list[float]:
            return [0.95 for _ in premises]

    judge = Counting()
    assert ground("In 1891 Marie Curie moved to Warsaw.", judge)[0]
    assert judge.reads == 0
    assert not ground("Marie Curie was born in Warsaw in 1867.", judge)[0]
    assert judge.reads == 1


def test_a_qualifier_is_not_read_for_a_dispute() -> None:
    unit = FactUnit(
        kind="qualifier",
        subject="Marie Curie",
        relation="was born in",
        object="Paris",
        label="point in time",
        value="1867",
    )
    _, why = ground("Marie Curie was born in Warsaw in 1867.", reader(0.99), unit)
    assert "the evidence disagrees" not in why


@pytest.mark.slow  # the shipped judge and a whole check
def test_a_whole_llm_check_leaves_the_disputed_support_insufficient() -> None:
    import triqua
    from triqua.testing import ScriptedChatModel
    from triqua.testing.liars import Quoted, eager_quoter

    claim = "Marie Curie was born in Paris."
    quoted = Quoted(claim, "Marie Curie", "was born in", "Paris", claim)
    for evidence, status in (
        ([claim, "Marie Curie was born in Warsaw in 1867."], Status.INSUFFICIENT),
        ([claim, "In 1891 Marie Curie moved to Warsaw."], Status.SUPPORTED),
    ):
        report = triqua.check(
            claim,
            documents=evidence,
            model=ScriptedChatModel(responder=eager_quoter([quoted])),
            cache=False,
            store=False,
            routing="always_element",
        )
        verdicts = [r.verdict for r in report.records]
        assert verdicts and all(v.status == status for v in verdicts), verdicts
        if status == Status.INSUFFICIENT:
            assert "the evidence disagrees" in (verdicts[0].grounding or "")
