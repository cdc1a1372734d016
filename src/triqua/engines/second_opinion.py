"""The entailment judge as the grounding rule's reader of meaning, for every engine.

The grounding rule (:mod:`triqua.core.grounding.rule`) asks a
:class:`~triqua.core.grounding.rule.MeaningReader` whether cited text entails a unit: here the
entailment judge, reading the cited sentence(s) as premise and the unit written as a
sentence (or the fact's source sentence) as hypothesis. By default a cited window that does
not write the unit's words supports it at the judge card's ``judged`` threshold
(``judged_some`` when it writes some of them; gates aside), under the "judge" rule at its
``grounding`` threshold. Under the strict
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

from triqua.core.grounding.rule import MeaningReader
from triqua.core.plan.verify_batches import BatchItem
from triqua.engines.base import BatchJudgeResult, Judge, JudgeResult
from triqua.models.entailment import EntailmentModel, judge_name
from triqua.models.reader import EntailmentReader, LazyReader, reader_for
from triqua.schema import Evidence, Fact, FactUnit

__all__ = ["EntailmentReader", "SecondOpinionJudge", "reader_for", "second_opinion"]


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
        self.batched = inner.batched
        # The verdicts are the LLM's, so the revision stays its own (prices, reports); the
        # second opinion is recorded apart, in the spec's models and the cache key.
        self.revision = inner.revision
        self.second_opinion = model.revision if model is not None else judge_name(verifier)
        self._reader: MeaningReader = (
            EntailmentReader(model) if model is not None else LazyReader(verifier)
        )

    @property
    def reader(self) -> MeaningReader | None:  # type: ignore[override]
        """The entailment judge as the grounding rule's reader, loaded when it first reads."""
        return self._reader

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
