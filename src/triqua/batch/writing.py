"""One batch line: its evidence read, its report written to the output and counted.

Shared by the local batch and the batch on Ray, so both write the same lines and say the
same things whichever process checked the line.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TextIO

from triqua.batch.items import BatchItem, item_documents, path_as_text_warning
from triqua.batch.summary import BatchSummary
from triqua.context import Context
from triqua.core.budget.limits import limit_notes
from triqua.core.report.accounting import failure_line, failure_summary, stop_phrase
from triqua.schema import Document, Report
from triqua.schema.redaction import error_text, redact
from triqua.tools.evidence_files import PathPolicy


@dataclass(frozen=True)
class Reporters:
    """Where a batch's messages go: problems (lines not checked) and warnings (kept going)."""

    problem: Callable[[str], None]
    warn: Callable[[str], None]
    notice: Callable[[str], None]
    #: Called once a line's report is written (the batch's progress counts it).
    written: Callable[[], None] = lambda: None


def failure_text(exc: Exception) -> str:
    """What a check that raised says on stderr (a bad input's message, else the error, redacted)."""
    return redact(str(exc)) if isinstance(exc, ValueError) else error_text(exc)


@dataclass(frozen=True)
class BatchJob:
    """One batch's lines and where their outcomes go, whichever runner checks them."""

    #: The output: one report line per checked line, flushed as each is written.
    sink: TextIO
    #: The settings every line is checked with.
    context: Context
    #: Lines checked at once.
    concurrency: int
    summary: BatchSummary
    #: The input file (messages name its lines; evidence paths resolve beside it).
    where: Path
    say: Reporters
    #: Where each line's run is saved (``acheck``'s ``store``).
    store: bool | str | Path | None = None

    @cached_property
    def policy(self) -> PathPolicy:
        """Where evidence files may be read from: beside the input, here, or allowed."""
        return PathPolicy.of(self.where.parent, Path.cwd(), allow=self.context.allow_paths)

    def at(self, item: BatchItem) -> str:
        """The input line an item came from, as messages name it."""
        return f"{self.where}:{item.line}: id {item.id!r}"

    def documents(self, item: BatchItem) -> list[Document] | None:
        """The item's evidence as documents, warning first of text entries that name files.

        Raises:
            ValueError: when its evidence cannot be read or is over the limits.
        """
        hint = path_as_text_warning(item, self.where.parent, self.policy)
        if hint:
            self.say.warn(f"{self.at(item)}: {hint}")
        return item_documents(item, self.context, self.policy, self.say.warn)

    def problem(self, item: BatchItem, why: str) -> None:
        """Report a line that was not checked (it stays out of the output; a rerun retries it)."""
        self.say.problem(f"{self.at(item)}: {why}")

    def write(self, report: Report, item: BatchItem) -> None:
        """Write ``report`` as the item's output line (flushed: the line is done), then count it.

        A failed or partial run and a limit the check went past are said on stderr.
        """
        line = json.dumps({"id": item.id, **report.model_dump(mode="json")})
        self.sink.write(line + "\n")
        self.sink.flush()
        self.summary.add(report, item.id)
        at = self.at(item)
        if report.outcome == "failed":
            self.say.notice(f"{at}: {failure_line(report)}")
        elif report.outcome == "partial":
            self.say.notice(f"{at}: partial: {failure_summary(report) or stop_phrase(report)}")
        for note in limit_notes(report.notes):  # the check went on past a limit: say so
            self.say.warn(f"{at}: {note}")
        self.say.written()
