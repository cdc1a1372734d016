"""Element-graph complexity features and route decisions, on hand-built facts."""

from __future__ import annotations

from typing import Any

from triqua.context import Context
from triqua.nodes.route import choose_route, complexity, element_graph
from triqua.schema import Fact, Qualifier


def fact(*qualifiers: tuple[str, str], obj: str = "Nobel Prize") -> Fact:
    return Fact(
        subject="Marie Curie",
        relation="won",
        object=obj,
        qualifiers=[Qualifier(label=label, value=value) for label, value in qualifiers],
    )


def test_simple_triple_is_one_edge() -> None:
    features = complexity(fact())
    assert features == {
        "qualifiers": 0,
        "nodes": 2,
        "components": 1,
        "diameter": 1,
        "connected": True,
    }
    assert choose_route(features, Context()) == "simple"


def test_star_of_qualifiers_has_diameter_two() -> None:
    features = complexity(fact(("point in time", "1903"), ("location", "Stockholm")))
    assert features["diameter"] == 2 and features["connected"]
    assert choose_route(features, Context()) == "simple"


def test_chained_values_lengthen_the_diameter() -> None:
    # "Stockholm" is mentioned inside another value, so that value hangs off it: a chain.
    chained = fact(
        ("location", "Stockholm"),
        ("venue", "Stockholm Concert Hall"),
        ("host", "Stockholm Concert Hall foyer"),
    )
    graph = element_graph(chained)
    features = complexity(chained)
    assert graph.number_of_edges() == 4
    assert features["diameter"] == 4
    assert choose_route(features, Context(delta=3)) == "complex"
    assert choose_route(features, Context(delta=4)) == "simple"


def test_delta_is_exclusive() -> None:
    features = {"qualifiers": 1, "nodes": 4, "components": 1, "diameter": 3, "connected": True}
    assert choose_route(features, Context(delta=3)) == "simple"
    assert choose_route({**features, "diameter": 4}, Context(delta=3)) == "complex"


def test_disconnected_graph_is_complex() -> None:
    disconnected = fact(("point in time", " "))
    features = complexity(disconnected)
    assert features["components"] == 2 and not features["connected"]
    assert choose_route(features, Context()) == "complex"


def test_many_qualifiers_are_complex() -> None:
    many = fact(("a", "1"), ("b", "2"), ("c", "3"), ("d", "4"))
    assert choose_route(complexity(many), Context(max_qualifiers=3)) == "complex"
    assert choose_route(complexity(many), Context(max_qualifiers=4)) == "simple"


def test_routing_modes_override() -> None:
    features = complexity(fact())
    assert choose_route(features, Context(routing="always_element")) == "complex"


def test_verification_subgraph_draws_both_routes_and_the_loop() -> None:
    from triqua.graph.verification import build_verification_graph

    drawn = build_verification_graph().get_graph()
    edges = {(e.source, e.target) for e in drawn.edges}
    assert {("retrieve", "verify"), ("retrieve", "verify_units")} <= edges
    assert ("verify", "record") in edges and ("verify", "reverify") not in edges
    assert {("verify_units", "reverify"), ("reverify", "reverify"), ("reverify", "record")} <= edges


def test_each_route_takes_its_own_path(scripted: Any) -> None:
    import triqua
    from triqua.graph.main import build_graph

    from .conftest import CURIE

    docs = ["Marie Curie won the Nobel Prize in Physics in 1903."]
    for routing, judge_node in (("auto", "verify"), ("always_element", "verify_units")):
        context = triqua.make_context(model=scripted(), routing=routing)
        nodes = [
            node
            for _namespace, update in build_graph().stream(
                {"text": CURIE, "documents": docs},
                context=context,
                stream_mode="updates",
                subgraphs=True,
            )
            for node in update
        ]
        assert judge_node in nodes
        assert ({"verify", "verify_units"} - {judge_node}).isdisjoint(nodes)
