"""Offline verifier: the learned judge reads each TriQua fact; rules only gate its values.

No chat model is involved. Of the sentences aligned with a fact (``engines.offline.
alignment``) the rules read those about the subject for what they are strong at — a rival
value or role contradicts, a sentence stating the fact in its own words proposes a support
— and the judge reads the best windows of all (``reading``) behind the value gates; a
qualifier is judged in the windows its base is bound to. Evidence text is only ever
compared, never obeyed, so instructions hidden in it cannot change a verdict.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import ClassVar

from triqua.core.reading.fact_parts import FactParts
from triqua.core.reading.passage_reading import foreign_passages, unread_note
from triqua.engines.offline.alignment import Aligned, align
from triqua.engines.offline.verify.base_rules import judge_base
from triqua.engines.offline.verify.findings import Finding, Sentence, assemble
from triqua.engines.offline.verify.qualifiers import judge_qualifier
from triqua.engines.offline.verify.reading import Reading, decide_base, decide_qualifier, read
from triqua.engines.offline.verify.rivals import judged_rival, life_date_finding, role_rival
from triqua.engines.revisions import ALIGN_REVISION
from triqua.engines.revisions import verifier_revision as verifier_revision
from triqua.models.entailment import SHIPPED, EntailmentModel, get_entailment
from triqua.nlp.passages import entities, split
from triqua.schema import Evidence, Fact, Status, Verdict, utc_now

__all__ = ["VERIFIER_REVISION", "AlignmentVerifier", "get_verifier", "verifier_revision"]


_SERIALS = itertools.count()

#: Revision of the default verifier: alignment rules plus the shipped entailment judge.
VERIFIER_REVISION = verifier_revision()


class AlignmentVerifier:
    """Judges TriQua facts against evidence passages with rules and sentence embeddings."""

    def __init__(self, judge: str = SHIPPED, *, entailment: EntailmentModel | None = None) -> None:
        """Load the entailment ``judge`` a setting names (``entailment.load_entailment``).

        ``judge="rules"`` runs without a learned judge; ``entailment`` replaces the judge the
        setting names (a model built elsewhere).
        """
        self._judge = entailment if entailment is not None else get_entailment(judge)
        self.serial = next(_SERIALS)  # tells its kept verdicts from another verifier's
        self.revision = (
            f"{ALIGN_REVISION}+{entailment.revision}"
            if entailment is not None
            else verifier_revision(judge)
        )

    @property
    def entailment(self) -> EntailmentModel | None:
        """The learned judge behind the rules (None: the rules alone)."""
        return self._judge

    def verify(self, fact: Fact, evidence: Sequence[Evidence], *, per_unit: bool = True) -> Verdict:
        """Judge every unit of ``fact`` against ``evidence`` (nothing else) into a verdict.

        With ``per_unit`` False the verdict carries no unit verdicts (its status, wrong
        components and error spans stay). The verdict's basis is "evidence": supported only
        when every unit is, contradicted when any unit is, insufficient evidence otherwise.
        """
        return self.verify_many([fact], evidence, per_unit=per_unit)[0]

    def verify_many(
        self, facts: Sequence[Fact], evidence: Sequence[Evidence], *, per_unit: bool = True
    ) -> list[Verdict]:
        """Judge several facts against the same evidence, aligned together (``alignment``).

        A fact judged before against the same evidence (re-verification asks again) gets the
        verdict it got then (:class:`_Verdicts`): the verifier is a function of both.
        """
        place = _Verdicts.place(self, evidence, per_unit)
        verdicts = {i: v for i, f in enumerate(facts) if (v := _Verdicts.get(place, f))}
        fresh = [f for i, f in enumerate(facts) if i not in verdicts]
        texts = [ev.text for ev in evidence]
        unread = foreign_passages(evidence)
        judged = iter(zip(fresh, align(fresh, evidence), strict=True) if fresh else ())
        for i in range(len(facts)):
            if i in verdicts:
                continue
            fact, found = next(judged)
            findings = self._findings(fact, found, texts)
            verdict = assemble(
                fact, evidence, findings, found.top, judge=self.revision, per_unit=per_unit
            )
            if unread:
                verdict = verdict.model_copy(
                    update={"rationale": f"{verdict.rationale}\n{unread_note(unread)}"}
                )
            verdicts[i] = _Verdicts.put(place, fact, verdict)
        return [verdicts[i] for i in range(len(facts))]

    def _findings(self, fact: Fact, found: Aligned, texts: list[str]) -> list[Finding]:
        """Each unit's finding: the judge reads every unit and the rules only gate values.

        The judge is read only where it can change a unit: not on a rules' conflict, nor
        (its contradiction off) on a rules' support whose qualifiers all stand. Without a
        learned judge (``--verifier rules``) only what the rules state is supported.
        """
        rules, stated = _rules_reading(fact, found.parts, found.top, found.by_place)
        judge = self._judge
        if judge is None:
            return _decide(fact, found, texts, None, rules, stated, [])
        if rules.status == Status.CONTRADICTED or (
            rules.status == Status.SUPPORTED and judge.thresholds.contradicted > 1.0
        ):
            findings = _decide(fact, found, texts, judge, rules, stated, [])
            if rules.status == Status.CONTRADICTED or all(
                f.status == Status.SUPPORTED for f in findings
            ):
                return findings
        readings = read(fact, found.parts, found.read, found.by_place, texts, judge)
        return _decide(fact, found, texts, judge, rules, stated, readings)

    def warm_up(self) -> None:
        """Load the embedding model, the entailment judge and spaCy now, not on first use."""
        from triqua.models.embeddings import get_embedder

        get_embedder().embed(["warm up"])
        if self._judge is not None:
            self._judge.predict([("Warm up.", "Warm up.")])
        split("Warm up.")
        entities("Warm up.")


class _Verdicts:
    """The verdicts given lately, by verifier, evidence and fact (least recently used go first).

    Handed out as copies, created now; ``cache_clear`` forgets them, as it does every
    remembered reading (the gate-ablation benchmark reads afresh with a gate off).
    """

    _size = 2048
    _kept: ClassVar[OrderedDict[tuple[str, str], Verdict]] = OrderedDict()
    _lock = threading.Lock()

    @staticmethod
    def place(verifier: AlignmentVerifier, evidence: Sequence[Evidence], per_unit: bool) -> str:
        """The digest of what a verdict is read against besides its fact."""
        judge = verifier.entailment
        limits = repr(judge.thresholds) if judge is not None else ""
        parts = [str(verifier.serial), verifier.revision, limits, str(per_unit)]
        parts += [ev.model_dump_json() for ev in evidence]
        return hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()

    @classmethod
    def get(cls, place: str, fact: Fact) -> Verdict | None:
        """The verdict ``fact`` got at ``place``, if it is kept (a copy)."""
        key = (place, fact.model_dump_json())
        with cls._lock:
            verdict = cls._kept.get(key)
            if verdict is not None:
                cls._kept.move_to_end(key)
        if verdict is None:
            return None
        return verdict.model_copy(deep=True, update={"created_at": utc_now()})

    @classmethod
    def put(cls, place: str, fact: Fact, verdict: Verdict) -> Verdict:
        """Keep ``verdict`` (a copy) for ``fact`` at ``place``; returns it."""
        with cls._lock:
            cls._kept[(place, fact.model_dump_json())] = verdict.model_copy(deep=True)
            while len(cls._kept) > cls._size:
                cls._kept.popitem(last=False)
        return verdict

    @classmethod
    def cache_clear(cls) -> None:
        """Forget every kept verdict."""
        with cls._lock:
            cls._kept.clear()


def _rules_reading(
    fact: Fact, parts: FactParts, top: list[Sentence], by_place: dict[tuple[int, int], Sentence]
) -> tuple[Finding, list[Sentence]]:
    """The rules' reading of the base: aligned sentences, then life-date and unique-role rivals."""
    base, stated = judge_base(fact, parts, top)
    if base.status == Status.INSUFFICIENT:
        base = life_date_finding(fact, parts, top) or role_rival(fact, by_place.values()) or base
    return base, stated


def _decide(
    fact: Fact,
    found: Aligned,
    texts: list[str],
    judge: EntailmentModel | None,
    rules: Finding,
    stated: list[Sentence],
    readings: list[Reading],
) -> list[Finding]:
    """Each unit's finding; a qualifier in its base's sentences (the judge's: once supported)."""
    parts = found.parts
    base, bound = rules, stated
    if judge is not None:
        base, bound = decide_base(readings, rules, stated, judge)
        if base.status == Status.INSUFFICIENT:
            base = judged_rival(fact, parts, found.top, judge) or base
    findings = [base]
    for qualifier, unit in zip(fact.qualifiers, fact.units()[1:], strict=True):
        if judge is not None and base.status != Status.SUPPORTED:
            findings.append(Finding(Status.INSUFFICIENT, base.sentence))
            continue
        crisp = judge_qualifier(fact, parts, qualifier.label, qualifier.value, base, bound)
        if judge is not None:
            crisp = decide_qualifier(fact, unit, crisp, bound, found.by_place, texts, judge)
        findings.append(crisp)
    return findings


@functools.lru_cache(maxsize=8)
def get_verifier(judge: str = SHIPPED) -> AlignmentVerifier:
    """The process-wide verifier for a judge setting (the vector cache is shared; thread-safe)."""
    return AlignmentVerifier(judge=judge)
