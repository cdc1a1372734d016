"""Reranked retrieval: candidates fetched, scored against the query with MiniLM, best k kept."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import triqua
from tests.conftest_chroma import ChromaStore, chroma_server, chroma_store  # noqa: F401
from triqua.cli import app
from triqua.context import Context
from triqua.models.embeddings import get_embedder
from triqua.runtime.resources import build_resources, register_retriever
from triqua.schema import Document, Evidence
from triqua.tools.base import Retriever, SearchBudget, SearchResult
from triqua.tools.ingest import ingest_paths
from triqua.tools.rerank import Reranker, RerankingRetriever, reranker_for

QUERY = "The Danube flows through Vienna."
# Retrieval order puts the relevant passage last, as a weak first stage might.
PASSAGES = [
    "Sourdough bread is leavened with wild yeast and lactobacilli.",
    "The Eiffel Tower was completed in 1889 for the World's Fair.",
    "Chess is a board game for two players on a checkered board.",
    "The Danube is Europe's second-longest river; it flows through Vienna and Budapest.",
]


class ListRetriever(Retriever):
    """Returns its passages in a fixed order, as many as asked for; records each ``k``."""

    name = "list"
    revision = "list/1"
    uses_budget = True

    def __init__(self, texts: list[str]) -> None:
        super().__init__()
        self.texts = texts
        self.asked: list[int] = []

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        self._count_call()
        self.asked.append(k)
        return SearchResult(
            evidence=[
                Evidence.build(document_id=f"d{i}", text=t, retriever=self.name, rank=i + 1)
                for i, t in enumerate(self.texts[:k])
            ]
        )


def test_reranking_orders_candidates_by_similarity_to_the_query() -> None:
    inner = ListRetriever(PASSAGES)
    reranked = RerankingRetriever(inner, reranker_for(None), candidates=4, seconds=20)
    kept = reranked.search(QUERY, k=2).evidence
    assert inner.asked == [4]  # candidates fetched, not k
    assert len(kept) == 2
    assert "Danube" in kept[0].text
    assert kept[0].rank == 4 and kept[0].rerank_rank == 1  # both ranks recorded
    assert kept[1].rerank_rank == 2
    assert kept[0].rerank_score is not None and kept[1].rerank_score is not None
    assert kept[0].rerank_score > kept[1].rerank_score
    # Scores are the model's cosine similarities: the relevant passage is clearly closer.
    scores = reranker_for(None).scores(QUERY, reranked.inner.search(QUERY, 4).evidence)
    assert max(scores) == scores[3] and scores[3] > 0.5 > max(scores[:3])


def test_reranking_is_deterministic_and_cached_per_query_and_passage() -> None:
    calls: list[int] = []
    packaged = reranker_for(None)

    def counting(texts: Any) -> Any:
        calls.append(len(texts))
        return packaged._embed(texts)

    reranker = Reranker(counting, "counting")
    evidence = ListRetriever(PASSAGES).search(QUERY, 4).evidence
    first = reranker.rerank(QUERY, evidence, 3)
    second = reranker.rerank(QUERY, list(reversed(evidence)), 3)
    assert [e.id for e in first] == [e.id for e in second]
    assert [e.rerank_score for e in first] == [e.rerank_score for e in second]
    assert len(calls) == 1  # the second ranking was served from the cache
    reranker.rerank("Who built the Eiffel Tower?", evidence, 3)
    assert len(calls) == 2  # another query is scored afresh


def test_sentence_level_scoring_finds_a_fact_inside_a_long_passage() -> None:
    filler = " ".join(
        f"Line {i} of the almanac lists tide tables for the harbour." for i in range(8)
    )
    long_relevant = f"{filler} The Danube flows through Vienna. {filler}"
    evidence = ListRetriever([PASSAGES[1], long_relevant]).search(QUERY, 2).evidence
    kept = reranker_for(None).rerank(QUERY, evidence, 1)
    assert kept[0].document_id == "d1"
    # The whole-passage vector (what Chroma searched with) is diluted by the filler; the
    # passage's own sentence matches the query almost exactly.
    vectors = get_embedder().embed([QUERY, long_relevant])
    assert float(vectors[0] @ vectors[1]) < 0.7
    assert kept[0].rerank_score is not None and kept[0].rerank_score > 0.95


def test_no_rerank_keeps_retrieval_order_and_top_k() -> None:
    inner = ListRetriever(PASSAGES)
    name = register_retriever("rerank-list-off", inner)
    resources = build_resources(Context(retriever=name, rerank=False, max_results=2), [])
    assert not isinstance(resources.retriever, RerankingRetriever)
    found = resources.retriever.search(QUERY, 2).evidence
    assert [e.rank for e in found] == [1, 2]
    assert all(e.rerank_rank is None and e.rerank_score is None for e in found)
    assert inner.asked == [2]
    assert resources.reranker is None


def test_search_retrievers_fetch_ten_candidates_and_keep_top_k() -> None:
    inner = ListRetriever([*PASSAGES, *(f"Filler passage number {i}." for i in range(10))])
    name = register_retriever("rerank-list-on", inner)
    resources = build_resources(Context(retriever=name, max_results=3), [])
    assert resources.key.candidates == 10
    found = resources.retriever.search(QUERY, 3).evidence
    assert inner.asked == [10] and len(found) == 3
    assert [e.rerank_rank for e in found] == [1, 2, 3]
    assert "Danube" in found[0].text and found[0].rank == 4
    assert resources.reranker and "all-MiniLM-L6-v2" in resources.reranker


def test_supplied_documents_keep_their_default_unless_candidates_is_set() -> None:
    docs = [Document(text=" ".join(PASSAGES))]
    plain = build_resources(Context(retriever="supplied", cache=False), docs)
    assert plain.key.candidates is None and plain.reranker is None
    chosen = build_resources(Context(retriever="supplied", cache=False, candidates=8), docs)
    assert chosen.key.candidates == 8 and chosen.reranker is not None
    assert Context(retriever="closed_book").rerank_candidates("closed_book") is None


def test_candidates_must_be_positive() -> None:
    with pytest.raises(ValueError, match="candidates must be >= 1"):
        Context(candidates=0).validate()


def test_a_stalled_reranker_keeps_retrieval_order_within_the_bound() -> None:
    release = threading.Event()

    def stall(texts: Any) -> Any:
        release.wait(30)
        raise RuntimeError("released")

    try:
        reranked = RerankingRetriever(ListRetriever(PASSAGES), Reranker(stall, "stall"), 4, 0.2)
        result = reranked.search(QUERY, k=2)
    finally:
        release.set()
    assert [e.rank for e in result.evidence] == [1, 2]
    assert result.error and "rerank timed out after 0.2 s" in result.error


def test_the_spec_records_candidates_and_reranker() -> None:
    name = register_retriever("rerank-spec", ListRetriever(PASSAGES))
    report = triqua.check(QUERY, retriever=name, cache=False, candidates=6)
    assert report.spec.budget.candidates == 6
    assert report.spec.budget.rerank and "MiniLM" in report.spec.budget.rerank
    off = triqua.check(QUERY, retriever=name, cache=False, rerank=False)
    assert off.spec.budget.candidates is None and off.spec.budget.rerank is None
    assert off.spec.hash != report.spec.hash


def test_old_evidence_json_loads_without_rerank_fields() -> None:
    old = Evidence.build(document_id="d", text="x", retriever="r", rank=2).model_dump(mode="json")
    old.pop("rerank_rank"), old.pop("rerank_score")
    loaded = Evidence.model_validate(old)
    assert loaded.rank == 2 and loaded.rerank_rank is None and loaded.rerank_score is None


DOCS = {
    "bread.txt": PASSAGES[0],
    "eiffel.txt": PASSAGES[1],
    "chess.txt": PASSAGES[2],
    "danube.txt": PASSAGES[3],
    **{
        f"filler{i}.txt": f"Entry {i}: the museum archive catalogues pottery item {i}."
        for i in range(8)
    },
}


@pytest.fixture
def ingested(tmp_path: Path, chroma_store: ChromaStore) -> ChromaStore:  # noqa: F811
    folder = tmp_path / "corpus"
    folder.mkdir()
    for name, text in DOCS.items():
        (folder / name).write_text(text, encoding="utf-8")
    summary = ingest_paths([folder], chroma_store.collection, **chroma_store.options)
    assert summary.count("added") == len(DOCS) and not summary.problems
    return chroma_store


def chroma_context(store: ChromaStore, **settings: Any) -> Context:
    return Context(
        retriever="chroma",
        collection=store.collection,
        chroma_path=str(store.path) if store.path else None,
        chroma_url=store.url,
        cache=False,
        **settings,
    )


def test_chroma_reranks_ten_candidates(ingested: ChromaStore) -> None:
    resources = build_resources(chroma_context(ingested, max_results=3), [])
    retriever = resources.retriever
    assert isinstance(retriever, RerankingRetriever) and retriever.candidates == 10
    candidates = retriever.inner.search(QUERY, 10).evidence
    assert len(candidates) == 10  # the corpus holds 12 chunks
    found = retriever.search(QUERY, 3, budget=resources.budget).evidence
    assert len(found) == 3 and resources.budget.used == 1
    assert "Danube" in found[0].text and found[0].rerank_rank == 1
    assert all(e.rank is not None and 1 <= e.rank <= 10 for e in found)
    scores = [e.rerank_score for e in found]
    assert scores == sorted(scores, reverse=True)  # type: ignore[type-var]


def test_chroma_without_rerank_searches_top_k_in_its_order(ingested: ChromaStore) -> None:
    resources = build_resources(chroma_context(ingested, max_results=3, rerank=False), [])
    found = resources.retriever.search(QUERY, 3).evidence
    assert [e.rank for e in found] == [1, 2, 3]
    assert all(e.rerank_rank is None for e in found)


def test_cli_flags_reach_the_run(tmp_path: Path) -> None:
    runner = CliRunner()
    name = register_retriever("rerank-cli", ListRetriever(PASSAGES))
    base = ["check", QUERY, "--retriever", name, "--no-store", "--no-cache", "--json"]
    result = runner.invoke(app, [*base, "--candidates", "4", "--top-k", "2"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["spec"]["budget"]["candidates"] == 4
    assert report["spec"]["budget"]["max_results"] == 2
    evidence = report["records"][0]["evidence"]
    assert len(evidence) == 2 and evidence[0]["rerank_rank"] == 1 and evidence[0]["rank"] == 4
    off = runner.invoke(app, [*base, "--no-rerank", "--top-k", "2"])
    assert off.exit_code == 0, off.output
    off_report = json.loads(off.stdout)
    assert off_report["spec"]["budget"]["rerank"] is None
    assert [e["rank"] for e in off_report["records"][0]["evidence"]] == [1, 2]
    lines = tmp_path / "in.jsonl"
    lines.write_text(json.dumps({"id": "a", "text": QUERY}) + "\n", encoding="utf-8")
    batch = runner.invoke(
        app, ["batch", str(lines), "--retriever", name, "--candidates", "3", "--quiet"]
    )
    assert batch.exit_code == 0, batch.output
    line = json.loads(batch.stdout.splitlines()[0])
    assert line["id"] == "a" and line["spec"]["budget"]["candidates"] == 3
