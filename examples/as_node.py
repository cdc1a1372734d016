"""triqua as a node of a parent LangGraph graph, two ways.

1. A chat graph whose assistant answers, then a ``fact_check`` node
   (``triqua.integrations.agents.as_node``) checks the last AI message against the state's
   documents and writes ``report``.
2. A pipeline whose state already uses triqua's keys (``text``, ``question``, ``documents``,
   ``spec_overrides`` in; ``report`` out) adds the compiled ``triqua.build_graph()`` itself as
   a node; the parent's ``triqua.Context`` flows into it.

Runs offline: a scripted model answers triqua's roles (see ``_fake.py``).
Run: ``python examples/as_node.py``.
"""

from __future__ import annotations

from typing import Annotated, Any

from _fake import DOCUMENTS, QUESTION, TEXT, triqua_model
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict

import triqua
from triqua.integrations.agents import as_node, summarize


class ChatState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    question: str
    documents: list[str]
    report: triqua.Report


def assistant(state: ChatState) -> dict[str, Any]:
    """The parent's own answering step (a fixed answer keeps the example offline)."""
    return {"messages": [AIMessage(TEXT)]}


def chat_graph() -> Any:
    builder = StateGraph(ChatState)
    builder.add_node("assistant", assistant)
    builder.add_node("fact_check", as_node(model=triqua_model()))
    builder.add_edge(START, "assistant")
    builder.add_edge("assistant", "fact_check")
    builder.add_edge("fact_check", END)
    return builder.compile()


class PipelineState(TypedDict, total=False):
    text: str
    question: str
    documents: list[str]
    report: triqua.Report
    decision: str


def decide(state: PipelineState) -> dict[str, Any]:
    """Publish only answers whose TriQuaScore clears a bar."""
    score = state["report"].score
    return {"decision": "publish" if score is not None and score >= 0.9 else "revise"}


def pipeline_graph() -> Any:
    builder = StateGraph(PipelineState, context_schema=triqua.Context)
    builder.add_node("triqua", triqua.build_graph())
    builder.add_node("decide", decide)
    builder.add_edge(START, "triqua")
    builder.add_edge("triqua", "decide")
    builder.add_edge("decide", END)
    return builder.compile()


def main() -> dict[str, Any]:
    chat = chat_graph().invoke(
        {"messages": [HumanMessage(QUESTION)], "question": QUESTION, "documents": DOCUMENTS}
    )
    print("chat graph:\n" + summarize(chat["report"]))
    pipeline = pipeline_graph().invoke(
        {"text": TEXT, "question": QUESTION, "documents": DOCUMENTS},
        context=triqua.make_context(model=triqua_model()),
    )
    print(f"\npipeline graph: {pipeline['decision']}\n" + summarize(pipeline["report"]))
    return {"chat": chat, "pipeline": pipeline}


if __name__ == "__main__":
    main()
