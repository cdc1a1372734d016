"""The per-batch verification subgraph: one task per batch, each fact's step on its own."""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import pytest

import triqua
from triqua.graph.main import build_graph
from triqua.runtime.resources import register_retriever
from triqua.schema import Document, Status
from triqua.testing import ScriptedChatModel, fenced
from triqua.tools.base import Retriever, SearchBudget, SearchResult
from triqua.tools.supplied import SuppliedRetriever

from .conftest import make_responder

PEOPLE = " ".join(f"Person{i} was born in City{i}." for i in range(1, 7))
DOCS = [Document(text=f"Person{i} was born in City{i}.") for i in range(1, 7)]


BORN = re.compile(r"(Person\d+) was born in (City\d+)\.")


def _decompose(tool: str, prompt: str) -> dict[str, Any] | str:
    """Decompose each "PersonN was born in CityN." into its fact; judge as the suite does."""
    if tool == "ExtractedFacts":
        facts = [
            {"subject": m[1], "relation": "was born in", "object": m[2], "source_sentence": m[0]}
            for m in BORN.finditer(fenced(prompt, "TEXT"))
        ]
        return {"facts": facts}
    return make_responder()(tool, prompt)


class FlakyRetriever(Retriever):
    """BM25 over the people; the search for ``broken`` raises ``error`` the first ``times``."""

    name = "flaky"
    revision = "flaky/1"

    def __init__(self, broken: str, error: Exception, times: int, *, waits: bool = False):
        super().__init__()
        self.inner = SuppliedRetriever(DOCS)
        self.broken, self.error, self.times = broken, error, times
        self.uses_budget = waits  # searches of a service run side by side
        self.lock = threading.Lock()
        self.in_flight = self.peak = 0

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        self._count_call()
        with self.lock:
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
            fail = self.broken in query and self.times > 0
            self.times -= fail
        try:
            if self.uses_budget:
                time.sleep(0.05)
            if fail:
                raise self.error
            return self.inner.search(query, k, budget=budget)
        finally:
            with self.lock:
                self.in_flight -= 1


def _check(retriever: Retriever, **settings: Any) -> triqua.Report:
    name = register_retriever(f"flaky-{time.monotonic_ns()}", retriever)
    model = ScriptedChatModel(responder=_decompose)
    return triqua.check(PEOPLE, model=model, retriever=name, cache=False, **settings)


def test_a_search_that_raises_fails_its_own_fact_only() -> None:
    # ValueError is not retried by the node policy: the member is recorded failed at once.
    report = _check(FlakyRetriever("Person3", ValueError("index broken"), times=9))
    by_subject = {r.fact.subject: r for r in report.records}
    broken = by_subject["Person3"]
    assert broken.evidence == [] and broken.verdict.status is Status.INSUFFICIENT
    assert "retrieve failed: ValueError: index broken" in (broken.verdict.error or "")
    others = [r for s, r in by_subject.items() if s != "Person3"]
    assert len(others) == 5 and all(r.verdict.status is Status.SUPPORTED for r in others)


def test_a_transient_search_failure_is_retried_for_its_fact() -> None:
    # A connection error is what the node retry policy retries: the second try succeeds.
    retriever = FlakyRetriever("Person2", ConnectionError("reset"), times=1)
    report = _check(retriever)
    assert all(r.verdict.status is Status.SUPPORTED for r in report.records)
    assert retriever.times == 0  # it did fail once


def test_searches_of_a_service_run_side_by_side_within_max_concurrency() -> None:
    waiting = FlakyRetriever("nobody", ValueError("unused"), times=0, waits=True)
    _check(waiting, max_concurrency=3)
    assert waiting.peak == 3  # six facts of one batch, three searches at a time
    local = FlakyRetriever("nobody", ValueError("unused"), times=0)
    _check(local)
    assert local.peak == 1  # an in-process index is searched in turn


@pytest.mark.parametrize(("verify_batch", "tasks"), [(8, 1), (3, 2), (1, 6)])
def test_one_verification_task_per_batch(verify_batch: int, tasks: int) -> None:
    model = ScriptedChatModel(responder=_decompose)
    context = triqua.make_context(model=model, verify_batch=verify_batch, cache=False)
    updates = [
        node
        for update in build_graph().stream(
            {"text": PEOPLE, "documents": DOCS}, context=context, stream_mode="updates"
        )
        for node in update
    ]
    assert updates.count("verify_batch") == tasks
