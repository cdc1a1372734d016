"""Requested-content coverage: whether an answer addresses what its question asked.

A chat model reads the question and the answer and says addressed, partly or not addressed,
naming the parts of the question the answer leaves out (structured output). Coverage of the
request is not factual accuracy: an answer can address every part and still be wrong. There
is no offline judge of it (rules cannot tell whether a text answers a question), so a run
without a chat model records :data:`COVERAGE_NEEDS_MODEL` instead of a verdict.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, get_args

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from triqua.prompts import fence, load_text
from triqua.schema import CoverageVerdict, RequestedCoverage, Usage

__all__ = [
    "COVERAGE_NEEDS_MODEL",
    "CoverageJudgement",
    "CoverageVerdict",
    "RequestedCoverage",
    "RequestedCoverageJudge",
    "coverage_summary",
]

#: What a run without a chat model says instead of a coverage verdict.
COVERAGE_NEEDS_MODEL = (
    "Requested-content coverage (does the answer address its question?) needs a chat model "
    "(--model or --coverage-model); it was not measured."
)


class CoverageJudgement(BaseModel):
    """A model's answer: does the answer address the question, and what does it leave out."""

    verdict: CoverageVerdict = Field(
        description="addressed: every part of the question; partly: some; not_addressed: none."
    )
    missing: list[str] = Field(
        default_factory=list, description="Parts of the question the answer leaves out."
    )
    rationale: str = Field(default="", description="One sentence.")


class RequestedCoverageJudge:
    """Judges requested-content coverage with one chat model; failures are recorded, not raised."""

    def __init__(
        self,
        model: BaseChatModel,
        *,
        max_retries: int = 2,
        retry_wait: float = 1.0,
        timeout: float | None = None,
    ) -> None:
        from triqua.engines.llm.calls import StructuredCaller, model_revision

        self.name = model_revision(model)
        self._caller = StructuredCaller(model, CoverageJudgement, max_retries, retry_wait, timeout)

    def judge(self, question: str, answer: str) -> tuple[RequestedCoverage, Usage]:
        """Judge ``answer`` against ``question``; returns the coverage and the usage spent.

        An "addressed" verdict that still names missing parts is recorded as "partly": the
        named parts are the more specific statement.
        """
        messages = [
            SystemMessage(load_text("requested_coverage_system.md")),
            HumanMessage(fence("QUESTION", question) + "\n\n" + fence("ANSWER", answer)),
        ]
        try:
            parsed, _, usage = self._caller.invoke(messages)
        except Exception as exc:
            error = f"{self.name}: {type(exc).__name__}: {exc}"
            return RequestedCoverage(question=question, judge=self.name, error=error), Usage()
        found = (
            parsed
            if isinstance(parsed, CoverageJudgement)
            else CoverageJudgement.model_validate(parsed)
        )
        missing = [part.strip() for part in found.missing if part.strip()]
        verdict: CoverageVerdict = found.verdict
        if verdict == "addressed" and missing:
            verdict = "partly"
        coverage = RequestedCoverage(
            question=question,
            verdict=verdict,
            missing=missing,
            rationale=found.rationale,
            judge=self.name,
        )
        return coverage, usage


def coverage_summary(items: Sequence[RequestedCoverage]) -> dict[str, Any]:
    """Counts and shares of each verdict over the judged answers, and the failed judgements.

    Shares are over the answers judged without error; failed judgements are counted apart.
    """
    judged = [c for c in items if c.verdict is not None]
    counts = Counter(c.verdict for c in judged)
    return {
        "measured": True,
        "answers": len(items),
        "judged": len(judged),
        "failed": len(items) - len(judged),
        "counts": {v: counts[v] for v in get_args(CoverageVerdict)},
        "shares": {
            v: (counts[v] / len(judged) if judged else None) for v in get_args(CoverageVerdict)
        },
        "missing": [
            {"question": c.question, "verdict": c.verdict, "missing": c.missing}
            for c in judged
            if c.verdict != "addressed"
        ],
    }
