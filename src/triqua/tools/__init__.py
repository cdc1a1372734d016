"""Retriever tools: supplied documents, closed book, Tavily web search and Chroma.

The contract lives in :mod:`triqua.tools.base`; build a retriever by kind with
:func:`triqua.tools.factory.build_retriever`. Backends are imported from their own
modules, and the names below on first use (module ``__getattr__``), so that importing this
package (e.g. for :mod:`triqua.tools.paths`) loads no LangChain.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from triqua.support.lazy import lazy_names

if TYPE_CHECKING:
    from triqua.schema.retriever_kinds import RETRIEVER_KINDS
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
    from triqua.tools.factory import build_retriever

_EXPORTS = {
    **dict.fromkeys(
        (
            "BudgetExhausted",
            "CombinedRetriever",
            "Retriever",
            "RetrieverError",
            "RetrieverUnavailable",
            "SearchBudget",
            "SearchResult",
            "format_evidence",
        ),
        "triqua.tools.base",
    ),
    "build_retriever": "triqua.tools.factory",
    "RETRIEVER_KINDS": "triqua.schema.retriever_kinds",
}

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
]


__getattr__, __dir__ = lazy_names(__name__, _EXPORTS)
