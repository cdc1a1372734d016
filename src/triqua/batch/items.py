"""Batch input: the JSONL lines as items, their evidence as documents, what is already done."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from triqua.batch.summary import LineResult
from triqua.context import Context
from triqua.core.text.inputs import evidence_limit_error
from triqua.schema import Document
from triqua.support.jsonl import read_jsonl
from triqua.tools.documents import load_documents
from triqua.tools.evidence_files import PathPolicy


@dataclass(frozen=True)
class BatchItem:
    """One response to check, as read from the input file."""

    line: int
    id: str | int
    text: str
    question: str | None = None
    evidence: tuple[str | Path, ...] | None = None


def _item(obj: Any, base: Path) -> BatchItem:
    """One input line's item (line number 0, set by the reader); ``ValueError`` says what is wrong.

    Evidence paths resolve against ``base`` (the input file's folder); whether they may be
    read is decided when the item is checked (:func:`item_documents`).
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
    """Ids whose report completed in ``output`` (see :func:`finished_lines`)."""
    return set(finished_lines(output))


def finished_lines(output: Path) -> dict[str, LineResult | None]:
    """Each id whose report completed in ``output``, with its result (None: not a report).

    Failed reports are taken out to be redone.

    A resumed batch checks every other line again: a torn last line (no newline: an
    interrupted write) is cut off, and the lines of checks that failed (``outcome``
    "failed": a provider error, a time-out) are removed from the file — rewritten whole
    and swapped in atomically — so their fresh reports replace them and each id keeps one
    line. Lines that do not read back are kept as they are and their ids checked again.
    """
    if not output.exists():
        return {}
    data = output.read_bytes()
    # Read line by line here rather than with ``read_jsonl``: the kept lines are written back
    # byte for byte, and a line that does not read back is kept, not reported.
    kept: list[bytes] = []
    done: dict[str, LineResult | None] = {}
    dropped = False
    lines = data.split(b"\n")
    if lines and lines[-1]:
        dropped = True  # a torn last line
    for raw in lines[:-1]:
        report = _report_of(raw)
        if report is not None and report.get("outcome") == "failed":
            dropped = True
            continue
        if report is not None and "id" in report:
            done[str(report["id"])] = LineResult.from_json(report)
        kept.append(raw + b"\n")
    if dropped:
        fresh = output.with_name(f".{output.name}.resume")
        fresh.write_bytes(b"".join(kept))
        os.replace(fresh, output)
    return done


def _report_of(raw: bytes) -> dict[str, Any] | None:
    """One output line as a report object, or None when it does not read back as one."""
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def item_documents(
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
