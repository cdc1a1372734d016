"""ElementCheck's element graph of a sentence, read from the sentence itself.

The elements of a sentence are its entities (named entities and the other noun phrases),
values and dates (numeric and temporal entities) and events (its verbs); they are the
nodes. Each element hangs from the nearest element or event above it in the sentence's
dependency parse ("Physics" from "the Nobel Prize" through "in"; "the Nobel Prize" from
"won"), and that link is an edge. A sentence whose graph is wider than δ is complex
(:mod:`triqua.core.routing` decides). The graph does not depend on how a decomposer split
the sentence into facts, so every engine routes the same sentence the same way.

Hand-written over spaCy's parse: no maintained library builds ElementCheck's graph; spaCy
gives the entities, noun phrases and dependencies it is made of.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

import networkx as nx

from triqua.engines.offline.nlp import NLP_LOCK, load_nlp

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

__all__ = ["sentence_element_graphs"]

#: Relative and interrogative words link clauses; they are not elements themselves.
_LINK_TAGS = frozenset({"WDT", "WP", "WP$", "WRB"})
_EVENT_POS = frozenset({"VERB"})
#: Dependencies of a list's later members (the parse often reads a list of titles as
#: appositions), which hang where the list's first member hangs.
_LISTED = frozenset({"conj", "appos"})
_COPULAS = frozenset({"is", "was", "are", "were", "be", "been", "being", "'s", "’s", "am"})
_MAX_SENTENCE_CHARS = 2_000  # longer "sentences" (tables, lists) are read in this prefix


_CACHE_SIZE = 4096
_cache: OrderedDict[str, nx.Graph] = OrderedDict()
_cache_lock = threading.Lock()


def sentence_element_graphs(sentences: Sequence[str]) -> list[nx.Graph]:
    """The element graph of each sentence: entity, value, date and event nodes, parse edges.

    Node names are ``"<kind>:<text>@<token index>"`` (the same words twice are two
    elements); each node carries ``kind`` (entity, value, date or event) and ``text``.
    Sentences are parsed together (one spaCy batch) and the last 4,096 sentences' graphs
    are kept for the next calls; the graphs are shared between callers: copy one before
    changing it.
    """
    texts = [s.strip()[:_MAX_SENTENCE_CHARS] for s in sentences]
    with _cache_lock:
        known = {t: _cache[t] for t in texts if t in _cache}
        for text in known:
            _cache.move_to_end(text)  # least recently used first out
    missing = list(dict.fromkeys(t for t in texts if t not in known and t))
    if missing:
        with NLP_LOCK:
            docs = list(load_nlp().pipe(missing))
        built = {t: _graph(doc) for t, doc in zip(missing, docs, strict=True)}
        with _cache_lock:
            for text, graph in built.items():
                _cache[text] = graph
            while len(_cache) > _CACHE_SIZE:
                _cache.popitem(last=False)
        known.update(built)
    return [known.get(t, nx.Graph()) for t in texts]


def _graph(doc: Doc) -> nx.Graph:
    """The element graph of one parsed sentence."""
    graph = nx.Graph()
    owner: dict[int, str] = {}  # token index -> node of the element holding it

    def add(kind: str, start: int, end: int, root: int) -> None:
        if any(i in owner for i in range(start, end)):
            return
        words = doc[start:end].text
        node = f"{kind}:{words}@{root}"
        graph.add_node(node, kind=kind, text=words, root=root)
        for i in range(start, end):
            owner[i] = node

    chunks = [c for c in doc.noun_chunks if c.root.tag_ not in _LINK_TAGS]
    # A named entity is its own element unless it only modifies a noun phrase holding it
    # ("an American actor"); one reaching past a phrase ("the Nobel Prize in Physics")
    # is one element.
    for ent in doc.ents:
        if any(c.start <= ent.start and ent.end <= c.end and ent.root != c.root for c in chunks):
            continue
        kind = {"DATE": "date", "TIME": "date"}.get(ent.label_, "entity")
        if ent.label_ in ("CARDINAL", "QUANTITY", "MONEY", "PERCENT", "ORDINAL"):
            kind = "value"
        add(kind, ent.start, ent.end, ent.root.i)
    for chunk in chunks:
        add("entity", chunk.start, chunk.end, chunk.root.i)
    for token in doc:
        if token.i in owner:
            continue
        if token.pos_ in _EVENT_POS or token.dep_ == "ROOT":
            add("event", token.i, token.i + 1, token.i)
        elif token.like_num:
            add("value", token.i, token.i + 1, token.i)
    # Each element hangs from the nearest element or event above its root token. A
    # conjunct or apposition hangs where the first of its list hangs: "X, Y and Z" are
    # siblings, not a chain (the parse heads Y on X and Z on Y); coordinated clauses stay
    # linked.
    for node, data in list(graph.nodes(data=True)):
        first = doc[data["root"]]
        while first.dep_ in _LISTED and first.head.i != first.i:
            first = first.head
        sibling = owner.get(first.i)
        if sibling == node:
            sibling = None
        above = _above(first, node, owner)
        if sibling is not None and (above is None or data["kind"] == "event"):
            above = sibling  # a clause joined to the first, or a list at the sentence's top
        if above is not None:
            graph.add_edge(node, above)
    return _same_entities(graph, doc, owner)


def _same_entities(graph: nx.Graph, doc: Doc, owner: dict[int, str]) -> nx.Graph:
    """One node for a subject and what a copula says it is ("X is an American actor").

    The predicate noun names the subject itself, so what hangs from it ("an actor born in
    Pensacola") is said of the subject: both are one element.
    """
    for token in doc:
        if token.dep_ != "attr" or token.head.lower_ not in _COPULAS:
            continue
        subject = next((c for c in token.head.children if c.dep_ == "nsubj"), None)
        kept, merged = (owner.get(subject.i) if subject else None), owner.get(token.i)
        if kept and merged and kept != merged and kept in graph and merged in graph:
            graph = nx.contracted_nodes(graph, kept, merged, self_loops=False, copy=False)
    return graph


def _above(token: Token, node: str, owner: dict[int, str]) -> str | None:
    """The nearest element or event above ``token`` in the parse that is not ``node``."""
    while token.head.i != token.i:
        token = token.head
        found = owner.get(token.i)
        if found is not None and found != node:
            return found
    return None
