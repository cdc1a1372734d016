"""Supplied documents, document loading, closed book, the budget, combining, tools, factory."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from triqua.schema import Document, Evidence, sha256_text
from triqua.tools import (
    BudgetExhausted,
    CombinedRetriever,
    Retriever,
    SearchBudget,
    SearchResult,
    build_retriever,
)
from triqua.tools.closed_book import ClosedBookRetriever
from triqua.tools.documents import html_to_text, load_documents, split_passages
from triqua.tools.supplied import SuppliedRetriever

PARIS = Document(
    id="d-paris",
    source="notes/paris.txt",
    title="Paris",
    text=(
        "Paris is the capital and largest city of France.\n\n"
        "The Eiffel Tower was completed in 1889 for the World's Fair. "
        "It was designed by the engineering firm of Gustave Eiffel."
    ),
)
BERLIN = Document(
    id="d-berlin",
    source="notes/berlin.txt",
    text="Berlin is the capital of Germany. The Berlin Wall fell in November 1989.",
)


def _long_document() -> Document:
    paragraphs = [f"Paragraph {i} talks about topic{i} and nothing else. " * 4 for i in range(12)]
    paragraphs[7] = "The Danube flows through Vienna, Budapest and Belgrade. " * 3
    return Document(id="d-long", source="long.md", text="\n\n".join(paragraphs))


# --- supplied retrieval -------------------------------------------------------------------


def test_supplied_ranks_the_matching_passage_first_with_offsets() -> None:
    retriever = SuppliedRetriever([BERLIN, PARIS, _long_document()], passage_chars=200)
    result = retriever.search("When was the Eiffel Tower completed?", k=3)
    assert result.error is None and result.searched
    top = result.evidence[0]
    assert top.document_id == "d-paris" and top.source == "notes/paris.txt"
    assert top.title == "Paris"
    assert "1889" in top.text
    assert PARIS.text[top.start : top.end] == top.text
    assert top.content_hash == sha256_text(top.text)
    assert top.retriever == "supplied" and top.retrieved_at is not None


def test_supplied_offsets_hold_for_every_passage_of_a_long_document() -> None:
    doc = _long_document()
    retriever = SuppliedRetriever([doc], passage_chars=120)
    assert retriever.passage_count > 5
    result = retriever.search("Danube Vienna Budapest paragraph topic3 topic9", k=20)
    assert len(result.evidence) >= 3
    for ev in result.evidence:
        assert ev.start is not None and ev.end is not None
        assert doc.text[ev.start : ev.end] == ev.text
        assert len(ev.text) <= 120
    assert "Danube" in result.evidence[0].text


def test_supplied_returns_ranks_in_score_order_and_respects_k() -> None:
    retriever = SuppliedRetriever([PARIS, BERLIN], passage_chars=80)
    result = retriever.search("capital", k=2)
    assert len(result.evidence) == 2
    assert [e.rank for e in result.evidence] == [1, 2]
    scores = [e.score or 0.0 for e in result.evidence]
    assert all(s > 0 for s in scores)
    assert scores == sorted(scores, reverse=True)


def test_supplied_leaves_out_passages_without_a_shared_term() -> None:
    retriever = SuppliedRetriever([PARIS, BERLIN])
    assert retriever.search("zebra okapi", k=5).evidence == []
    assert retriever.search("the of and", k=5).evidence == []


def test_supplied_skips_empty_documents_and_handles_none() -> None:
    retriever = SuppliedRetriever([Document(text="   \n"), BERLIN])
    assert retriever.passage_count == 1
    assert retriever.search("Berlin Wall", k=3).evidence[0].document_id == "d-berlin"
    empty = SuppliedRetriever([])
    result = empty.search("anything at all", k=3)
    assert result.evidence == [] and result.error is None


def test_supplied_does_not_spend_the_budget_but_counts_calls() -> None:
    retriever = SuppliedRetriever([PARIS])
    budget = SearchBudget(1)
    for _ in range(3):
        assert retriever.search("Paris", k=1, budget=budget).searched
    assert budget.used == 0
    assert retriever.calls == 3


def test_supplied_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="passage_chars"):
        SuppliedRetriever([PARIS], passage_chars=10)
    with pytest.raises(ValueError, match="k must be"):
        SuppliedRetriever([PARIS]).search("Paris", k=0)


def test_supplied_asearch_matches_search() -> None:
    retriever = SuppliedRetriever([PARIS, BERLIN])
    sync = retriever.search("Berlin Wall 1989", k=2)
    async_result = asyncio.run(retriever.asearch("Berlin Wall 1989", k=2))
    assert [e.id for e in async_result.evidence] == [e.id for e in sync.evidence]


def test_supplied_is_safe_under_concurrent_queries() -> None:
    retriever = SuppliedRetriever([PARIS, BERLIN, _long_document()], passage_chars=150)
    expected = retriever.search("Eiffel Tower 1889", k=2).evidence[0].id
    seen: list[str] = []

    def worker() -> None:
        for _ in range(20):
            seen.append(retriever.search("Eiffel Tower 1889", k=2).evidence[0].id)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == [expected] * 80


# --- splitting and loading ----------------------------------------------------------------


def test_split_passages_keeps_offsets_with_repeated_text() -> None:
    text = ("Same sentence here. " * 30).strip()
    passages = split_passages(text, 60)
    assert len(passages) > 3
    for p in passages:
        assert text[p.start : p.end] == p.text
    assert [p.start for p in passages] == sorted({p.start for p in passages})


def test_load_documents_reads_text_markdown_html_and_jsonl(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Plain text about owls.", encoding="utf-8")
    (tmp_path / "b.md").write_text("# Title\n\nMarkdown about bats.", encoding="utf-8")
    (tmp_path / "c.html").write_text(
        "<html><head><title> Cats  page </title><style>p{x:1}</style></head>"
        "<body><p>Cats &amp; kittens</p><script>var secret=1;</script>"
        "<div>purr</div></body></html>",
        encoding="utf-8",
    )
    (tmp_path / "d.jsonl").write_text(
        '{"text": "First line doc.", "title": "One"}\n\n{"text": "Third line doc."}\n',
        encoding="utf-8",
    )
    docs = load_documents([tmp_path])
    by_source = {d.source: d for d in docs}
    assert by_source[str(tmp_path / "a.txt")].text == "Plain text about owls."
    assert "Markdown about bats." in by_source[str(tmp_path / "b.md")].text
    html_doc = by_source[str(tmp_path / "c.html")]
    assert html_doc.text == "Cats & kittens\n\npurr"
    assert html_doc.title == "Cats page"
    assert by_source[f"{tmp_path / 'd.jsonl'}#1"].title == "One"
    assert by_source[f"{tmp_path / 'd.jsonl'}#3"].text == "Third line doc."
    assert len(docs) == 5
    assert all(d.id.startswith("doc-") for d in docs)


def test_html_to_text_drops_scripts_and_keeps_blocks() -> None:
    text, title = html_to_text("<p>One <b>bold</b> word</p><noscript>x</noscript><li>Two</li>")
    assert text == "One bold word\n\n- Two"  # a list item keeps its bullet
    assert title is None


@pytest.mark.parametrize(
    ("name", "content", "why"),
    [
        ("blob.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary"),
        ("latin.txt", "café".encode("latin-1"), "not valid UTF-8"),
        ("empty.md", b"  \n\n", "empty"),
    ],
)
def test_load_documents_names_the_bad_file_and_why(
    tmp_path: Path, name: str, content: bytes, why: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(ValueError, match=why) as info:
        load_documents([path])
    assert str(info.value).startswith(f"{path}:")


def test_load_documents_reports_a_missing_file_and_a_bad_jsonl_line(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no such file"):
        load_documents([tmp_path / "nope.txt"])
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "ok"}\n{"body": "no text field"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.jsonl:2: no string field 'text'"):
        load_documents([bad])


# --- closed book, budget, combining, tools ------------------------------------------------


def test_closed_book_returns_nothing_and_says_so() -> None:
    retriever = ClosedBookRetriever()
    budget = SearchBudget(2)
    result = retriever.search("anything", k=3, budget=budget)
    assert result.evidence == [] and not result.searched and result.error is None
    assert result.note and "closed book" in result.note
    assert budget.used == 0 and retriever.revision == "closed_book"


def test_budget_counts_and_refuses_when_spent() -> None:
    budget = SearchBudget(2)
    assert budget.try_spend() and budget.try_spend()
    assert not budget.try_spend()
    assert (budget.used, budget.remaining, budget.exhausted) == (2, 0, True)
    with pytest.raises(BudgetExhausted):
        budget.spend()
    with pytest.raises(ValueError):
        SearchBudget(-1)


def test_budget_is_thread_safe() -> None:
    budget = SearchBudget(500)
    granted: list[bool] = []
    lock = threading.Lock()

    def worker() -> None:
        for _ in range(200):
            ok = budget.try_spend()
            with lock:
                granted.append(ok)

    threads = [threading.Thread(target=worker) for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(granted) == 500 and budget.used == 500 and budget.remaining == 0


class _ScriptedWeb(Retriever):
    """A budget-using retriever that answers every query with one fixed passage."""

    name = "web"
    revision = "web/test"
    uses_budget = True

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        if budget is not None and not budget.try_spend():
            return SearchResult(searched=False, note="budget")
        self._count_call()
        ev = Evidence.build(document_id="w1", text=f"web says {query}", retriever=self.name)
        return SearchResult(evidence=[ev])


def test_combined_uses_the_fallback_only_when_primary_finds_nothing_relevant() -> None:
    web = _ScriptedWeb()
    combined = CombinedRetriever(SuppliedRetriever([PARIS]), web, min_score=0.0)
    budget = SearchBudget(5)
    hit = combined.search("Eiffel Tower", k=2, budget=budget)
    assert hit.evidence[0].document_id == "d-paris"
    assert web.calls == 0 and budget.used == 0
    miss = combined.search("Danube river", k=2, budget=budget)
    assert [e.document_id for e in miss.evidence] == ["w1"]
    assert web.calls == 1 and budget.used == 1
    assert combined.uses_budget and combined.name == "supplied+web"


def test_combined_treats_low_scores_as_irrelevant_and_shares_the_budget() -> None:
    web = _ScriptedWeb()
    combined = CombinedRetriever(SuppliedRetriever([PARIS]), web, min_score=1e6)
    budget = SearchBudget(1)
    first = asyncio.run(combined.asearch("Eiffel Tower", k=2, budget=budget))
    assert [e.document_id for e in first.evidence] == ["w1"]
    second = combined.search("Eiffel Tower", k=2, budget=budget)
    assert second.evidence == [] and second.note == "budget"
    assert web.calls == 1 and budget.exhausted


def test_as_tool_returns_passages_as_text_with_ids_and_sources() -> None:
    retriever = SuppliedRetriever([PARIS, BERLIN])
    tool = retriever.as_tool()
    assert tool.name == "search_supplied"
    assert set(tool.args) == {"query", "k"}
    text = tool.invoke({"query": "Berlin Wall", "k": 1})
    ev = retriever.search("Berlin Wall", k=1).evidence[0]
    assert f"id={ev.id}" in text and "source=notes/berlin.txt" in text
    assert ev.text in text and text.startswith("[1] ")
    assert "No evidence found" in asyncio.run(tool.ainvoke({"query": "zebra", "k": 2}))


def test_as_tool_reports_a_refused_search() -> None:
    tool = _ScriptedWeb().as_tool(budget=SearchBudget(0))
    assert tool.invoke({"query": "q", "k": 1}).startswith("No search made for 'q': budget")


# --- factory ------------------------------------------------------------------------------


def test_factory_builds_each_kind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    assert build_retriever("supplied", documents=[PARIS]).name == "supplied"
    assert build_retriever("closed_book").name == "closed_book"
    web = build_retriever("tavily", include_domains=["example.org"], max_results=3)
    assert web.name == "tavily" and web.uses_budget
    chroma = build_retriever("chroma", collection="docs", chroma_path=tmp_path)
    assert chroma.revision == "chroma:docs@minilm"
    both = build_retriever("chroma+tavily", collection="docs", chroma_path=tmp_path)
    assert isinstance(both, CombinedRetriever) and both.name == "chroma+tavily"


def test_factory_rejects_unknown_kinds_and_missing_arguments() -> None:
    with pytest.raises(ValueError, match="unknown retriever 'bing'"):
        build_retriever("bing")
    with pytest.raises(ValueError, match="needs documents"):
        build_retriever("supplied")
    with pytest.raises(ValueError, match="collection name"):
        build_retriever("chroma")
