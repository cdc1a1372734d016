"""Chroma retriever: the same suite against an embedded store and a real Chroma server."""

from __future__ import annotations

import asyncio
import json
import re
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import chromadb
import pytest
from chromadb.config import Settings
from chromadb.utils.embedding_functions import DefaultEmbeddingFunction
from typer.testing import CliRunner

from tests.conftest_chroma import (  # noqa: F401
    ChromaStore,
    chroma_server,
    chroma_store,
    paused_chroma_server,
)
from triqua.cli import app
from triqua.schema import Evidence, sha256_text
from triqua.tools import (
    CombinedRetriever,
    Retriever,
    RetrieverUnavailable,
    SearchBudget,
    SearchResult,
    build_retriever,
)
from triqua.tools.bounded import BoundedRetriever
from triqua.tools.chroma import ChromaRetriever, parse_server_url
from triqua.tools.ingest import ingest_paths
from triqua.tools.paths import default_chroma_path, triqua_home

T = TypeVar("T")

DOCS = {
    "eiffel.txt": (
        "The Eiffel Tower is a wrought-iron lattice tower in Paris.\n\n"
        "It was completed in 1889 as the entrance arch to the World's Fair."
    ),
    "danube.md": (
        "# Rivers\n\nThe Danube is the second-longest river in Europe. "
        "It flows through Vienna, Budapest and Belgrade before reaching the Black Sea."
    ),
    "bread.txt": "Sourdough bread is leavened with a culture of wild yeast and lactobacilli.",
}


@pytest.fixture(autouse=True)
def _no_default_embedder(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chroma's default embedder downloads a model: fail loudly if anything calls it."""

    def refuse(self: object, input: object) -> object:
        raise AssertionError("Chroma's default embedding function was used")

    monkeypatch.setattr(DefaultEmbeddingFunction, "__call__", refuse)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    for name, text in DOCS.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def ingested(corpus: Path, chroma_store: ChromaStore) -> ChromaStore:  # noqa: F811
    summary = ingest_paths([corpus], chroma_store.collection, chunk_size=80, **chroma_store.options)
    assert summary.count("added") == 3 and not summary.problems
    return chroma_store


def test_search_finds_the_relevant_chunk_with_offsets(ingested: ChromaStore, corpus: Path) -> None:
    retriever = ChromaRetriever(ingested.collection, **ingested.options)
    retriever.check_available()
    result = retriever.search("Which river flows through Budapest?", k=3)
    assert result.error is None and len(result.evidence) == 3
    top = result.evidence[0]
    assert top.source == str((corpus / "danube.md").resolve())
    assert "Budapest" in top.text  # chunks end at sentence ends: the sentence that answers
    original = (corpus / "danube.md").read_text(encoding="utf-8")
    assert top.start is not None and top.end is not None
    assert original[top.start : top.end] == top.text
    assert top.content_hash == sha256_text(top.text)
    assert top.document_id == "doc-" + sha256_text(original)[:12]
    assert [e.rank for e in result.evidence] == [1, 2, 3]
    scores = [e.score for e in result.evidence]
    assert all(s is not None and -1.0 <= s <= 1.0 for s in scores)
    assert scores == sorted(scores, reverse=True)  # type: ignore[type-var]
    assert scores[0] is not None and scores[0] > 0.4


def test_search_caps_results_at_k_and_at_the_collection_size(ingested: ChromaStore) -> None:
    retriever = ChromaRetriever(ingested.collection, **ingested.options)
    assert len(retriever.search("bread", k=1).evidence) == 1
    everything = retriever.search("bread", k=50).evidence
    assert 3 <= len(everything) < 50
    assert "Sourdough" in everything[0].text


def test_search_spends_the_budget_and_counts_calls(ingested: ChromaStore) -> None:
    retriever = ChromaRetriever(ingested.collection, **ingested.options)
    budget = SearchBudget(1)
    result = asyncio.run(retriever.asearch("Eiffel Tower", k=2, budget=budget))
    assert result.searched and "Eiffel" in result.evidence[0].text
    assert budget.used == 1 and retriever.calls == 1
    refused = retriever.search("Eiffel Tower", k=2, budget=budget)
    assert not refused.searched and refused.evidence == []
    assert refused.note is not None and "search budget spent" in refused.note
    assert budget.refused == 1 and retriever.calls == 1


def test_missing_collection_is_unavailable(chroma_store: ChromaStore) -> None:  # noqa: F811
    retriever = ChromaRetriever("no-such-collection", **chroma_store.options)
    with pytest.raises(RetrieverUnavailable, match="'no-such-collection' not found"):
        retriever.check_available()
    result = retriever.search("anything", k=2)
    assert result.evidence == [] and result.error is not None and "not found" in result.error


def test_a_collection_with_another_embedder_is_refused(
    chroma_store: ChromaStore,  # noqa: F811
) -> None:
    settings = Settings(anonymized_telemetry=False)
    if chroma_store.url:
        host, port, _ = parse_server_url(chroma_store.url)
        client = chromadb.HttpClient(host=host, port=port, settings=settings)
    else:
        client = chromadb.PersistentClient(path=str(chroma_store.path), settings=settings)
    client.create_collection(chroma_store.collection)
    retriever = ChromaRetriever(chroma_store.collection, **chroma_store.options)
    with pytest.raises(RetrieverUnavailable, match="not embedded with triqua's MiniLM"):
        retriever.check_available()


def test_as_tool_returns_chroma_passages(ingested: ChromaStore) -> None:
    tool = ChromaRetriever(ingested.collection, **ingested.options).as_tool()
    text = tool.invoke({"query": "When was the Eiffel Tower completed?", "k": 1})
    assert tool.name == "search_chroma"
    assert text.startswith("[1] id=ev-") and "eiffel.txt [" in text and "Eiffel Tower" in text


class _Web(Retriever):
    name = "web"
    revision = "web/test"
    uses_budget = True

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        self._count_call()
        return SearchResult(evidence=[Evidence.build(document_id="w", text="web", retriever="web")])


def test_combined_falls_back_to_the_web_only_below_the_relevance_bar(
    ingested: ChromaStore,
) -> None:
    web = _Web()
    combined = CombinedRetriever(
        ChromaRetriever(ingested.collection, **ingested.options), web, min_score=0.4
    )
    on_topic = combined.search("Eiffel Tower completion year", k=2)
    assert on_topic.evidence[0].retriever == "chroma" and web.calls == 0
    off_topic = combined.search("quarterly semiconductor export tariffs", k=2)
    assert [e.retriever for e in off_topic.evidence] == ["web"] and web.calls == 1


# --- from the command line, on the offline engine --------------------------------------------


@pytest.mark.slow
def test_cli_ingest_then_check_cites_the_collection(
    corpus: Path,
    chroma_store: ChromaStore,  # noqa: F811
) -> None:
    runner = CliRunner()
    name = chroma_store.collection
    made = runner.invoke(app, ["ingest", str(corpus), "-c", name, *chroma_store.cli_args])
    assert made.exit_code == 0, made.output
    assert "3 added" in made.stdout
    claim = "The Danube flows through Budapest."
    args = ["check", claim, "--retriever", "chroma", "--collection", name, "--json", "--no-store"]
    # check reads the embedded store's folder from the environment (it has no --chroma-path)
    result = runner.invoke(app, [*args, "--search-timeout", "10"], env=chroma_store.env)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    [record] = report["records"]
    assert record["verdict"]["status"] == "supported"
    assert {e["retriever"] for e in record["evidence"]} == {"chroma"}
    assert any("Budapest" in e["text"] for e in record["evidence"])
    snapshot = report["spec"]["corpus_snapshot"]
    assert (snapshot["collection"], snapshot["count"]) == (name, 3)


def test_search_timeout_bounds_every_chroma_search(
    ingested: ChromaStore,
) -> None:
    built = build_retriever(
        "chroma", collection=ingested.collection, search_timeout=4, **_factory_options(ingested)
    )
    assert isinstance(built, BoundedRetriever) and built.seconds == 4
    inner = built.inner
    assert isinstance(inner, ChromaRetriever) and inner.timeout == 4  # the server's HTTP bound
    top = built.search("river through Budapest", k=1).evidence[0]
    assert top.source is not None and top.source.endswith("danube.md")  # the Danube text's chunk


def _factory_options(store: ChromaStore) -> dict[str, str | None]:
    return {"chroma_path": str(store.path) if store.path else None, "chroma_url": store.url}


# --- a real server that stops answering (paused with SIGSTOP) ------------------------------

#: Seconds a bounded call may overrun its bound here (a busy two-core machine).
SLACK = 5.0
QUERY = "river through Budapest"


@pytest.fixture
def on_server(corpus: Path, chroma_server: str) -> tuple[str, str]:  # noqa: F811
    """The corpus ingested into a fresh collection of the session's server: (url, name)."""
    name = f"stall-{uuid.uuid4().hex[:8]}"
    ingest_paths([corpus], name, url=chroma_server)
    return chroma_server, name


def stalled(call: Callable[[], T]) -> T:
    """``call``'s result while the server is paused; it must return within 1 s + SLACK."""
    started = time.perf_counter()
    with paused_chroma_server():
        result = call()
    assert time.perf_counter() - started < 1 + SLACK
    return result


@pytest.mark.slow
def test_a_stalled_server_fails_the_availability_check_within_the_bound(
    on_server: tuple[str, str],
) -> None:
    url, name = on_server
    retriever = ChromaRetriever(name, url=url, timeout=1)
    started = time.perf_counter()
    with pytest.raises(RetrieverUnavailable, match="within 1 s"):
        stalled(retriever.check_available)
    assert time.perf_counter() - started < 1 + SLACK
    retriever.check_available()  # continued: the same retriever opens it now
    found = stalled(lambda: retriever.search(QUERY, k=1))  # its HTTP client keeps the bound
    assert found.error == f"chroma: the server at {url} did not answer within 1 s"
    assert "Danube" in retriever.search(QUERY, k=1).evidence[0].text


@pytest.mark.slow
def test_a_stalled_server_ends_an_open_search_within_the_search_timeout(
    on_server: tuple[str, str],
) -> None:
    url, name = on_server
    retriever = build_retriever("chroma", collection=name, chroma_url=url, search_timeout=1)
    retriever.check_available()  # opened while the server answered
    found = stalled(lambda: retriever.search(QUERY, k=1))
    assert found.evidence == []
    # Whichever bound fires first (the HTTP client's or the search's), the error names it.
    assert re.search(r"(did not answer within|timed out after) 1 s$", found.error or "")
    answered = retriever.search(QUERY, k=1)
    assert answered.error is None and "Danube" in answered.evidence[0].text


@pytest.mark.slow
def test_cli_check_on_a_stalled_server_is_one_line_within_its_search_timeout(
    on_server: tuple[str, str],
) -> None:
    url, name = on_server
    args = ["check", "The Danube flows through Budapest.", "--retriever", "chroma"]
    args += ["--collection", name, "--chroma-url", url, "--search-timeout", "1", "--no-store"]
    result = stalled(lambda: CliRunner().invoke(app, args))
    assert result.exit_code not in (0, None)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"the server at {url} did not answer within 1 s" in lines[0]


# --- configuration (no store needed) ------------------------------------------------------


def test_unreachable_server_is_unavailable() -> None:
    retriever = build_retriever("chroma", collection="docs", chroma_url="http://127.0.0.1:9")
    with pytest.raises(
        RetrieverUnavailable, match=r"cannot reach the server at http://127\.0\.0\.1:9"
    ):
        retriever.check_available()
    assert "cannot reach" in (retriever.search("q", k=1).error or "")


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://localhost:8000", ("localhost", 8000, False)),
        ("https://chroma.example.org", ("chroma.example.org", 443, True)),
        ("127.0.0.1:9000", ("127.0.0.1", 9000, False)),
        ("http://db", ("db", 8000, False)),
    ],
)
def test_parse_server_url(url: str, expected: tuple[str, int, bool]) -> None:
    assert parse_server_url(url) == expected


@pytest.mark.parametrize("url", ["ftp://host:21", "http://", "http://host:notaport"])
def test_parse_server_url_rejects_bad_urls(url: str) -> None:
    with pytest.raises(ValueError, match="chroma:"):
        parse_server_url(url)


def test_triqua_home_honours_triqua_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRIQUA_HOME", str(tmp_path / "home"))
    assert triqua_home() == tmp_path / "home"
    assert default_chroma_path() == tmp_path / "home" / "chroma"
    monkeypatch.delenv("TRIQUA_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert triqua_home() == tmp_path / "xdg" / "triqua"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert triqua_home() == Path.home() / ".local" / "share" / "triqua"


def test_embedded_store_defaults_to_the_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, corpus: Path
) -> None:
    monkeypatch.setenv("TRIQUA_HOME", str(tmp_path / "home"))
    ingest_paths([corpus / "bread.txt"], "defaults")
    assert (tmp_path / "home" / "chroma").is_dir()
    result = ChromaRetriever("defaults").search("wild yeast", k=1)
    assert "Sourdough" in result.evidence[0].text
