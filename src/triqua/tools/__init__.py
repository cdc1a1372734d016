"""Retriever tools: supplied documents, closed book, Tavily web search and Chroma.

The contract lives in :mod:`triqua.tools.base`; build a retriever by kind with
:func:`triqua.tools.factory.build_retriever`. Backends are imported from their own
modules so that importing this package stays light.
"""

from triqua.tools.base import (
    BudgetExhausted,
    CombinedRetriever,
    Retriever,
    RetrieverError,
    RetrieverUnavailable,
    SearchBudget,
    SearchResult,
    format_evidence,
)
from triqua.tools.factory import RETRIEVER_KINDS, build_retriever, retriever_from_spec

__all__ = [
    "RETRIEVER_KINDS",
    "BudgetExhausted",
    "CombinedRetriever",
    "Retriever",
    "RetrieverError",
    "RetrieverUnavailable",
    "SearchBudget",
    "SearchResult",
    "build_retriever",
    "format_evidence",
    "retriever_from_spec",
]
