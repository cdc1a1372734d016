"""Ingesting files into a Chroma collection: read, split with offsets, embed, store.

A file is identified by its resolved path and versioned by the SHA-256 of its bytes (plus
the splitting settings): re-ingesting an unchanged file adds nothing, a changed file's
chunks replace its old ones. A file that cannot be read is reported and skipped; the
others are still ingested.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from triqua.core.text.intake import evidence_text
from triqua.schema import sha256_text, utc_now
from triqua.support.wording import counted
from triqua.tools.chroma import open_client, open_vector_store, server_answers, store_location
from triqua.tools.chroma_names import check_collection_name
from triqua.tools.documents import (
    HTML_SUFFIXES,
    JSONL_SUFFIXES,
    decode_text,
    expand_paths,
    html_to_text,
    parse_jsonl,
    read_bytes,
    split_passages,
)
from triqua.tools.evidence_files import check_readable_file

if TYPE_CHECKING:  # the chroma extra; tools.chroma says when it is missing
    from langchain_chroma import Chroma

__all__ = ["FileOutcome", "IngestSummary", "ingest_paths", "list_collections"]

Status = Literal["added", "replaced", "unchanged", "failed"]
Progress = Callable[["FileOutcome", int, int], None]

DEFAULT_CHUNK_SIZE = 600
#: Chunks per write (embedding pass and upsert); Chroma's own limit applies when lower.
_WRITE_BATCH = 256


@dataclass
class FileOutcome:
    """What ingestion did with one file."""

    path: str
    status: Status
    chunks: int = 0
    message: str | None = None
    warnings: list[str] = field(default_factory=list)


@dataclass
class IngestSummary:
    """The outcome of one ingestion run."""

    collection: str
    where: str
    files: list[FileOutcome] = field(default_factory=list)
    seconds: float = 0.0
    collection_count: int = 0
    skipped: list[str] = field(default_factory=list)

    def count(self, status: Status) -> int:
        """Number of files with ``status``."""
        return sum(1 for f in self.files if f.status == status)

    @property
    def chunks_added(self) -> int:
        """Chunks written in this run."""
        return sum(f.chunks for f in self.files if f.status in ("added", "replaced"))

    @property
    def problems(self) -> list[str]:
        """One message per failed file, per file a walk skipped and per skipped JSONL line."""
        out: list[str] = list(self.skipped)
        for f in self.files:
            if f.message:
                out.append(f.message)
            out.extend(f.warnings)
        return out

    def __str__(self) -> str:
        return (
            f"{self.collection} ({self.where}): {self.count('added')} added, "
            f"{self.count('replaced')} replaced, {self.count('unchanged')} unchanged, "
            f"{self.count('failed')} failed; {counted(self.chunks_added, 'chunk')} written, "
            f"{self.collection_count} in collection ({self.seconds:.1f} s)"
        )


@dataclass(frozen=True)
class _Chunk:
    """One chunk ready for Chroma."""

    id: str
    text: str
    metadata: dict[str, str | int]


def _file_documents(
    path: Path, data: bytes, field_name: str
) -> tuple[list[tuple[str, str, str | None]], list[str]]:
    """The file's documents as ``(source, text, title)``, and messages on skipped lines."""
    suffix = path.suffix.lower()
    if suffix in JSONL_SUFFIXES:
        if b"\x00" in data[:8192] or not data.strip():
            decode_text(data, path)  # raises the one clear error: binary or empty
        records, problems = parse_jsonl(data, path, field_name)
        return [(f"{path}#{r.line}", r.text, r.title) for r in records], problems
    data_text = decode_text(data, path)
    if suffix in HTML_SUFFIXES:
        body, title = html_to_text(data_text)
        if not body:
            raise ValueError(f"{path}: HTML page has no visible text")
        return [(str(path), body, title)], []
    return [(str(path), data_text, None)], []


def _build_chunks(
    documents: list[tuple[str, str, str | None]],
    *,
    file_key: str,
    file_hash: str,
    split: str,
    chunk_size: int,
    chunk_overlap: int,
) -> list[_Chunk]:
    """Split documents into chunks with offsets, hashes and provenance metadata."""
    ingested_at = utc_now().isoformat()
    chunks: list[_Chunk] = []
    for source, raw, title in documents:
        text = evidence_text(raw)  # as the readers of supplied documents see it
        document_id = "doc-" + sha256_text(text)[:12]
        for passage in split_passages(text, chunk_size, chunk_overlap):
            content_hash = sha256_text(passage.text)
            meta: dict[str, str | int] = {
                "source": source,
                "file": file_key,
                "document_id": document_id,
                "start": passage.start,
                "end": passage.end,
                "content_hash": content_hash,
                "file_hash": file_hash,
                "split": split,
                "ingested_at": ingested_at,
            }
            if title:
                meta["title"] = title
            ident = f"{source}\0{passage.start}\0{passage.end}\0{content_hash}"
            chunks.append(_Chunk("c-" + sha256_text(ident)[:32], passage.text, meta))
    return chunks


@dataclass
class _Plan:
    """One file's outcome, the chunks to write for it and its old chunks to drop after."""

    outcome: FileOutcome
    chunks: list[_Chunk] = field(default_factory=list)
    stale_ids: list[str] = field(default_factory=list)


def _plan_file(
    store: Chroma, path: Path, *, field_name: str, chunk_size: int, chunk_overlap: int
) -> _Plan:
    """Read one file and decide: fail it, skip it as unchanged, or (re)write its chunks."""
    path = path.resolve()
    file_key = str(path)
    try:
        check_readable_file(path)
        data = read_bytes(path)
        file_hash = hashlib.sha256(data).hexdigest()
        split = f"chars={chunk_size},overlap={chunk_overlap},field={field_name}"
        documents, warnings = _file_documents(path, data, field_name)
    except ValueError as exc:
        return _Plan(FileOutcome(file_key, "failed", message=str(exc)))
    if not documents:
        message = f"{path}: no text to ingest"
        return _Plan(FileOutcome(file_key, "failed", message=message, warnings=warnings))

    existing = store.get(where={"file": file_key}, include=["metadatas"])
    old_ids = list(existing["ids"])
    old_meta = existing.get("metadatas") or []
    if old_ids and all(
        m and m.get("file_hash") == file_hash and m.get("split") == split for m in old_meta
    ):
        return _Plan(FileOutcome(file_key, "unchanged", chunks=len(old_ids), warnings=warnings))

    chunks = _build_chunks(
        documents,
        file_key=file_key,
        file_hash=file_hash,
        split=split,
        chunk_size=chunk_size,
        chunk_overlap=chunk_overlap,
    )
    new_ids = {c.id for c in chunks}
    status: Status = "replaced" if old_ids else "added"
    return _Plan(
        FileOutcome(file_key, status, chunks=len(chunks), warnings=warnings),
        chunks,
        [i for i in old_ids if i not in new_ids],
    )


def _write(store: Chroma, plans: list[_Plan], batch_size: int) -> None:
    """Write the planned chunks in large batches, then drop the replaced ones.

    Batching across files matters: one embedding pass and one upsert per file cost far
    more than the work itself when files are small. New chunks are written before old ones
    are dropped, so an interrupted run leaves files marked as changed (mixed hashes) and
    the next run finishes the replacement.
    """
    chunks = [c for plan in plans for c in plan.chunks]
    for start in range(0, len(chunks), batch_size):
        batch = chunks[start : start + batch_size]
        # add_texts embeds the batch with MiniLM in one pass and upserts it by id.
        store.add_texts(
            [c.text for c in batch],
            metadatas=[dict(c.metadata) for c in batch],
            ids=[c.id for c in batch],
        )
    stale = [i for plan in plans for i in plan.stale_ids]
    if stale:
        store.delete(ids=stale)


def ingest_paths(
    paths: Sequence[str | Path],
    collection: str,
    *,
    field: str = "text",
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    chunk_overlap: int = 0,
    path: str | Path | None = None,
    url: str | None = None,
    progress: Progress | None = None,
    timeout: float | None = None,
) -> IngestSummary:
    """Ingest files (directories are walked) into a Chroma collection, creating it if needed.

    Args:
        paths: Files or directories: text, Markdown, HTML, JSONL. Walks never follow a link
            out of the folder and skip special files; system roots are refused.
        collection: Collection name, as Chroma accepts it (:mod:`triqua.tools.chroma_names`).
        field: JSONL field holding the text (one document per line, source ``path#line``).
        chunk_size: Characters per chunk (LangChain's recursive splitter).
        chunk_overlap: Characters shared by neighbouring chunks.
        path: Embedded store directory (default ``default_chroma_path()``).
        url: A Chroma server URL, used instead of the embedded store.
        progress: Called as each file's outcome is settled (written, skipped or failed)
            with ``(outcome, files_done, files_total)``.
        timeout: Seconds a Chroma server may take per request (``open_client``).

    Raises:
        RetrieverUnavailable: when the store or server cannot be used.
        ValueError: on bad settings, an invalid collection name, a system root, a
            folder with no readable file, or when no given path exists (the collection is
            then neither created nor opened).
    """
    check_collection_name(collection)  # before any file is walked or store opened
    if chunk_size < 50:
        raise ValueError(f"chunk_size must be >= 50, got {chunk_size}")
    if not 0 <= chunk_overlap < chunk_size:
        raise ValueError(f"chunk_overlap must be in 0..chunk_size-1, got {chunk_overlap}")
    began = time.perf_counter()
    walk_problems: list[str] = []
    files = expand_paths(paths, problems=walk_problems)  # bad paths fail before the store opens
    if files and not any(f.exists() for f in files):  # nothing to add: leave the store alone
        names = ", ".join(str(f) for f in files[:3]) + (", …" if len(files) > 3 else "")
        raise ValueError(f"{names}: no such file or folder; nothing ingested")
    where = store_location(path=path, url=url)
    client = open_client(path=path, url=url, timeout=timeout)
    with server_answers(where, timeout):
        target = open_vector_store(client, collection, create=True, where=where)
        batch_size = max(1, min(client.get_max_batch_size(), _WRITE_BATCH))
    summary = IngestSummary(collection=collection, where=where, skipped=walk_problems)
    pending: list[_Plan] = []

    def flush() -> None:
        _write(target.store, pending, batch_size)
        for plan in pending:
            summary.files.append(plan.outcome)
            if progress is not None:
                progress(plan.outcome, len(summary.files), len(files))
        pending.clear()

    for file_path in files:
        pending.append(
            _plan_file(
                target.store,
                file_path,
                field_name=field,
                chunk_size=chunk_size,
                chunk_overlap=chunk_overlap,
            )
        )
        if sum(len(p.chunks) for p in pending) >= batch_size:
            flush()
    flush()
    summary.collection_count = target.collection.count()
    summary.seconds = time.perf_counter() - began
    return summary


def list_collections(
    *, path: str | Path | None = None, url: str | None = None, timeout: float | None = None
) -> list[tuple[str, int]]:
    """Names and chunk counts of the collections in a store or server, sorted by name.

    A server's every request is bounded by ``timeout`` seconds (``open_client``).
    """
    client = open_client(path=path, url=url, timeout=timeout)
    with server_answers(store_location(path=path, url=url), timeout):
        found: list[Any] = list(client.list_collections())
        return sorted((c.name, c.count()) for c in found)


def delete_collection(
    name: str,
    *,
    path: str | Path | None = None,
    url: str | None = None,
    timeout: float | None = None,
) -> int:
    """Delete a collection from a store or server; returns how many chunks it held.

    Raises:
        RetrieverUnavailable: when the store or server cannot be used or does not answer
            within ``timeout`` seconds.
        ValueError: when there is no collection of that name.
    """
    client = open_client(path=path, url=url, timeout=timeout)
    where = store_location(path=path, url=url)
    with server_answers(where, timeout):
        names = {c.name for c in client.list_collections()}
        if name not in names:
            known = ", ".join(sorted(names)) or "none"
            raise ValueError(f"no collection {name!r} in {where} (collections: {known})")
        count = client.get_collection(name).count()
        client.delete_collection(name)
    return count
