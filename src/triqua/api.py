"""The Python API: ``check`` / ``acheck`` run the graph and return a ``Report``."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig

from triqua.context import Context
from triqua.engines.factory import register_model
from triqua.schema import Document, Report


def make_context(
    context: Context | None = None,
    *,
    model: str | BaseChatModel | None = None,
    **settings: Any,
) -> Context:
    """A ``Context`` from an optional base, a model (name or instance) and setting overrides."""
    base = context or Context()
    if settings:
        base = replace(base, **settings)
    if isinstance(model, BaseChatModel):
        base = replace(base, model=register_model(f"{type(model).__name__}-{id(model)}", model))
    elif model is not None:
        base = replace(base, model=model)
    base.validate()
    return base


def run_config(context: Context, run_id: str | None = None) -> RunnableConfig:
    """Invocation config: bounded fan-out and a recursion limit that fits the re-verify loop."""
    config: RunnableConfig = {
        "max_concurrency": context.max_concurrency,
        "recursion_limit": 25 + 2 * context.reverify_rounds,
    }
    if run_id:
        config["configurable"] = {"thread_id": run_id}
    return config


def graph_input(
    text: str,
    question: str | None,
    documents: Sequence[Document | str | dict[str, Any]] | None,
    spec_overrides: dict[str, Any] | None,
) -> dict[str, Any]:
    """The graph's input state."""
    return {
        "text": text,
        "question": question,
        "documents": list(documents) if documents else None,
        "spec_overrides": spec_overrides,
    }


async def acheck(
    text: str,
    *,
    question: str | None = None,
    documents: Sequence[Document | str | dict[str, Any]] | None = None,
    context: Context | None = None,
    model: str | BaseChatModel | None = None,
    spec_overrides: dict[str, Any] | None = None,
    **settings: Any,
) -> Report:
    """Check ``text`` asynchronously and return its report.

    Args:
        text: The text to check.
        question: The question the text answers, used to resolve references.
        documents: Evidence documents (``Document``, text, or dicts) for supplied-context mode.
        context: Base settings; ``settings`` override individual fields.
        model: A 'provider:model' string or a chat model instance for every LLM role.
        spec_overrides: Fields of the ``FactualitySpec`` to set explicitly (e.g. authority).
        **settings: ``Context`` fields, e.g. ``retriever="chroma"``, ``collection="demo"``.
    """
    from triqua.graph.main import build_graph

    ctx = make_context(context, model=model, **settings)
    graph = build_graph()
    state = graph_input(text, question, documents, spec_overrides)
    state["run_id"] = uuid.uuid4().hex
    result = await graph.ainvoke(state, config=run_config(ctx), context=ctx)
    report: Report = result["report"]
    return report


def check(
    text: str,
    *,
    question: str | None = None,
    documents: Sequence[Document | str | dict[str, Any]] | None = None,
    context: Context | None = None,
    model: str | BaseChatModel | None = None,
    spec_overrides: dict[str, Any] | None = None,
    **settings: Any,
) -> Report:
    """Check ``text`` and return its report (see :func:`acheck` for the arguments)."""
    return asyncio.run(
        acheck(
            text,
            question=question,
            documents=documents,
            context=context,
            model=model,
            spec_overrides=spec_overrides,
            **settings,
        )
    )
