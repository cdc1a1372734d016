"""What a batch did: checks, skips, problems, scores, outcomes and costs, as a table."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rich.table import Table

from triqua.core.accounting import FAILED_RUN
from triqua.rendering.terminal import fmt_score
from triqua.schema import Report, Status, Usage


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
        """True when checks ran and errors left nothing checked in every one of them."""
        return self.checked > 0 and self.outcomes["failed"] == self.checked

    @property
    def exit_code(self) -> int:
        """1 when lines could not be checked, 3 when every check failed, else 0."""
        if self.problems:
            return 1
        return FAILED_RUN if self.all_failed else 0

    def add(self, report: Report) -> None:
        """Count one finished report."""
        self.checked += 1
        self.outcomes[report.outcome] += 1
        if report.coverage is not None:
            self.coverages.append(report.coverage)
        if report.score is None:
            self.undefined += 1
        else:
            self.scores.append(report.score)
        statuses = {r.verdict.status.value for r in report.records}
        self.by_status.update(r.verdict.status.value for r in report.records)
        for status in statuses:
            self.ids_by_status.setdefault(status, []).append(report.records[0].case_id)
        self.usage = self.usage + report.usage

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
        table.add_row("runs partial (some failed)", str(self.outcomes["partial"]))
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
