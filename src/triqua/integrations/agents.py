"""triqua inside other agents: as a LangChain tool, or as a node of a parent graph.

Two ways to embed the check graph:

* ``as_tool(**settings)`` gives a tool an agent can call with a text and optional evidence;
  it answers with a compact verdict summary and carries the full ``Report`` as its artifact.
* ``as_node(**settings)`` gives a node for a parent ``StateGraph`` that maps the parent's
  state (a ``text`` key, or the last AI message of ``messages``) to a check and writes the
  report under ``report``. A parent whose state already has triqua's keys (``text``,
  ``question``, ``documents``, ``spec_overrides`` in; ``report`` out) can instead add
  ``triqua.build_graph()`` itself as a node.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from pydantic import BaseModel, Field

from triqua.api import make_context, make_request
from triqua.context import Context
from triqua.core.report.accounting import failure_summary
from triqua.execution.runner import arun, graph_input, run, run_config
from triqua.rendering.terminal import fmt_score
from triqua.runtime.request import CheckRequest
from triqua.schema import Document, Report, Status
from triqua.support.wording import counted

__all__ = ["CheckToolInput", "as_node", "as_tool", "summarize"]

TOOL_DESCRIPTION = (
    "Check the factual claims in a text against evidence. Pass the text and, when you have "
    "them, evidence passages (plain strings). Returns the TriQuaScore (share of supported "
    "fact units), counts per verdict, and each fact with its verdict and wrong component. "
    "'insufficient_evidence' means the evidence does not say, not that the fact is false."
)

DocumentInput = Document | str | dict[str, Any]


class CheckToolInput(BaseModel):
    """Arguments of the triqua tool."""

    text: str = Field(description="The text whose facts should be checked.")
    evidence: list[str] | None = Field(
        default=None, description="Evidence passages to judge the facts against (optional)."
    )
    question: str | None = Field(
        default=None, description="The question the text answers, if any (resolves references)."
    )


def summarize(report: Report) -> str:
    """A compact, model-readable verdict summary: score, counts per status, one line per fact."""
    scores = report.scores
    counts = Counter(r.verdict.status for r in report.records)
    tally = ", ".join(f"{counts[s]} {s.value}" for s in Status if counts[s])
    lines = [
        f"TriQuaScore {fmt_score(scores.triqua_score)} "
        f"({scores.units_supported}/{scores.units_total} units supported); "
        f"{counted(len(report.records), 'fact')}: {tally or 'none'}"
    ]
    for record in report.records:
        verdict = record.verdict
        line = f"- {record.claim_id} {verdict.status.value}: {record.claim_text}"
        if verdict.wrong_components:  # contradicted units are wrong; the others unverified
            label = "wrong" if verdict.status is Status.CONTRADICTED else "unverified"
            line += f" | {label}: {', '.join(verdict.wrong_components)}"
        if verdict.error_spans:
            line += f" ({', '.join(repr(s) for s in verdict.error_spans)})"
        lines.append(line)
    failed = failure_summary(report)
    if failed:
        lines.append(f"not all checked: {failed}")
    elif report.coverage is not None and report.coverage < 1.0:
        lines.append(
            f"{fmt_score(report.coverage)} of the text checked; "
            f"{counted(len(report.undecomposed), 'sentence')} yielded no fact"
        )
    if report.errors:
        lines.append("errors: " + "; ".join(report.errors))
    return "\n".join(lines)


def _run(context: Context, state: dict[str, Any], request: CheckRequest | None = None) -> Report:
    """Run the check graph synchronously (safe inside a running graph's worker thread)."""
    return run(state, context=context, config=_config(context, request))


async def _arun(
    context: Context, state: dict[str, Any], request: CheckRequest | None = None
) -> Report:
    """Run the check graph asynchronously."""
    return await arun(state, context=context, config=_config(context, request))


def _config(context: Context, request: CheckRequest | None) -> RunnableConfig | None:
    """The invocation's config when a request was made for it (its work is then done)."""
    return run_config(context, request=request) if request is not None else None


def as_tool(
    *,
    name: str = "triqua_check",
    description: str = TOOL_DESCRIPTION,
    context: Context | None = None,
    model: str | BaseChatModel | None = None,
    **settings: Any,
) -> BaseTool:
    """A LangChain tool that checks a text and returns a verdict summary plus the full report.

    Args:
        name: The tool's name as the agent sees it.
        description: What the agent is told the tool does.
        context: Base settings of every check; ``settings`` override its fields.
        model: Chat model (name or instance) answering triqua's roles; unset: offline engine.
        **settings: ``Context`` fields, e.g. ``retriever="chroma"``, ``collection="kb"``.

    Returns:
        A tool with ``response_format="content_and_artifact"``: the message content is
        :func:`summarize`'s text and the artifact is the ``Report``.
    """
    ctx = make_context(context, model=model, **settings)

    def request_of(text: str, evidence: list[str] | None, question: str | None) -> CheckRequest:
        try:
            return make_request(text, ctx, question=question, documents=evidence or None)
        except ValueError as exc:  # the caller's input: the agent's model can correct it
            raise ToolException(f"triqua cannot check this input: {exc}") from exc

    def check_text(
        text: str, evidence: list[str] | None = None, question: str | None = None
    ) -> tuple[str, Report]:
        request = request_of(text, evidence, question)
        report = _run(ctx, request.graph_input(uuid.uuid4().hex), request)
        return summarize(report), report

    async def acheck_text(
        text: str, evidence: list[str] | None = None, question: str | None = None
    ) -> tuple[str, Report]:
        request = request_of(text, evidence, question)
        report = await _arun(ctx, request.graph_input(uuid.uuid4().hex), request)
        return summarize(report), report

    return StructuredTool.from_function(
        func=check_text,
        coroutine=acheck_text,
        name=name,
        description=description,
        args_schema=CheckToolInput,
        response_format="content_and_artifact",
        handle_tool_error=True,  # only ToolException: other failures still raise
    )


def last_ai_text(state: Mapping[str, Any]) -> str:
    """The text to check in a parent's state: ``text``, else the last AI message's content.

    Raises:
        ValueError: when the state has neither.
    """
    text = state.get("text")
    if isinstance(text, str) and text.strip():
        return text
    messages: Sequence[BaseMessage] = state.get("messages") or []
    for message in reversed(messages):
        if isinstance(message, AIMessage) and message.text.strip():
            return message.text
    raise ValueError("nothing to check: the state has no 'text' and no AI message with text")


def as_node(
    *,
    text_of: Callable[[Mapping[str, Any]], str] = last_ai_text,
    documents_key: str | None = "documents",
    question_key: str | None = "question",
    output_key: str = "report",
    context: Context | None = None,
    model: str | BaseChatModel | None = None,
    **settings: Any,
) -> RunnableLambda[Any, dict[str, Report]]:
    """A node for a parent graph: map its state to a check and write the report back.

    Args:
        text_of: Picks the text to check from the parent's state (default:
            :func:`last_ai_text`).
        documents_key: State key holding evidence documents (texts, ``Document``s or dicts);
            ``None`` to never read one.
        question_key: State key holding the user's question; ``None`` to never read one.
        output_key: State key the ``Report`` is written to.
        context: Base settings of every check; ``settings`` override its fields.
        model: Chat model (name or instance) answering triqua's roles; unset: offline engine.
        **settings: ``Context`` fields.

    Returns:
        A runnable usable with ``StateGraph.add_node``, synchronously or asynchronously.
    """
    ctx = make_context(context, model=model, **settings)

    def state_of(parent: Mapping[str, Any]) -> dict[str, Any]:
        documents: list[DocumentInput] | None = parent.get(documents_key) if documents_key else None
        question: str | None = parent.get(question_key) if question_key else None
        return graph_input(text_of(parent), question, documents, None)

    def node(parent: Mapping[str, Any]) -> dict[str, Report]:
        return {output_key: _run(ctx, state_of(parent))}

    async def anode(parent: Mapping[str, Any]) -> dict[str, Report]:
        return {output_key: await _arun(ctx, state_of(parent))}

    return RunnableLambda(node, afunc=anode, name="triqua")
