"""The retriever kinds: one table of what each kind is, read wherever a kind matters.

The factory builds a kind, the run's mode and spec follow from it, reranking, the whole-report
cache, the cost guard and the evaluation harness ask it a property; none of them lists kinds
of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from triqua.schema import Mode
from triqua.support.instances import PREFIX

__all__ = ["KINDS", "RETRIEVER_KINDS", "RetrieverKind", "kind_of"]


@dataclass(frozen=True)
class RetrieverKind:
    """What a retriever kind is: its evidence mode and how the rest of triqua treats it."""

    name: str
    #: The evidence contract's mode the kind implies.
    mode: Mode = Mode.BOUNDED_SEARCH
    #: It searches a store or the web per query: it fetches ``candidates`` passages, which
    #: are reranked by default (supplied documents are reranked only when asked).
    searches: bool = True
    #: It returns passages at all (closed book returns none: the judge's own knowledge).
    passages: bool = True
    #: It searches the web: paid per search, and its corpus snapshot is the date searched.
    web: bool = False
    #: It reads a Chroma collection (so it needs ``collection``).
    chroma: bool = False
    #: Its whole reports may be cached: its answers are fully named by the cache key (its
    #: documents, its settings, or the query and the search client's revision).
    cacheable: bool = False
    #: A retriever object registered at run time, whose corpus triqua does not know.
    registered: bool = False


#: The kinds ``build_retriever`` builds, by name.
KINDS = {
    kind.name: kind
    for kind in (
        RetrieverKind("supplied", Mode.SUPPLIED_CONTEXT, searches=False, cacheable=True),
        RetrieverKind(
            "closed_book", Mode.CLOSED_BOOK, searches=False, passages=False, cacheable=True
        ),
        RetrieverKind("tavily", web=True, cacheable=True),
        RetrieverKind("chroma", chroma=True),
        RetrieverKind("chroma+tavily", web=True, chroma=True),
        RetrieverKind("serper", web=True, cacheable=True),
        RetrieverKind("chroma+serper", web=True, chroma=True),
        RetrieverKind("brave", web=True, cacheable=True),
        RetrieverKind("chroma+brave", web=True, chroma=True),
    )
}
RETRIEVER_KINDS = tuple(KINDS)


def kind_of(name: str) -> RetrieverKind:
    """The kind ``name`` (a ``Context.retriever`` value after 'auto' is resolved).

    ``instance:NAME`` is a registered retriever. Any other unknown name is treated as a
    search retriever here, so that building it reports it (``build_retriever``).
    """
    if name in KINDS:
        return KINDS[name]
    return RetrieverKind(name, registered=name.startswith(PREFIX))
