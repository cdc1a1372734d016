"""The report cache: an identical check is answered before any graph work; any change misses."""

from __future__ import annotations

from typing import Any

import pytest

import triqua
from triqua.execution.report_cache import REPORT_CACHE_NOTE
from triqua.graph.main import compiled_graph
from triqua.schema import Report
from triqua.tools.supplied import SuppliedRetriever

from .conftest import CURIE, PARIS

DOCS = [PARIS, CURIE]
TEXT = f"{PARIS} {CURIE}"


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every search made over supplied documents, by query."""
    made: list[str] = []
    search = SuppliedRetriever.search

    def counting(self: SuppliedRetriever, query: str, k: int, **kwargs: Any) -> Any:
        made.append(query)
        return search(self, query, k, **kwargs)

    monkeypatch.setattr(SuppliedRetriever, "search", counting)
    return made


def comparable(report: Report) -> dict[str, Any]:
    """What a cached report must repeat: everything but the run, its time and its costs."""
    data = report.model_dump(
        mode="json", exclude={"run_id", "created_at", "usage", "usage_by_role", "notes"}
    )
    data.pop("model_calls_per_fact"), data.pop("search_calls_per_fact")
    for record in data["records"]:
        record.pop("usage"), record.pop("response_id")
    return data


def test_identical_rerun_makes_no_call_and_no_search(scripted: Any, searches: list[str]) -> None:
    model = scripted()
    first = triqua.check(TEXT, documents=DOCS, model=model, chunk_size=0)
    calls, searched = len(model.calls), len(searches)
    assert calls == 2 and searched >= 2 and first.usage.model_calls == 2  # decompose, verify

    second = triqua.check(TEXT, documents=DOCS, model=model, chunk_size=0)

    assert len(model.calls) == calls and len(searches) == searched
    assert second.usage.model_calls == 0 and second.usage.search_calls == 0
    assert second.model_calls_per_fact == 0.0
    assert all(r.usage.model_calls == 0 and r.response_id == second.run_id for r in second.records)
    assert second.run_id != first.run_id
    assert comparable(second) == comparable(first)
    assert second.scores == first.scores and second.spec.hash == first.spec.hash
    assert any(REPORT_CACHE_NOTE in n and first.run_id in n for n in second.notes)
    assert not any(REPORT_CACHE_NOTE in n for n in first.notes)


@pytest.mark.parametrize(
    "change",
    [
        {"text": PARIS},
        {"documents": [PARIS]},
        {"question": "What is the capital of France?"},
        {"spec_overrides": {"corpus": "another corpus"}},
        {"reverify_rounds": 1},
        {"max_results": 3},
        {"temperature": 0.5},
    ],
    ids=lambda change: next(iter(change)),
)
def test_a_changed_input_or_spec_misses(scripted: Any, change: dict[str, Any]) -> None:
    model = scripted()
    base: dict[str, Any] = {"text": TEXT, "documents": DOCS, "model": model, "chunk_size": 0}
    triqua.check(**base)
    again = triqua.check(**{**base, **change})
    assert not any(REPORT_CACHE_NOTE in n for n in again.notes)


def test_another_engine_misses(scripted: Any) -> None:
    first = triqua.check(TEXT, documents=DOCS, model=scripted(), chunk_size=0)
    offline = triqua.check(TEXT, documents=DOCS, chunk_size=0)
    other_model = scripted()
    third = triqua.check(TEXT, documents=DOCS, model=other_model, chunk_size=0)
    assert not any(REPORT_CACHE_NOTE in n for n in [*offline.notes, *third.notes])
    assert offline.engine == "offline" != first.engine
    assert len(other_model.calls) == 2  # another model instance is asked again


def test_a_rerun_under_another_case_id_is_served_with_it(scripted: Any) -> None:
    model = scripted()
    triqua.check(TEXT, documents=DOCS, model=model, case_id="line-1")
    second = triqua.check(TEXT, documents=DOCS, model=model, case_id="line-2")
    third = triqua.check(TEXT, documents=DOCS, model=model)
    for served in (second, third):
        assert any(REPORT_CACHE_NOTE in n for n in served.notes)
    assert {r.case_id for r in second.records} == {"line-2"}
    assert {r.case_id for r in third.records} == {""}


def test_offline_rerun_is_served(searches: list[str]) -> None:
    first = triqua.check(TEXT, documents=DOCS)
    searched = len(searches)
    second = triqua.check(TEXT, documents=DOCS)
    assert len(searches) == searched
    assert comparable(second) == comparable(first)


def test_no_cache_bypasses_the_report_cache(scripted: Any, searches: list[str]) -> None:
    model = scripted()
    triqua.check(TEXT, documents=DOCS, model=model, chunk_size=0)
    calls, searched = len(model.calls), len(searches)
    again = triqua.check(TEXT, documents=DOCS, model=model, chunk_size=0, cache=False)
    assert len(model.calls) == 2 * calls and len(searches) == 2 * searched
    assert again.usage.model_calls == calls


def test_failed_runs_are_not_kept(scripted: Any) -> None:
    state = {"fail": True}

    def flaky(fact: str, prompt: str) -> dict[str, Any]:
        if state["fail"]:
            raise TimeoutError("provider timed out")
        return {"status": "supported", "evidence_ids": []}

    model = scripted(judge=flaky)
    first = triqua.check(PARIS, documents=DOCS, model=model, max_output_retries=0)
    assert first.failures == 1
    state["fail"] = False
    second = triqua.check(PARIS, documents=DOCS, model=model, max_output_retries=0)
    assert second.failures == 0 and not any(REPORT_CACHE_NOTE in n for n in second.notes)


def test_stored_runs_and_durable_runs_are_served(scripted: Any, tmp_path: Any) -> None:
    from triqua.store import RunStore

    model, store = scripted(), RunStore(tmp_path / "runs.sqlite")
    triqua.check(TEXT, documents=DOCS, model=model, store=store)
    second = triqua.check(TEXT, documents=DOCS, model=model, store=store, durable=True)
    assert any(REPORT_CACHE_NOTE in n for n in second.notes)
    assert store.report(second.run_id).run_id == second.run_id


def test_the_graph_is_compiled_once() -> None:
    assert compiled_graph() is compiled_graph()
    from langgraph.checkpoint.memory import InMemorySaver

    saver = InMemorySaver()
    copy = compiled_graph(checkpointer=saver)
    assert copy.checkpointer is saver and compiled_graph().checkpointer is None
    assert copy.nodes.keys() == compiled_graph().nodes.keys()


def test_check_never_renders_the_report_as_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """Python 3.11's asyncio.Runner reprs the task result (cpython#112559); check avoids it."""
    rendered: list[int] = []

    def counting_repr(self: Report) -> str:
        rendered.append(1)
        return "Report(...)"

    monkeypatch.setattr(Report, "__repr__", counting_repr)
    report = triqua.check(PARIS, documents=DOCS, cache=False)
    assert report.records and rendered == []
