"""What a check finds per fact: evidence, verdicts, usage, re-verification rounds, records."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from triqua.schema.common import Status, sha256_text, utc_now
from triqua.schema.facts import Fact, UnitKind
from triqua.schema.redaction import OptionalRedactedText, RedactedText


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


class ShownSentence(BaseModel):
    """One evidence sentence a judge was shown, where it stands in its passage."""

    model_config = {"frozen": True}

    evidence_id: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)


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
    shown: list[ShownSentence] | None = Field(
        default=None,
        description="The evidence sentences the judge was shown when it saw less than the "
        "whole passages (a batched call's evidence sheet), in passage order; None: every "
        "passage whole.",
    )
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
    evidence_ids: list[str] = Field(
        default_factory=list,
        description="Passages the round found that the fact did not hold before it.",
    )
    unit_verdicts: list[UnitVerdict] = Field(default_factory=list)
    stop_reason: OptionalRedactedText = None


class ElementClaim(BaseModel):
    """One attribute of one element of a complex sentence, verified as a claim of its own.

    ElementCheck's element level: "Marie Curie — won — Nobel Prize in Physics", "Nobel Prize
    in Physics — point in time — 1903". ``judged`` is the configured judge's verdict on the
    element claim alone (grounded like any verdict); ``status`` is what the sentence counts:
    that verdict, or the fact's own verdict on the unit stating it when the element claim
    was left insufficient (an element claim only adds evidence, never weakens a unit).
    """

    element: str = Field(description="The element, as its fact names it.")
    attribute: str = Field(description="The relation or qualifier label stated of it.")
    value: str = Field(description="What is stated: the object or the qualifier's value.")
    unit: str = Field(description="The fact unit that states it: '(s, r, o)' or '(label, v)'.")
    judged: Status = Field(description="The judge's verdict on the element claim alone.")
    status: Status = Field(description="The verdict the sentence counts (see above).")
    evidence_ids: list[str] = Field(default_factory=list)
    quote: str | None = Field(default=None, description="Verbatim quote it rests on, if any.")

    @property
    def text(self) -> str:
        """The claim as one line: ``element — attribute — value``."""
        return f"{self.element} — {self.attribute} — {self.value}"


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
    elements: list[ElementClaim] = Field(
        default_factory=list,
        description="Complex route: the fact's element-level claims, each verified on its own.",
    )
    usage: Usage = Field(default_factory=Usage)
    revisions: Revisions = Field(default_factory=Revisions)
    spec_hash: str = ""

    @property
    def rejudged(self) -> bool:
        """True when a re-verification round judged the fact again (ElementCheck's trigger).

        A round that judged nothing (no new query, nothing new found) does not count.
        """
        return any(r.unit_verdicts for r in self.rounds)
