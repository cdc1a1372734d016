"""Domain types of triqua: facts, units, evidence, verdicts, records, specs and reports.

Everything that crosses a module boundary or lands in a report is defined here, once, as a
pydantic v2 model, so that it round-trips through JSON and has a documented JSON schema
(``triqua schema`` prints it).
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

from triqua.core.redaction import OptionalRedactedText, RedactedText

REPORT_SCHEMA_VERSION = "1.0"


def sha256_text(text: str) -> str:
    """Return the hex SHA-256 of ``text`` encoded as UTF-8 (the content hash used everywhere)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def utc_now() -> datetime:
    """Return the current time, timezone-aware in UTC."""
    return datetime.now(UTC)


class Status(StrEnum):
    """Verdict of a fact or of one fact unit.

    ``insufficient_evidence`` is not "false": it stays distinct from ``contradicted``.
    ``not_checkable`` marks content with nothing to check (and is left out of scores).
    """

    SUPPORTED = "supported"
    CONTRADICTED = "contradicted"
    INSUFFICIENT = "insufficient_evidence"
    NOT_CHECKABLE = "not_checkable"


class Mode(StrEnum):
    """Where the evidence of a run may come from (the evidence contract's modes)."""

    CLOSED_BOOK = "closed_book"
    SUPPLIED_CONTEXT = "supplied_context"
    BOUNDED_SEARCH = "bounded_search"


class Span(BaseModel):
    """Half-open character range ``[start, end)`` in a text."""

    model_config = ConfigDict(frozen=True)

    start: int = Field(ge=0)
    end: int = Field(ge=0)


class Qualifier(BaseModel):
    """A Wikidata-style qualifier ``(label, value)`` that modifies a base triple only."""

    model_config = ConfigDict(frozen=True)

    label: str = Field(description="Qualifier property, e.g. 'point in time', 'location'.")
    value: str = Field(description="Qualifier value, e.g. '2026', 'Paris'.")

    def __str__(self) -> str:
        return f"({self.label}, {self.value})"


UnitKind = Literal["base", "qualifier"]


class FactUnit(BaseModel):
    """One scoring unit: the base triple of a fact, or one of its qualifiers.

    A qualifier unit's identity includes the subject of its fact, so the same
    ``(point in time, 1990)`` on two different subjects is two units.
    """

    model_config = ConfigDict(frozen=True)

    kind: UnitKind
    subject: str
    relation: str
    object: str
    label: str | None = None
    value: str | None = None

    @property
    def text(self) -> str:
        """The unit as written in a fact string: ``(s, r, o)`` or ``(label, value)``."""
        if self.kind == "base":
            return f"({self.subject}, {self.relation}, {self.object})"
        return f"({self.label}, {self.value})"


class Fact(BaseModel):
    """A TriQua fact: base triple ``(subject, relation, object)`` plus independent qualifiers."""

    id: str = Field(default="", description="Run-unique fact id, e.g. 'f3'.")
    subject: str
    relation: str
    object: str
    qualifiers: list[Qualifier] = Field(default_factory=list)
    span: Span | None = Field(default=None, description="Source span in the checked text.")
    chunk_index: int = 0
    source_text: str = Field(default="", description="The sentence or clause it came from.")

    @property
    def has_qualifiers(self) -> bool:
        """True when the fact carries at least one qualifier."""
        return bool(self.qualifiers)

    @property
    def triple_text(self) -> str:
        """The base triple as ``(s, r, o)``."""
        return f"({self.subject}, {self.relation}, {self.object})"

    def to_string(self) -> str:
        """Fact string form: ``(s, r, o)`` or ``(s, r, o)-(q1, v1)-…-(qm, vm)``."""
        return "-".join([self.triple_text, *(str(q) for q in self.qualifiers)])

    def query(self) -> str:
        """Retrieval query form: ``s r o`` or ``s r o q1 v1 … qm vm``."""
        parts = [self.subject, self.relation, self.object]
        for qualifier in self.qualifiers:
            parts.extend([qualifier.label, qualifier.value])
        return " ".join(p for p in parts if p)

    def units(self) -> list[FactUnit]:
        """The fact's units: the base triple first, then one per qualifier."""
        base = {"subject": self.subject, "relation": self.relation, "object": self.object}
        return [FactUnit(kind="base", **base)] + [
            FactUnit(kind="qualifier", label=q.label, value=q.value, **base)
            for q in self.qualifiers
        ]

    @classmethod
    def parse(cls, text: str, **fields: Any) -> Fact:
        """Parse the fact string form ``(s, r, o)-(q, v)-…`` back into a ``Fact``.

        Raises:
            ValueError: when the text is not in fact string form.
        """
        groups = _GROUP.findall(text.strip())
        if not groups or _GROUP.sub("", text).strip("- \t") != "":
            raise ValueError(f"not a fact string: {text!r}")
        base = [p.strip() for p in groups[0].split(",")]
        if len(base) < 3:
            raise ValueError(f"base triple needs 3 parts: {groups[0]!r}")
        subject, relation, obj = base[0], base[1], ", ".join(base[2:])
        qualifiers = []
        for group in groups[1:]:
            label, sep, value = group.partition(",")
            if not sep:
                raise ValueError(f"qualifier needs a label and a value: {group!r}")
            qualifiers.append(Qualifier(label=label.strip(), value=value.strip()))
        return cls(subject=subject, relation=relation, object=obj, qualifiers=qualifiers, **fields)


_GROUP = re.compile(r"\(([^()]*)\)")


class Document(BaseModel):
    """A document supplied by the caller (or ingested into a corpus)."""

    id: str = ""
    text: str
    source: str | None = Field(default=None, description="URL or file path.")
    title: str | None = None
    url: str | None = Field(
        default=None, description="The URL the text was taken from (a JSONL line's ``url``)."
    )

    def model_post_init(self, __context: Any) -> None:
        """Give the document a content-derived id when none was set."""
        if not self.id:
            self.id = "doc-" + sha256_text(self.text)[:12]


class Evidence(BaseModel):
    """One evidence passage, with where it came from and how it was found."""

    id: str = Field(description="Stable id: retriever, document and offsets.")
    document_id: str
    source: str | None = Field(default=None, description="URL or file path of the document.")
    title: str | None = None
    text: str
    start: int | None = Field(default=None, description="Start offset in the document.")
    end: int | None = Field(default=None, description="End offset in the document.")
    content_hash: str = Field(description="SHA-256 of ``text``.")
    score: float | None = None
    rank: int | None = Field(default=None, description="Rank the retriever gave the passage.")
    rerank_rank: int | None = Field(
        default=None, description="Rank after reranking (None: not reranked)."
    )
    rerank_score: float | None = Field(
        default=None, description="Reranker's similarity of the passage to the query."
    )
    retriever: str = ""
    retrieved_at: datetime | None = None

    @classmethod
    def build(
        cls,
        *,
        document_id: str,
        text: str,
        retriever: str,
        source: str | None = None,
        title: str | None = None,
        start: int | None = None,
        end: int | None = None,
        score: float | None = None,
        rank: int | None = None,
    ) -> Evidence:
        """Create evidence with its content hash, stable id and retrieval time filled in."""
        content_hash = sha256_text(text)
        ident = f"{retriever}:{document_id}:{start}:{end}:{content_hash[:12]}"
        return cls(
            id="ev-" + sha256_text(ident)[:16],
            document_id=document_id,
            source=source,
            title=title,
            text=text,
            start=start,
            end=end,
            content_hash=content_hash,
            score=score,
            rank=rank,
            retriever=retriever,
            retrieved_at=utc_now(),
        )


class UnitVerdict(BaseModel):
    """The verdict on one unit (base triple or one qualifier) of a fact."""

    unit: str = Field(description="Unit text: '(s, r, o)' or '(label, value)'.")
    kind: UnitKind
    status: Status
    error_span: str | None = Field(default=None, description="The wrong text, when wrong.")
    evidence_ids: list[str] = Field(default_factory=list)
    confidence: float | None = None
    quote: str | None = Field(
        default=None,
        description="Verbatim quote of the cited passage the verdict rests on, as the passage "
        "writes it (grounding checked).",
    )
    grounding: str | None = Field(
        default=None,
        description="Why the judge's verdict was downgraded to insufficient_evidence by the "
        "grounding rule (cited id unknown, quote not found, quote lacks a value), else None.",
    )
    abstention: str | None = Field(
        default=None,
        description="Why a 'supported' verdict was withheld (insufficient_evidence): its "
        "confidence was below the spec's abstention threshold; else None.",
    )


Basis = Literal["evidence", "parametric", "none"]


class Verdict(BaseModel):
    """A judge's verdict on a fact, with the wrong components named."""

    status: Status
    wrong_components: list[str] = Field(
        default_factory=list, description="Unit texts judged wrong: the base triple or qualifiers."
    )
    error_spans: list[str] = Field(default_factory=list, description="Exact wrong text spans.")
    unit_verdicts: list[UnitVerdict] = Field(default_factory=list)
    rationale: RedactedText = ""
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    evidence_ids: list[str] = Field(default_factory=list)
    quote: str | None = Field(
        default=None, description="Verbatim quote the fact-level verdict rests on, if any."
    )
    grounding: str | None = Field(
        default=None,
        description="Grounding downgrades of this verdict, one 'unit: reason' per unit, else None.",
    )
    abstention: str | None = Field(
        default=None,
        description="'supported' verdicts withheld below the abstention threshold, one "
        "'unit: reason' per unit, else None.",
    )
    basis: Basis = Field(
        default="evidence",
        description="'evidence' (declared evidence), 'parametric' (closed-book model knowledge).",
    )
    raw_output: OptionalRedactedText = None
    error: OptionalRedactedText = Field(
        default=None, description="Why verification failed, if it did."
    )
    judge: str = Field(default="", description="Judge revision (engine/model id).")
    revision: int = Field(default=0, description="0 for the first verdict, +1 per re-grade.")
    created_at: datetime = Field(default_factory=utc_now)


class Usage(BaseModel):
    """Model and search calls (and tokens) spent on a piece of work."""

    model_calls: int = 0
    search_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cached_input_tokens: int = Field(
        default=0, description="Input tokens the provider served from its prompt cache."
    )
    tokens_estimated: bool = False

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            model_calls=self.model_calls + other.model_calls,
            search_calls=self.search_calls + other.search_calls,
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cached_input_tokens=self.cached_input_tokens + other.cached_input_tokens,
            tokens_estimated=self.tokens_estimated or other.tokens_estimated,
        )


class RoleUsage(BaseModel):
    """Usage spent by one role (decompose / verify / refine / search) in one step."""

    role: str
    usage: Usage


class ReverifyRound(BaseModel):
    """One re-verification round of a complex fact."""

    round: int
    units: list[str] = Field(description="Units re-verified in this round.")
    claim: str = Field(
        default="",
        description="The contextual claim judged: the unresolved units and the elements that "
        "connect them to the rest of the sentence, as a sentence.",
    )
    queries: list[str]
    evidence_ids: list[str] = Field(default_factory=list)
    unit_verdicts: list[UnitVerdict] = Field(default_factory=list)
    stop_reason: OptionalRedactedText = None


class Revisions(BaseModel):
    """Revisions of the components that produced a record."""

    extractor: str = ""
    retriever: str = ""
    judge: str = ""


class ClaimRecord(BaseModel):
    """Everything about one checked fact: the claim, its evidence, its verdicts and provenance."""

    case_id: str = ""
    response_id: str = ""
    claim_id: str
    claim_text: str = Field(description="The fact in string form.")
    source_text: str = Field(default="", description="The text span the fact came from.")
    context: str = Field(default="", description="Resolved context: question, previous chunk.")
    fact: Fact
    evidence: list[Evidence] = Field(default_factory=list)
    verdict: Verdict
    history: list[Verdict] = Field(
        default_factory=list, description="Earlier verdicts, oldest first (append-only)."
    )
    complexity: dict[str, float | int | bool | str] = Field(default_factory=dict)
    route: Literal["simple", "complex"] = "simple"
    rounds: list[ReverifyRound] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    revisions: Revisions = Field(default_factory=Revisions)
    spec_hash: str = ""


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
    max_qualifiers: int = 3
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
        default=0.5,
        ge=0,
        le=1,
        description="Credit of a claim its cites support in part (some units, not all).",
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
_LATER_FIELDS = ("decision", "failure_costs", "case_population", "corpus_snapshot", "citations")


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


class Scores(BaseModel):
    """TriQuaScore and its companions; ``None`` means undefined (nothing checkable)."""

    triqua_score: float | None = None
    claim_level_score: float | None = None
    no_dedup_score: float | None = None
    factscore_precision: float | None = None
    contradiction_rate: float | None = None
    abstentions: int = 0
    units_total: int = 0
    units_supported: int = 0
    units_raw: int = 0
    facts_total: int = 0
    facts_by_status: dict[str, int] = Field(default_factory=dict)


ChunkCause = Literal["error", "max_facts", "max_calls"]


class Chunk(BaseModel):
    """A piece of the input text with its position."""

    index: int
    text: str
    start: int
    end: int


class ChunkFailure(BaseModel):
    """A chunk of the text that was not decomposed, so none of its facts were checked."""

    chunk_index: int = Field(ge=0, description="Index of the chunk in the run's chunking.")
    span: Span = Field(description="The chunk's characters in the checked text.")
    text: str = Field(description="The chunk's text.")
    error: RedactedText = Field(description="Why it was not decomposed.")
    cause: ChunkCause = Field(
        default="error",
        description="'error': the decomposition failed (counted in ``failures``); "
        "'max_facts': skipped once the run had found max_facts facts; 'max_calls': skipped "
        "once the run had made max_calls model calls.",
    )


class UndecomposedSentence(BaseModel):
    """A sentence of a decomposed chunk from which the engine got no fact: left unchecked."""

    chunk_index: int = Field(ge=0)
    span: Span = Field(description="The sentence's characters in the checked text.")
    text: str


CheckworthyLabel = Literal["opinion", "question", "hedge", "instruction", "meta"]


class NotCheckworthySentence(BaseModel):
    """A sentence that asserts nothing to check (opinion, question, hedge, instruction, meta).

    Its facts are not checked (unless kept) and it counts toward
    neither the score nor coverage.
    """

    chunk_index: int = Field(ge=0)
    span: Span = Field(description="The sentence's characters in the checked text.")
    text: str
    label: CheckworthyLabel = Field(description="Why it is not check-worthy: its class.")
    reason: str = Field(default="", description="The rule and the words that classed it.")
    facts: int = Field(
        default=0, ge=0, description="Facts the decomposer found in it (dropped unless kept)."
    )
    kept: bool = Field(
        default=False,
        description="Checked anyway (keep_uncheckworthy): its facts count like any other.",
    )


Outcome = Literal["complete", "partial", "failed"]


class Report(BaseModel):
    """The result of one check: scores, one record per fact, the spec and the costs."""

    schema_version: str = REPORT_SCHEMA_VERSION
    run_id: str = ""
    created_at: datetime = Field(default_factory=utc_now)
    input_hash: str = ""
    question: str | None = None
    engine: str = ""
    spec: FactualitySpec = Field(default_factory=FactualitySpec)
    scores: Scores = Field(default_factory=Scores)
    records: list[ClaimRecord] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    usage_by_role: dict[str, Usage] = Field(default_factory=dict)
    reverify_trigger_rate: float | None = Field(
        default=None, description="Share of facts that entered re-verification."
    )
    model_calls_per_fact: float | None = None
    search_calls_per_fact: float | None = None
    failures: int = Field(
        default=0,
        description="Facts whose verification failed (their verdict carries an error) plus "
        "chunks whose decomposition failed (``failed_chunks`` with cause 'error').",
    )
    chunks: int = Field(default=0, ge=0, description="Chunks the text was split into.")
    failed_chunks: list[ChunkFailure] = Field(
        default_factory=list,
        description="Chunks that were not decomposed, each with its span, index and error.",
    )
    undecomposed: list[UndecomposedSentence] = Field(
        default_factory=list, description="Sentences of decomposed chunks that yielded no fact."
    )
    unverified_facts: list[Fact] = Field(
        default_factory=list,
        description="Facts found but not verified: the run stopped at max_facts.",
    )
    not_checkworthy: list[NotCheckworthySentence] = Field(
        default_factory=list,
        description="Sentences classed not check-worthy, with class and reason; unless kept, "
        "their facts were dropped and they count toward neither the score nor coverage.",
    )
    coverage: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="Share of the text that was checked: its non-whitespace characters that "
        "lie in a decomposed chunk and in no not-decomposed sentence, no span of a fact whose "
        "verification failed and no span of an unverified fact, over all its non-whitespace "
        "characters. Sentences set aside as not check-worthy count neither way. None when "
        "unknown (reports made before it was measured).",
    )
    extraction_recall: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="Share of the check-worthy text the facts cover: non-whitespace characters "
        "of check-worthy sentences inside some fact's span, over all of them. None when unknown.",
    )
    errors: list[RedactedText] = Field(default_factory=list)
    notes: list[RedactedText] = Field(default_factory=list)

    @property
    def score(self) -> float | None:
        """Shortcut for ``scores.triqua_score``."""
        return self.scores.triqua_score

    @computed_field  # type: ignore[prop-decorator]
    @property
    def outcome(self) -> Outcome:
        """'failed' when errors left nothing checked, 'partial' when some failed, else 'complete'.

        Failed: something failed and no fact was verified without an error (every chunk's
        decomposition failed, or every fact's verification did). A run that found no fact
        without any failure is complete: its score is undefined, but nothing went wrong.
        """
        if not self.failures:
            return "complete"
        if any(not record.verdict.error for record in self.records):
            return "partial"
        return "failed"


def report_json_schema() -> dict[str, Any]:
    """The JSON schema of :class:`Report` (versioned by ``REPORT_SCHEMA_VERSION``)."""
    return Report.model_json_schema()
