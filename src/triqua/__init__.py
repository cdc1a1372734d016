"""triqua: fact-level factuality checking with TriQua facts, evidence and TriQuaScore.

Public API::

    import triqua
    report = triqua.check("Marie Curie won the Nobel Prize in 1903.", documents=["..."])
    report.score, report.records[0].verdict.status

The public names are loaded on first use (module ``__getattr__``, PEP 562): ``import triqua``
and ``triqua --help`` then pay for LangGraph, LangChain and the engines only when a check runs.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

from triqua.support.lazy import lazy_names

if TYPE_CHECKING:
    from triqua.api import (
        acheck,
        aextract_facts,
        averify_facts,
        check,
        extract_facts,
        make_context,
        verify_facts,
    )
    from triqua.citations import check_cited
    from triqua.context import Context
    from triqua.graph.main import build_graph, checkpoint_serde
    from triqua.graph.served import CallerRefusedError
    from triqua.integrations.agents import as_node, as_tool
    from triqua.regrade import RegradeError, regrade
    from triqua.runtime.resources import register_retriever
    from triqua.schema import (
        ClaimRecord,
        Document,
        Evidence,
        Fact,
        FactualitySpec,
        Qualifier,
        Report,
        Status,
        Verdict,
    )

__version__ = "0.5.0"  # the one place; pyproject reads it, CHANGELOG.md says what changed

#: Where each public name lives; ``__getattr__`` imports it from there on first access.
_EXPORTS = {
    "as_node": "triqua.integrations.agents",
    "as_tool": "triqua.integrations.agents",
    "acheck": "triqua.api",
    "check": "triqua.api",
    "extract_facts": "triqua.api",
    "aextract_facts": "triqua.api",
    "verify_facts": "triqua.api",
    "averify_facts": "triqua.api",
    "make_context": "triqua.api",
    "check_cited": "triqua.citations",
    "Context": "triqua.context",
    "build_graph": "triqua.graph.main",
    "CallerRefusedError": "triqua.graph.served",
    "checkpoint_serde": "triqua.graph.main",
    "regrade": "triqua.regrade",
    "RegradeError": "triqua.regrade",
    "register_retriever": "triqua.runtime.resources",
    **dict.fromkeys(
        (
            "ClaimRecord",
            "Document",
            "Evidence",
            "Fact",
            "FactualitySpec",
            "Qualifier",
            "Report",
            "Status",
            "Verdict",
        ),
        "triqua.schema",
    ),
}

__all__ = [
    "CallerRefusedError",
    "ClaimRecord",
    "Context",
    "Document",
    "Evidence",
    "Fact",
    "FactualitySpec",
    "Qualifier",
    "RegradeError",
    "Report",
    "Status",
    "Verdict",
    "__version__",
    "acheck",
    "aextract_facts",
    "as_node",
    "as_tool",
    "averify_facts",
    "build_graph",
    "check",
    "check_cited",
    "checkpoint_serde",
    "extract_facts",
    "make_context",
    "register_retriever",
    "regrade",
    "verify_facts",
]


__getattr__, __dir__ = lazy_names(__name__, _EXPORTS)


class _Package(types.ModuleType):
    """The package module, kept from losing a public function to a same-named submodule.

    Importing ``triqua.regrade`` makes the import system set ``triqua.regrade`` to the
    module; the public name must stay the function, so the function is bound instead.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and _EXPORTS.get(name) == value.__name__:
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
