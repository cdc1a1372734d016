"""What a run checked and what it lost: coverage of the text, failure counts, outcome lines.

Nothing a run fails to check may vanish: a chunk that was not decomposed is a
:class:`~triqua.schema.ChunkFailure`, a sentence that yielded no fact an
:class:`~triqua.schema.UndecomposedSentence`, a fact whose verification failed keeps its
error on its verdict. Coverage turns these into one number: the share of the text that was
actually checked. Sentences set aside as not check-worthy are neither checked nor lost: they
leave both sides of the ratio, and of extraction recall (the share the facts' spans cover).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from triqua.core.report.exit_codes import ExitCode
from triqua.schema import ChunkFailure, ClaimRecord, Fact, Report, Span, UndecomposedSentence
from triqua.support.wording import plural

__all__ = [
    "FAILED_RUN",
    "checked_coverage",
    "checkworthy_line",
    "count_failures",
    "excluded_spans",
    "extraction_recall",
    "failure_line",
    "failure_summary",
    "report_coverage",
    "report_extraction_recall",
    "stop_phrase",
    "unchecked_spans",
]

#: Exit status of a run in which errors left nothing checked (2 is for usage and input errors).
FAILED_RUN = ExitCode.FAILED_RUN


def _mask(text: str, spans: Iterable[Span]) -> list[bool]:
    """Per character of ``text``: whether some span covers it (overlaps count once).

    Raises:
        ValueError: for a span that reaches outside the text.
    """
    covered = [False] * len(text)
    for span in spans:
        if span.end > len(text) or span.start > span.end:
            raise ValueError(
                f"span {span.start}-{span.end} lies outside the text ({len(text)} characters)"
            )
        covered[span.start : span.end] = [True] * (span.end - span.start)
    return covered


def checked_coverage(
    text: str, unchecked: Iterable[Span] = (), excluded: Iterable[Span] = ()
) -> float | None:
    """Share of the non-whitespace characters of ``text`` outside every ``unchecked`` span.

    Characters in an ``excluded`` span (not check-worthy) count neither way; overlapping
    spans count once; whitespace counts neither way. ``None`` when nothing is left to count.

    Raises:
        ValueError: for a span that reaches outside the text.
    """
    lost, skip = _mask(text, unchecked), _mask(text, excluded)
    counted = [i for i, c in enumerate(text) if not c.isspace() and not skip[i]]
    if not counted:
        return None
    return sum(not lost[i] for i in counted) / len(counted)


def extraction_recall(
    text: str, fact_spans: Iterable[Span | None], excluded: Iterable[Span] = ()
) -> float | None:
    """Share of the check-worthy characters of ``text`` inside some fact's span.

    Check-worthy: non-whitespace and outside every ``excluded`` span. ``None`` when there
    are none.

    Raises:
        ValueError: for a span that reaches outside the text.
    """
    return checked_coverage(
        text, _gaps(len(text), [s for s in fact_spans if s is not None]), excluded
    )


def _gaps(length: int, spans: Sequence[Span]) -> list[Span]:
    """The stretches of ``range(length)`` that no span covers."""
    gaps, at = [], 0
    for span in sorted(spans, key=lambda s: (s.start, s.end)):
        if span.start > at:
            gaps.append(Span(start=at, end=min(span.start, length)))
        at = max(at, span.end)
    if at < length:
        gaps.append(Span(start=at, end=length))
    return gaps


def excluded_spans(report: Report) -> list[Span]:
    """Spans of the sentences set aside as not check-worthy (those not kept)."""
    return [s.span for s in report.not_checkworthy if not s.kept]


def unchecked_spans(
    failed_chunks: Sequence[ChunkFailure],
    undecomposed: Sequence[UndecomposedSentence],
    records: Sequence[ClaimRecord],
    unverified_facts: Sequence[Fact],
) -> list[Span]:
    """Spans of the text left unchecked.

    Those are failed or skipped chunks, sentences without facts, facts whose verification
    failed and facts never verified.
    """
    spans = [c.span for c in failed_chunks] + [s.span for s in undecomposed]
    failed_facts = [r.fact for r in records if r.verdict.error]
    spans.extend(f.span for f in [*failed_facts, *unverified_facts] if f.span is not None)
    return spans


def report_coverage(text: str, report: Report) -> float | None:
    """The report's coverage of ``text`` (see ``Report.coverage``).

    With no checkable fact (TriQuaScore undefined) no part of the text was checked: the
    coverage is undefined (None) when nothing was lost either, 0 when some text was.
    """
    unchecked = unchecked_spans(
        report.failed_chunks, report.undecomposed, report.records, report.unverified_facts
    )
    if report.scores.units_total == 0:
        return 0.0 if unchecked else None
    return checked_coverage(text, unchecked, excluded_spans(report))


def report_extraction_recall(text: str, report: Report) -> float | None:
    """The report's extraction recall over ``text`` (see ``Report.extraction_recall``)."""
    facts = [r.fact.span for r in report.records] + [f.span for f in report.unverified_facts]
    return extraction_recall(text, facts, excluded_spans(report))


def count_failures(records: Sequence[ClaimRecord], failed_chunks: Sequence[ChunkFailure]) -> int:
    """Facts whose verification failed plus chunks whose decomposition failed."""
    return sum(1 for r in records if r.verdict.error) + sum(
        1 for c in failed_chunks if c.cause == "error"
    )


def _parts(report: Report) -> list[str]:
    """What failed, as short phrases: chunks not decomposed, facts not verified."""
    parts = []
    failed = [c for c in report.failed_chunks if c.cause == "error"]
    if failed:
        total = report.chunks or len(failed)
        parts.append(f"{len(failed)} of {total} {plural(total, 'chunk')} not decomposed")
    errored = sum(1 for r in report.records if r.verdict.error)
    if errored:
        total = len(report.records)
        parts.append(f"{errored} of {total} {plural(total, 'fact')} failed verification")
    return parts


def stop_phrase(report: Report) -> str | None:
    """Which run limits stopped the check before the end of its text, and what they left.

    None when no limit did (:attr:`Report.stopped_at`).
    """
    limits = report.stopped_at
    if not limits:
        return None
    left = []
    if report.unverified_facts:
        facts = len(report.unverified_facts)
        left.append(f"{facts} {plural(facts, 'fact')} not verified")
    skipped = sum(1 for c in report.failed_chunks if c.cause in limits)
    if skipped:
        left.append(f"{skipped} {plural(skipped, 'chunk')} not decomposed")
    return f"stopped at {' and '.join(limits)}: {', '.join(left)}"


def _coverage_phrase(report: Report) -> str | None:
    if report.coverage is None:
        return None
    return f"{report.coverage:.1%} of the text checked"


def checkworthy_line(report: Report) -> str | None:
    """How many sentences are not check-worthy, of which classes, and their facts' fate.

    None when there are none.
    """
    sentences = report.not_checkworthy
    if not sentences:
        return None
    classes: dict[str, int] = {}
    for sentence in sentences:
        classes[sentence.label] = classes.get(sentence.label, 0) + 1
    kinds = ", ".join(f"{count} {label}" for label, count in sorted(classes.items()))
    facts = sum(s.facts for s in sentences)
    kept = all(s.kept for s in sentences)
    fate = f"{facts} {plural(facts, 'fact')} " + ("checked anyway" if kept else "dropped")
    count = len(sentences)
    return f"{count} {plural(count, 'sentence')} not check-worthy ({kinds}): {fate}"


def failure_summary(report: Report) -> str | None:
    """One line saying how much failed and how much was checked; None when nothing failed."""
    parts = _parts(report)
    if not parts:
        return None
    coverage = _coverage_phrase(report)
    return " · ".join([*parts, *([coverage] if coverage else [])])


def failure_line(report: Report) -> str:
    """The one line a failed run prints: why nothing could be checked, and the first error."""
    parts = _parts(report) or ["nothing was verified"]
    first = next(
        (c.error for c in report.failed_chunks if c.cause == "error"),
        next((r.verdict.error for r in report.records if r.verdict.error), None),
    )
    line = "nothing could be checked: " + ", ".join(parts)
    if first:
        line += f" (first error: {first.splitlines()[0]})"
    return line


def coverage_line(report: Report) -> str | None:
    """Whether the text addresses its question (requested-content coverage); None if unjudged."""
    coverage = report.requested_coverage
    if coverage is None:
        return None
    if coverage.verdict is None:
        return f"question coverage not judged: {coverage.error}"
    verdict = coverage.verdict.replace("_", " ")
    missing = f"; missing: {'; '.join(coverage.missing)}" if coverage.missing else ""
    return f"question coverage: {verdict}{missing} (judged by {coverage.judge})"
