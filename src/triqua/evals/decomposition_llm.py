"""A chat model as a judge of decomposition quality (TriQua §4.2), through structured output.

Two such judges (two models, or one model at two temperatures) judge every fact; their
agreement per criterion is Cohen's κ (:mod:`triqua.evals.decomposition_quality`).
"""

from __future__ import annotations

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from triqua.engines.llm.engine import StructuredCaller, model_revision
from triqua.evals.decomposition_judges import CriterionVerdict, FactDiagnosis
from triqua.prompts import fence, load_text
from triqua.schema import Fact, Usage

__all__ = ["DecompositionJudgement", "LLMDiagnosisJudge"]


class DecompositionJudgement(BaseModel):
    """A model's verdicts on one fact's decomposition quality."""

    entailed: bool = Field(description="The source sentence entails every element.")
    not_entailed: list[str] = Field(default_factory=list, description="Elements not entailed.")
    decontextualised: bool = Field(description="The fact stands alone without context.")
    needs_context: list[str] = Field(
        default_factory=list, description="Elements with a pronoun, relative time or comparative."
    )
    qualifiers_ok: bool = Field(description="Every qualifier modifies the base triple.")
    misused_qualifiers: list[str] = Field(default_factory=list, description="Misused qualifiers.")
    rationale: str = ""


def judge_prompt(fact: Fact, source: str, context: str) -> str:
    """The user message: the fact with its elements listed, its sentence and its context."""
    elements = "\n".join(f"- {unit.text}" for unit in fact.units())
    return "\n\n".join(
        [
            fence("CONTEXT", context or "(none)"),
            fence("SENTENCE", source),
            fence("FACT", fact.to_string()),
            f"Elements:\n{elements}",
        ]
    )


class LLMDiagnosisJudge:
    """Judges facts with one chat model; a failed call is returned as an error, not raised."""

    def __init__(
        self,
        model: BaseChatModel,
        *,
        name: str = "",
        max_retries: int = 2,
        retry_wait: float = 1.0,
        timeout: float | None = None,
    ) -> None:
        self.name = name or model_revision(model)
        self._caller = StructuredCaller(
            model, DecompositionJudgement, max_retries, retry_wait, timeout
        )

    def judge(
        self, fact: Fact, source: str, context: str
    ) -> tuple[FactDiagnosis | None, Usage, str]:
        """Return (diagnosis or None, usage, error message or '')."""
        messages = [
            SystemMessage(load_text("diagnose_system.md")),
            HumanMessage(judge_prompt(fact, source, context)),
        ]
        try:
            parsed, _, usage = self._caller.invoke(messages)
        except Exception as exc:
            return None, Usage(), f"{self.name}: {type(exc).__name__}: {exc}"
        answer = (
            parsed
            if isinstance(parsed, DecompositionJudgement)
            else DecompositionJudgement.model_validate(parsed)
        )
        verdicts = {
            "entailed": CriterionVerdict(passed=answer.entailed, elements=answer.not_entailed),
            "decontextualised": CriterionVerdict(
                passed=answer.decontextualised, elements=answer.needs_context
            ),
            "qualifiers_ok": CriterionVerdict(
                passed=answer.qualifiers_ok, elements=answer.misused_qualifiers
            ),
        }
        for verdict in verdicts.values():
            verdict.reason = answer.rationale
        return FactDiagnosis(verdicts=verdicts), usage, ""
