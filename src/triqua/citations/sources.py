"""Cited sources as evidence: the documents a source points at, and passages from them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from triqua.schema import Document, Evidence, Fact
from triqua.schema.citations import CitationSource
from triqua.tools.documents import load_documents
from triqua.tools.evidence_files import PathPolicy
from triqua.tools.supplied import SuppliedRetriever

#: Cited documents up to this many characters are given to the judge whole; longer ones are
#: cut into passages and the best-matching ones (BM25) are given.
WHOLE_DOCUMENT_CHARS = 4000


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


def passages_of(fact: Fact, documents: Sequence[Document], k: int) -> list[Evidence]:
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
