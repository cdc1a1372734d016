"""ElementCheck's element graph of each sentence of a text, read from the text itself.

The elements of a sentence are its entities (named entities and the other noun phrases),
values and dates; they are the nodes. Its relations are the edges: a verb joins its
subject to each of its objects and prepositional arguments ("Marie Curie —won— the Nobel
Prize", "Marie Curie —won in— 1903"), a preposition joins a noun phrase to the phrase it
governs ("the prize —for— research"), an apposition or a possessive joins the two phrases
it relates. Coreferent mentions are one element, resolved over the whole text
(:mod:`triqua.engines.coreference`): "Marie Curie", "Curie" and "she" are one node, so
"Curie said she ..." is not wider for naming her twice. A clause whose verb has no subject
the sentence supplies leaves its elements apart from the rest: the graph falls apart into
components, the other ElementCheck signal. :mod:`triqua.core.plan.routing` measures diameter
and components against δ.

Hand-written over spaCy's parse: no maintained library builds ElementCheck's graph; spaCy
gives the entities, noun phrases and dependencies it is made of. A change to what graph a
sentence gets bumps ``ELEMENT_GRAPH_VERSION`` (:mod:`triqua.engines.revisions`),
which every run's spec records.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import networkx as nx

from triqua.engines.coreference import Resolver, canonical_key, pronoun_class
from triqua.engines.relations import SAME, sentence_relations
from triqua.engines.revisions import ELEMENT_GRAPH_REVISION as ELEMENT_GRAPH_REVISION
from triqua.nlp.parses import parse_many

if TYPE_CHECKING:
    from triqua.nlp.tokens import Doc, Span, Token

__all__ = ["sentence_element_graphs"]

#: Relative and interrogative words link clauses; they are not elements themselves.
LINK_TAGS = frozenset({"WDT", "WP", "WP$", "WRB"})
_VALUE_LABELS = frozenset({"CARDINAL", "QUANTITY", "MONEY", "PERCENT", "ORDINAL"})
_DATE_LABELS = frozenset({"DATE", "TIME"})
_MAX_SENTENCE_CHARS = 2_000  # longer "sentences" (tables, lists) are read in this prefix


def sentence_element_graphs(sentences: Sequence[str]) -> list[nx.Graph]:
    """The element graph of each sentence of one text, its sentences given in order.

    Node names are ``"<kind>:<key>"`` with the element's resolved name as key, so the
    mentions of one entity in a sentence are one node; each node carries ``kind`` (entity,
    value or date), ``text`` (its first mention in the sentence), ``name`` (the name it
    resolves to over the text) and ``mentions``. Each edge carries its relations'
    ``labels``. Pronouns and short names resolve to elements of earlier sentences of the
    same call, so pass one text's sentences per call. Parses are kept for later calls and
    later readers (:mod:`triqua.nlp.parses`).
    """
    docs = parse_many([s.strip()[:_MAX_SENTENCE_CHARS] for s in sentences])
    resolver = Resolver()
    return [_graph(doc, resolver) if doc is not None else nx.Graph() for doc in docs]


def _spans(doc: Doc) -> list[tuple[str, Span, str]]:
    """The sentence's element mentions in order: ``(kind, span, entity label)``.

    A named entity is its own element unless it only modifies a noun phrase holding it
    ("an American actor"); a possessor is its own element ("Curie's husband": "Curie" and
    "husband"); the other noun phrases and bare numbers are elements too.
    """
    taken: set[int] = set()
    found: list[tuple[str, Span, str]] = []

    def add(kind: str, span: Span, label: str) -> None:
        if len(span) and not any(t.i in taken for t in span):
            taken.update(t.i for t in span)
            found.append((kind, span, label))

    chunks = [c for c in doc.noun_chunks if c.root.tag_ not in LINK_TAGS]
    for chunk in chunks:  # possessors first: "his" and "Curie's" are elements of their own
        owner = next((t for t in chunk if t.dep_ == "poss" and t.head == chunk.root), None)
        if owner is not None and owner.tag_ not in LINK_TAGS:
            end = owner.i + 1
            ent = next((e for e in doc.ents if e.start <= owner.i < e.end), None)
            start = ent.start if ent is not None and ent.start >= chunk.start else owner.i
            add("entity", doc[start:end], ent.label_ if ent is not None else "")
    for ent in doc.ents:
        if ent.label_ == "ORDINAL" and ent.root.dep_ == "advmod":
            continue  # "first elected": how the verb happened, not an element
        host = next((c for c in chunks if c.start <= ent.root.i < c.end), None)
        if host is not None and ent.root != host.root:
            continue  # "an American actor": the entity only modifies the phrase
        span = ent
        if host is not None:  # the whole phrase it heads: "three Latin Grammy Awards"
            start = min(ent.start, host.start)
            while start < ent.start and (doc[start].i in taken or doc[start].dep_ == "case"):
                start += 1
            span = doc[start : max(ent.end, host.end)]
        kind = "date" if ent.label_ in _DATE_LABELS else "entity"
        kind = "value" if ent.label_ in _VALUE_LABELS else kind
        add(kind, span, ent.label_)
    for chunk in chunks:
        span = chunk
        while len(span) and (span[0].dep_ in ("poss", "case") or span[0].i in taken):
            span = doc[span.start + 1 : span.end]
        add("entity", span, "")
    for token in doc:
        if token.i in taken:
            continue
        if token.like_num and token.pos_ == "NUM":
            add("value", doc[token.i : token.i + 1], "CARDINAL")
        elif token.pos_ in ("NOUN", "PROPN") and token.dep_ not in ("compound", "amod"):
            # A noun the chunker missed ("the films Heat, Ronin, Casino"), with the words
            # right before it that modify it.
            start = token.i
            while start > 0 and doc[start - 1].head == token and doc[start - 1].i not in taken:
                start -= 1
            add("entity", doc[start : token.i + 1], "")
    return sorted(found, key=lambda item: item[1].start)


def _graph(doc: Doc, resolver: Resolver) -> nx.Graph:
    """The element graph of one parsed sentence; ``resolver`` carries the text's elements."""
    graph = nx.Graph()
    owner: dict[int, str] = {}  # token index -> node of the element holding it
    names: dict[int, str] = {}  # token index -> the name its element resolved to
    for kind, span, label in _spans(doc):
        text = span.text
        subject = span.root.dep_ in ("nsubj", "nsubjpass")
        proper = label == "PERSON" or all(t.pos_ == "PROPN" for t in span if t.is_alpha)
        name = text
        if len(span) == 1 and pronoun_class(text) is not None:
            name = resolver.pronoun(text, not_=_clause_subject(span.root, names)) or text
        elif proper:
            name = resolver.name(text, proper=True)
        key = canonical_key(name) or canonical_key(text) or text.casefold()
        node = f"{kind}:{key}"
        if node in graph:
            graph.nodes[node]["mentions"].append(text)
        else:
            graph.add_node(node, kind=kind, text=text, name=name, mentions=[text])
        for token in span:
            owner[token.i] = node
            names[token.i] = name
        if kind == "entity" and name != text:  # a resolved mention keeps its referent recent
            resolver.again(name, subject=subject)
        elif kind == "entity" and pronoun_class(text) is None:
            plural = span.root.tag_ in ("NNS", "NNPS")
            resolver.note(name, label or "NOUN", plural=plural, subject=subject, proper=proper)
        if not label and kind == "entity" and name == text and not proper:
            graph.nodes[node]["description"] = True
    same: list[tuple[str, str]] = []
    for a, b, label in sentence_relations(doc, owner):
        if a == b:
            continue
        if label == SAME and graph.nodes[b].get("description"):
            same.append((a, b))
        labels = graph.edges[a, b]["labels"] if graph.has_edge(a, b) else []
        graph.add_edge(a, b, labels=[*labels, "is" if label == SAME else label])
    return _merge_descriptions(graph, same)


def _clause_subject(pronoun: Token, names: dict[int, str]) -> str | None:
    """The resolved subject of the clause an object pronoun is in, if it came before."""
    if pronoun.dep_ in ("nsubj", "nsubjpass", "poss") or pronoun.lower_.endswith("self"):
        return None
    verb = pronoun.head
    while verb.pos_ not in ("VERB", "AUX") and verb.head.i != verb.i:
        verb = verb.head
    subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    return names.get(subject.i) if subject is not None else None


def _merge_descriptions(graph: nx.Graph, same: list[tuple[str, str]]) -> nx.Graph:
    """One element for a name and a description the sentence says it is.

    "Lanny Flaherty is an American actor born in Pensacola", "Marie Curie, a Polish
    physicist, ...": the copula's complement and the apposition name the subject itself
    (coreferent mentions), so what hangs from them is said of the subject.
    """
    for kept, merged in same:
        if kept in graph and merged in graph and kept != merged:
            mentions = graph.nodes[kept]["mentions"] + graph.nodes[merged]["mentions"]
            graph = nx.contracted_nodes(graph, kept, merged, self_loops=False, copy=False)
            graph.nodes[kept]["mentions"] = mentions
            graph.nodes[kept].pop("contraction", None)
    return graph
