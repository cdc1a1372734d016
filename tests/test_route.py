"""Sentence element graphs, their features and route decisions, on hand-built facts."""

from __future__ import annotations

from typing import Any

import networkx as nx
import pytest

from triqua.context import Context
from triqua.core.plan.routing import Thresholds, element_graph, group_by_sentence, route_facts
from triqua.schema import Fact, Qualifier, Span


def fact(
    subject: str,
    relation: str,
    obj: str,
    *qualifiers: tuple[str, str],
    sentence: int = 0,
) -> Fact:
    """A fact from sentence number ``sentence`` (its span says which sentence)."""
    return Fact(
        subject=subject,
        relation=relation,
        object=obj,
        qualifiers=[Qualifier(label=label, value=value) for label, value in qualifiers],
        span=Span(start=100 * sentence, end=100 * sentence + 90),
    )


AUTO = Thresholds()


def test_simple_sentence_is_a_star_and_stays_simple() -> None:
    # "Marie Curie, a Polish physicist, won the Nobel Prize in 1903 in Stockholm."
    facts = [
        fact("Marie Curie", "won", "Nobel Prize", ("point in time", "1903")),
        fact("Marie Curie", "was", "Polish physicist"),
        fact("Curie", "received", "the Nobel Prize", ("location", "Stockholm")),
    ]
    routed = route_facts(facts, AUTO)
    features = routed[0][1]
    # "Curie" is Marie Curie and "the Nobel Prize" the Nobel Prize: one element each.
    assert (features["nodes"], features["edges"]) == (5, 4)
    assert (features["diameter"], features["components"]) == (3, 1)  # 1903 … physicist
    assert [r for r, _ in routed] == ["simple"] * 3
    assert features["decision"] == "simple" and "diameter 3 ≤ δ=3" in str(features["reason"])
    assert [f["qualifiers"] for _, f in routed] == [1, 0, 1]


def test_chained_sentence_is_complex_for_all_its_facts() -> None:
    # "Ann married Bob, whose brother Carl founded Acme in Berlin in 1990."
    facts = [
        fact("Ann", "married", "Bob"),
        fact("Bob", "has brother", "Carl"),
        fact("Carl", "founded", "Acme", ("location", "Berlin")),
        fact("Acme", "was founded in", "1990"),
    ]
    graph = element_graph(facts)
    assert nx.shortest_path_length(graph, "ann", "berlin") == 4
    routed = route_facts(facts, AUTO)
    assert [r for r, _ in routed] == ["complex"] * 4
    assert routed[0][1]["diameter"] == 4 and routed[0][1]["reason"] == "diameter 4 > δ=3"
    assert route_facts(facts, Thresholds(delta=4))[0][0] == "simple"


def test_sentences_are_measured_apart() -> None:
    # The same chain split over four sentences: each sentence is a single edge or star.
    facts = [
        fact("Ann", "married", "Bob", sentence=0),
        fact("Bob", "has brother", "Carl", sentence=1),
        fact("Carl", "founded", "Acme", ("location", "Berlin"), sentence=2),
        fact("Acme", "was founded in", "1990", sentence=3),
    ]
    assert [r for r, _ in route_facts(facts, AUTO)] == ["simple"] * 4
    assert group_by_sentence(facts) == [[0], [1], [2], [3]]


def test_delta_is_exclusive() -> None:
    chain = [fact("A", "r", "B"), fact("B", "r", "C"), fact("C", "r", "D")]
    assert route_facts(chain, Thresholds(delta=3))[0][1]["diameter"] == 3
    assert route_facts(chain, Thresholds(delta=3))[0][0] == "simple"
    assert route_facts(chain, Thresholds(delta=2))[0][0] == "complex"


def test_disconnected_sentence_is_complex() -> None:
    # "Ann lives in Oslo and Bob works at Acme.": two facts that share no element.
    facts = [fact("Ann", "lives in", "Oslo"), fact("Bob", "works at", "Acme")]
    route, features = route_facts(facts, AUTO)[1]
    assert route == "complex"
    assert features["components"] == 2 and not features["connected"]
    assert features["reason"] == "2 components"


def test_empty_qualifier_value_is_its_own_component() -> None:
    features = route_facts([fact("Ann", "won", "Prize", ("point in time", " "))], AUTO)[0][1]
    assert features["components"] == 2


def test_a_fact_with_many_qualifiers_makes_its_sentence_complex() -> None:
    many = fact("Ann", "won", "Prize", ("a", "1"), ("b", "2"), ("c", "3"), ("d", "4"))
    plain = fact("Ann", "is", "painter")
    routed = route_facts([many, plain], Thresholds(max_qualifiers=3))
    assert [r for r, _ in routed] == ["complex", "complex"]
    assert "4 qualifiers > max_qualifiers=3" in str(routed[1][1]["reason"])
    assert route_facts([many, plain], Thresholds(max_qualifiers=4))[0][0] == "simple"


def test_names_are_normalised_and_short_names_merged() -> None:
    facts = [
        fact("The Beatles", "formed in", "Liverpool"),
        fact("beatles", "released", "Abbey Road"),
        fact("Lennon", "founded", "The Beatles"),
        fact("John Lennon", "was born in", "Liverpool"),
    ]
    graph = element_graph(facts)
    assert set(graph.nodes) == {"beatles", "liverpool", "abbey road", "john lennon"}
    # Ambiguous short names stay apart: "Curie" could be Marie or Pierre.
    two = element_graph([fact("Marie Curie", "married", "Pierre Curie"), fact("Curie", "won", "X")])
    assert "curie" in two.nodes


def test_routing_modes_override() -> None:
    simple = [fact("Ann", "is", "painter")]
    route, features = route_facts(simple, Thresholds(routing="always_element"))[0]
    assert route == "complex" and features["reason"] == "routing=always_element"


def test_verification_subgraph_draws_both_routes_and_the_loop() -> None:
    from triqua.graph.verification import build_verification_graph

    drawn = build_verification_graph().get_graph()
    edges = {(e.source, e.target) for e in drawn.edges}
    assert {("retrieve", "verify"), ("retrieve", "verify_units")} <= edges
    assert ("verify", "record") in edges and ("verify", "reverify") not in edges
    assert {("verify_units", "reverify"), ("reverify", "reverify")} <= edges
    # The complex path ends element by element: the loop leads to element verification.
    assert {("reverify", "verify_elements"), ("verify_elements", "record")} <= edges
    assert ("verify", "verify_elements") not in edges


@pytest.mark.slow
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
        assert ("verify_elements" in nodes) is (judge_node == "verify_units")


def test_an_element_named_inside_a_phrase_is_linked_to_it_only_when_asked() -> None:
    # An unsplit object still names Pensacola. ElementCheck measures the graph as it is: two
    # components, complex; the mention_links option joins them into one, simple.
    facts = [
        fact("Lanny Flaherty", "is", "an American actor born in Pensacola, Florida"),
        fact("Pensacola", "is in", "Florida"),
    ]
    assert not element_graph(facts).has_edge(
        "pensacola", "american actor born in pensacola florida"
    )
    features = route_facts(facts, AUTO)[0][1]
    assert features["components"] == 2 and features["decision"] == "complex"
    graph = element_graph(facts, mention_links=True)
    assert graph.has_edge("pensacola", "american actor born in pensacola florida")
    linked = route_facts(facts, Thresholds(mention_links=True))[0][1]
    assert linked["components"] == 1 and linked["decision"] == "simple"


def test_elementcheck_has_no_qualifier_limit_by_default() -> None:
    many = fact("Ann", "won", "Prize", ("a", "1"), ("b", "2"), ("c", "3"), ("d", "4"))
    assert route_facts([many], AUTO)[0][0] == "simple"  # a star of diameter 2, connected
    assert Context().max_qualifiers == 0 and Context().mention_links is False
