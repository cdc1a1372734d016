"""Resources come from settings: cached factories, one ledger per invocation, no run registry."""

from __future__ import annotations

from typing import Any

import pytest

from triqua.context import Context
from triqua.engines.factory import model_key, register_model, resolve_engines
from triqua.graph.main import compiled_graph
from triqua.graph.verification import build_verification_graph
from triqua.runtime.resources import (
    build_resources,
    register_retriever,
    retriever_for,
    retriever_key,
)
from triqua.schema import Document, Fact, Status
from triqua.support.instances import instance
from triqua.testing import ScriptedChatModel
from triqua.tools.base import Retriever

from .test_limits import NotesRetriever, Responder, simple_text

pytestmark = pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated")

DOCS = [Document(text="Person1 was born in City1.", source="notes")]


def test_the_same_settings_share_engines_and_other_settings_do_not() -> None:
    name = register_model("shared-engines", ScriptedChatModel(responder=Responder()))
    first, again = resolve_engines(Context(model=name)), resolve_engines(Context(model=name))
    assert first.judge is again.judge and first.decomposer is again.decomposer
    warmer = resolve_engines(Context(model=name, temperature=0.5))
    assert warmer.judge is not first.judge
    assert model_key(Context(model=name), "verify").model_id.startswith(name)


def test_registering_another_model_under_a_name_is_not_served_a_stale_engine() -> None:
    register_model("swapped", ScriptedChatModel(responder=Responder()))
    before = resolve_engines(Context(model="instance:swapped")).judge
    register_model("swapped", ScriptedChatModel(responder=Responder()))
    assert resolve_engines(Context(model="instance:swapped")).judge is not before


def test_supplied_retriever_is_found_by_its_documents_digest() -> None:
    context = Context(retriever="supplied", cache=False)
    built = build_resources(context, DOCS).retriever
    digest = retriever_key(context, DOCS).digest
    assert retriever_for(retriever_key(context, digest=digest)) is built


def test_one_registry_holds_models_and_retrievers_by_kind() -> None:
    name = register_retriever("kinds", NotesRetriever())
    assert isinstance(instance(name, Retriever, "retriever"), NotesRetriever)
    with pytest.raises(ValueError, match="no chat model registered as 'instance:kinds'"):
        from langchain_core.language_models import BaseChatModel

        instance(name, BaseChatModel, "chat model")


@pytest.mark.slow
def test_a_host_invoking_the_graph_itself_keeps_the_search_budget() -> None:
    """As Studio or a LangGraph server does: no runner, no triqua config, only settings."""
    model = register_model("hosted", ScriptedChatModel(responder=Responder()))
    context: dict[str, Any] = {
        "model": model,
        "retriever": register_retriever("hosted-notes", NotesRetriever()),
        "max_searches": 3,
        "chunk_size": 0,
        "cache": False,
    }
    state = {"text": simple_text(6), "run_id": "hosted"}
    report = compiled_graph().invoke(state, context=context)["report"]
    assert len(report.records) == 6
    assert report.usage.search_calls == 3
    assert any("max_searches=3" in note for note in report.notes)


def test_a_fact_task_alone_verifies_from_state_and_settings() -> None:
    """Studio replays one batch's subgraph: its tasks' digest finds the run's retriever."""
    model = register_model("replayed", ScriptedChatModel(responder=Responder()))
    context = Context(model=model, retriever="supplied", cache=False)
    build_resources(context, DOCS)  # the run's prepare built it in this process
    fact = Fact(subject="Person1", relation="was born in", object="City1", source_text=DOCS[0].text)
    task = {
        "run_id": "replayed",
        "fact": fact,
        "route": "simple",
        "complexity": {},
        "question": None,
        "spec_hash": "x",
        "documents_digest": retriever_key(context, DOCS).digest,
    }
    batch = {"run_id": "replayed", "batch": "f1", "route": "simple", "members": [task]}
    out = build_verification_graph().invoke(batch, context=context)
    (record,) = out["records"]
    assert record.verdict.status is Status.SUPPORTED
    assert record.evidence and record.evidence[0].text.startswith("Person1 was born in City1")


def test_model_instances_get_names_that_are_never_reused() -> None:
    # A name made from id() comes back once its object is gone, and the call and report
    # caches keyed by it would then answer for a different model.
    from triqua.support import instances as instances
    from triqua.testing import ScriptedChatModel

    first = ScriptedChatModel(responder=lambda tool, prompt: {})
    name = instances.name_for(first)
    assert instances.name_for(first) == name  # the same object keeps its name
    instances._INSTANCES.pop(name)
    del first
    names = {instances.name_for(ScriptedChatModel(responder=lambda t, p: {})) for _ in range(50)}
    assert name not in names and len(names) == 50
