"""Retriever tools: supplied documents, closed book, Tavily web search and Chroma.

The contract lives in :mod:`triqua.tools.base`; build a retriever by kind with
:func:`triqua.tools.factory.build_retriever`. Backends are imported from their own
modules, and the names below on first use (module ``__getattr__``), so that importing this
package (e.g. for :mod:`triqua.tools.paths`) loads no LangChain.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    from triqua.tools.kinds import RETRIEVER_KINDS

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
    "RETRIEVER_KINDS": "triqua.tools.kinds",
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


def __getattr__(name: str) -> Any:
    """Import a public name from its module the first time it is used."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'triqua.tools' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
