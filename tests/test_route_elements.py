"""ElementCheck's element graph read from the sentence (spaCy's parse), and routing by it."""

from __future__ import annotations

import networkx as nx
import pytest

from triqua.context import Context
from triqua.core.routing import Thresholds, route_facts
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


def diameter(graph: nx.Graph) -> int:
    return max(
        (n for _, lengths in nx.all_pairs_shortest_path_length(graph) for n in lengths.values()),
        default=0,
    )


def texts(graph: nx.Graph, kind: str) -> set[str]:
    return {d["text"] for _, d in graph.nodes(data=True) if d["kind"] == kind}


def test_a_sentence_elements_are_its_entities_values_dates_and_events() -> None:
    (graph,) = sentence_element_graphs([CURIE])
    assert texts(graph, "entity") == {"Marie Curie", "the Nobel Prize in Physics"}
    assert texts(graph, "date") == {"1903"} and texts(graph, "event") == {"won"}
    # Everything hangs from "won": a star of diameter 2, one component.
    assert diameter(graph) == 2 and nx.is_connected(graph)


def test_nested_phrases_widen_the_graph_and_a_list_does_not() -> None:
    (nested,) = sentence_element_graphs([NESTED])
    # radiation -> research -> won -> the Nobel Prize in Physics -> Pierre Curie (or the
    # Foundation through "according"): wider than δ = 3.
    assert diameter(nested) > 3
    listed = "He appeared in the films Heat, Ronin, Casino and The Game."
    (graph,) = sentence_element_graphs([listed])
    assert diameter(graph) <= 3  # the titles are siblings, not a chain


def test_a_copula_joins_the_subject_and_what_it_is() -> None:
    sentence = "Lanny Flaherty is an American actor born on December 18, 1949, in Pensacola."
    (graph,) = sentence_element_graphs([sentence])
    # "an American actor" is Lanny Flaherty: one element, so his birth date and place hang
    # two steps from him, not through the actor noun.
    assert "an American actor" not in texts(graph, "entity")
    flaherty = next(n for n, d in graph.nodes(data=True) if d["text"] == "Lanny Flaherty")
    date = next(n for n, d in graph.nodes(data=True) if d["kind"] == "date")
    assert nx.shortest_path_length(graph, flaherty, date) == 2
    assert diameter(graph) <= 3


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
