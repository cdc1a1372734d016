"""ElementCheck's element graph read from the text (spaCy's parse), and routing by it."""

from __future__ import annotations

import networkx as nx
import pytest

from triqua.context import Context
from triqua.core.plan.routing import Thresholds, route_facts
from triqua.engines.elements import sentence_element_graphs
from triqua.runtime.resources import build_resources
from triqua.runtime.resources.spec import build_spec
from triqua.schema import Fact, Qualifier

PARSE = Thresholds(elements="parse")
CURIE = "Marie Curie won the Nobel Prize in Physics in 1903."
NESTED = (
    "In 1903 in Stockholm, Marie Curie won the Nobel Prize in Physics with Pierre Curie for "
    "research on radiation, according to the Nobel Foundation."
)
#: A FActScore ChatGPT biography's sentence: the absolute clause "with van Leer being ..."
#: states nothing about the lineup's elements, so its graph has two components.
APART = (
    "Over the years, the band's lineup has changed several times, with van Leer being the "
    "only constant member."
)


def diameter(graph: nx.Graph) -> int:
    return max(
        (n for _, lengths in nx.all_pairs_shortest_path_length(graph) for n in lengths.values()),
        default=0,
    )


def texts(graph: nx.Graph, kind: str) -> set[str]:
    return {d["text"] for _, d in graph.nodes(data=True) if d["kind"] == kind}


def node_named(graph: nx.Graph, name: str) -> str:
    return next(n for n, d in graph.nodes(data=True) if d["name"] == name)


def test_elements_are_nodes_and_relations_are_edges() -> None:
    (graph,) = sentence_element_graphs([CURIE])
    assert texts(graph, "entity") == {"Marie Curie", "the Nobel Prize in Physics"}
    assert texts(graph, "date") == {"1903"}
    assert not texts(graph, "event")  # the verb is an edge, not a node
    curie = node_named(graph, "Marie Curie")
    prize = node_named(graph, "the Nobel Prize in Physics")
    assert graph.edges[curie, prize]["labels"] == ["won"]
    assert graph.edges[curie, "date:1903"]["labels"] == ["won in"]
    assert diameter(graph) == 2 and nx.is_connected(graph)  # a star on Marie Curie


def test_coreferent_mentions_are_one_node_over_the_text() -> None:
    text = [
        "Marie Curie was a Polish physicist.",
        "Curie married Pierre Curie in 1895.",
        "She won the Nobel Prize in 1903, and she shared it with him.",
    ]
    first, second, third = sentence_element_graphs(text)
    # The description the copula gives is the subject itself.
    assert first.number_of_nodes() == 1
    assert first.nodes[node_named(first, "Marie Curie")]["mentions"] == [
        "Marie Curie",
        "a Polish physicist",
    ]
    # The surname stands for the full name seen earlier; Pierre Curie stays apart.
    assert {d["name"] for _, d in second.nodes(data=True)} >= {"Marie Curie", "Pierre Curie"}
    # Both "she" are Marie Curie (the last subject); "him" is not the clause's own subject.
    curie = node_named(third, "Marie Curie")
    assert third.nodes[curie]["mentions"] == ["She", "she"]
    assert third.has_edge(curie, node_named(third, "Pierre Curie"))
    assert nx.is_connected(third)


def test_a_pronoun_takes_the_most_recent_subject_not_the_most_recent_person() -> None:
    _, graph = sentence_element_graphs(
        ["Marie Curie met Pierre Curie in Paris.", "She married him in 1895."]
    )
    curie, pierre = node_named(graph, "Marie Curie"), node_named(graph, "Pierre Curie")
    assert graph.nodes[curie]["mentions"] == ["She"]
    assert graph.nodes[pierre]["mentions"] == ["him"]
    assert graph.edges[curie, pierre]["labels"] == ["married"]


def test_diameter_signal_nested_phrases_route_complex_and_a_list_does_not() -> None:
    (nested,) = sentence_element_graphs([NESTED])
    # radiation -> research -> Marie Curie -> the Nobel Prize -> Pierre Curie: wider than δ.
    assert nx.is_connected(nested) and diameter(nested) > 3
    (listed,) = sentence_element_graphs(
        ["He appeared in the films Heat, Ronin, Casino and The Game."]
    )
    assert {"Heat", "Ronin", "Casino"} <= texts(listed, "entity")
    assert nx.is_connected(listed) and diameter(listed) <= 3  # siblings, not a chain
    facts = [Fact(subject="Marie Curie", relation="won", object="a prize", source_text=NESTED)]
    route, features = route_facts(facts, PARSE, sentence_element_graphs)[0]
    assert route == "complex" and features["connected"] is True
    assert str(features["reason"]).startswith("diameter")


def test_disconnection_signal_a_bio_sentence_in_two_parts_routes_complex() -> None:
    (graph,) = sentence_element_graphs([APART])
    assert nx.number_connected_components(graph) == 2
    assert diameter(graph) <= 3  # routed by disconnection alone
    facts = [Fact(subject="the band", relation="changed", object="lineup", source_text=APART)]
    route, features = route_facts(facts, PARSE, sentence_element_graphs)[0]
    assert route == "complex"
    assert features["connected"] is False and features["reason"] == "2 components"


def test_a_copula_joins_the_subject_and_what_it_is() -> None:
    sentence = "Lanny Flaherty is an American actor born on December 18, 1949, in Pensacola."
    (graph,) = sentence_element_graphs([sentence])
    flaherty = node_named(graph, "Lanny Flaherty")
    assert "an American actor" in graph.nodes[flaherty]["mentions"]
    date = next(n for n, d in graph.nodes(data=True) if d["kind"] == "date")
    assert graph.edges[flaherty, date]["labels"] == ["born on"]
    assert diameter(graph) <= 2


def test_routing_by_the_sentence_ignores_how_it_was_decomposed() -> None:
    one = [Fact(subject="Marie Curie", relation="won", object="the Nobel Prize", source_text=CURIE)]
    split = [
        Fact(
            subject="Marie Curie",
            relation="won",
            object="the Nobel Prize",
            qualifiers=[Qualifier(label="point in time", value="1903")],
            source_text=CURIE,
        ),
        Fact(subject="the Nobel Prize", relation="is in", object="Physics", source_text=CURIE),
    ]
    for facts in (one, split):
        routed = route_facts(facts, PARSE, sentence_element_graphs)
        assert {r for r, _ in routed} == {"simple"}
        assert routed[0][1]["elements"] == "parse" and routed[0][1]["diameter"] == 2
    nested = [Fact(subject="Marie Curie", relation="won", object="a prize", source_text=NESTED)]
    assert route_facts(nested, PARSE, sentence_element_graphs)[0][0] == "complex"
    # The same fact routed by the facts' own graph: a two-node star, simple.
    by_facts = route_facts(nested, Thresholds(elements="facts"))[0]
    assert by_facts[0] == "simple" and by_facts[1]["elements"] == "facts"


def test_a_fact_without_its_sentence_is_routed_by_its_facts_graph() -> None:
    given = [Fact(subject="Marie Curie", relation="won", object="the Nobel Prize")]
    route, features = route_facts(given, PARSE, sentence_element_graphs)[0]
    assert route == "simple" and features["elements"] == "facts"


def test_parse_routing_needs_a_parser_and_a_known_mode() -> None:
    facts = [Fact(subject="A", relation="b", object="C", source_text="A b C.")]
    with pytest.raises(ValueError, match="needs a sentence parser"):
        route_facts(facts, PARSE)
    with pytest.raises(ValueError, match="elements must be one of parse, facts"):
        Context(elements="words").validate()  # type: ignore[arg-type]


def test_the_spec_says_where_routing_graphs_came_from() -> None:
    for mode in ("parse", "facts"):
        context = Context(elements=mode, retriever="closed_book")  # type: ignore[arg-type]
        spec = build_spec(context, build_resources(context, []), None)
        assert spec.verdict_policy.elements == mode
    assert Context().elements == "parse"  # ElementCheck's graph by default
