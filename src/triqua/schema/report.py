"""The result of one check: scores, records, what was left unchecked, and the outcome."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, computed_field

from triqua.schema.common import Span, Status, utc_now
from triqua.schema.facts import Fact
from triqua.schema.records import ClaimRecord, ElementClaim, Usage
from triqua.schema.redaction import RedactedText
from triqua.schema.spec import FactualitySpec

#: 1.2 added the element claims (``ClaimRecord.elements``, ``SentenceVerdict.elements``);
#: they default to none, so a report of an older version still loads.
REPORT_SCHEMA_VERSION = "1.2"

CoverageVerdict = Literal["addressed", "partly", "not_addressed"]


class RequestedCoverage(BaseModel):
    """Whether one answer addresses its question, as a chat model judged it.

    ``verdict`` is None when the judgement failed (``error`` says why).
    """

    question: str
    verdict: CoverageVerdict | None = None
    missing: list[str] = Field(
        default_factory=list, description="Parts of the question the answer leaves out."
    )
    rationale: RedactedText = ""
    judge: str = Field(default="", description="Revision of the judging model.")
    error: RedactedText | None = None


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


ChunkCause = Literal["error", "max_facts", "max_calls", "max_sentence_chars"]


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
        "once the run had made max_calls model calls; 'max_sentence_chars': a sentence "
        "longer than max_sentence_chars, a chunk of its own, not decomposed.",
    )


class UndecomposedSentence(BaseModel):
    """A sentence of a decomposed chunk from which the engine got no fact: left unchecked."""

    chunk_index: int = Field(ge=0)
    span: Span = Field(description="The sentence's characters in the checked text.")
    text: str


class UnfoundedFact(BaseModel):
    """A fact the decomposer gave that its text does not state: dropped, never checked."""

    chunk_index: int = Field(ge=0)
    fact: Fact
    reason: str = Field(description="Why: the names, numbers or words not found in the text.")


CheckworthyLabel = Literal["opinion", "question", "hedge", "instruction", "meta", "heading", "code"]


class SentenceVerdict(BaseModel):
    """One checked source sentence's verdict: the sentence read as one claim (ElementCheck).

    Supported only when every checkable unit of its facts is, contradicted when any is,
    insufficient evidence otherwise; a simple sentence's facts are judged together, a
    complex one's unit by unit (element level, with re-verification).
    """

    chunk_index: int = Field(ge=0)
    span: Span | None = Field(default=None, description="The sentence's characters, if known.")
    text: str = Field(description="The source sentence.")
    route: Literal["simple", "complex"] = Field(description="ElementCheck's route for it.")
    status: Status
    facts: list[str] = Field(description="Claim ids of the sentence's facts, in text order.")
    units_supported: int = Field(ge=0)
    units_total: int = Field(ge=0, description="Checkable units (not-checkable ones left out).")
    wrong: list[str] = Field(
        default_factory=list, description="Units judged contradicted (the error's location)."
    )
    unverified: list[str] = Field(
        default_factory=list, description="Units left insufficient evidence."
    )
    elements: list[ElementClaim] = Field(
        default_factory=list,
        description="Complex sentence: its element-level claims, each verified on its own; "
        "the sentence's status is derived from them.",
    )


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
    language: str | None = Field(
        default=None,
        description="The text's language (ISO 639-1): the language setting when given, else "
        "detected; None when it could not be told.",
    )
    engine: str = ""
    spec: FactualitySpec = Field(default_factory=FactualitySpec)
    scores: Scores = Field(default_factory=Scores)
    records: list[ClaimRecord] = Field(default_factory=list)
    sentences: list[SentenceVerdict] = Field(
        default_factory=list,
        description="One verdict per checked source sentence, in text order (ElementCheck's "
        "sentence-level view; the records hold the facts').",
    )
    usage: Usage = Field(default_factory=Usage)
    usage_by_role: dict[str, Usage] = Field(default_factory=dict)
    reverify_trigger_rate: float | None = Field(
        default=None,
        description="Share of facts a re-verification round judged again (ElementCheck's "
        "trigger; rounds that stopped before judging do not count), as the evaluations count.",
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
    unfounded_facts: list[UnfoundedFact] = Field(
        default_factory=list,
        description="Facts the decomposer gave that their text does not state (invented): "
        "dropped before verification, never scored.",
    )
    unverified_facts: list[Fact] = Field(
        default_factory=list,
        description="Facts found but not verified: the run stopped at max_facts.",
    )
    requested_coverage: RequestedCoverage | None = Field(
        default=None,
        description="With a question and a chat model: whether the text addresses what was "
        "asked (requested-content coverage), not whether it is true.",
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
        "characters. Sentences set aside as not check-worthy count neither way. With no "
        "checkable fact nothing was checked: 0 when some text was lost, None (undefined, as "
        "TriQuaScore) when nothing was; None also when unknown (reports made before it was "
        "measured).",
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

    @property
    def stopped_at(self) -> list[str]:
        """The run limits that stopped the check before the end of its text, else empty.

        'max_facts' when facts were found but never verified or chunks were skipped once
        the run had found max_facts facts; 'max_calls' when chunks were skipped once the
        model calls ran out (facts it left unjudged carry an error, counted in failures).
        """
        causes = {chunk.cause for chunk in self.failed_chunks}
        limits = []
        if self.unverified_facts or "max_facts" in causes:
            limits.append("max_facts")
        if "max_calls" in causes:
            limits.append("max_calls")
        return limits

    @computed_field  # type: ignore[prop-decorator]
    @property
    def outcome(self) -> Outcome:
        """'failed' when errors left nothing checked, 'partial' when part was, else 'complete'.

        Partial: some chunks or facts failed, or a limit stopped the run before the end of
        its text (:attr:`stopped_at`); what was checked is scored. Failed: something failed
        and no fact was verified without an error (every chunk's decomposition failed, or
        every fact's verification did). A run that found no fact without any failure or
        limit is complete: its score is undefined, but nothing went wrong.
        """
        if not self.failures:
            return "partial" if self.stopped_at else "complete"
        if any(not record.verdict.error for record in self.records):
            return "partial"
        return "failed"


def report_json_schema() -> dict[str, Any]:
    """The JSON schema of :class:`Report` (versioned by ``REPORT_SCHEMA_VERSION``)."""
    return Report.model_json_schema()
