"""Gates for CI: fail a check on a low TriQuaScore or on facts with a given verdict.

The exit codes of every command are :class:`triqua.core.report.exit_codes.ExitCode` (the README's
table); a failed gate is ``GATE_FAILED`` (1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from triqua.cli._common import fail
from triqua.core.report.exit_codes import ExitCode
from triqua.support.wording import counted, plural

if TYPE_CHECKING:  # the schema (pydantic) loads when a gate runs, not for ``--help``
    from triqua.citations import CitationReport
    from triqua.schema import Report, Status

#: Exit code when a ``--fail-under`` or ``--fail-on`` gate fails.
GATE_FAILED = ExitCode.GATE_FAILED


class FailOn(StrEnum):
    """Verdicts ``--fail-on`` accepts (short names of :class:`triqua.schema.Status`)."""

    contradicted = "contradicted"
    insufficient = "insufficient"
    insufficient_evidence = "insufficient_evidence"  # the word reports use
    not_checkable = "not_checkable"


def _status(fail_on: FailOn) -> Status:
    """The verdict status a ``--fail-on`` value names."""
    from triqua.schema import Status

    return {
        FailOn.contradicted: Status.CONTRADICTED,
        FailOn.insufficient: Status.INSUFFICIENT,
        FailOn.insufficient_evidence: Status.INSUFFICIENT,
        FailOn.not_checkable: Status.NOT_CHECKABLE,
    }[fail_on]


FailUnderOption = Annotated[
    str | None,
    typer.Option(
        "--fail-under",
        metavar="SCORE",
        help="Exit 1 when TriQuaScore is below SCORE (0.8 or 80%); an undefined score fails.",
    ),
]
FailOnOption = Annotated[
    list[FailOn] | None,
    typer.Option(
        "--fail-on",
        metavar="VERDICT",
        help="Exit 1 when any fact has this verdict: contradicted, insufficient "
        "(insufficient_evidence) or not_checkable (repeatable).",
    ),
]
SummaryOption = Annotated[
    bool,
    typer.Option("--summary", help="Print one line (score, verdicts, run) instead of the table."),
]


def parse_threshold(text: str) -> float:
    """A ``--fail-under`` value as a share in [0, 1]: '0.8' or '80%'.

    A bare number above 1 is refused rather than guessed at (is '80' 80 % or a typo?).
    """
    raw = text.strip()
    percent = raw.endswith("%")
    try:
        value = float(raw.rstrip("%").strip())
    except ValueError:
        raise fail(f"--fail-under {text!r}: expected a score such as 0.8 or 80%") from None
    if percent:
        value /= 100
    if not 0.0 <= value <= 1.0:
        raise fail(f"--fail-under {text!r}: a score lies in 0..1 (or 0%..100%), e.g. 0.8 or 80%")
    return value


@dataclass(frozen=True)
class Gates:
    """The gates a run must pass: a lowest TriQuaScore and verdicts no fact may have."""

    fail_under: float | None = None
    fail_on: frozenset[Status] = frozenset()

    @classmethod
    def of(cls, fail_under: str | None, fail_on: Iterable[FailOn] | None) -> Gates:
        """Gates from the command-line options (a bad score is a usage error, exit 2)."""
        threshold = parse_threshold(fail_under) if fail_under is not None else None
        return cls(threshold, frozenset(_status(f) for f in fail_on or ()))

    def failures(
        self,
        score: float | None,
        verdicts: Counter[str],
        ids: dict[str, list[str]] | None = None,
    ) -> list[str]:
        """Why the gates fail for this score and these verdict counts (empty: they pass).

        ``ids`` (a batch's line ids per verdict status) names the lines that failed a gate.
        """
        from triqua.rendering.terminal import fmt_score

        why = []
        if self.fail_under is not None and (score is None or score < self.fail_under):
            why.append(
                f"TriQuaScore {fmt_score(score)} is below --fail-under {fmt_score(self.fail_under)}"
            )
        for status in sorted(self.fail_on):
            if verdicts[status.value]:
                facts = plural(verdicts[status.value], "fact")
                lines = (ids or {}).get(status.value, [])
                shown = ", ".join(lines[:5]) + (
                    f", … ({len(lines)} lines)" if len(lines) > 5 else ""
                )
                where = f" (ids {shown})" if lines else ""
                why.append(f"{verdicts[status.value]} {facts} {status.value}{where}")
        return why

    def exit_code(
        self,
        score: float | None,
        verdicts: Counter[str],
        ids: dict[str, list[str]] | None = None,
    ) -> ExitCode:
        """Say on stderr which gates failed (one line); ``GATE_FAILED`` then, else ``OK``."""
        why = self.failures(score, verdicts, ids)
        if not why:
            return ExitCode.OK
        typer.echo(f"gate failed: {'; '.join(why)}", err=True)
        return ExitCode.GATE_FAILED

    def enforce(
        self,
        score: float | None,
        verdicts: Counter[str],
        ids: dict[str, list[str]] | None = None,
    ) -> None:
        """Say on stderr which gate failed (one line) and exit ``GATE_FAILED``; else return."""
        if self.exit_code(score, verdicts, ids):
            raise typer.Exit(GATE_FAILED)


def verdict_counts(report: Report) -> Counter[str]:
    """Facts per verdict status of one report."""
    return Counter(r.verdict.status.value for r in report.records)


def summary_line(report: Report, cited: CitationReport | None = None) -> str:
    """The run in one line for logs: score, facts per verdict, coverage, mode and run id.

    With the text's citations judged (``cited``), their completeness and link correctness
    follow the coverage.
    """
    from triqua.core.report.accounting import stop_phrase
    from triqua.rendering.terminal import fmt_coverage, fmt_score
    from triqua.schema import Status

    counts = verdict_counts(report)
    verdicts = ", ".join(f"{counts[s.value]} {s.value}" for s in Status)
    shown = fmt_coverage(report)
    coverage = "" if shown is None else f" · coverage {shown}"
    stop = stop_phrase(report)
    coverage += f" ({stop})" if stop else ""
    if cited is not None:
        coverage += (
            f" · citations: completeness {fmt_score(cited.completeness)}, "
            f"link correctness {fmt_score(cited.link_correctness)}"
        )
    return (
        f"TriQuaScore {fmt_score(report.score)} · {counted(len(report.records), 'fact')}: "
        f"{verdicts}"
        f"{coverage} · {report.outcome} · mode {report.spec.mode.value} · run {report.run_id}"
    )
