"""Structured calls to any LangChain chat model: bounded retries, deadlines, usage.

Each call goes through ``with_structured_output`` and keeps the raw answer; output that does not
parse is retried (bounded, with back-off) and, when retries run out, the call raises for its
role to record the failure instead of guessing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from typing import Any

from langchain_core.exceptions import OutputParserException
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda, RunnableSequence
from langchain_core.runnables.retry import ExponentialJitterParams
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel

from triqua.context import DEFAULT_MODEL_TIMEOUT
from triqua.core.budget.costs import estimate_tokens
from triqua.core.budget.deadline import call_with_deadline
from triqua.schema import Usage


def model_revision(model: BaseChatModel) -> str:
    """A readable revision string for records: provider class and model name."""
    name = getattr(model, "model_name", None) or getattr(model, "model", None) or ""
    return f"{type(model).__name__}:{name}" if name else type(model).__name__


@cache
def schema_tokens(schema: type[BaseModel]) -> int:
    """Estimated tokens of ``schema`` as it is sent with a call (an OpenAI tool definition)."""
    return estimate_tokens(json.dumps(convert_to_openai_tool(schema)))


def usage_of(
    message: Any, prompt: Sequence[BaseMessage], schema: type[BaseModel] | None = None
) -> Usage:
    """Usage reported by the provider; else token counts estimated from prompt and output.

    Input tokens served from the provider's prompt cache are counted where it reports them
    (``input_token_details.cache_read``); an estimate counts the output schema sent with the
    prompt (``schema``) too.
    """
    usage = getattr(message, "usage_metadata", None) or {}
    if usage:
        details = usage.get("input_token_details") or {}
        return Usage(
            model_calls=1,
            input_tokens=int(usage.get("input_tokens", 0)),
            output_tokens=int(usage.get("output_tokens", 0)),
            cached_input_tokens=int(details.get("cache_read") or 0),
        )
    prompt_text = "\n\n".join(
        m.content if isinstance(m.content, str) else json.dumps(m.content) for m in prompt
    )
    return Usage(
        model_calls=1,
        input_tokens=estimate_tokens(prompt_text) + (schema_tokens(schema) if schema else 0),
        output_tokens=estimate_tokens(raw_text(message) or ""),
        tokens_estimated=True,
    )


#: Longest model answer accepted, in characters. A longer one (a runaway or hostile model)
#: is a failed call: retried, then recorded as the chunk's or fact's failure, never stored.
MAX_ANSWER_CHARS = 200_000


def _require_parsed(result: Any) -> dict[str, Any]:
    raw = result.get("raw")
    size = len(raw_text(raw) or "") if isinstance(raw, AIMessage) else 0
    if size > MAX_ANSWER_CHARS:
        raise OutputParserException(
            f"model answer of {size:,} characters is over the {MAX_ANSWER_CHARS:,}-character limit"
        )
    if result.get("parsed") is None:
        error = result.get("parsing_error") or "no structured output"
        raise OutputParserException(f"malformed model output: {error}")
    return result


def backoff(wait: float) -> ExponentialJitterParams:
    """Back-off of ``wait`` s before the first retry, doubling each retry, plus up to ``wait`` s.

    LangChain passes only ``initial`` on to tenacity (which, from 9.2, calls it ``multiplier``
    and warns when it is not 1).
    """
    return {"initial": wait, "jitter": wait}


#: The role each structured-output schema answers, as timeout messages name it.
_ROLES = {
    "ExtractedFacts": "decompose",
    "Judgement": "verify",
    "BatchJudgement": "verify",
    "Verdicts": "verify",
    "RefinedQueries": "refine",
}


class StructuredCaller:
    """Calls a chat model for one schema, with bounded retries on errors and bad output.

    Each attempt is bounded by ``timeout`` seconds (:func:`call_with_deadline`), whatever the
    model's client does; a timed-out attempt is retried like any failed one.
    """

    def __init__(
        self,
        model: BaseChatModel,
        schema: type[BaseModel],
        max_retries: int,
        retry_wait: float = 1.0,
        timeout: float | None = DEFAULT_MODEL_TIMEOUT,
    ) -> None:
        self.timeout = timeout
        self.schema = schema
        role = _ROLES.get(schema.__name__, schema.__name__)
        self._what = f"{role} model call"
        structured = model.with_structured_output(schema)
        steps = structured.steps if isinstance(structured, RunnableSequence) else []
        call: Runnable[Any, dict[str, Any]]
        if len(steps) >= 2:
            # model | parser: call the two in turn. ``include_raw=True`` would run them through
            # two RunnableParallel steps, each starting a thread pool on every call.
            self._ask: Runnable[Any, Any] = steps[0]
            self._parse: Runnable[Any, Any] = (
                steps[1] if len(steps) == 2 else RunnableSequence(*steps[1:])
            )
            call = RunnableLambda(self._ask_and_parse)
        else:
            raw_and_parsed = model.with_structured_output(schema, include_raw=True)
            call = raw_and_parsed | RunnableLambda(_require_parsed)
        self._attempt = call

        def bounded(messages: list[BaseMessage], config: RunnableConfig) -> dict[str, Any]:
            return call_with_deadline(
                lambda: self._attempt.invoke(messages, config), self.timeout, self._what
            )

        self.runnable: Runnable[Any, dict[str, Any]] = RunnableLambda(bounded).with_retry(
            stop_after_attempt=max_retries + 1,
            wait_exponential_jitter=True,
            exponential_jitter_params=backoff(retry_wait),
        )

    def _ask_and_parse(self, messages: list[BaseMessage], config: RunnableConfig) -> dict[str, Any]:
        """The model's raw answer and its parsed form, as ``include_raw=True`` gives them."""
        raw = self._ask.invoke(messages, config)
        try:
            parsed = self._parse.invoke(raw, config)
        except Exception as exc:
            return _require_parsed({"raw": raw, "parsed": None, "parsing_error": exc})
        return _require_parsed({"raw": raw, "parsed": parsed})

    def invoke(self, messages: list[BaseMessage]) -> tuple[Any, AIMessage | None, Usage]:
        """Return (parsed, raw message, usage); raises after the last failed attempt."""
        result = self.runnable.invoke(messages)
        raw = result.get("raw")
        return result["parsed"], raw, usage_of(raw, messages, self.schema)


def raw_text(raw: AIMessage | None) -> str | None:
    """The answer as text: its tool calls' arguments as JSON, else its content."""
    if raw is None:
        return None
    if raw.tool_calls:
        return json.dumps([call["args"] for call in raw.tool_calls], ensure_ascii=False)
    return raw.content if isinstance(raw.content, str) else json.dumps(raw.content)
