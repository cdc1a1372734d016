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
from collections.abc import Sequence

from triqua.core.reading.fact_parts import FactParts
from triqua.core.reading.passage_reading import foreign_passages, unread_note
from triqua.engines.offline.alignment import Aligned, align
from triqua.engines.offline.disputes import disputed, judged_rival
from triqua.engines.offline.verify.base_rules import judge_base
from triqua.engines.offline.verify.findings import Finding, Sentence, assemble
from triqua.engines.offline.verify.qualifiers import judge_qualifier
from triqua.engines.offline.verify.reading import Reading, decide_base, decide_qualifier, read
from triqua.engines.offline.verify.rivals import life_date_finding, role_rival
from triqua.engines.revisions import ALIGN_REVISION
from triqua.engines.revisions import verifier_revision as verifier_revision
from triqua.models.entailment import SHIPPED, EntailmentModel, get_entailment
from triqua.nlp.passages import entities, split
from triqua.schema import Evidence, Fact, Status, Verdict

__all__ = ["VERIFIER_REVISION", "AlignmentVerifier", "get_verifier", "verifier_revision"]


#: Revision of the default verifier: alignment rules plus the shipped entailment judge.
VERIFIER_REVISION = verifier_revision()


class AlignmentVerifier:
    """Judges TriQua facts against evidence passages with rules and sentence embeddings."""

    def __init__(self, judge: str = SHIPPED, *, entailment: EntailmentModel | None = None) -> None:
        """Load the entailment ``judge`` a setting names (see ``entailment.load_entailment``).

        ``judge="rules"`` runs without a learned judge: only what the rules state verbatim
        (or by the lexicon's synonyms) is supported. ``entailment`` replaces the judge the
        setting names (a model built elsewhere).
        """
        self._judge = entailment if entailment is not None else get_entailment(judge)
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
        """Judge several facts against the same evidence, aligned together (``alignment``)."""
        verdicts = []
        texts = [ev.text for ev in evidence]
        unread = foreign_passages(evidence)
        for fact, found in zip(facts, align(facts, evidence), strict=True):
            findings = self._findings(fact, found, texts)
            verdict = assemble(
                fact, evidence, findings, found.top, judge=self.revision, per_unit=per_unit
            )
            if unread:
                verdict = verdict.model_copy(
                    update={"rationale": f"{verdict.rationale}\n{unread_note(unread)}"}
                )
            verdicts.append(verdict)
        return verdicts

    def _findings(self, fact: Fact, found: Aligned, texts: list[str]) -> list[Finding]:
        """Each unit's finding: the judge reads every unit and the rules only gate values.

        The rules' own-words support passes the statement gates when the run settles it
        (``models.reader.statement_refusal``). A rules' conflict, or (with the judge's
        contradiction off) a support, stands without a reading unless a qualifier is left
        open: the judge is read only where it can change a unit. Without a learned judge
        (``--verifier rules``) only what the rules state verbatim is supported.
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
    """Each unit's finding from the rules' reading and the judge's readings of the base.

    A support another aligned sentence disputes with a rival value is left open (``disputes``);
    a qualifier is judged in the sentences its base is bound to: by the rules alone without
    a judge, else only once the base is supported, and then by the judge too.
    """
    parts = found.parts
    base, bound = rules, stated
    if judge is not None:
        base, bound = decide_base(readings, rules, stated, judge, parts)
        if base.status == Status.INSUFFICIENT:
            base = judged_rival(fact, parts, found.top, judge) or base
    base = disputed(fact, parts, found.top, base, judge)
    findings = [base]
    for unit in fact.units()[1:]:
        if judge is not None and base.status != Status.SUPPORTED:
            findings.append(Finding(Status.INSUFFICIENT, base.sentence))
            continue
        crisp = judge_qualifier(fact, parts, unit, base, bound)
        if judge is not None:
            crisp = decide_qualifier(fact, unit, crisp, bound, found.by_place, texts, judge)
        findings.append(crisp)
    return findings


@functools.lru_cache(maxsize=8)
def get_verifier(judge: str = SHIPPED) -> AlignmentVerifier:
    """The process-wide verifier for a judge setting (the vector cache is shared; thread-safe)."""
    return AlignmentVerifier(judge=judge)
