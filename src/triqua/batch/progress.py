"""A batch's live progress bar: lines done of the input's lines, and the mean score so far.

Drawn on the batch's console (stderr) as ``triqua check`` draws its own, and only where
that is a terminal and the batch is not quiet, so piped output never mixes with it. The
lines' problems and warnings, printed on the same console, scroll above the bar.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from triqua.batch.summary import BatchSummary
from triqua.rendering.terminal import fmt_score

__all__ = ["batch_progress", "count_lines"]


def count_lines(path: Path) -> int | None:
    """The input's non-blank lines (each one an item, or a problem), or None if unreadable."""
    try:
        with path.open("rb") as handle:
            return sum(1 for line in handle if line.strip())
    except OSError:
        return None


def describe(summary: BatchSummary) -> str:
    """One line: the mean TriQuaScore so far, the runs per outcome and the lines not checked."""
    parts = [f"mean TriQuaScore {fmt_score(summary.mean_score)}"]
    outcomes = [f"{n} {name}" for name, n in sorted(summary.outcomes.items()) if n]
    if outcomes:
        parts.append(", ".join(outcomes))
    if summary.problems:
        parts.append(f"{len(summary.problems)} not checked")
    return " · ".join(parts)


@contextmanager
def batch_progress(
    console: Console, source: Path, summary: BatchSummary, *, quiet: bool
) -> Iterator[Callable[[], None]]:
    """Yield the function that counts one input line done (checked, skipped or refused).

    A bar is drawn while the batch runs when ``console`` is a terminal and not ``quiet``;
    else the function does nothing.
    """
    if quiet or not console.is_terminal:
        yield lambda: None
        return
    columns = (
        TextColumn("{task.description:<6}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[status]}"),
    )
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task("lines", total=count_lines(source), status=describe(summary))

        def line_done() -> None:
            bar.update(task, advance=1, status=describe(summary))

        yield line_done
