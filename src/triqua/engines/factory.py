"""Resolve the engine for each role from the run's settings, lazily and once per model."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel

from triqua.context import Context
from triqua.engines.base import Decomposer, Judge, QueryRefiner, TemplateRefiner

_REGISTRY: dict[str, BaseChatModel] = {}
_CACHE: dict[tuple[str, str, str | None, float, int, float, float], object] = {}

#: Providers whose chat model class takes ``timeout`` (seconds per request) and
#: ``max_retries``. Others get only triqua's own deadline around each call.
TIMEOUT_PROVIDERS = frozenset(
    {
        "openai",
        "azure_openai",
        "anthropic",
        "groq",
        "mistralai",
        "deepseek",
        "xai",
        "fireworks",
        "together",
        "perplexity",
    }
)
_LOCK = threading.Lock()


def register_model(name: str, model: BaseChatModel) -> str:
    """Make a chat model instance usable by name in ``Context.model`` (e.g. in tests, agents)."""
    from triqua.core.redaction import register_secrets_of

    register_secrets_of(model)
    key = name if name.startswith("instance:") else f"instance:{name}"
    with _LOCK:
        _REGISTRY[key] = model
    return key


def provider_of(spec: str) -> str | None:
    """The provider ``init_chat_model`` will use for ``spec``, or None when it cannot tell."""
    prefix, sep, _ = spec.partition(":")
    if sep and prefix in TIMEOUT_PROVIDERS:
        return prefix
    try:  # LangChain's own inference (private, so guarded): "gpt-4o" → openai, ...
        from langchain.chat_models.base import _parse_model

        return str(_parse_model(spec, None)[1])
    except Exception:
        return None


def chat_model(
    spec: str,
    *,
    base_url: str | None = None,
    temperature: float = 0.0,
    timeout: float | None = None,
) -> BaseChatModel:
    """Build (or fetch a registered) chat model from a 'provider:model' string.

    With ``timeout``, providers that support it get it as their per-request timeout and
    ``max_retries=0``: triqua's own retries (``max_output_retries``) then govern, so one
    call attempt never outlasts ``timeout`` inside the client either.

    Raises:
        ValueError: when the provider is unknown, its package is missing or its key is unset.
    """
    from triqua.core.redaction import register_secrets_of

    if spec.startswith("instance:"):
        try:
            return _REGISTRY[spec]
        except KeyError:
            raise ValueError(f"no chat model registered as {spec!r}") from None
    from langchain.chat_models import init_chat_model

    from triqua.engines.providers import install_command, missing_provider_error

    kwargs: dict[str, Any] = {"temperature": temperature}
    if base_url:
        kwargs["base_url"] = base_url
        if ":" not in spec:
            spec = f"openai:{spec}"
    if timeout and provider_of(spec) in TIMEOUT_PROVIDERS:
        kwargs["timeout"] = timeout
        kwargs["max_retries"] = 0
    missing = missing_provider_error(spec)
    if missing:
        raise ValueError(missing)
    try:
        model = init_chat_model(spec, **kwargs)
    except ImportError as exc:
        command = install_command(provider_of(spec) or "") or "pip install langchain-PROVIDER"
        raise ValueError(f"model {spec!r} needs its provider package ({exc}): {command}") from exc
    except Exception as exc:
        raise ValueError(f"cannot create model {spec!r}: {exc}") from exc
    register_secrets_of(model)
    return model


def _cached(role: str, context: Context, build: type) -> object:
    spec = context.model_for(role)  # type: ignore[arg-type]
    key = (
        role,
        spec or "offline",
        context.base_url,
        context.temperature,
        context.max_output_retries,
        context.retry_wait,
        context.model_timeout,
    )
    with _LOCK:
        engine = _CACHE.get(key)
    if engine is not None and not (spec or "").startswith("instance:"):
        return engine
    engine = build(spec, context)
    with _LOCK:
        _CACHE[key] = engine
    return engine


@dataclass(frozen=True)
class Engines:
    """The engines answering each role of one run."""

    decomposer: Decomposer
    judge: Judge
    refiner: QueryRefiner

    @property
    def offline(self) -> bool:
        """True when every role runs on the offline engine."""
        from triqua.engines.offline.engine import OfflineDecomposer, OfflineJudge

        return isinstance(self.decomposer, OfflineDecomposer) and isinstance(
            self.judge, OfflineJudge
        )


def caller_options(context: Context) -> dict[str, Any]:
    """Retry and deadline settings of the LLM engines, from the run's settings."""
    return {
        "max_retries": context.max_output_retries,
        "retry_wait": context.retry_wait,
        "timeout": context.model_timeout,
    }


def resolve_engines(context: Context) -> Engines:
    """Engines for each role: the configured chat model, or the offline engine when none."""
    from triqua.engines.llm import LLMDecomposer, LLMJudge, LLMRefiner
    from triqua.engines.offline.engine import OfflineDecomposer, OfflineJudge

    def model(spec: str) -> BaseChatModel:
        return chat_model(
            spec,
            base_url=context.base_url,
            temperature=context.temperature,
            timeout=context.model_timeout,
        )

    def decomposer(spec: str | None, ctx: Context) -> Decomposer:
        if not spec:
            return OfflineDecomposer()
        return LLMDecomposer(model(spec), **caller_options(ctx))

    def judge(spec: str | None, ctx: Context) -> Judge:
        if not spec:
            return OfflineJudge()
        return LLMJudge(model(spec), **caller_options(ctx))

    def refiner(spec: str | None, ctx: Context) -> QueryRefiner:
        if not spec:
            return TemplateRefiner()
        return LLMRefiner(model(spec), **caller_options(ctx))

    return Engines(
        decomposer=_cached("decompose", context, decomposer),  # type: ignore[arg-type]
        judge=_cached("verify", context, judge),  # type: ignore[arg-type]
        refiner=_cached("refine", context, refiner),  # type: ignore[arg-type]
    )
