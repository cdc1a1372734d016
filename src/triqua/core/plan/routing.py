"""Complexity routing (ElementCheck): one element graph per source sentence.

By default (``elements="parse"``) the graph is ElementCheck's: the sentence's own entities,
values and dates as nodes, the relations its verbs and prepositions state between them as
edges, coreferent mentions over the whole text one node ("Marie Curie", "Curie", "she";
built by :mod:`triqua.engines.elements` and handed in as ``sentence_graphs``). With
``elements="facts"`` it is built from the facts decomposed from the sentence instead: their
subjects, objects and qualifier values (coreferent names merged) as nodes, relations and
qualifier labels as edges. A sentence whose graph is wider than δ (diameter > δ) or falls
apart into more than one component is complex, exactly as ElementCheck decides, and all its
facts take the element-level path (per-unit verdicts and re-verification). A graph per fact
would be a star of diameter ≤ 2, so δ would never decide.

Two rules that are not ElementCheck's are named options, off by default: ``mention_links``
joins an element to a longer element naming it before measuring (facts graphs), and
``max_qualifiers`` (above 0) routes a fact with more qualifiers complex whatever its graph.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Literal

import networkx as nx

from triqua.context import Context, ElementsMode, RoutingMode
from triqua.schema import Fact

Route = Literal["simple", "complex"]
#: Features of a routing decision, as kept on each record (numbers, flags and the reason).
Features = dict[str, float | int | bool | str]
#: Builds sentences' element graphs from their texts (ElementCheck's extraction), in order.
SentenceGraphs = Callable[[Sequence[str]], list[nx.Graph]]

_ARTICLE = re.compile(r"^(?:the|a|an)\s+")
_PUNCT = re.compile(r"[^\w\s]")


def sentence_key(fact: Fact) -> Hashable:
    """Which source sentence a fact came from: its chunk and span (or its source text)."""
    if fact.span is not None:
        return (fact.chunk_index, fact.span.start, fact.span.end)
    return (fact.chunk_index, fact.source_text.strip() or fact.to_string())


def group_by_sentence(facts: Sequence[Fact]) -> list[list[int]]:
    """Indices of ``facts`` grouped by source sentence, groups in order of first fact."""
    groups: dict[Hashable, list[int]] = {}
    for index, fact in enumerate(facts):
        groups.setdefault(sentence_key(fact), []).append(index)
    return list(groups.values())


def normalise(name: str) -> str:
    """Case, punctuation, a leading article and spacing removed: 'The Beatles' ~ 'beatles'."""
    flat = " ".join(_PUNCT.sub(" ", name.casefold()).split())
    return _ARTICLE.sub("", flat)


def _is_name(text: str) -> bool:
    """Capitalised words only (a proper name), so 'Curie' may stand for 'Marie Curie'."""
    words = text.split()
    return bool(words) and all(w[:1].isupper() or not w[:1].isalpha() for w in words)


def _aliases(names: Sequence[str]) -> dict[str, str]:
    """Map each element name to its node: normalised, short proper names merged into long ones.

    A proper name whose words begin or end exactly one longer proper name of the sentence
    ("Curie" in "Marie Curie") is the same entity: the sentence's own coreference.
    """
    normal = {name: normalise(name) for name in names if normalise(name)}
    longer = {n for name, n in normal.items() if _is_name(name)}
    mapping = {}
    for name, key in normal.items():
        target = key
        if _is_name(name):
            words = key.split()
            hosts = {
                other
                for other in longer
                if len(other.split()) > len(words)
                and (other.split()[: len(words)] == words or other.split()[-len(words) :] == words)
            }
            if len(hosts) == 1:
                target = hosts.pop()
        mapping[name] = target
    return mapping


def element_graph(facts: Sequence[Fact], *, mention_links: bool = False) -> nx.Graph:
    """The element graph of one sentence's facts.

    Subject and object are joined by the relation; each qualifier value hangs off the base
    triple's object (its subject when the object is empty) by the qualifier's label. An empty
    qualifier value is an element nothing connects: its own component. ``mention_links``
    also joins an element to the longer element naming it (not an ElementCheck rule).
    """
    names = [n for f in facts for n in (f.subject, f.object, *(q.value for q in f.qualifiers))]
    alias = _aliases(names)
    graph = nx.Graph()

    def link(a: str, b: str, label: str) -> None:
        if a == b:
            graph.add_node(a)
            return
        labels = graph.edges[a, b]["labels"] if graph.has_edge(a, b) else []
        graph.add_edge(a, b, labels=[*labels, label])

    for number, fact in enumerate(facts):
        subject = alias.get(fact.subject, f"∅subject{number}")
        graph.add_node(subject)
        anchor = subject
        if fact.object.strip() and fact.object in alias:
            anchor = alias[fact.object]
            link(subject, anchor, fact.relation)
        for index, qualifier in enumerate(fact.qualifiers):
            if qualifier.value in alias:
                link(anchor, alias[qualifier.value], qualifier.label)
            else:  # an empty value: an element that nothing connects
                graph.add_node(f"∅{number}.{index}:{qualifier.label}")
    if mention_links:
        _link_mentions(graph)
    return graph


def _link_mentions(graph: nx.Graph) -> None:
    """Join an element to the shortest longer element whose words contain it.

    "Pensacola" in "actor born in Pensacola, Florida", "Sheehan" in "Sheehan's acting
    career": the same entity named inside a phrase a decomposer left unsplit. Linking to the
    shortest host only makes nested phrases a chain, not a clique.
    """
    names = [n for n in graph.nodes if not n.startswith("∅") and len(n) >= 3]
    for short in names:
        # A plain substring test first: most names are in no other, and a whole-word
        # pattern per name would be compiled anew for every run's new names.
        hosts = [n for n in names if len(n) > len(short) and short in n]
        if hosts:
            pattern = re.compile(rf"(?<!\w){re.escape(short)}(?!\w)")
            hosts = [n for n in hosts if pattern.search(n)]
        if hosts:
            host = min(hosts, key=len)
            if not graph.has_edge(short, host):
                graph.add_edge(short, host, labels=["mentioned in"])


@dataclass(frozen=True)
class Thresholds:
    """The routing settings: δ, the mode, the graphs' source and the two optional rules."""

    delta: int = 3
    max_qualifiers: int = 0  # 0: no qualifier limit
    routing: RoutingMode = "auto"
    mention_links: bool = False
    elements: ElementsMode = "facts"

    @classmethod
    def of(cls, context: Context) -> Thresholds:
        """The thresholds a run's settings declare."""
        return cls(
            delta=context.delta,
            max_qualifiers=context.max_qualifiers,
            routing=context.routing,
            mention_links=context.mention_links,
            elements=context.elements,
        )


def sentence_features(
    facts: Sequence[Fact], thresholds: Thresholds, graph: nx.Graph | None = None
) -> Features:
    """Nodes, edges, diameter (largest over components), components, the decision and why.

    ``graph`` is the sentence's own element graph; without it the facts' graph is measured.
    """
    source = "parse" if graph is not None else "facts"
    if graph is None:
        graph = element_graph(facts, mention_links=thresholds.mention_links)
    # The largest diameter over components is the longest of all shortest paths between
    # nodes that reach each other: one pass over the whole graph, no subgraph views (4× less).
    paths = nx.all_pairs_shortest_path_length(graph)
    diameter = max((length for _, lengths in paths for length in lengths.values()), default=0)
    components = nx.number_connected_components(graph)
    most = max((len(f.qualifiers) for f in facts), default=0)
    reasons = []
    if diameter > thresholds.delta:
        reasons.append(f"diameter {diameter} > δ={thresholds.delta}")
    if components > 1:
        reasons.append(f"{components} components")
    if thresholds.max_qualifiers and most > thresholds.max_qualifiers:
        cap = thresholds.max_qualifiers
        reasons.append(f"a fact with {most} qualifiers > max_qualifiers={cap}")
    decision: Route = "complex" if reasons else "simple"
    if thresholds.routing == "always_element":
        decision, reasons = "complex", ["routing=always_element", *reasons]
    within = f", ≤ {thresholds.max_qualifiers} qualifiers per fact"
    reason = "; ".join(reasons) or (
        f"diameter {diameter} ≤ δ={thresholds.delta}, connected"
        + (within if thresholds.max_qualifiers else "")
    )
    return {
        "sentence_facts": len(facts),
        "elements": source,
        "nodes": graph.number_of_nodes(),
        "edges": graph.number_of_edges(),
        "diameter": diameter,
        "components": components,
        "connected": components == 1,
        "max_fact_qualifiers": most,
        "decision": decision,
        "reason": reason,
    }


def route_facts(
    facts: Sequence[Fact], thresholds: Thresholds, sentence_graphs: SentenceGraphs | None = None
) -> list[tuple[Route, Features]]:
    """Route every fact by its sentence's graph; returns ``(route, features)`` per fact, in order.

    Each fact's features are its sentence's, plus its own qualifier count. With
    ``elements="parse"`` the sentences' graphs come from ``sentence_graphs`` (their texts
    in, all at once and in text order, so pronouns resolve over the text); a fact without
    a source sentence (given facts) is measured by its facts' graph.

    Raises:
        ValueError: when ``elements="parse"`` and no ``sentence_graphs`` is given.
    """
    if thresholds.elements == "parse" and sentence_graphs is None:
        raise ValueError(
            "routing with elements='parse' needs a sentence parser "
            "(triqua.engines.elements.sentence_element_graphs)"
        )
    groups = group_by_sentence(facts)
    texts = [facts[group[0]].source_text.strip() for group in groups]
    graphs: list[nx.Graph | None] = [None] * len(groups)
    if thresholds.elements == "parse" and sentence_graphs is not None:
        parsed = iter(sentence_graphs([t for t in texts if t]))
        graphs = [next(parsed) if t else None for t in texts]
    out: list[tuple[Route, Features] | None] = [None] * len(facts)
    for group, graph in zip(groups, graphs, strict=True):
        features = sentence_features([facts[i] for i in group], thresholds, graph)
        route: Route = "complex" if features["decision"] == "complex" else "simple"
        for i in group:
            out[i] = (route, {**features, "qualifiers": len(facts[i].qualifiers)})
    return [item for item in out if item is not None]
