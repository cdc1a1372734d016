"""Judging claims against what they cite: per link, jointly, and the one verdict per claim."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from triqua.citations.parsing import claim_keys
from triqua.citations.sources import passages_of, resolve_source
from triqua.core.grounding.rule import DEFAULT_GROUNDING, GroundingMode
from triqua.core.verdicts.scoring import citation_completeness, link_correctness
from triqua.core.verdicts.settling import settle
from triqua.engines.base import Judge
from triqua.schema import (
    CitationPolicy,
    ClaimRecord,
    Document,
    Evidence,
    Fact,
    Report,
    Status,
    Usage,
    Verdict,
)
from triqua.schema.citations import (
    CitationLink,
    CitationReport,
    CitedText,
    ClaimCitation,
    Support,
    verdict_contradicts,
)


@dataclass(frozen=True)
class _Judging:
    """Who judges a claim against cited evidence, how much of it, and the abstention bar."""

    judge: Judge
    max_passages: int
    supported_threshold: float | None = None
    grounding: GroundingMode = DEFAULT_GROUNDING

    def __call__(self, fact: Fact, evidence: list[Evidence]) -> tuple[Verdict, Usage]:
        """Judge ``fact`` on ``evidence`` (grounding rule applied); no passage: insufficient."""
        if not evidence:
            verdict = Verdict(
                status=Status.INSUFFICIENT,
                rationale="no passage of the cited source matches the claim",
                judge=self.judge.revision,
            )
            return verdict, Usage()
        result = self.judge.verify(fact, evidence)
        verdict = settle(
            fact,
            result.verdict,
            evidence,
            supported_threshold=self.supported_threshold,
            reader=self.judge.reader,
            grounding=self.grounding,
        )
        return verdict, result.usage


def _dedupe(evidence: Sequence[Evidence]) -> list[Evidence]:
    """``evidence`` without repeated passages (same id), in order."""
    return list({e.id: e for e in reversed(evidence)}.values())[::-1]


def _supported_units(verdict: Verdict | None) -> set[str]:
    """Units ``verdict`` supports (all of them when the fact as a whole is supported)."""
    if verdict is None:
        return set()
    return {u.unit for u in verdict.unit_verdicts if u.status == Status.SUPPORTED}


def _support(claim: ClaimCitation, verdicts: Sequence[Verdict | None], units: int) -> Support:
    """The claim's support class from every verdict on it (links alone, and joint)."""
    if any(verdict_contradicts(v) for v in verdicts):
        return "contradicted"
    if any(v is not None and v.status == Status.SUPPORTED for v in verdicts):
        return "complete"
    if claim.supported_units:
        return "complete" if len(claim.supported_units) >= units else "partial"
    return "unsupported"


def check_citations(
    report: Report,
    cited: CitedText,
    judge: Judge,
    *,
    documents: Sequence[Document] = (),
    base_dir: str | Path | None = None,
    weights: Mapping[str, float] | None = None,
    max_passages: int = 5,
    allow_paths: Sequence[str | Path] = (),
    policy: CitationPolicy | None = None,
    supported_threshold: float | None = None,
    run_evidence: bool = False,
) -> CitationReport:
    """Judge every claim of ``report`` against the sources it cites in ``cited``.

    Args:
        report: The report of a run on ``cited.text``.
        cited: The parsed text (see :func:`parse_citations`).
        judge: Who judges a claim against one source's evidence.
        documents: Supplied documents; a source whose target equals a document's ``source``
            uses that document.
        base_dir: Directory that relative source paths are read from.
        allow_paths: More folders cited paths may point into (besides ``base_dir`` and the
            working directory).
        weights: Importance per claim id for completeness (default 1 each).
        max_passages: Passages per long cited document given to the judge.
        policy: Credits of complete and partial support (default: the run's spec policy,
            else complete 1, partial 0).
        supported_threshold: The run's abstention threshold (its failure costs), applied
            to every link's verdict as to the run's.
        run_evidence: The run searched other evidence than the cited sources (``-e`` files,
            a corpus): each claim's record evidence joins its cited sources' evidence in its
            one verdict.

    Completeness and link correctness are ``None`` when the text cites nothing or there is
    nothing to measure. Links to unavailable sources never support a claim; they count in
    link correctness's denominator and on their own (``unavailable_links``,
    ``unavailable_rate``).
    """
    policy = policy or report.spec.citations or CitationPolicy()
    resolved: dict[str, tuple[list[Document], str | None]] = {}
    claims: list[ClaimCitation] = []
    links: list[CitationLink] = []
    usage = Usage()
    for record in report.records:
        claim, claim_links, spent = _check_claim(
            record,
            cited,
            _Judging(judge, max_passages, supported_threshold, report.spec.grounding_rule),
            resolved,
            documents,
            (base_dir, allow_paths),
            record.evidence if run_evidence else (),
        )
        claim.weight = (weights or {}).get(record.claim_id, 1.0)
        claim.credit = {"complete": policy.complete_weight, "partial": policy.partial_weight}.get(
            claim.support, 0.0
        )
        claims.append(claim)
        links.extend(claim_links)
        usage = usage + spent
    return _citation_report(cited, claims, links, policy, run_evidence, usage)


def _citation_report(
    cited: CitedText,
    claims: list[ClaimCitation],
    links: list[CitationLink],
    policy: CitationPolicy,
    run_evidence: bool,
    usage: Usage,
) -> CitationReport:
    """The report of the judged claims and links: completeness, correctness, counts, notes."""
    checkable = [c for c in claims if c.checkable]
    judged = [link for link in links if link.available]
    notes = []
    if not cited.has_citations:
        notes.append("The text cites no sources: citation metrics are undefined.")
    unknown = sorted({k for m in cited.markers for k in m.keys} - set(cited.sources), key=int)
    if unknown:
        notes.append(f"Markers cite sources missing from the source list: {', '.join(unknown)}.")
    return CitationReport(
        sources=list(cited.sources.values()),
        claims=claims,
        links=links,
        completeness=citation_completeness(
            [c.credit for c in checkable], [c.weight for c in checkable]
        )
        if cited.has_citations
        else None,
        link_correctness=link_correctness([link.contributes for link in links]),
        judged_link_correctness=link_correctness([link.contributes for link in judged]),
        unavailable_links=len(links) - len(judged),
        unavailable_rate=(len(links) - len(judged)) / len(links) if links else None,
        contradicting_links=sum(link.contradicts for link in judged),
        claims_by_support=dict(Counter(c.support for c in checkable)),
        policy=policy,
        run_evidence=run_evidence,
        usage=usage,
        notes=notes,
    )


def _check_claim(
    record: ClaimRecord,
    cited: CitedText,
    judging: _Judging,
    resolved: dict[str, tuple[list[Document], str | None]],
    documents: Sequence[Document],
    where: tuple[str | Path | None, Sequence[str | Path]],
    extra: Sequence[Evidence] = (),
) -> tuple[ClaimCitation, list[CitationLink], Usage]:
    """One claim's links, each judged alone, and its one verdict on all of them together.

    The one verdict is judged on the evidence of every readable cited source plus ``extra``
    (the run's own evidence when other evidence was given), as one set; a claim with no
    readable cited source keeps the run's verdict.
    """
    keys = claim_keys(cited, record.fact)
    claim = ClaimCitation(
        claim_id=record.claim_id,
        keys=keys,
        checkable=record.verdict.status != Status.NOT_CHECKABLE,
        verdict=record.verdict,
    )
    if not claim.checkable:
        return claim, [], Usage()
    usage = Usage()
    links: list[CitationLink] = []
    for key in keys:
        source = cited.sources.get(key)
        if source is None:
            links.append(
                CitationLink(
                    claim_id=record.claim_id, key=key, reason=f"no source [{key}] in the list"
                )
            )
            continue
        if key not in resolved:
            resolved[key] = resolve_source(source, documents, *where)
        docs, reason = resolved[key]
        link = CitationLink(claim_id=record.claim_id, key=key, target=source.target, reason=reason)
        if docs:
            link.available = True
            link.evidence = passages_of(record.fact, docs, judging.max_passages)
            link.verdict, spent = judging(record.fact, link.evidence)
            usage = usage + spent
        links.append(link)
    usable = [link for link in links if link.available]
    cited_evidence = _dedupe([e for link in usable for e in link.evidence])
    alone = next((link for link in usable if link.supports), None)
    if len(usable) == 1:
        claim.cited_verdict = usable[0].verdict  # the same evidence: the same judgement
    elif alone is not None and not any(link.contradicts for link in usable):
        claim.cited_verdict = alone.verdict  # a source supports it, none contradicts: settled
    elif usable:
        claim.cited_verdict, spent = judging(record.fact, cited_evidence)
        usage = usage + spent
    claim.joint_verdict = claim.cited_verdict
    if usable and extra:  # the one verdict also reads the run's other evidence
        claim.joint_verdict, spent = judging(record.fact, _dedupe(cited_evidence + list(extra)))
        usage = usage + spent
    claim.verdict = claim.joint_verdict or record.verdict
    # Completeness reads what the claim cites, never evidence it does not cite.
    verdicts = [link.verdict for link in usable] + [claim.cited_verdict]
    units = {u for v in verdicts for u in _supported_units(v)}
    claim.supported_units = [u.text for u in record.fact.units() if u.text in units]
    claim.support = _support(claim, verdicts, len(record.fact.units()))
    claim.supported = claim.support == "complete"
    return claim, links, usage


def with_citation_verdicts(report: Report, citations: CitationReport) -> Report:
    """``report`` with each claim's verdict replaced by its citation judgement, re-scored.

    So a claim has one verdict: the table, the score, the sentence view and the citation
    check agree. A replaced verdict goes to the record's ``history``.
    """
    from triqua.core.report.accounting import count_failures
    from triqua.core.report.sentence_verdicts import sentence_verdicts
    from triqua.core.verdicts.scoring import score_facts

    verdicts = {c.claim_id: c.verdict for c in citations.claims if c.verdict is not None}
    records = []
    for record in report.records:
        verdict = verdicts.get(record.claim_id)
        if verdict is None or verdict == record.verdict:
            records.append(record)
            continue
        # The evidence the one verdict was judged on: its cited sources (and the run's own).
        cited = [link for link in citations.links if link.claim_id == record.claim_id]
        evidence = [e for link in cited for e in link.evidence]
        if citations.run_evidence:
            evidence = _dedupe(evidence + list(record.evidence))
        records.append(
            record.model_copy(
                update={
                    "verdict": verdict,
                    "evidence": _dedupe(evidence),
                    "history": [*record.history, record.verdict],
                }
            )
        )
    if records == report.records:
        return report
    updated = report.model_copy(
        update={
            "records": records,
            "scores": score_facts([(r.fact, r.verdict) for r in records]),
            "sentences": sentence_verdicts(records),
            "notes": [
                *report.notes,
                "Verdicts are citation judgements: each claim against what it cites "
                "(plus the other evidence given), as one evidence set.",
            ],
        }
    )
    updated.failures = count_failures(updated.records, updated.failed_chunks)
    return updated
