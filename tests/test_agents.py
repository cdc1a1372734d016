"""triqua inside other agents: the tool, the function node, the compiled graph as a node."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

import pytest
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langchain_core.tools import ToolException
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict

import triqua
from triqua.integrations.agents import as_node, last_ai_text, summarize
from triqua.schema import Report, Status

from .conftest import CURIE, FRANCE, PARIS

DOCS = [
    "France had a population of 64.5 million in 2025, excluding overseas departments.",
    "Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie.",
]


def _call(text: str, evidence: list[str] | None = None) -> dict[str, Any]:
    args: dict[str, Any] = {"text": text}
    if evidence is not None:
        args["evidence"] = evidence
    return {"type": "tool_call", "name": "triqua_check", "args": args, "id": "call-1"}


def test_tool_answers_with_a_summary_and_carries_the_report(scripted: Any) -> None:
    tool = triqua.as_tool(model=scripted())
    message = tool.invoke(_call(f"{FRANCE} {CURIE}", DOCS))
    assert isinstance(message, ToolMessage)
    lines = message.text.splitlines()
    assert lines[0] == (
        "TriQuaScore 80.0% (4/5 units supported); 2 facts: 1 supported, 1 contradicted"
    )
    assert lines[1].startswith("- f1 contradicted: (France, has population, 64.5 million)")
    assert "wrong: (point in time, 2026) ('2026')" in lines[1]
    assert lines[2].startswith("- f2 supported: (Marie Curie, won, Nobel Prize in Physics)")
    report = message.artifact
    assert isinstance(report, Report) and report.score == pytest.approx(0.8)


def test_tool_schema_names_text_evidence_and_question() -> None:
    tool = triqua.as_tool(name="fact_check")
    assert tool.name == "fact_check"
    assert set(tool.args) == {"text", "evidence", "question"}
    assert tool.args["evidence"]["anyOf"][0] == {"items": {"type": "string"}, "type": "array"}


def test_tool_runs_asynchronously_and_without_evidence(scripted: Any) -> None:
    def knows(fact: str, prompt: str) -> dict[str, Any]:
        return {"status": "supported", "confidence": 0.7}

    tool = triqua.as_tool(model=scripted(judge=knows))
    message = asyncio.run(tool.ainvoke(_call(PARIS)))
    assert message.artifact.spec.mode.value == "closed_book"
    assert message.text.startswith("TriQuaScore 100.0% (1/1 units supported); 1 fact: 1 supported")
    assert "1 facts" not in message.text


def test_input_the_tool_cannot_check_is_an_error_the_agent_reads(scripted: Any) -> None:
    """An agent's model that passes empty text or evidence gets told why, and can retry."""
    tool = triqua.as_tool(model=scripted())
    for call, why in (
        (_call("   "), "text is empty"),
        (_call(PARIS, [""]), "the supplied documents are empty"),
    ):
        for message in (tool.invoke(call), asyncio.run(tool.ainvoke(call))):
            assert isinstance(message, ToolMessage) and message.status == "error"
            assert message.text.startswith("triqua cannot check this input: " + why)
            assert message.artifact is None
    with pytest.raises(ToolException, match="text is empty"):  # called directly, it raises
        tool.func("")  # type: ignore[misc]


def test_summary_calls_only_contradicted_units_wrong(scripted: Any) -> None:
    """What the evidence does not say is unverified, as the tool's description tells the agent."""

    def knows_nothing(fact: str, prompt: str) -> dict[str, Any]:
        return {"status": "insufficient_evidence", "confidence": 0.5}

    tool = triqua.as_tool(model=scripted(judge=knows_nothing))
    message = tool.invoke(_call(PARIS, DOCS))
    (line,) = [line for line in message.text.splitlines() if line.startswith("- f1")]
    assert line.startswith("- f1 insufficient_evidence: (Paris, is")
    assert "| unverified: (Paris, is" in line and "wrong" not in line


def test_summary_of_a_text_without_facts_says_so() -> None:
    assert summarize(Report()) == "TriQuaScore undefined (0/0 units supported); 0 facts: none"


class ChatState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    documents: list[str]
    report: Report


def test_function_node_checks_the_last_ai_message(scripted: Any) -> None:
    assert triqua.as_node is as_node  # the README's name for it
    builder = StateGraph(ChatState)
    builder.add_node("check", triqua.as_node(model=scripted()))
    builder.add_edge(START, "check")
    builder.add_edge("check", END)
    messages = [HumanMessage(f"Is it true that {FRANCE}"), AIMessage(CURIE)]
    for run in (builder.compile().invoke, builder.compile().ainvoke):
        state = {"messages": messages, "documents": DOCS}
        out = run(state) if run.__name__ == "invoke" else asyncio.run(run(state))
        (record,) = out["report"].records  # the human message is not checked
        assert record.fact.subject == "Marie Curie"
        assert record.verdict.status is Status.SUPPORTED


def test_function_node_reads_other_keys_and_writes_where_told(scripted: Any) -> None:
    class Draft(TypedDict, total=False):
        draft: str
        sources: list[str]
        verdict: Report

    builder = StateGraph(Draft)
    builder.add_node(
        "check",
        as_node(
            text_of=lambda s: s["draft"],
            documents_key="sources",
            question_key=None,
            output_key="verdict",
            model=scripted(),
        ),
    )
    builder.add_edge(START, "check")
    out = builder.compile().invoke({"draft": FRANCE, "sources": DOCS})
    assert out["verdict"].records[0].verdict.status is Status.CONTRADICTED


def test_last_ai_text_needs_something_to_check() -> None:
    assert last_ai_text({"text": "plain"}) == "plain"
    with pytest.raises(ValueError, match="nothing to check"):
        last_ai_text({"messages": [HumanMessage("only a question")]})


def test_compiled_graph_as_a_node_uses_the_parents_keys_and_context(scripted: Any) -> None:
    class Pipeline(TypedDict, total=False):
        text: str
        documents: list[str]
        report: Report
        seen_engine: str

    def after(state: Pipeline) -> dict[str, Any]:
        return {"seen_engine": state["report"].engine}

    builder = StateGraph(Pipeline, context_schema=triqua.Context)
    builder.add_node("triqua", triqua.build_graph())
    builder.add_node("after", after)
    builder.add_edge(START, "triqua")
    builder.add_edge("triqua", "after")
    out = builder.compile().invoke(
        {"text": CURIE, "documents": DOCS}, context=triqua.make_context(model=scripted())
    )
    assert out["report"].records[0].verdict.status is Status.SUPPORTED
    assert out["seen_engine"].startswith("ScriptedChatModel")  # the parent's model, not offline
