"""The entailment judge as the grounding rule's reader of meaning, for every engine.

The grounding rule (:mod:`triqua.core.grounding`) asks a
:class:`~triqua.core.grounding.MeaningReader` whether cited text entails a unit: here the
entailment judge, reading the cited sentence(s) as premise and the unit written as a
sentence (or the fact's source sentence) as hypothesis. By default a cited window supports
the unit at the judge card's ``grounding`` threshold (value gates aside). Under the strict
rule the judge reads only paraphrase: when the cited text states some of the unit's words,
the unit is downgraded below the judge's calibrated ``veto`` (~1 % of truly entailed
held-out pairs fall under it); when it states none, below the judge's ``entailed``
threshold, the bar at which the offline engine itself supports a paraphrase. The reason is
recorded either way.

LLM judges are wrapped in :class:`SecondOpinionJudge`, which carries the reader (and
records it in the run's spec and cache key); the offline judge carries its own. With the
verifier setting "rules" there is no reader: every content word must then be stated.
"""

from __future__ import annotations

from collections.abc import Sequence

from triqua.core.grounding import MeaningReader
from triqua.core.verify_batches import BatchItem
from triqua.engines.base import BatchJudgeResult, Judge, JudgeResult
from triqua.engines.offline.verify.gates import refusal
from triqua.models.entailment import (
    ENTAILED,
    EntailmentModel,
    get_entailment,
    judge_name,
)
from triqua.models.hypotheses import source_hypothesis, unit_hypothesis
from triqua.schema import Evidence, Fact, FactUnit

__all__ = ["EntailmentReader", "SecondOpinionJudge", "reader_for", "second_opinion"]


class EntailmentReader:
    """Reads whether cited text entails a unit, with an entailment model."""

    def __init__(self, model: EntailmentModel, *, paraphrase: float | None = None) -> None:
        """Read with ``model`` at its calibrated thresholds.

        Under the judged grounding rule a cited window needs the card's ``grounding``;
        under the strict rule ``veto`` applies when the cited text states some of the
        unit's words, ``paraphrase`` (the card's ``entailed`` unless given) when it states
        none.
        """
        self.model = model
        self.revision = model.revision
        self.threshold = model.thresholds.veto
        self.paraphrase_threshold = model.thresholds.entailed if paraphrase is None else paraphrase
        self.grounding_threshold = model.thresholds.grounding

    def refusal(self, unit: FactUnit, window: str) -> str | None:
        """Why ``window`` cannot state the base triple ``unit``, whatever the judge reads.

        The offline verifier's statement gates (``verify.gates.refusal``): a keyword list,
        the other polarity, an antonym, another name in the relation's slot. Qualifier units
        pass (their values are read by the grounding rule itself).
        """
        if unit.kind != "base":
            return None
        fact = Fact(subject=unit.subject, relation=unit.relation, object=unit.object)
        return refusal(fact, window)

    def entailment(self, premises: Sequence[str], unit: FactUnit, source: str) -> float:
        """The best entailed probability of the unit (or ``source``) over ``premises``."""
        rendered = unit_hypothesis(unit)
        sentence = source_hypothesis(source, rendered)
        hypotheses = [rendered, sentence] if sentence else [rendered]
        pairs = [(premise, h) for premise in premises for h in hypotheses]
        if not pairs:
            return 0.0
        return max(float(row[ENTAILED]) for row in self.model.predict(pairs))


def reader_for(verifier: str, *, own: bool = False) -> MeaningReader | None:
    """The reader a verifier setting names; None for "rules" (words must then be stated).

    ``own``: the offline verifier's own verdicts are read, whose paraphrases the judge
    supported at its ``supports`` threshold: the strict rule reads them at that same one,
    so the grounding check enforces the evidence contract without reading the same window
    again at another threshold.
    """
    model = get_entailment(verifier)
    if model is None:
        return None
    return EntailmentReader(model, paraphrase=model.thresholds.supports if own else None)


class SecondOpinionJudge(Judge):
    """Wraps an LLM judge; its "supported" units are read by the entailment judge."""

    def __init__(
        self, inner: Judge, verifier: str, *, model: EntailmentModel | None = None
    ) -> None:
        """``verifier`` names the entailment judge (see ``entailment.load_entailment``).

        ``model`` replaces the judge the setting names (a model built elsewhere).
        """
        self.inner = inner
        self.verifier = verifier
        self._model = model
        self.batched = inner.batched
        # The verdicts are the LLM's, so the revision stays its own (prices, reports); the
        # second opinion is recorded apart, in the spec's models and the cache key.
        self.revision = inner.revision
        self.second_opinion = model.revision if model is not None else judge_name(verifier)

    @property
    def reader(self) -> MeaningReader | None:  # type: ignore[override]
        """The entailment judge as the grounding rule's reader, loaded on first use."""
        if self._model is not None:
            return EntailmentReader(self._model)
        return reader_for(self.verifier)

    def verify(
        self,
        fact: Fact,
        evidence: Sequence[Evidence],
        *,
        units: Sequence[FactUnit] | None = None,
        closed_book: bool = False,
    ) -> JudgeResult:
        """The inner judge's verdict (the grounding rule reads it with :attr:`reader`)."""
        return self.inner.verify(fact, evidence, units=units, closed_book=closed_book)

    def verify_batch(
        self, items: Sequence[BatchItem], *, closed_book: bool = False
    ) -> BatchJudgeResult:
        """The inner judge's batched verdicts."""
        return self.inner.verify_batch(items, closed_book=closed_book)


def second_opinion(judge: Judge, verifier: str) -> Judge:
    """``judge`` with the entailment judge as its reader, unless the setting is "rules"."""
    from triqua.models.entailment import RULES_ONLY, check_judge_setting

    check_judge_setting(verifier)
    return judge if verifier.strip() == RULES_ONLY else SecondOpinionJudge(judge, verifier)
