"""A caller's checkpointer restores triqua's types, without LangGraph's type warnings."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde import jsonplus
from langgraph.checkpoint.serde.event_hooks import SerdeEvent, register_serde_event_listener

import triqua
from triqua.schema import ClaimRecord, Document, Report

from .conftest import CURIE, FRANCE

DOCS = [
    "France had a population of 64.5 million in 2025, excluding overseas departments.",
    "Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie.",
]


@pytest.fixture
def serde_events(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[SerdeEvent]]:
    """Every type LangGraph restores unregistered or blocks, while the test runs.

    LangGraph logs each such type once per process; its events come every time, and its
    log memory is emptied so that the log is checked as well.
    """
    monkeypatch.setattr(jsonplus, "_warned_unregistered_types", set())
    monkeypatch.setattr(jsonplus, "_warned_blocked_types", set())
    events: list[SerdeEvent] = []
    unregister = register_serde_event_listener(events.append)
    yield events
    unregister()


def _two_checks(graph: Any, scripted: Any) -> RunnableConfig:
    """Two checks on one thread: the second restores the first's state from the saver."""
    context = triqua.make_context(model=scripted())
    config: RunnableConfig = {"configurable": {"thread_id": "caller"}}
    graph.invoke({"text": CURIE, "documents": DOCS}, config=config, context=context)
    graph.invoke({"text": FRANCE, "documents": DOCS}, config=config, context=context)
    return config


def test_a_callers_saver_restores_triquas_types_without_warnings(
    scripted: Any, serde_events: list[SerdeEvent], caplog: pytest.LogCaptureFixture
) -> None:
    saver = InMemorySaver()
    graph = triqua.build_graph(checkpointer=saver)
    with caplog.at_level(logging.WARNING):
        config = _two_checks(graph, scripted)
        values = graph.get_state(config).values
    assert not serde_events
    assert not [r for r in caplog.records if "unregistered type" in r.getMessage()]
    assert isinstance(values["report"], Report)
    assert all(isinstance(r, ClaimRecord) for r in values["records"])
    assert all(isinstance(d, Document) for d in values["documents"])
    assert values["report"].records[0].claim_text.startswith("(France,")
    # The caller's saver is unchanged, and shares the checkpoints the graph wrote.
    assert saver.serde is BaseCheckpointSaver.serde
    assert graph.checkpointer is not saver
    assert saver.get_tuple(config) is not None
    # Read through the caller's own (LangGraph default) serializer, the same state warns:
    # the check above would see the warnings.
    assert {e["kind"] for e in serde_events} == {"msgpack_unregistered_allowed"}
    assert ("triqua.schema.report", "Report") in {(e["module"], e["name"]) for e in serde_events}


def test_a_saver_with_triquas_serializer_restores_without_warnings(
    scripted: Any, serde_events: list[SerdeEvent]
) -> None:
    saver = InMemorySaver(serde=triqua.checkpoint_serde())
    graph = triqua.build_graph(checkpointer=saver)
    assert graph.checkpointer is saver  # a serializer the caller set is kept
    config = _two_checks(graph, scripted)
    checkpoint = saver.get_tuple(config)
    assert checkpoint is not None
    assert isinstance(checkpoint.checkpoint["channel_values"]["report"], Report)
    assert not serde_events


def test_a_serializer_the_caller_chose_is_never_replaced() -> None:
    serde = jsonplus.JsonPlusSerializer(allowed_msgpack_modules=None)
    saver = InMemorySaver(serde=serde)
    graph = triqua.build_graph(checkpointer=saver)
    assert graph.checkpointer is saver and saver.serde is serde


def test_triquas_serializer_extends_with_a_parent_graphs_own_types() -> None:
    serde = triqua.checkpoint_serde().with_msgpack_allowlist([("my_app.state", "Draft")])
    report = Report(run_id="r", question="Who won?")
    assert serde.loads_typed(serde.dumps_typed(report)) == report
