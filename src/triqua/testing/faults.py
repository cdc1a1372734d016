"""Fault injection: a chat model and a retriever that fail on purpose, to test a setup's resilience.

``FaultyChatModel`` wraps any chat model and, at set rates, answers with malformed or
schema-violating output, or raises provider errors (HTTP 429, HTTP 500) and time-outs.
``FaultyRetriever`` wraps any retriever and, at set rates, suffers outages, rate limits or
slowness. Whether a call fails is drawn from a hash of (seed, input, attempt number), never
from call order: triqua fans calls out concurrently, so order varies from run to run while
these draws do not.

Example::

    model = FaultyChatModel(inner=my_model, malformed_rate=0.3, error_rate=0.2)
    report = triqua.check(text, model=model, retry_wait=0.01)
    failed_facts = sum(1 for r in report.records if r.verdict.error)
    assert report.failures == failed_facts + len(report.failed_chunks)
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Literal

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from pydantic import ConfigDict, Field, PrivateAttr

from triqua.testing import schema_name
from triqua.tools.base import Retriever, SearchBudget, SearchResult

__all__ = [
    "FaultyChatModel",
    "FaultyRetriever",
    "ModelFault",
    "ProviderError",
    "ProviderTimeoutError",
    "RateLimitError",
    "SearchFault",
    "ServerError",
    "draw",
]

ModelFault = Literal["ok", "malformed", "schema", "rate_limit", "server_error", "timeout"]
SearchFault = Literal["ok", "outage", "rate_limit", "slow"]


class ProviderError(Exception):
    """A provider's HTTP error, carrying ``status_code`` like ``openai.APIStatusError``."""

    status_code: int = 0

    def __init__(self, message: str, *, status_code: int | None = None) -> None:
        """Keep the message and, when given, override the class's status code."""
        super().__init__(message)
        if status_code is not None:
            self.status_code = status_code


class RateLimitError(ProviderError):
    """HTTP 429: too many requests (like ``openai.RateLimitError``)."""

    status_code = 429


class ServerError(ProviderError):
    """HTTP 500: the provider failed (like ``openai.InternalServerError``)."""

    status_code = 500


class ProviderTimeoutError(TimeoutError):
    """The request timed out (like ``openai.APITimeoutError``)."""


def draw(seed: int, key: str, attempt: int) -> float:
    """A number in [0, 1) fixed by (seed, key, attempt): the same input always draws the same."""
    digest = hashlib.sha256(f"{seed}\x1f{attempt}\x1f{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


class _Attempts:
    """Thread-safe count of how often each key was seen: its attempt number."""

    def __init__(self) -> None:
        self._seen: Counter[str] = Counter()
        self._faults: Counter[str] = Counter()
        self._lock = threading.Lock()

    def next(self, key: str) -> int:
        with self._lock:
            self._seen[key] += 1
            return self._seen[key]

    def record(self, fault: str) -> None:
        with self._lock:
            self._faults[fault] += 1

    def faults(self) -> Counter[str]:
        with self._lock:
            return Counter(self._faults)

    def calls(self) -> int:
        with self._lock:
            return sum(self._seen.values())

    def most(self) -> int:
        with self._lock:
            return max(self._seen.values(), default=0)


def _break_types(value: Any) -> Any:
    """The same shape with every leaf of the wrong type, so no schema accepts it."""
    if isinstance(value, dict):
        return {k: _break_types(v) for k, v in value.items()}
    if isinstance(value, list):
        return {"not": "a list"}
    if isinstance(value, str):
        return 42
    return "not a number"


class FaultyChatModel(BaseChatModel):
    """Wraps a chat model; a share of its calls fail the way real providers fail.

    Per call, one draw decides: a provider error (``error_rate``: HTTP 429, HTTP 500 and
    time-outs in equal parts), else bad output (``malformed_rate``: text that is not JSON, or
    a tool call whose arguments violate the schema, in equal parts), else the inner answer.
    Only calls for ``schemas`` (all when None) are faulty. ``timeout_after`` seconds pass
    before a time-out is raised.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    inner: BaseChatModel
    malformed_rate: float = Field(default=0.0, ge=0.0, le=1.0)
    error_rate: float = Field(default=0.0, ge=0.0, le=1.0)
    seed: int = 0
    schemas: frozenset[str] | None = None
    timeout_after: float = Field(default=0.0, ge=0.0)
    _bound: Runnable[LanguageModelInput, BaseMessage] | None = PrivateAttr(default=None)
    _tool: str = PrivateAttr(default="")
    _attempts: _Attempts = PrivateAttr(default_factory=_Attempts)

    @property
    def _llm_type(self) -> str:
        return "triqua-faulty"

    @property
    def model_name(self) -> str:
        """The wrapped model's name, marked as faulty."""
        inner = getattr(self.inner, "model_name", None) or type(self.inner).__name__
        return f"faulty({inner})"

    @property
    def faults(self) -> Counter[str]:
        """How many faults of each kind were injected so far."""
        return self._attempts.faults()

    @property
    def attempts(self) -> int:
        """Calls made so far, retries included."""
        return self._attempts.calls()

    @property
    def most_attempts(self) -> int:
        """The most calls made with one same input: a first try, its retries and any repeats."""
        return self._attempts.most()

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Bind the tools on the inner model; this wrapper stays in front of it."""
        bound = self.model_copy()
        bound._attempts = self._attempts
        bound._bound = self.inner.bind_tools(tools, tool_choice=tool_choice, **kwargs)
        bound._tool = schema_name(tools)
        return bound

    def decide(self, prompt: str, attempt: int) -> ModelFault:
        """The fault (or "ok") for this prompt at this attempt."""
        if self.schemas is not None and self._tool not in self.schemas:
            return "ok"
        key = f"{self._tool}\x1f{prompt}"
        roll = draw(self.seed, key, attempt)
        pick = draw(self.seed + 1, key, attempt)
        if roll < self.error_rate:
            return ("rate_limit", "server_error", "timeout")[min(2, int(pick * 3))]
        if roll < self.error_rate + self.malformed_rate:
            return "malformed" if pick < 0.5 else "schema"
        return "ok"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        prompt = "\n\n".join(str(m.content) for m in messages)
        attempt = self._attempts.next(f"{self._tool}\x1f{prompt}")
        fault = self.decide(prompt, attempt)
        self._attempts.record(fault)
        if fault == "rate_limit":
            raise RateLimitError("Error code: 429 - rate limit reached (injected)")
        if fault == "server_error":
            raise ServerError("Error code: 500 - internal server error (injected)")
        if fault == "timeout":
            time.sleep(self.timeout_after)
            raise ProviderTimeoutError("Request timed out (injected)")
        source: Any = self._bound if self._bound is not None else self.inner
        answer = source.invoke(messages, stop=stop)
        if fault == "malformed":
            answer = AIMessage(
                content='{"status": "supported", "evidence_ids": [', response_metadata={}
            )
        elif fault == "schema":
            answer = _violate_schema(answer)
        return ChatResult(generations=[ChatGeneration(message=answer)])


def _violate_schema(answer: BaseMessage) -> AIMessage:
    """The answer with tool-call arguments of the wrong types (or bare text when it had none)."""
    calls = getattr(answer, "tool_calls", None) or []
    if not calls or not any(call["args"] for call in calls):
        return AIMessage(content=json.dumps({"answer": "not the requested schema"}))
    broken = [{**call, "args": _break_types(call["args"])} for call in calls]
    return AIMessage(content="", tool_calls=broken)


class FaultyRetriever(Retriever):
    """Wraps a retriever; a share of its searches suffer an outage, a rate limit or slowness.

    Per search, one draw decides: an outage (``outage_rate``), HTTP 429 (``rate_limit_rate``),
    a slow answer (``slow_rate``: ``slow_seconds`` pass first) or the inner result. Failures
    come back in ``SearchResult.error`` as the retriever contract asks; with ``raise_errors``
    they are raised instead (``ConnectionError`` / :class:`RateLimitError`), the way a
    retriever that breaks the contract would fail.
    """

    def __init__(
        self,
        inner: Retriever,
        *,
        outage_rate: float = 0.0,
        rate_limit_rate: float = 0.0,
        slow_rate: float = 0.0,
        slow_seconds: float = 0.05,
        seed: int = 0,
        raise_errors: bool = False,
        uses_budget: bool | None = None,
    ) -> None:
        """Wrap ``inner`` with the given fault rates (``uses_budget`` defaults to inner's)."""
        super().__init__()
        if outage_rate + rate_limit_rate + slow_rate > 1.0:
            raise ValueError("fault rates must add up to at most 1")
        self.inner = inner
        self.outage_rate, self.rate_limit_rate, self.slow_rate = (
            outage_rate,
            rate_limit_rate,
            slow_rate,
        )
        self.slow_seconds, self.seed, self.raise_errors = slow_seconds, seed, raise_errors
        self.name = f"faulty-{inner.name}"
        self.revision = f"faulty({inner.revision})"
        self.uses_budget = inner.uses_budget if uses_budget is None else uses_budget
        self._attempts = _Attempts()

    @property
    def faults(self) -> Counter[str]:
        """How many faults of each kind were injected so far."""
        return self._attempts.faults()

    def decide(self, query: str, k: int, attempt: int) -> SearchFault:
        """The fault (or "ok") for this search at this attempt."""
        roll = draw(self.seed, f"{query}\x1f{k}", attempt)
        for fault, rate in (
            ("outage", self.outage_rate),
            ("rate_limit", self.rate_limit_rate),
            ("slow", self.slow_rate),
        ):
            if roll < rate:
                return fault  # type: ignore[return-value]
            roll -= rate
        return "ok"

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        """Search through the inner retriever unless this search is drawn to fail."""
        if self.uses_budget and budget is not None and not budget.try_spend():
            return SearchResult(searched=False, note="search budget spent: no search made")
        self._count_call()
        fault = self.decide(query, k, self._attempts.next(f"{query}\x1f{k}"))
        self._attempts.record(fault)
        if fault == "outage":
            if self.raise_errors:
                raise ConnectionError("search service unreachable (injected outage)")
            return SearchResult(error=f"{self.name}: service unreachable (injected outage)")
        if fault == "rate_limit":
            if self.raise_errors:
                raise RateLimitError("Error code: 429 - too many searches (injected)")
            return SearchResult(error=f"{self.name}: HTTP 429 - too many searches (injected)")
        if fault == "slow":
            time.sleep(self.slow_seconds)
        return self.inner.search(query, k)

    def check_available(self) -> None:
        """The wrapped retriever must be usable."""
        self.inner.check_available()

    def describe(self) -> str:
        """Where the wrapped retriever looks."""
        return self.inner.describe()
