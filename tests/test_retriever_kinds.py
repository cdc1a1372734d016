"""The one table of retriever kinds, and the places that read it."""

from __future__ import annotations

import pytest

from triqua.context import Context
from triqua.evals.factscore import KnowledgeSource
from triqua.evals.guard import estimate_cost
from triqua.runtime.resources import mode_of
from triqua.schema import Mode
from triqua.schema.retriever_kinds import KINDS, RETRIEVER_KINDS, kind_of
from triqua.tools.factory import build_retriever


def test_every_listed_kind_is_one_the_factory_builds_and_no_other() -> None:
    assert RETRIEVER_KINDS == (
        "supplied",
        "closed_book",
        "tavily",
        "chroma",
        "chroma+tavily",
        "serper",
        "chroma+serper",
        "brave",
        "chroma+brave",
    )
    with pytest.raises(ValueError, match="unknown retriever 'bing'; choose one of supplied"):
        build_retriever("bing")


def test_modes_follow_the_table() -> None:
    assert mode_of("supplied") is Mode.SUPPLIED_CONTEXT
    assert mode_of("closed_book") is Mode.CLOSED_BOOK
    for name in ("tavily", "chroma", "chroma+tavily", "instance:mine"):
        assert mode_of(name) is Mode.BOUNDED_SEARCH


def test_a_registered_retriever_is_a_search_retriever_with_an_unknown_corpus() -> None:
    kind = kind_of("instance:mine")
    assert kind.registered and kind.searches and not kind.web and not kind.cacheable


def test_reranking_candidates_by_kind() -> None:
    context = Context(candidates=None)
    assert context.rerank_candidates("closed_book") is None  # no passages to rerank
    assert context.rerank_candidates("supplied") is None  # supplied: only when asked
    assert Context(candidates=7).rerank_candidates("supplied") == 7
    assert context.rerank_candidates("chroma") == 10  # search retrievers: TriQua's 10
    assert context.rerank_candidates("instance:mine") == 10


def test_only_web_kinds_are_counted_as_paid_searches() -> None:
    context = Context(model=None)
    texts = ["Marie Curie was born in Warsaw. She won two Nobel Prizes."]
    for name, kind in KINDS.items():
        searches = estimate_cost(texts, context, retriever=name).searches
        assert (searches > 0) is kind.web, name


def test_evaluation_search_sources_are_the_searching_kinds() -> None:
    assert KnowledgeSource.search("tavily").label == "Tavily web search"
    with pytest.raises(ValueError, match="needs --collection"):
        KnowledgeSource.search("chroma+tavily")
    for name in ("supplied", "closed_book", "instance:mine"):
        with pytest.raises(ValueError, match="not a searched knowledge source"):
            KnowledgeSource.search(name)
