"""The frozen contract of a run (``FactualitySpec``) and the policies it is made of."""

from __future__ import annotations

import json
from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

from triqua.schema.common import Mode, Status, sha256_text


class RetrieverBudget(BaseModel):
    """Bounds on retrieval for one run."""

    max_searches: int = Field(default=50, ge=0, description="Searches allowed per run.")
    max_results: int = Field(default=5, ge=1, description="Passages kept per query.")
    candidates: int | None = Field(
        default=None, ge=1, description="Passages fetched per query before reranking."
    )
    rerank: str | None = Field(
        default=None, description="Reranker revision (None: retrieval order kept)."
    )


class SourcePolicy(BaseModel):
    """Which sources may serve as evidence."""

    allowed_domains: list[str] = Field(default_factory=list)
    blocked_domains: list[str] = Field(default_factory=list)


class ClaimPolicy(BaseModel):
    """How text becomes facts."""

    chunk_size: int = 300
    decompose_batch_chars: int = Field(
        default=0,
        ge=0,
        description="Characters of consecutive chunks decomposed in one call (0: per chunk).",
    )
    keep_uncheckworthy: bool = Field(
        default=False,
        description="Check sentences classed not check-worthy (opinions, questions, hedges, "
        "instructions, meta-statements) too; by default their facts are dropped.",
    )


class VerdictPolicy(BaseModel):
    """How verdicts are reached and bounded."""

    statuses: list[Status] = Field(default_factory=lambda: list(Status))
    supported_requires_evidence: Literal[True] = Field(
        default=True,
        description="The grounding rule, always enforced: a unit is supported only with a "
        "cited evidence id of this run and a verbatim quote from it.",
    )
    reverify_rounds: int = 2
    delta: int = 3
    max_qualifiers: int = Field(default=0, description="Qualifier limit of routing (0: none).")
    elements: str = Field(
        default="parse",
        description="Where routing's element graphs came from: 'parse' (each sentence's "
        "entities, values and dates, joined by the relations the text states, coreferent "
        "mentions merged) or 'facts' (the decomposed facts' elements).",
    )
    mention_links: bool = Field(
        default=False, description="Routing joined elements named inside longer ones."
    )
    verify_batch: int = Field(
        default=1,
        ge=1,
        description="Facts judged in one call, whole sentences packed (1: one call per fact).",
    )


class AggregationPolicy(BaseModel):
    """How unit verdicts become scores."""

    dedup: bool = True
    qualifier_identity: Literal["subject+qualifier"] = "subject+qualifier"
    insufficient_counts_as: Literal["unsupported"] = "unsupported"


def bayes_threshold(false_supported: float, false_contradicted: float) -> float:
    """Least confidence at which "supported" costs less in expectation than withholding it.

    Raises:
        ValueError: when both costs are zero or one is negative.
    """
    if false_supported < 0 or false_contradicted < 0 or false_supported + false_contradicted == 0:
        raise ValueError(
            "failure costs must be >= 0 and not both zero, got "
            f"{false_supported} and {false_contradicted}"
        )
    return false_supported / (false_supported + false_contradicted)


class FailureCosts(BaseModel):
    """What a wrong verdict costs the decision, and the abstention threshold they imply.

    Releasing "supported" at confidence ``p`` risks ``(1 - p) · false_supported``; not
    releasing it risks ``p · false_contradicted``. The Bayes decision releases "supported"
    only when ``p >= false_supported / (false_supported + false_contradicted)``; below that
    the verdict is withheld as insufficient evidence, with the reason recorded.
    """

    model_config = ConfigDict(frozen=True)

    false_supported: float = Field(ge=0, description="Cost of a false 'supported'.")
    false_contradicted: float = Field(ge=0, description="Cost of a false 'contradicted'.")

    @model_validator(mode="after")
    def _defines_a_threshold(self) -> FailureCosts:
        """Reject costs that define no threshold (both zero, or not finite)."""
        total = self.false_supported + self.false_contradicted
        if not 0 < total < float("inf"):
            raise ValueError("failure costs must be finite and not both zero")
        return self

    @computed_field  # type: ignore[prop-decorator]
    @property
    def supported_threshold(self) -> float:
        """Least verdict confidence at which "supported" is released."""
        return self.false_supported / (self.false_supported + self.false_contradicted)


class CorpusSnapshot(BaseModel):
    """What the evidence was at run time, so a later run can tell whether it changed.

    Chroma: the collection's chunk count and a hash over its chunk ids (triqua's ingest
    derives each id from the chunk's source, offsets and content hash). Supplied
    documents: each document's SHA-256 and a hash over them. Web search: the date the
    searches describe (``as_of``, else the run date).
    """

    model_config = ConfigDict(frozen=True)

    kind: str = Field(description="Retriever kind: supplied, chroma, tavily, closed_book, ….")
    collection: str | None = None
    count: int | None = Field(default=None, description="Chunks (Chroma) or documents.")
    content_hash: str | None = Field(
        default=None, description="SHA-256 over the sorted chunk ids or document hashes."
    )
    documents: dict[str, str] = Field(
        default_factory=dict, description="Supplied document id -> SHA-256 of its text."
    )
    as_of: date | None = Field(default=None, description="Web search: the date searched.")
    note: str | None = Field(default=None, description="Why part of the snapshot is unknown.")


class CitationPolicy(BaseModel):
    """How ``--citations`` maps claims to the sources they cite and scores the links."""

    model_config = ConfigDict(frozen=True)

    mapping: Literal["sentence_markers"] = Field(
        default="sentence_markers",
        description="A claim cites the markers in its sentence or right after it.",
    )
    span: Literal["sentence"] = Field(
        default="sentence", description="A claim's region: its span extended to sentence end."
    )
    contradiction: Literal["blocks_complete"] = Field(
        default="blocks_complete",
        description="A claim with a contradicting cited source is never complete.",
    )
    unavailable: Literal["counted"] = Field(
        default="counted",
        description="Unavailable links stay in the link denominator and are counted apart.",
    )
    complete_weight: float = Field(
        default=1.0, ge=0, le=1, description="Credit of a claim its cites fully support."
    )
    partial_weight: float = Field(
        default=0.0,
        ge=0,
        le=1,
        description="Credit of a claim its cites support in part (some units, not all); "
        "0 by default, as the evidence contract scores completeness 0 or 1.",
    )

    @model_validator(mode="after")
    def _partial_within_complete(self) -> CitationPolicy:
        """Partial support never earns more than complete support."""
        if self.partial_weight > self.complete_weight:
            raise ValueError(
                f"citation weights: partial ({self.partial_weight}) exceeds complete "
                f"({self.complete_weight})"
            )
        return self


#: Spec fields added after version 1: they enter the hash only when set, so a stored
#: report made before they existed keeps the hash its records carry.
_LATER_FIELDS = (
    "decision",
    "failure_costs",
    "case_population",
    "corpus_snapshot",
    "citations",
    "grounding",
)
#: The grounding rules: "judged" (the cited window writes the unit's words or the entailment
#: judge entails it, value gates veto), "judge" (the entailment judge reads the cited window,
#: value gates veto) and "strict" (the cited sentence states the unit's words).
GroundingRule = Literal["judged", "judge", "strict"]


class FactualitySpec(BaseModel):
    """The frozen contract of a run: what counts as evidence, who judges, how it is scored."""

    model_config = ConfigDict(frozen=True)

    version: str = "1"
    mode: Mode = Mode.SUPPLIED_CONTEXT
    authority: str = Field(default="", description="Whose word counts, e.g. 'supplied documents'.")
    as_of: date | None = Field(default=None, description="Time the claims are judged at.")
    corpus: str | None = Field(default=None, description="Corpus snapshot or collection name.")
    retriever: str = "supplied"
    budget: RetrieverBudget = Field(default_factory=RetrieverBudget)
    source_policy: SourcePolicy = Field(default_factory=SourcePolicy)
    claim_policy: ClaimPolicy = Field(default_factory=ClaimPolicy)
    verdict_policy: VerdictPolicy = Field(default_factory=VerdictPolicy)
    models: dict[str, str] = Field(default_factory=dict, description="Model revision per role.")
    aggregation: AggregationPolicy = Field(default_factory=AggregationPolicy)
    decision: str | None = Field(
        default=None, description="What the score will be used for (e.g. 'publish gate')."
    )
    failure_costs: FailureCosts | None = Field(
        default=None, description="Costs of wrong verdicts; set the abstention threshold."
    )
    case_population: str | None = Field(
        default=None, description="Which texts the run's cases stand for."
    )
    corpus_snapshot: CorpusSnapshot | None = Field(
        default=None, description="The evidence as it was at run time."
    )
    citations: CitationPolicy | None = Field(
        default=None, description="Citation mapping, span and scoring policy (--citations)."
    )
    grounding: GroundingRule | None = Field(
        default=None,
        description="The grounding rule that judged a cited 'supported': 'judged' (the "
        "cited window writes the unit's words or the entailment judge finds it entailing "
        "the unit, no gate fires), 'judge' (the "
        "entailment judge finds the cited window entailing the unit, no value gate fires) "
        "or 'strict' (the cited sentence states the unit's words). None: a run made before "
        "the rule could be chosen, judged by the strict rule.",
    )

    @property
    def grounding_rule(self) -> GroundingRule:
        """The grounding rule of the run ("strict" for a run that predates the choice)."""
        return self.grounding or "strict"

    @computed_field  # type: ignore[prop-decorator]
    @property
    def hash(self) -> str:
        """Stable SHA-256 of the spec's canonical JSON (excluding the hash itself).

        Fields added after version 1 are left out while unset (None), so specs stored
        before they existed keep their hash.
        """
        payload = self.model_dump(mode="json", exclude={"hash"})
        for name in _LATER_FIELDS:
            if payload.get(name) is None:
                payload.pop(name, None)
        return sha256_text(json.dumps(payload, sort_keys=True, separators=(",", ":")))
