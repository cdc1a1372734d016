"""The citation check's types: a cited text, its sources and markers, links and the report."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from triqua.schema import CitationPolicy, Evidence, Status, Usage, Verdict
from triqua.support.wording import counted

SourceKind = Literal["url", "path", "text"]
#: How far a claim's cited sources support it (see the module docstring).
Support = Literal["complete", "partial", "unsupported", "contradicted"]


class CitationSource(BaseModel):
    """One entry of the source list: its key, what it points at and the line as written."""

    key: str
    target: str = Field(description="URL, file path, or the entry's text.")
    kind: SourceKind
    line: str


class CitationMarker(BaseModel):
    """A marker in the text: the keys it cites and where it stood."""

    keys: list[str]
    position: int = Field(description="Offset in the checked text where the marker was removed.")
    start: int = Field(description="Start offset in the original text.")
    end: int = Field(description="End offset in the original text.")


class CitedText(BaseModel):
    """A text split into the part to check, its markers and its source list."""

    original: str
    text: str = Field(description="The text to check: no source list, no markers.")
    sources: dict[str, CitationSource] = Field(default_factory=dict)
    markers: list[CitationMarker] = Field(default_factory=list)

    @property
    def has_citations(self) -> bool:
        """True when the text cites anything (markers or a source list)."""
        return bool(self.markers or self.sources)


class CitationLink(BaseModel):
    """One claim–source link and whether that source, alone, supports the claim."""

    claim_id: str
    key: str
    target: str | None = Field(default=None, description="None when the key is not listed.")
    available: bool = False
    reason: str | None = Field(default=None, description="Why the source could not be used.")
    verdict: Verdict | None = None
    evidence: list[Evidence] = Field(default_factory=list)

    @property
    def supports(self) -> bool:
        """True when the source was judged to support the claim."""
        return self.verdict is not None and self.verdict.status == Status.SUPPORTED

    @property
    def contradicts(self) -> bool:
        """True when the source was judged to contradict the claim (or one of its units)."""
        return verdict_contradicts(self.verdict)

    @property
    def contributes(self) -> bool:
        """True when the source supports the claim or some of its units and contradicts none.

        Link correctness counts such links: a source that states the prize, cited beside one
        that states its year, is a correct citation though neither states the whole claim.
        """
        if self.verdict is None or self.contradicts:
            return False
        return self.supports or any(
            u.status == Status.SUPPORTED for u in self.verdict.unit_verdicts
        )


class ClaimCitation(BaseModel):
    """A claim, the sources it cites and whether they jointly support it."""

    claim_id: str
    keys: list[str] = Field(default_factory=list)
    checkable: bool = True
    supported: bool = Field(
        default=False, description="Complete: the cites support every unit, none contradicts."
    )
    support: Support = "unsupported"
    credit: float = Field(
        default=0.0, description="Completeness credit the policy gives this claim's support."
    )
    supported_units: list[str] = Field(
        default_factory=list, description="Units some cited source (or all together) supports."
    )
    cited_verdict: Verdict | None = Field(
        default=None,
        description="Verdict against the readable cited sources alone, as one evidence set: "
        "completeness reads it (with each link's), never evidence the claim does not cite.",
    )
    joint_verdict: Verdict | None = Field(
        default=None,
        description="Verdict against all readable cited sources together (plus the run's "
        "other evidence, when given), as one evidence set.",
    )
    verdict: Verdict | None = Field(
        default=None,
        description="The claim's one judgement: the joint verdict, else (no readable cited "
        "source) the run's. The run's report carries the same verdict.",
    )
    weight: float = 1.0


class CitationReport(BaseModel):
    """Citation completeness and link correctness of a checked text, with every link."""

    sources: list[CitationSource] = Field(default_factory=list)
    claims: list[ClaimCitation] = Field(default_factory=list)
    links: list[CitationLink] = Field(default_factory=list)
    completeness: float | None = Field(
        default=None,
        description="Weighted credit of checkable claims: complete 1, partial the policy's "
        "partial weight, unsupported and contradicted 0.",
    )
    link_correctness: float | None = Field(
        default=None,
        description="Share of all claim–source links (unavailable ones included) that support "
        "their claim.",
    )
    judged_link_correctness: float | None = Field(
        default=None, description="Share of the available (judged) links that support."
    )
    unavailable_links: int = 0
    unavailable_rate: float | None = Field(
        default=None, description="Share of links whose source could not be read."
    )
    contradicting_links: int = 0
    claims_by_support: dict[str, int] = Field(
        default_factory=dict, description="Checkable claims per support class."
    )
    policy: CitationPolicy = Field(default_factory=CitationPolicy)
    run_evidence: bool = Field(
        default=False,
        description="The claims' one verdicts also weighed the run's own evidence (-e files, "
        "a corpus), besides the cited sources.",
    )
    usage: Usage = Field(default_factory=Usage)
    notes: list[str] = Field(default_factory=list)

    def summary(self) -> str:
        """One line: completeness, link correctness, links (unavailable, contradicting), claims."""

        def pct(value: float | None) -> str:
            return "undefined" if value is None else f"{value:.1%}"

        claims = ", ".join(f"{n} {kind}" for kind, n in sorted(self.claims_by_support.items()))
        return (
            f"completeness {pct(self.completeness)} · link correctness "
            f"{pct(self.link_correctness)} · {counted(len(self.links), 'link')} "
            f"({self.unavailable_links} unavailable, {pct(self.unavailable_rate)}; "
            f"{self.contradicting_links} contradicting)"
            + (f" · claims: {claims}" if claims else "")
        )


def verdict_contradicts(verdict: Verdict | None) -> bool:
    """True when ``verdict`` contradicts its fact or any unit of it."""
    if verdict is None:
        return False
    return verdict.status == Status.CONTRADICTED or any(
        u.status == Status.CONTRADICTED for u in verdict.unit_verdicts
    )
