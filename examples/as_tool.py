"""triqua as a tool of a LangChain agent (``langchain.agents.create_agent``).

The agent calls ``triqua_check`` with a text and evidence passages; the tool answers with a
compact verdict summary (what the agent's model reads) and carries the full ``Report`` as
the tool message's artifact (what your code reads).

Runs offline: the agent's model is scripted to call the tool once and then answer from the
tool's summary; a second scripted model answers triqua's roles (see ``_fake.py``).
Run: ``python examples/as_tool.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from _fake import DOCUMENTS, TEXT, triqua_model
from langchain.agents import create_agent
from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

import triqua
from triqua.testing import ScriptedChatModel


class ScriptedAgentModel(ScriptedChatModel):
    """A scripted model that accepts LangChain tools (it calls the first one it is given)."""

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        specs = [convert_to_openai_tool(tool)["function"] for tool in tools]
        return super().bind_tools(specs, tool_choice=tool_choice, **kwargs)


def agent_turn(tool: str, prompt: str) -> dict[str, Any] | str:
    """First turn: call triqua on the draft; once its result is in the prompt: answer."""
    if "TriQuaScore" in prompt:
        verdicts = prompt[prompt.rfind("TriQuaScore") :]
        return "I checked the draft before sending it:\n" + verdicts
    return {"text": TEXT, "evidence": DOCUMENTS}


def main() -> dict[str, Any]:
    agent = create_agent(
        model=ScriptedAgentModel(responder=agent_turn, model_name="scripted-agent"),
        tools=[triqua.as_tool(model=triqua_model())],
        system_prompt="Fact-check drafts with triqua_check before answering.",
    )
    result = agent.invoke({"messages": [HumanMessage(f"Is this right? {TEXT}")]})
    tool_message = next(m for m in result["messages"] if isinstance(m, ToolMessage))
    report: triqua.Report = tool_message.artifact
    print(result["messages"][-1].text)
    print(f"\nartifact: a Report with {len(report.records)} records, score {report.score:.2f}")
    return result


if __name__ == "__main__":
    main()
