"""Domain types of triqua: facts, units, evidence, verdicts, records, specs and reports.

Everything that crosses a module boundary or lands in a report is defined here, once, as a
pydantic v2 model, so that it round-trips through JSON and has a documented JSON schema
(``triqua schema`` prints it). The package splits by concept: ``common`` (hash, clock,
status, mode, span), ``facts`` (facts, units, documents, chunks), ``records`` (evidence,
verdicts, usage, claim records), ``spec`` (the frozen run contract) and ``report``; every
type is imported from ``triqua.schema``.
"""

from triqua.schema.common import Mode, Span, Status, sha256_text, utc_now
from triqua.schema.facts import Chunk, Document, Fact, FactUnit, Qualifier, UnitKind
from triqua.schema.records import (
    Basis,
    ClaimRecord,
    Evidence,
    ReverifyRound,
    Revisions,
    RoleUsage,
    ShownSentence,
    UnitVerdict,
    Usage,
    Verdict,
)
from triqua.schema.report import (
    REPORT_SCHEMA_VERSION,
    CheckworthyLabel,
    ChunkCause,
    ChunkFailure,
    CoverageVerdict,
    NotCheckworthySentence,
    Outcome,
    Report,
    RequestedCoverage,
    Scores,
    SentenceVerdict,
    UndecomposedSentence,
    UnfoundedFact,
    report_json_schema,
)
from triqua.schema.spec import (
    AggregationPolicy,
    CitationPolicy,
    ClaimPolicy,
    CorpusSnapshot,
    FactualitySpec,
    FailureCosts,
    RetrieverBudget,
    SourcePolicy,
    VerdictPolicy,
)

__all__ = [
    "REPORT_SCHEMA_VERSION",
    "AggregationPolicy",
    "Basis",
    "CheckworthyLabel",
    "Chunk",
    "ChunkCause",
    "ChunkFailure",
    "CitationPolicy",
    "ClaimPolicy",
    "ClaimRecord",
    "CorpusSnapshot",
    "CoverageVerdict",
    "Document",
    "Evidence",
    "Fact",
    "FactUnit",
    "FactualitySpec",
    "FailureCosts",
    "Mode",
    "NotCheckworthySentence",
    "Outcome",
    "Qualifier",
    "Report",
    "RequestedCoverage",
    "RetrieverBudget",
    "ReverifyRound",
    "Revisions",
    "RoleUsage",
    "Scores",
    "SentenceVerdict",
    "ShownSentence",
    "SourcePolicy",
    "Span",
    "Status",
    "UndecomposedSentence",
    "UnfoundedFact",
    "UnitKind",
    "UnitVerdict",
    "Usage",
    "Verdict",
    "VerdictPolicy",
    "report_json_schema",
    "sha256_text",
    "utc_now",
]
