"""Citation checks: do the sources a text cites for a claim support that claim?

A text may carry ``[1]``-style markers and a source list at its end (lines such as
``[1] https://…`` or ``[2]: path/to/file.md``, or a "References"/"Sources" section).
:func:`parse_citations` removes the list and the markers, giving the text to check, and
remembers where each marker stood. After a run, :func:`check_citations` maps each claim to
the markers in or right after its sentence, judges the claim against each cited source alone
(and, when no single source does, against all of them together), and reports citation
completeness and link correctness (see :mod:`triqua.metrics`).

How a claim's links are scored (the run's :class:`~triqua.schema.CitationPolicy`): a claim
is *contradicted* when any of its cited sources (alone, or all together) contradicts it, and
is then never complete, whatever another source says; *complete* when one source, or all
together, supports every unit; *partial* when its sources support some units but not all;
else *unsupported*. Completeness credits complete claims ``complete_weight`` (1) and partial
ones ``partial_weight`` (0.5 unless set). Link correctness is the share of all links that
support their claim: unavailable links stay in the denominator and are also counted apart
(``unavailable_links``, ``unavailable_rate``); ``judged_link_correctness`` leaves them out.

Local file paths are read; URLs are matched against supplied documents with that ``source``
and are never fetched (an unmatched URL is reported as unavailable).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from triqua.context import Context
from triqua.core.scoring import citation_completeness, link_correctness
from triqua.core.verdicts import settle
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
from triqua.tools.documents import load_documents
from triqua.tools.evidence_files import PathPolicy
from triqua.tools.supplied import SuppliedRetriever

__all__ = [
    "CitationLink",
    "CitationMarker",
    "CitationReport",
    "CitationSource",
    "CitedText",
    "ClaimCitation",
    "Support",
    "check_citations",
    "check_cited",
    "claim_keys",
    "parse_citations",
    "resolve_source",
    "with_citation_verdicts",
]

#: Cited documents up to this many characters are given to the judge whole; longer ones are
#: cut into passages and the best-matching ones (BM25) are given.
WHOLE_DOCUMENT_CHARS = 4000
#: A marker range such as ``[2-9]`` may name at most this many sources.
_MAX_RANGE = 50

# Keys have at most three digits, so a bracketed year such as "[2024]" is not a marker.
_MARKER = re.compile(r"[ \t]*\[\^?(\d{1,3}(?:\s*[-–,]\s*\d{1,3})*)\](?!\()")
_BRACKET_DEF = re.compile(r"^\s*(?:[-*]\s+)?\[\^?(\d+)\]:?\s+(\S.*?)\s*$")
_NUMBERED_DEF = re.compile(r"^\s*(?:[-*]\s+)?(\d+)[.)]\s+(\S.*?)\s*$")
_HEADING = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:\*\*|__)?\s*(?:references|sources|bibliography|citations|works cited)"
    r"\s*:?\s*(?:\*\*|__)?\s*:?\s*$",
    re.IGNORECASE,
)
_URL = re.compile(r"https?://[^\s<>\"'`]+", re.IGNORECASE)
_PATH_SUFFIX = re.compile(r"\.[A-Za-z0-9]{1,8}(?:#\d+)?$")
_SENTENCE_END = re.compile(r"[.!?][\"'”’)\]]*(?=\s|$)|\n")

SourceKind = Literal["url", "path", "text"]
#: How far a claim's cited sources support it (see the module docstring).
Support = Literal["complete", "partial", "unsupported", "contradicted"]


class CitationSource(BaseModel):
    """One entry of the source list: its key, what it points at and the line as written."""

    key: str
    target: str = Field(description="URL, file path, or the entry's text.")
    kind: SourceKind
    line: str


class CitationMarker(BaseModel):
    """A marker in the text: the keys it cites and where it stood."""

    keys: list[str]
    position: int = Field(description="Offset in the checked text where the marker was removed.")
    start: int = Field(description="Start offset in the original text.")
    end: int = Field(description="End offset in the original text.")


class CitedText(BaseModel):
    """A text split into the part to check, its markers and its source list."""

    original: str
    text: str = Field(description="The text to check: no source list, no markers.")
    sources: dict[str, CitationSource] = Field(default_factory=dict)
    markers: list[CitationMarker] = Field(default_factory=list)

    @property
    def has_citations(self) -> bool:
        """True when the text cites anything (markers or a source list)."""
        return bool(self.markers or self.sources)


class CitationLink(BaseModel):
    """One claim–source link and whether that source, alone, supports the claim."""

    claim_id: str
    key: str
    target: str | None = Field(default=None, description="None when the key is not listed.")
    available: bool = False
    reason: str | None = Field(default=None, description="Why the source could not be used.")
    verdict: Verdict | None = None
    evidence: list[Evidence] = Field(default_factory=list)

    @property
    def supports(self) -> bool:
        """True when the source was judged to support the claim."""
        return self.verdict is not None and self.verdict.status == Status.SUPPORTED

    @property
    def contradicts(self) -> bool:
        """True when the source was judged to contradict the claim (or one of its units)."""
        return _contradicts(self.verdict)


class ClaimCitation(BaseModel):
    """A claim, the sources it cites and whether they jointly support it."""

    claim_id: str
    keys: list[str] = Field(default_factory=list)
    checkable: bool = True
    supported: bool = Field(
        default=False, description="Complete: the cites support every unit, none contradicts."
    )
    support: Support = "unsupported"
    credit: float = Field(
        default=0.0, description="Completeness credit the policy gives this claim's support."
    )
    supported_units: list[str] = Field(
        default_factory=list, description="Units some cited source (or all together) supports."
    )
    joint_verdict: Verdict | None = Field(
        default=None,
        description="Verdict against all readable cited sources together (plus the run's "
        "other evidence, when given), as one evidence set.",
    )
    verdict: Verdict | None = Field(
        default=None,
        description="The claim's one judgement: the joint verdict, else (no readable cited "
        "source) the run's. The run's report carries the same verdict.",
    )
    weight: float = 1.0


class CitationReport(BaseModel):
    """Citation completeness and link correctness of a checked text, with every link."""

    sources: list[CitationSource] = Field(default_factory=list)
    claims: list[ClaimCitation] = Field(default_factory=list)
    links: list[CitationLink] = Field(default_factory=list)
    completeness: float | None = Field(
        default=None,
        description="Weighted credit of checkable claims: complete 1, partial the policy's "
        "partial weight, unsupported and contradicted 0.",
    )
    link_correctness: float | None = Field(
        default=None,
        description="Share of all claim–source links (unavailable ones included) that support "
        "their claim.",
    )
    judged_link_correctness: float | None = Field(
        default=None, description="Share of the available (judged) links that support."
    )
    unavailable_links: int = 0
    unavailable_rate: float | None = Field(
        default=None, description="Share of links whose source could not be read."
    )
    contradicting_links: int = 0
    claims_by_support: dict[str, int] = Field(
        default_factory=dict, description="Checkable claims per support class."
    )
    policy: CitationPolicy = Field(default_factory=CitationPolicy)
    run_evidence: bool = Field(
        default=False,
        description="The claims' one verdicts also weighed the run's own evidence (-e files, "
        "a corpus), besides the cited sources.",
    )
    usage: Usage = Field(default_factory=Usage)
    notes: list[str] = Field(default_factory=list)

    def summary(self) -> str:
        """One line: completeness, link correctness, links (unavailable, contradicting), claims."""

        def pct(value: float | None) -> str:
            return "undefined" if value is None else f"{value:.1%}"

        claims = ", ".join(f"{n} {kind}" for kind, n in sorted(self.claims_by_support.items()))
        return (
            f"completeness {pct(self.completeness)} · link correctness "
            f"{pct(self.link_correctness)} · {len(self.links)} links ({self.unavailable_links} "
            f"unavailable, {pct(self.unavailable_rate)}; {self.contradicting_links} "
            f"contradicting)" + (f" · claims: {claims}" if claims else "")
        )


def _source_of(key: str, rest: str, line: str) -> CitationSource:
    """Classify a source-list entry: a URL anywhere in it, else a path-like token, else text."""
    url = _URL.search(rest)
    if url:
        return CitationSource(key=key, target=url.group().rstrip(".,;:)]>"), kind="url", line=line)
    for token in reversed(rest.split()):
        token = token.strip("<>`'\"()[],;")
        if token and ("/" in token or _PATH_SUFFIX.search(token)) and not token.endswith("."):
            return CitationSource(key=key, target=token, kind="path", line=line)
    return CitationSource(key=key, target=rest, kind="text", line=line)


def _lines(text: str) -> list[tuple[int, str]]:
    """(offset, line without its line break) for every line of ``text``."""
    out, offset = [], 0
    for line in text.splitlines(keepends=True):
        out.append((offset, line.rstrip("\r\n")))
        offset += len(line)
    return out


def _source_list(text: str) -> tuple[int, dict[str, CitationSource]]:
    """Where the source list starts in ``text`` and its entries (``len(text)`` when none).

    The list is either everything after the last "References"/"Sources" heading, when every
    non-blank line there is an entry (``[n] …`` or ``n. …``), or the trailing run of
    ``[n] …`` lines.
    """
    lines = _lines(text)
    for i in range(len(lines) - 1, -1, -1):
        if not _HEADING.match(lines[i][1]):
            continue
        entries = [_BRACKET_DEF.match(s) or _NUMBERED_DEF.match(s) for _, s in lines[i + 1 :]]
        body = [(m, s) for m, (_, s) in zip(entries, lines[i + 1 :], strict=True) if s.strip()]
        if body and all(m is not None for m, _ in body):
            return lines[i][0], {
                m.group(1): _source_of(m.group(1), m.group(2), s) for m, s in body if m
            }
        break
    start, found = len(text), {}
    for offset, line in reversed(lines):
        if not line.strip():
            continue
        match = _BRACKET_DEF.match(line)
        if match is None:
            break
        start = offset
        found[match.group(1)] = _source_of(match.group(1), match.group(2), line)
    return start, dict(reversed(found.items()))


def _expand(keys: str) -> list[str]:
    """Marker content to keys: ``"1, 3-5"`` → ``["1", "3", "4", "5"]``."""
    out: list[str] = []
    for part in re.split(r"\s*,\s*", keys):
        low, _, high = re.sub(r"\s*[-–]\s*", "-", part).partition("-")
        if high and int(low) <= int(high) <= int(low) + _MAX_RANGE:
            out.extend(str(n) for n in range(int(low), int(high) + 1))
        else:
            out.extend(p for p in (low, high) if p)
    return list(dict.fromkeys(out))


def parse_citations(text: str) -> CitedText:
    """Split ``text`` into the text to check, its citation markers and its source list.

    Markers (``[1]``, ``[1, 2]``, ``[2-4]``, ``[^1]``) are removed with the spaces before
    them, so ``"… in 1903 [1]."`` is checked as ``"… in 1903."``; each marker keeps the offset
    where it stood. A ``[1](…)`` Markdown link is not a marker.
    """
    list_start, sources = _source_list(text)
    body = text[:list_start].rstrip()
    pieces: list[str] = []
    markers: list[CitationMarker] = []
    cursor = length = 0
    for match in _MARKER.finditer(body):
        kept = body[cursor : match.start()]
        pieces.append(kept)
        length += len(kept)
        markers.append(
            CitationMarker(
                keys=_expand(match.group(1)), position=length, start=match.start(), end=match.end()
            )
        )
        cursor = match.end()
    pieces.append(body[cursor:])
    return CitedText(original=text, text="".join(pieces), sources=sources, markers=markers)


def _claim_region(text: str, fact: Fact) -> tuple[int, int] | None:
    """The claim's span in ``text`` extended to the end of its sentence, or None if unknown."""
    if fact.span is not None and fact.span.end <= len(text):
        start, end = fact.span.start, fact.span.end
    else:
        at = text.find(fact.source_text.strip()) if fact.source_text.strip() else -1
        if at < 0:
            return None
        start, end = at, at + len(fact.source_text.strip())
    stop = _SENTENCE_END.search(text, max(start, end - 1))
    if stop is None:
        return start, len(text)
    return start, stop.start() if stop.group() == "\n" else stop.end()


def claim_keys(cited: CitedText, fact: Fact) -> list[str]:
    """Keys of the markers in the claim's sentence or right after it, in order of appearance.

    A marker counts for every claim of the sentence it closes, so a sentence holding two
    claims that cite different sources gives both claims both sources (they are then judged
    jointly, and each link on its own).
    """
    region = _claim_region(cited.text, fact)
    if region is None:
        return []
    start, end = region
    keys = [k for m in cited.markers if start <= m.position <= end for k in m.keys]
    return list(dict.fromkeys(keys))


def _same_source(a: str, b: str) -> bool:
    return a.strip().rstrip("/") == b.strip().rstrip("/")


def resolve_source(
    source: CitationSource,
    documents: Sequence[Document] = (),
    base_dir: str | Path | None = None,
    allow_paths: Sequence[str | Path] = (),
) -> tuple[list[Document], str | None]:
    """The documents a source points at, or a reason why it is unavailable.

    Supplied documents whose ``source`` or ``url`` (a JSONL line's ``url`` field) equals the
    target come first; otherwise a path is
    read (relative to ``base_dir``, default the working directory) and a URL is unavailable,
    since sources are never fetched. A path outside ``base_dir``, the working directory and
    ``allow_paths`` is unavailable: a cited path is data, not a command-line choice.
    """
    matches = [
        d
        for d in documents
        if any(where and _same_source(where, source.target) for where in (d.source, d.url))
    ]
    if matches:
        return matches, None
    if source.kind == "url":
        return [], "URL not among the supplied documents (sources are never fetched)"
    if source.kind == "text":
        return [], "source entry is neither a URL nor a file path"
    path = Path(source.target).expanduser()
    if not path.is_absolute():
        path = Path(base_dir or Path.cwd()) / path
    policy = PathPolicy.of(base_dir or Path.cwd(), Path.cwd(), allow=allow_paths)
    try:
        return load_documents([path], policy=policy, problems=[]), None
    except ValueError as exc:
        return [], str(exc)


def _evidence(fact: Fact, documents: Sequence[Document], k: int) -> list[Evidence]:
    """Evidence from cited documents: whole when short, else the best ``k`` passages each."""
    out: list[Evidence] = []
    for doc in documents:
        if len(doc.text) <= WHOLE_DOCUMENT_CHARS:
            out.append(
                Evidence.build(
                    document_id=doc.id,
                    text=doc.text,
                    retriever="citation",
                    source=doc.source,
                    title=doc.title,
                    start=0,
                    end=len(doc.text),
                )
            )
        else:
            found = SuppliedRetriever([doc]).search(fact.query(), k).evidence
            out.extend(e.model_copy(update={"retriever": "citation"}) for e in found)
    return out


@dataclass(frozen=True)
class _Judging:
    """Who judges a claim against cited evidence, how much of it, and the abstention bar."""

    judge: Judge
    max_passages: int
    supported_threshold: float | None = None

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
            fact, result.verdict, evidence, supported_threshold=self.supported_threshold
        )
        return verdict, result.usage


def _dedupe(evidence: Sequence[Evidence]) -> list[Evidence]:
    """``evidence`` without repeated passages (same id), in order."""
    return list({e.id: e for e in reversed(evidence)}.values())[::-1]


def _contradicts(verdict: Verdict | None) -> bool:
    """True when ``verdict`` contradicts its fact or any unit of it."""
    if verdict is None:
        return False
    return verdict.status == Status.CONTRADICTED or any(
        u.status == Status.CONTRADICTED for u in verdict.unit_verdicts
    )


def _supported_units(verdict: Verdict | None) -> set[str]:
    """Units ``verdict`` supports (all of them when the fact as a whole is supported)."""
    if verdict is None:
        return set()
    return {u.unit for u in verdict.unit_verdicts if u.status == Status.SUPPORTED}


def _support(claim: ClaimCitation, verdicts: Sequence[Verdict | None], units: int) -> Support:
    """The claim's support class from every verdict on it (links alone, and joint)."""
    if any(_contradicts(v) for v in verdicts):
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
            else complete 1, partial 0.5).
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
            _Judging(judge, max_passages, supported_threshold),
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
        link_correctness=link_correctness([link.supports for link in links]),
        judged_link_correctness=link_correctness([link.supports for link in judged]),
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
            link.evidence = _evidence(record.fact, docs, judging.max_passages)
            link.verdict, spent = judging(record.fact, link.evidence)
            usage = usage + spent
        links.append(link)
    usable = [link for link in links if link.available]
    joint = _dedupe([e for link in usable for e in link.evidence] + list(extra))
    alone = next((link for link in usable if link.supports), None)
    if len(usable) == 1 and not extra:
        claim.joint_verdict = usable[0].verdict  # the same evidence: the same judgement
    elif alone is not None and not extra and not any(link.contradicts for link in usable):
        claim.joint_verdict = alone.verdict  # a source supports it, none contradicts: settled
    elif usable:
        claim.joint_verdict, spent = judging(record.fact, joint)
        usage = usage + spent
    claim.verdict = claim.joint_verdict or record.verdict
    verdicts = [link.verdict for link in usable] + [claim.joint_verdict]
    units = {u for v in verdicts for u in _supported_units(v)}
    claim.supported_units = [u.text for u in record.fact.units() if u.text in units]
    claim.support = _support(claim, verdicts, len(record.fact.units()))
    claim.supported = claim.support == "complete"
    return claim, links, usage


def with_citation_verdicts(report: Report, citations: CitationReport) -> Report:
    """``report`` with each claim's verdict replaced by its citation judgement, re-scored.

    So a claim has one verdict: the table, the score and the citation check agree. A
    replaced verdict goes to the record's ``history``.
    """
    from triqua.accounting import count_failures
    from triqua.core.scoring import score_facts

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
            "notes": [
                *report.notes,
                "Verdicts are citation judgements: each claim against what it cites "
                "(plus the other evidence given), as one evidence set.",
            ],
        }
    )
    updated.failures = count_failures(updated.records, updated.failed_chunks)
    return updated


def check_cited(
    text: str,
    *,
    documents: Sequence[Document | str | dict[str, Any]] | None = None,
    base_dir: str | Path | None = None,
    weights: Mapping[str, float] | None = None,
    **check_kwargs: Any,
) -> tuple[Report, CitationReport]:
    """Check a text that cites its sources: the facts, then each claim against what it cites.

    The source list is taken out of the text before checking; without other evidence, the
    readable cited sources are the run's documents. Each claim then gets one verdict, its
    citation judgement (see :func:`with_citation_verdicts`), saved as the run's next
    revision when the run is stored. ``check_kwargs`` go to :func:`triqua.check` (model,
    retriever, store, …).
    """
    from triqua.api import check, make_context
    from triqua.core.inputs import coerce_documents
    from triqua.engines.factory import resolve_engines

    cited = parse_citations(text)
    context_keys = {f.name for f in dataclass_fields(Context)}
    settings = {k: v for k, v in check_kwargs.items() if k in context_keys and k != "model"}
    context = make_context(check_kwargs.get("context"), model=check_kwargs.get("model"), **settings)
    other_evidence = bool(documents) or check_kwargs.get("retriever") not in (None, "auto")
    if not other_evidence:
        # No evidence given: the cited sources that can be read are the run's documents.
        documents = [
            d
            for source in cited.sources.values()
            for d in resolve_source(source, (), base_dir, context.allow_paths)[0]
        ]
    report = check(cited.text, documents=documents or None, **check_kwargs)
    citations = check_citations(
        report,
        cited,
        resolve_engines(context).judge,
        documents=coerce_documents(list(documents or [])),
        base_dir=base_dir,
        weights=weights,
        allow_paths=context.allow_paths,
        policy=report.spec.citations,
        supported_threshold=context.supported_threshold(),
        run_evidence=other_evidence,
    )
    judged = with_citation_verdicts(report, citations)
    if judged is not report:
        _store_revision(judged, check_kwargs.get("store"))
    return judged, citations


def _store_revision(report: Report, store: Any) -> None:
    """Save ``report`` as its run's next revision when the run was saved (``store``)."""
    from triqua.store import resolve_store

    runs = resolve_store(store)
    if runs is None:
        return
    try:
        runs.append_report(report)
    except ValueError:  # the run was not saved there (a cached report): nothing to revise
        return
