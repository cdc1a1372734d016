"""Batch checks: many responses from a JSONL file, bounded concurrency, resumable output.

Input: one JSON object per line with ``id``, ``text``, optional ``question`` and optional
``evidence`` (a list whose items are a text string or ``{"path": FILE}``; relative paths
resolve against the input file's folder, and a path may only point inside that folder, the
current folder or a folder of ``allow_paths``). Output: one JSON report per line, ``{"id": …,
**report}``, flushed as each check finishes (so in completion order). On a rerun, ids
already in the output file are skipped, so an interrupted batch resumes where it stopped.
A malformed line or a check that raised is reported with its line number and left out of
the output (a rerun retries it); nothing else is lost. Every report line carries its
``outcome``: ``complete``, ``partial`` (some chunks or facts failed; listed on stderr) or
``failed`` (errors left nothing checked; listed on stderr). Failed checks are written like
any other, so a rerun skips them: drop their lines from the output to retry them.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

from langchain_core.language_models import BaseChatModel
from rich.console import Console
from rich.table import Table

from triqua.accounting import FAILED_RUN, failure_line, failure_summary
from triqua.api import acheck, make_context
from triqua.context import Context
from triqua.core.redaction import error_text, redact
from triqua.jsonl import read_jsonl
from triqua.limits import limit_notes
from triqua.render import fmt_score
from triqua.schema import Document, Report, Status, Usage
from triqua.tools.documents import evidence_limit_error, load_documents
from triqua.tools.evidence_files import PathPolicy

__all__ = ["BatchItem", "BatchSummary", "completed_ids", "read_items", "run_batch"]


@dataclass(frozen=True)
class BatchItem:
    """One response to check, as read from the input file."""

    line: int
    id: str | int
    text: str
    question: str | None = None
    evidence: tuple[str | Path, ...] | None = None


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
        self.by_status.update(r.verdict.status.value for r in report.records)
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


def _item(obj: Any, base: Path) -> BatchItem:
    """One input line's item (line number 0, set by the reader); ``ValueError`` says what is wrong.

    Evidence paths resolve against ``base`` (the input file's folder); whether they may be
    read is decided when the item is checked (:func:`_documents`).
    """
    if not isinstance(obj, dict):
        raise ValueError("expected a JSON object")
    ident = obj.get("id")
    if isinstance(ident, bool) or not isinstance(ident, str | int) or ident == "":
        raise ValueError("missing 'id' (a string or an integer)")
    text = obj.get("text")
    if not isinstance(text, str) or not text.strip():
        raise ValueError("missing 'text' (a non-empty string)")
    question = obj.get("question")
    if question is not None and not isinstance(question, str):
        raise ValueError("'question' must be a string")
    evidence = obj.get("evidence")
    if evidence is None:
        return BatchItem(0, ident, text, question)
    if not isinstance(evidence, list):
        raise ValueError("'evidence' must be a list of texts or {\"path\": …} objects")
    items: list[str | Path] = []
    for index, entry in enumerate(evidence, start=1):
        if isinstance(entry, str):
            items.append(entry)
        elif isinstance(entry, dict) and isinstance(entry.get("path"), str):
            path = Path(entry["path"]).expanduser()
            items.append(path if path.is_absolute() else base / path)
        else:
            raise ValueError(f'evidence {index}: expected a text or {{"path": …}}')
    return BatchItem(0, ident, text, question, tuple(items))


def read_items(path: Path, problem: Callable[[str], None]) -> Iterator[BatchItem]:
    """Yield the input's items lazily; each bad line is passed to ``problem`` and skipped.

    Lines are read by the shared JSONL reader: malformed, too deeply nested, over-long or
    non-UTF-8 lines are reported with their number and the other lines still run.
    """
    base = path.parent
    seen: set[str] = set()
    for number, item in read_jsonl(path, problem, parse=lambda obj: _item(obj, base)):
        if str(item.id) in seen:
            problem(f"{path}:{number}: duplicate id {item.id!r}")
            continue
        seen.add(str(item.id))
        yield replace(item, line=number)


def completed_ids(output: Path) -> set[str]:
    """Ids already written to ``output``; a torn last line (no newline) is cut off first.

    A torn line is what an interrupted write leaves; its check is redone on resume, as is
    the check of any line that does not read back.
    """
    if not output.exists():
        return set()
    data = output.read_bytes()
    if data and not data.endswith(b"\n"):
        cut = data.rfind(b"\n") + 1
        with output.open("r+b") as handle:
            handle.truncate(cut)
        data = data[:cut]

    def ident(obj: Any) -> str:
        if not isinstance(obj, dict) or "id" not in obj:
            raise ValueError("no id")
        return str(obj["id"])

    return {i for _, i in read_jsonl(data, lambda _message: None, parse=ident, where=output)}


def _documents(
    item: BatchItem, context: Context, policy: PathPolicy, warn: Callable[[str], None]
) -> list[Document] | None:
    """The item's evidence as documents (files are read now, so errors carry its line).

    Files must lie inside ``policy``'s folders; their bytes together stay within
    ``context.max_evidence_bytes``, counted while reading.
    """
    if item.evidence is None:
        return None
    documents: list[Document] = []
    total = 0
    for index, entry in enumerate(item.evidence, start=1):
        if isinstance(entry, Path):
            skipped: list[str] = []
            try:
                found = load_documents(
                    [entry],
                    problems=skipped,
                    policy=policy,
                    max_bytes=context.max_evidence_bytes,
                    spent_bytes=total,
                )
            except ValueError as exc:
                raise ValueError(f"evidence {index}: {exc}") from None
            for message in skipped:
                warn(message)
            documents.extend(found)
            total += sum(len(d.text.encode("utf-8")) for d in found)
        else:
            total += len(entry.encode("utf-8"))
            if total > context.max_evidence_bytes:
                raise evidence_limit_error(context.max_evidence_bytes, total, f"evidence {index}")
            documents.append(Document(text=entry, source=f"evidence {index}"))
    return documents


def _names_a_file(entry: str, base: Path, policy: PathPolicy) -> bool:
    """True when a text evidence entry is really a file name the ``{"path": …}`` form reads."""
    name = entry.strip()
    if not name or len(name) > 1024 or "\n" in name:
        return False
    path = Path(name).expanduser()
    path = path if path.is_absolute() else base / path
    try:
        return path.exists() and policy.allows(path)
    except (OSError, ValueError):  # a name too long or with a NUL byte is text
        return False


def path_as_text_warning(item: BatchItem, base: Path, policy: PathPolicy) -> str | None:
    """One warning for the text evidence entries of ``item`` that name existing files.

    ``"evidence": ["ev.jsonl"]`` checks the literal text "ev.jsonl", so every fact ends
    insufficient; the user almost surely meant ``{"path": "ev.jsonl"}``.
    """
    named = [
        (index, entry)
        for index, entry in enumerate(item.evidence or (), start=1)
        if isinstance(entry, str) and _names_a_file(entry, base, policy)
    ]
    if not named:
        return None
    listed = ", ".join(f"evidence {index} {entry.strip()!r}" for index, entry in named)
    verb = "names a file but is" if len(named) == 1 else "name files but are"
    example = json.dumps({"path": named[0][1].strip()})
    return f"{listed} {verb} checked as text; to read a file write {example}"


@dataclass(frozen=True)
class _Reporters:
    """Where a batch's messages go: problems (lines not checked) and warnings (kept going)."""

    problem: Callable[[str], None]
    warn: Callable[[str], None]
    notice: Callable[[str], None]


async def _run(
    items: Iterator[BatchItem],
    sink: TextIO,
    context: Context,
    concurrency: int,
    summary: BatchSummary,
    where: Path,
    say: _Reporters,
) -> None:
    """Check items with ``concurrency`` workers pulling from one iterator, writing as done."""
    policy = PathPolicy.of(where.parent, Path.cwd(), allow=context.allow_paths)
    problem = say.problem

    async def worker() -> None:
        for item in items:  # workers share the iterator; next() never awaits
            hint = path_as_text_warning(item, where.parent, policy)
            if hint:
                say.warn(f"{where}:{item.line}: id {item.id!r}: {hint}")
            try:
                documents = _documents(item, context, policy, say.warn)
                report = await acheck(
                    item.text,
                    question=item.question,
                    documents=documents,
                    context=context,
                    case_id=str(item.id),
                )
            except Exception as exc:  # a failed check is reported; the batch goes on
                why = redact(str(exc)) if isinstance(exc, ValueError) else error_text(exc)
                problem(f"{where}:{item.line}: id {item.id!r}: {why}")
                continue
            line = json.dumps({"id": item.id, **report.model_dump(mode="json")})
            sink.write(line + "\n")
            sink.flush()
            summary.add(report)
            at = f"{where}:{item.line}: id {item.id!r}"
            if report.outcome == "failed":
                say.notice(f"{at}: {failure_line(report)}")
            elif report.outcome == "partial":
                say.notice(f"{at}: partial: {failure_summary(report)}")
            for note in limit_notes(report.notes):  # the check went on past a limit: say so
                say.warn(f"{at}: {note}")

    await asyncio.gather(*(worker() for _ in range(concurrency)))


def run_batch(
    input_path: str | Path,
    output: str | Path | TextIO | None = None,
    *,
    concurrency: int = 4,
    resume: bool = True,
    console: Console | None = None,
    quiet: bool = False,
    context: Context | None = None,
    model: str | BaseChatModel | None = None,
    **settings: Any,
) -> BatchSummary:
    """Check every response of a JSONL file and write one report per line.

    Args:
        input_path: JSONL input (``id``, ``text``, optional ``question`` and ``evidence``).
        output: Output file (appended to when resuming), an open text stream, or ``None``
            for stdout.
        concurrency: Checks running at once.
        resume: Skip ids already in the output file; ``False`` starts the file afresh.
        console: Where problems and the summary table go (default: stderr).
        quiet: No summary table (problems are still reported, and the summary returned).
        context: Base settings of every check; ``settings`` override its fields.
        model: Chat model (name or instance) for every role; unset: the offline engine.
        **settings: ``Context`` fields, e.g. ``retriever="chroma"``.

    Raises:
        ValueError: on bad settings or an unreadable input file.
    """
    if concurrency < 1:
        raise ValueError(f"concurrency must be >= 1, got {concurrency}")
    source = Path(input_path)
    if not source.is_file():
        raise ValueError(f"{source}: no such file")
    ctx = make_context(context, model=model, **settings)
    out = console or Console(stderr=True)
    summary = BatchSummary()
    began = time.perf_counter()

    def notice(message: str) -> None:  # reported even when quiet: nothing is lost silently
        out.print(message, markup=False, highlight=False, soft_wrap=True)

    def problem(message: str) -> None:
        summary.problems.append(message)
        notice(message)

    def warn(message: str) -> None:
        summary.warnings.append(message)
        out.print(f"warning: {message}", markup=False, highlight=False, soft_wrap=True)

    say = _Reporters(problem, warn, notice)

    done: set[str] = set()
    if isinstance(output, str | Path) and resume:
        done = completed_ids(Path(output))

    def pending() -> Iterator[BatchItem]:
        for item in read_items(source, problem):
            if str(item.id) in done:
                summary.already_done += 1
                continue
            yield item

    if isinstance(output, str | Path):
        with Path(output).open("a" if resume else "w", encoding="utf-8") as handle:
            asyncio.run(_run(pending(), handle, ctx, concurrency, summary, source, say))
    else:
        stream = output if output is not None else sys.stdout
        asyncio.run(_run(pending(), stream, ctx, concurrency, summary, source, say))
    summary.seconds = time.perf_counter() - began
    if not quiet:
        out.print(summary.table())
    return summary
