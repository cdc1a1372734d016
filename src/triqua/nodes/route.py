"""Route: measure each fact's complexity from its element graph and pick its path."""

from __future__ import annotations

from typing import Any

import networkx as nx
from langgraph.runtime import Runtime
from langgraph.types import Send

from triqua.context import Context
from triqua.limits import LIMIT_NOTE_PREFIX
from triqua.nodes.common import context_of, emit
from triqua.resources import resources_for
from triqua.schema import Fact
from triqua.state import FactTask, Route, State


def element_graph(fact: Fact) -> nx.Graph:
    """Entities and values as nodes; the relation and qualifier labels as edges.

    Qualifier values hang off the base triple's object (or its subject when the object is
    empty); a value that mentions another element is chained to it, which lengthens paths.
    """
    graph = nx.Graph()
    subject, obj = f"s:{fact.subject}", f"o:{fact.object}" if fact.object else None
    graph.add_node(subject)
    anchor = subject
    if obj is not None:
        graph.add_edge(subject, obj, label=fact.relation)
        anchor = obj
    values = [(f"q{i}:{q.value}", q) for i, q in enumerate(fact.qualifiers)]
    for node, qualifier in values:
        if not qualifier.value.strip():
            graph.add_node(node)  # an empty value stays unattached
            continue
        mentioned = [
            (len(other_q.value), other)
            for other, other_q in values
            if other != node
            and other_q.value.strip()
            and len(other_q.value) < len(qualifier.value)
            and other_q.value.lower() in qualifier.value.lower()
        ]
        host = max(mentioned)[1] if mentioned else anchor  # the most specific mention
        graph.add_edge(host, node, label=qualifier.label)
    return graph


def complexity(fact: Fact) -> dict[str, float | int | bool]:
    """Features of the element graph: qualifiers, components and the largest diameter."""
    graph = element_graph(fact)
    components = [graph.subgraph(c) for c in nx.connected_components(graph)]
    diameter = max((nx.diameter(c) for c in components), default=0)
    return {
        "qualifiers": len(fact.qualifiers),
        "nodes": graph.number_of_nodes(),
        "components": len(components),
        "diameter": diameter,
        "connected": len(components) == 1,
    }


def choose_route(features: dict[str, float | int | bool], context: Context) -> Route:
    """Complex when the diameter exceeds δ, the graph is disconnected or has many qualifiers."""
    if context.routing == "always_element":
        return "complex"
    if (
        int(features["diameter"]) > context.delta
        or not bool(features["connected"])
        or int(features["qualifiers"]) > context.max_qualifiers
    ):
        return "complex"
    return "simple"


def route(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Number the facts in text order, cap their count, and route each one."""
    context = context_of(runtime)
    facts = sorted(
        state.get("facts", []),
        key=lambda f: (f.chunk_index, f.span.start if f.span else 0),
    )
    update: dict[str, Any] = {}
    skipped = resources_for(state["run_id"], context, mode=state["spec"].mode.value).facts.skipped
    if len(facts) > context.max_facts or skipped:
        chunks = len(state.get("chunks", []))
        what = (
            f"{max(0, len(facts) - context.max_facts)} more facts found were not verified and "
            f"{skipped} of {chunks} chunks were not decomposed"
        )
        update["errors"] = [f"stopped at max_facts={context.max_facts}: {what}"]
        update["notes"] = [f"{LIMIT_NOTE_PREFIX}max_facts={context.max_facts}: {what}"]
        update["unverified_facts"] = facts[context.max_facts :]
        facts = facts[: context.max_facts]
    tasks = []
    for number, fact in enumerate(facts, start=1):
        fact = fact.model_copy(update={"id": f"f{number}"})
        features = complexity(fact)
        tasks.append(
            FactTask(
                run_id=state["run_id"],
                fact=fact,
                route=choose_route(features, context),
                complexity=features,
                question=state.get("question"),
                spec_hash=state["spec"].hash,
                mode=state["spec"].mode.value,
            )
        )
    emit("facts_found", facts=len(tasks))
    update["tasks"] = tasks
    return update


def fan_out_facts(state: State) -> list[Send] | str:
    """One verification subgraph per fact; straight to scoring when there is none."""
    tasks = state.get("tasks", [])
    if not tasks:
        return "score"
    return [Send("verify_fact", task) for task in tasks]
