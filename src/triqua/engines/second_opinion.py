"""The entailment judge as a second opinion on an LLM's "supported".

An LLM judge may cite a sentence that merely names the subject ("Albert Einstein was born
in Ulm" for "Einstein was a footballer"). After the LLM answers, every unit it calls
supported is read by the entailment judge, unless the cited sentence holds every content
word of the unit: premise = the cited quote widened to its whole sentence(s) in the cited
passage, hypothesis = the unit written as a sentence. A unit the
judge finds not entailed (probability below the judge's veto threshold, set so that ~99 %
of truly entailed held-out pairs pass) is downgraded to insufficient evidence, with the
reason on the unit's ``grounding`` note. The grounding rule then runs as before. With the
verifier setting "rules" no second opinion is taken.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from triqua.core.grounding import locate_quote
from triqua.core.verify_batches import BatchItem
from triqua.engines.base import BatchJudgeResult, Judge, JudgeResult
from triqua.engines.offline.entailment import (
    ENTAILED,
    EntailmentModel,
    get_entailment,
    judge_name,
)
from triqua.engines.offline.hypotheses import unit_hypothesis
from triqua.schema import Evidence, Fact, FactUnit, Status, UnitVerdict, Verdict
from triqua.sentences import sentence_spans

__all__ = ["SecondOpinionJudge", "second_opinion"]

_MAX_PREMISE = 1200  # characters of the widened quote the judge reads


class SecondOpinionJudge(Judge):
    """Wraps an LLM judge; the entailment judge may withhold its "supported" units."""

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
    def model(self) -> EntailmentModel | None:
        """The entailment judge, loaded on first use (None: no second opinion)."""
        return self._model if self._model is not None else get_entailment(self.verifier)

    def verify(
        self,
        fact: Fact,
        evidence: Sequence[Evidence],
        *,
        units: Sequence[FactUnit] | None = None,
        closed_book: bool = False,
    ) -> JudgeResult:
        """The inner judge's verdict, its supported units checked by the entailment judge."""
        result = self.inner.verify(fact, evidence, units=units, closed_book=closed_book)
        if closed_book:
            return result
        return result.model_copy(update={"verdict": self._review(fact, result.verdict, evidence)})

    def verify_batch(
        self, items: Sequence[BatchItem], *, closed_book: bool = False
    ) -> BatchJudgeResult:
        """The inner judge's batched verdicts, each reviewed as :meth:`verify` reviews one."""
        batch = self.inner.verify_batch(items, closed_book=closed_book)
        if closed_book:
            return batch
        reviewed: list[JudgeResult | None] = []
        for item, result in zip(items, batch.results, strict=True):
            if result is not None:
                verdict = self._review(item.fact, result.verdict, item.evidence)
                result = result.model_copy(update={"verdict": verdict})
            reviewed.append(result)
        return batch.model_copy(update={"results": reviewed})

    def _review(self, fact: Fact, verdict: Verdict, evidence: Sequence[Evidence]) -> Verdict:
        """Downgrade the supported units whose cited text the judge finds not entailing."""
        model = self.model
        supported = [u for u in verdict.unit_verdicts if u.status is Status.SUPPORTED]
        if model is None or not supported:
            return verdict
        passages = {item.id: item.text for item in evidence}
        by_text = {unit.text: unit for unit in fact.units()}
        base = next((u for u in verdict.unit_verdicts if u.kind == "base"), None)
        base_premise = _premise(base, passages) if base is not None else None
        asked: list[tuple[UnitVerdict, str, str]] = []
        for unit in supported:
            premise = _premise(unit, passages)
            target = by_text.get(unit.unit)
            if not premise or target is None:
                continue
            if unit.kind == "qualifier" and base_premise and premise not in base_premise:
                # A qualifier is read with the base's cited text: "The prize year was 1903"
                # states the year of the prize the base's quote names.
                premise = f"{base_premise} {premise}"
            hypothesis = unit_hypothesis(target)
            if not _states_every_word(premise, hypothesis):
                asked.append((unit, premise, hypothesis))
        if not asked:
            return verdict
        scores = model.predict([(premise, hypothesis) for _, premise, hypothesis in asked])
        veto = {
            id(unit): float(row[ENTAILED])
            for (unit, _, _), row in zip(asked, scores, strict=True)
            if float(row[ENTAILED]) < model.thresholds.veto
        }
        if not veto:
            return verdict
        units = [
            unit.model_copy(
                update={
                    "status": Status.INSUFFICIENT,
                    "evidence_ids": [],
                    "quote": None,
                    "grounding": "supported downgraded: the entailment judge "
                    f"({model.revision}) finds the cited text does not state it "
                    f"(entailed {veto[id(unit)]:.2f})",
                }
            )
            if id(unit) in veto
            else unit
            for unit in verdict.unit_verdicts
        ]
        update: dict[str, object] = {"unit_verdicts": units}
        if verdict.status is Status.SUPPORTED:
            # Any unit withheld: the fact is no longer supported as a whole.
            update["status"] = Status.INSUFFICIENT
        return verdict.model_copy(update=update)


_WORD = re.compile(r"[^\W_]+")
_STOP = frozenset(
    {
        "a", "an", "the", "of", "in", "on", "at", "to", "for", "by", "with", "from", "and",
        "or", "is", "was", "were", "are", "be", "been", "has", "have", "had", "as", "its",
        "his", "her", "their", "that", "this",
    }
)  # fmt: skip


def _states_every_word(premise: str, hypothesis: str) -> bool:
    """True when the premise holds every content word of the hypothesis (negations included).

    Such a quote states the unit in its own words, as the grounding rule reads it; the judge
    is asked only about quotes that leave words out (a sentence that merely names the
    subject), which is where an LLM's "supported" needs a second opinion. A word counts
    when the premise has it or a word sharing its first five letters ("awarded"/"award").
    """
    have = {w.casefold() for w in _WORD.findall(premise)}
    stems = {w[:5] for w in have}
    for word in (w.casefold() for w in _WORD.findall(hypothesis)):
        if word in _STOP or word in have or (len(word) > 5 and word[:5] in stems):
            continue
        return False
    return True


def _premise(unit: UnitVerdict, passages: dict[str, str]) -> str | None:
    """The unit's quote widened to whole sentences of the first cited passage that holds it.

    A qualifier's premise is read after its base's (see ``SecondOpinionJudge._review``).
    """
    if not unit.quote:
        return None
    for evidence_id in unit.evidence_ids:
        passage = passages.get(evidence_id)
        if passage is None:
            continue
        found = locate_quote(passage, unit.quote)
        if found is None:
            continue
        start, end = found
        spans = [(a, b) for a, b in sentence_spans(passage) if b > start and a < end]
        if spans:
            start, end = min(start, spans[0][0]), max(end, spans[-1][1])
        return passage[start:end].strip()[:_MAX_PREMISE]
    return None


def second_opinion(judge: Judge, verifier: str) -> Judge:
    """``judge`` with the entailment judge's second opinion, unless the setting is "rules"."""
    from triqua.engines.offline.entailment import RULES_ONLY, check_judge_setting

    check_judge_setting(verifier)
    return judge if verifier.strip() == RULES_ONLY else SecondOpinionJudge(judge, verifier)
