"""Retrieval over the caller's supplied documents: passages ranked with BM25 (``bm25s``).

Supplied documents are local, so searching them never draws on the external search
budget; searches are still counted (``Retriever.calls``).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

import bm25s
import numpy as np
from bm25s.tokenization import Tokenizer

from triqua.schema import Document, Evidence
from triqua.tools.base import Retriever, SearchBudget, SearchResult, check_k
from triqua.tools.documents import load_documents, split_passages

__all__ = ["SuppliedRetriever", "load_documents"]


@dataclass(frozen=True)
class _Indexed:
    """A passage with the document it came from."""

    document: Document
    start: int
    end: int
    text: str


class SuppliedRetriever(Retriever):
    """BM25 over passages of the supplied documents (offsets kept into each document)."""

    name = "supplied"
    in_process = True  # BM25 over the documents it holds

    def __init__(self, documents: Sequence[Document], passage_chars: int = 600) -> None:
        """Split the documents into passages of about ``passage_chars`` and index them."""
        super().__init__()
        if passage_chars < 50:
            raise ValueError(f"passage_chars must be >= 50, got {passage_chars}")
        self.passage_chars = passage_chars
        self.revision = f"supplied/bm25s-{bm25s.__version__} passage_chars={passage_chars}"
        self.documents = list(documents)
        self._passages = [
            _Indexed(doc, p.start, p.end, p.text)
            for doc in self.documents
            if doc.text.strip()
            for p in split_passages(doc.text, passage_chars)
        ]
        self._tokenizer = Tokenizer(stopwords="en")
        self._index: bm25s.BM25 | None = None
        # bm25s tokenizers keep mutable state; one query at a time keeps them consistent.
        self._lock = threading.Lock()
        if self._passages:
            ids = self._tokenizer.tokenize(
                [p.text for p in self._passages], return_as="ids", show_progress=False
            )
            self._index = bm25s.BM25()
            self._index.index(ids, show_progress=False)
        # Index 0 of the vocabulary is the empty token: never a query term.
        self._empty_id = self._tokenizer.get_vocab_dict().get("")

    @property
    def passage_count(self) -> int:
        """Number of indexed passages."""
        return len(self._passages)

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        """Top-``k`` passages by BM25 score; passages sharing no term with the query are left out.

        ``budget`` is accepted for the common interface and left untouched.
        """
        check_k(k)
        self._count_call()
        if self._index is None:
            return SearchResult(evidence=[])
        with self._lock:
            tokens = self._tokenizer.tokenize(
                [query], update_vocab=False, return_as="ids", show_progress=False
            )[0]
            terms = [t for t in tokens if t != self._empty_id]
            if not terms:
                return SearchResult(evidence=[])
            scores = np.asarray(self._index.get_scores(terms))
        # Stable sort: equal scores keep document order, so results are deterministic.
        order = np.argsort(-scores, kind="stable")[:k]
        evidence: list[Evidence] = []
        for idx in order:
            score = float(scores[idx])
            if score <= 0.0:
                break
            passage = self._passages[int(idx)]
            evidence.append(
                Evidence.build(
                    document_id=passage.document.id,
                    text=passage.text,
                    retriever=self.name,
                    source=passage.document.source,
                    title=passage.document.title,
                    start=passage.start,
                    end=passage.end,
                    score=score,
                    rank=len(evidence) + 1,
                )
            )
        return SearchResult(evidence=evidence)

    def describe(self) -> str:
        """Where this retriever looks."""
        return f"the {len(self.documents)} supplied document(s)"
