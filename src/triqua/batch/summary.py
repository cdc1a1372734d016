"""What a batch did: checks, skips, problems, scores, outcomes and costs, as a table.

The lines a resumed batch finds finished in its output count with their scores, verdicts
and outcomes, so the batch's gates and exit code judge the whole output, not only the
lines checked this time.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from rich.table import Table

from triqua.core.report.exit_codes import ExitCode
from triqua.rendering.terminal import fmt_score
from triqua.schema import Report, Status, Usage
from triqua.support.wording import counted


@dataclass(frozen=True)
class LineResult:
    """What the summary and the gates need of one line's report."""

    id: str
    score: float | None
    statuses: tuple[str, ...]
    outcome: str
    coverage: float | None
    usage: Usage

    @classmethod
    def of(cls, report: Report, ident: str | int) -> LineResult:
        """The result of a report just written for the line ``ident``."""
        return cls(
            id=str(ident),
            score=report.score,
            statuses=tuple(r.verdict.status.value for r in report.records),
            outcome=report.outcome,
            coverage=report.coverage,
            usage=report.usage,
        )

    @classmethod
    def from_json(cls, line: dict[str, Any]) -> LineResult | None:
        """The result of an output line (``{"id": …, **report}``); None when it is not one."""
        try:
            score = line["scores"]["triqua_score"]
            coverage = line.get("coverage")
            if not all(v is None or isinstance(v, int | float) for v in (score, coverage)):
                return None
            return cls(
                id=str(line["id"]),
                score=None if score is None else float(score),
                statuses=tuple(str(r["verdict"]["status"]) for r in line.get("records") or ()),
                outcome=str(line.get("outcome", "complete")),
                coverage=None if coverage is None else float(coverage),
                usage=Usage.model_validate(line.get("usage") or {}),
            )
        except (KeyError, TypeError, AttributeError, ValidationError):
            return None


@dataclass
class BatchSummary:
    """Outcome of a batch: what was checked, skipped and lost, scores and costs."""

    checked: int = 0
    already_done: int = 0
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    undefined: int = 0
    by_status: Counter[str] = field(default_factory=Counter)
    #: Per verdict status, the ids of the lines with a fact of that status (gates name them).
    ids_by_status: dict[str, list[str]] = field(default_factory=dict)
    outcomes: Counter[str] = field(default_factory=Counter)
    coverages: list[float] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    seconds: float = 0.0

    @property
    def mean_score(self) -> float | None:
        """Mean TriQuaScore over the reports whose score is defined."""
        return sum(self.scores) / len(self.scores) if self.scores else None

    @property
    def mean_coverage(self) -> float | None:
        """Mean share of the text checked, over the reports that measured it."""
        return sum(self.coverages) / len(self.coverages) if self.coverages else None

    @property
    def all_failed(self) -> bool:
        """True when checks ran and errors left nothing checked in any line of the output."""
        return self.checked > 0 and self.outcomes["failed"] == sum(self.outcomes.values())

    @property
    def exit_code(self) -> ExitCode:
        """What the lines say: ``FAILED_RUN``, ``GATE_FAILED`` or ``OK`` (gates come on top).

        ``FAILED_RUN`` when errors left nothing checked in any line; ``GATE_FAILED`` when
        some lines could not be checked or their check failed.
        """
        if self.all_failed:
            return ExitCode.FAILED_RUN
        if self.problems or self.outcomes["failed"]:
            return ExitCode.GATE_FAILED
        return ExitCode.OK

    def failed_line(self) -> str | None:
        """One line saying how many lines were not checked, when some were not (else None)."""
        lost = len(self.problems) + self.outcomes["failed"]
        if not lost:
            return None
        total = self.checked + self.already_done + len(self.problems)
        return f"{lost} of {counted(total, 'line')} not checked or failed (each is listed above)"

    def add(self, report: Report, ident: str | int | None = None) -> None:
        """Count one report just written (``ident``: its line's id, else its case id)."""
        if ident is None:
            ident = report.records[0].case_id if report.records else ""
        self.checked += 1
        self._count(LineResult.of(report, ident or ""))
        self.usage = self.usage + report.usage

    def reuse(self, line: LineResult | None) -> None:
        """Count a line found finished in the output (None: it does not read as a report).

        Its score, verdicts and outcome count toward the gates; its usage was spent before.
        """
        self.already_done += 1
        if line is None:
            self.undefined += 1
            return
        self._count(line)

    def _count(self, line: LineResult) -> None:
        self.outcomes[line.outcome] += 1
        if line.coverage is not None:
            self.coverages.append(line.coverage)
        if line.score is None:
            self.undefined += 1
        else:
            self.scores.append(line.score)
        self.by_status.update(line.statuses)
        for status in dict.fromkeys(line.statuses):
            self.ids_by_status.setdefault(status, []).append(line.id)

    def table(self) -> Table:
        """The summary as a rich table."""
        table = Table(title="triqua batch", show_header=False)
        table.add_column("", style="bold")
        table.add_column("")
        table.add_row("checked", str(self.checked))
        table.add_row("already in output", str(self.already_done))
        table.add_row("lines with problems", str(len(self.problems)))
        table.add_row("warnings (skipped evidence, limits)", str(len(self.warnings)))
        table.add_row("mean TriQuaScore", fmt_score(self.mean_score))
        table.add_row("undefined scores", str(self.undefined))
        table.add_row("mean coverage", fmt_score(self.mean_coverage))
        table.add_row("runs complete", str(self.outcomes["complete"]))
        table.add_row("runs partial (some failed or cut short)", str(self.outcomes["partial"]))
        table.add_row("runs failed (nothing checked)", str(self.outcomes["failed"]))
        for status in Status:
            table.add_row(f"facts {status.value}", str(self.by_status[status.value]))
        tokens = f"{self.usage.input_tokens:,} in / {self.usage.output_tokens:,} out"
        if self.usage.tokens_estimated:
            tokens += " (estimated)"
        table.add_row("model calls", f"{self.usage.model_calls:,}")
        table.add_row("searches", f"{self.usage.search_calls:,}")
        table.add_row("tokens", tokens)
        table.add_row("time", f"{self.seconds:.1f} s")
        return table
