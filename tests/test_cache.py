"""The cache: repeated runs ask no model and search nothing; failures are never kept."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.engines.factory import register_model
from triqua.runtime.caches.cached_searches import CachedRetriever
from triqua.runtime.caches.call_cache import ResultCache, default_cache_path
from triqua.runtime.resources import register_retriever
from triqua.schema import Evidence
from triqua.testing import best_quote, fenced, passages
from triqua.tools.base import Retriever, SearchBudget, SearchResult, budget_refused

from .conftest import CURIE, FRANCE, PARIS

# About per-fact verification calls (counted, faulted or stalled one by one).
pytestmark = pytest.mark.usefixtures("per_fact_verification")

SOURCES = {
    "France": "France had a population of 64.5 million in 2025, excluding overseas departments.",
    "Marie Curie": "Marie Curie won the Nobel Prize in Physics in 1903.",
    "Paris": "Paris is the capital of France.",
}


class WebLike(Retriever):
    """A budgeted retriever (like web search) that counts searches and can be made to fail."""

    name = "weblike"
    uses_budget = True

    def __init__(self, revision: str = "weblike/1", fail: bool = False) -> None:
        super().__init__()
        self.revision = revision
        self.fail = fail

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        if budget is not None and not budget.try_spend():
            return budget_refused()
        self._count_call()
        if self.fail:
            return SearchResult(error="service unavailable")
        found = [
            Evidence.build(document_id=name, text=text, retriever=self.name, rank=1)
            for name, text in SOURCES.items()
            if query.startswith(name)
        ]
        return SearchResult(evidence=found)


def run(model: Any, retriever: Retriever, text: str = f"{FRANCE} {CURIE}", **settings: Any):
    name = register_retriever(f"weblike-{id(retriever)}", retriever)
    return triqua.check(text, model=model, retriever=name, chunk_size=0, **settings)


def test_repeated_run_makes_no_model_calls_and_no_searches(scripted: Any) -> None:
    model, retriever = scripted(), WebLike()
    first = run(model, retriever)
    calls, searches = len(model.calls), retriever.calls
    assert calls == 3 and searches == 2  # 1 decomposition, 2 verdicts; 1 search per fact
    second = run(model, retriever)
    assert len(model.calls) == calls and retriever.calls == searches
    assert second.usage.model_calls == 0 and second.usage.search_calls == 0
    assert second.usage.input_tokens == 0
    assert first.usage.model_calls == 3 and first.usage.search_calls == 2
    assert second.scores == first.scores
    assert [r.verdict.status for r in second.records] == [r.verdict.status for r in first.records]
    assert [[e.id for e in r.evidence] for r in second.records] == [
        [e.id for e in r.evidence] for r in first.records
    ]


def test_cache_false_bypasses_the_cache(scripted: Any) -> None:
    model, retriever = scripted(), WebLike()
    run(model, retriever)
    run(model, retriever, cache=False)
    assert len(model.calls) == 6 and retriever.calls == 4


def test_only_new_input_is_asked_for(scripted: Any) -> None:
    model, retriever = scripted(), WebLike()
    run(model, retriever, text=CURIE)
    before = len(model.calls)
    run(model, retriever, text=f"{CURIE} {PARIS}")
    asked = model.calls[before:]
    # The text changed, so it is decomposed again; Curie's verdict comes from the cache.
    assert [tool for tool, _ in asked] == ["ExtractedFacts", "Judgement"]
    assert "Paris" in fenced(asked[1][1], "FACT")


def test_failed_answers_are_not_cached(scripted: Any) -> None:
    state = {"fail": True}

    def flaky(fact: str, prompt: str) -> dict[str, Any]:
        if state["fail"]:
            raise TimeoutError("provider timed out")
        ids = re.findall(r"id=(ev-\w+)", prompt)
        quote = best_quote(passages(prompt)[ids[0]], fact)
        return {"status": "supported", "evidence_ids": ids, "quote": quote}

    model, retriever = scripted(judge=flaky), WebLike()
    first = run(model, retriever, text=PARIS, max_output_retries=0)
    assert first.records[0].verdict.error
    state["fail"] = False
    second = run(model, retriever, text=PARIS, max_output_retries=0)
    assert second.records[0].verdict.error is None
    assert second.records[0].verdict.status.value == "supported"
    assert [tool for tool, _ in model.calls].count("Judgement") == 2


def test_failed_searches_are_not_cached(tmp_path: Path) -> None:
    inner = WebLike(fail=True)
    cached = CachedRetriever(inner, ResultCache(tmp_path / "c.sqlite"))
    assert cached.search("Paris", 3).error == "service unavailable"
    inner.fail = False
    assert cached.search("Paris", 3).evidence and inner.calls == 2
    hit = cached.search("Paris", 3)
    assert hit.cached and hit.evidence and inner.calls == 2


def test_search_key_is_revision_query_and_k(tmp_path: Path) -> None:
    store = ResultCache(tmp_path / "c.sqlite")
    old, new = WebLike("weblike/1"), WebLike("weblike/2")
    CachedRetriever(old, store).search("Paris", 3)
    CachedRetriever(new, store).search("Paris", 3)  # another revision: asked again
    CachedRetriever(old, store).search("Paris", 5)  # another k: asked again
    CachedRetriever(old, store).search("Paris", 3)  # same: served
    assert (old.calls, new.calls) == (2, 1)


def test_cache_hits_spend_no_budget(tmp_path: Path) -> None:
    cached = CachedRetriever(WebLike(), ResultCache(tmp_path / "c.sqlite"))
    cached.search("Paris", 3, budget=SearchBudget(1))
    budget = SearchBudget(1)
    assert cached.search("Paris", 3, budget=budget).cached
    assert budget.used == 0


def test_another_model_is_not_served_the_first_models_answers(scripted: Any) -> None:
    retriever = WebLike()
    first, second = scripted(), scripted()
    run(first, retriever)
    run(second, retriever)
    assert len(second.calls) == 3


def test_offline_engines_and_local_retrievers_are_not_cached() -> None:
    from triqua.engines.factory import resolve_engines
    from triqua.runtime.resources import build_resources
    from triqua.tools.closed_book import ClosedBookRetriever

    context = triqua.Context(retriever="closed_book")
    resources = build_resources(context, [])
    assert resources.engines == resolve_engines(context)  # not wrapped in the answer cache
    assert isinstance(resources.retriever.inner, ClosedBookRetriever)  # searches not cached
    assert not default_cache_path().exists()  # nothing to cache: the file is never opened


def test_cache_path_moves_the_cache(scripted: Any, tmp_path: Path) -> None:
    model, path = scripted(), tmp_path / "elsewhere.sqlite"
    for _ in range(2):
        triqua.check(CURIE, documents=[SOURCES["Marie Curie"]], model=model, cache_path=str(path))
    assert [tool for tool, _ in model.calls].count("Judgement") == 1
    # The decomposition, the verdict and the whole report.
    assert len(ResultCache(path)) == 3 and not default_cache_path().exists()


def test_cli_caches_and_no_cache_bypasses(scripted: Any, tmp_path: Path) -> None:
    model = scripted()
    name = register_model("cache-cli", model)
    evidence = tmp_path / "evidence.md"
    evidence.write_text(SOURCES["Marie Curie"], encoding="utf-8")
    runner = CliRunner()
    args = ["check", CURIE, "-e", str(evidence), "-m", name, "--json"]
    for extra in ([], [], ["--no-cache"]):
        result = runner.invoke(app, args + extra)
        assert result.exit_code == 0, result.output
    assert [tool for tool, _ in model.calls].count("Judgement") == 2


@pytest.mark.parametrize("bad", ["not json", '{"status": "nonsense"}'])
def test_unreadable_cache_entries_are_misses(tmp_path: Path, bad: str) -> None:
    from triqua.engines.base import Judge, JudgeResult
    from triqua.runtime.caches.cached_engines import CachedJudge
    from triqua.runtime.caches.call_cache import cache_key
    from triqua.schema import Fact, Status, Verdict

    class Fixed(Judge):
        revision = "fixed/1"
        asked = 0

        def verify(self, fact: Any, evidence: Any, *, units: Any = None, closed_book: bool = False):
            Fixed.asked += 1
            return JudgeResult(verdict=Verdict(status=Status.SUPPORTED, evidence_ids=["x"]))

    store = ResultCache(tmp_path / "c.sqlite")
    judge = CachedJudge(Fixed(), store, "m")
    fact = Fact(subject="Paris", relation="is", object="a city")
    judge.verify(fact, [])
    for key in [row[0] for row in store._conn.execute("SELECT key FROM cache")]:
        store.put(key, "verify", bad)
    assert judge.verify(fact, []).verdict.status is Status.SUPPORTED
    assert Fixed.asked == 2
    assert cache_key("a", 1) != cache_key("a", 2)
