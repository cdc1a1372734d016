"""triqua: fact-level factuality checking with TriQua facts, evidence and TriQuaScore.

Public API::

    import triqua
    report = triqua.check("Marie Curie won the Nobel Prize in 1903.", documents=["..."])
    report.score, report.records[0].verdict.status
"""

from triqua.agents import as_tool
from triqua.api import acheck, check, make_context
from triqua.citations import check_cited
from triqua.context import Context
from triqua.graph.main import build_graph
from triqua.regrade import regrade
from triqua.resources import register_retriever
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

__version__ = "0.1.0"

__all__ = [
    "ClaimRecord",
    "Context",
    "Document",
    "Evidence",
    "Fact",
    "FactualitySpec",
    "Qualifier",
    "Report",
    "Status",
    "Verdict",
    "__version__",
    "acheck",
    "as_tool",
    "build_graph",
    "check",
    "check_cited",
    "make_context",
    "register_retriever",
    "regrade",
]
