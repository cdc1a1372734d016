"""Resolve the engine for each role from the run's settings, lazily and once per model.

:func:`model_key` is the one place that turns settings into a role's model (and the
settings that shape its answers); :func:`engine` builds the engine for a key once per
process (a bounded cache), so every node of every run with those settings shares it.
Every chat model client is built by :func:`chat_model` with the endpoint of the settings
(:func:`chat_model_for` for a model outside the roles, e.g. an evaluation's judge), and a
stored run's settings take the endpoint configured now (:func:`endpoint_of_now`): no
request goes anywhere the user has not configured.

This is the one module that imports the offline engine (an import contract keeps it so):
everything else reaches it through :func:`engine`, :func:`offline_judge` and
:func:`offline_facts`, and tells engines apart by their protocol (``calls_model``).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from langchain_core.language_models import BaseChatModel

from triqua.context import Context
from triqua.engines.base import Decomposer, Judge, QueryRefiner, TemplateRefiner
from triqua.schema import Chunk, Fact
from triqua.support.instances import PREFIX, instance, instance_id, register_instance

if TYPE_CHECKING:
    from triqua.engines.llm.coverage import RequestedCoverageJudge

OFFLINE_NOTE = (
    "Checked on the offline engine: its judge, rules and embeddings answered every role, no key. "
    "An LLM answers instead with --model provider:model (or TRIQUA_MODEL)."
)
"""The note a run answered by the offline engine carries."""

Role = Literal["decompose", "verify", "refine"]
ROLES: tuple[Role, ...] = ("decompose", "verify", "refine")

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


def register_model(name: str, model: BaseChatModel) -> str:
    """Make a chat model instance usable by name in ``Context.model`` (e.g. in tests, agents)."""
    from triqua.schema.redaction import register_secrets_of

    register_secrets_of(model)
    return register_instance(name, model)


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
    from triqua.schema.redaction import register_secrets_of

    if spec.startswith(PREFIX):
        model: BaseChatModel = instance(spec, BaseChatModel, "chat model")
        return model
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


def chat_model_for(
    context: Context, spec: str, *, temperature: float | None = None
) -> BaseChatModel:
    """The chat model ``spec`` with ``context``'s endpoint, temperature and timeout.

    Raises:
        ValueError: when the provider is unknown, its package is missing or its key is unset.
    """
    return chat_model(
        spec,
        base_url=context.base_url,
        temperature=context.temperature if temperature is None else temperature,
        timeout=context.model_timeout,
    )


#: Settings that say where model requests go, each with its environment variable.
ENDPOINT_SETTINGS = {"base_url": "TRIQUA_BASE_URL"}


def endpoint_of_now(stored: dict[str, Any]) -> dict[str, Any]:
    """A stored run's settings with the endpoint configured now in place of the stored one.

    A regrade or a resumed run sends the run's facts and evidence to the endpoint set now
    (``TRIQUA_BASE_URL``), never to the client's default in its stead; the stored endpoint
    is kept only when none is set now.
    """
    now = {name: os.environ.get(env) for name, env in ENDPOINT_SETTINGS.items()}
    return {**stored, **{name: value for name, value in now.items() if value}}


@dataclass(frozen=True)
class ModelKey:
    """What defines one role's engine: its model and the settings that shape its answers."""

    role: Role
    spec: str | None  # None: the offline engine
    instance: int  # identity of a registered model instance (0 for none)
    base_url: str | None
    temperature: float
    max_output_retries: int
    retry_wait: float
    model_timeout: float
    verifier: str = "shipped"  # the entailment judge (offline verifier, second opinion)
    as_of: str | None = None  # the date the judge judges at (verify role)

    @property
    def model_id(self) -> str:
        """The chat model and the settings that shape its answers ('offline' for none)."""
        if not self.spec:
            return "offline"
        found = f"{self.spec}|base_url={self.base_url}|temperature={self.temperature}"
        if self.role == "verify":  # the second opinion shapes the verdicts too
            from triqua.models.entailment import judge_name

            found += f"|verifier={judge_name(self.verifier)}"
            if self.as_of:
                found += f"|as_of={self.as_of}"
        return found


def model_key(context: Context, role: Role) -> ModelKey:
    """The key of ``role``'s engine under ``context``: the one place roles meet models."""
    spec = context.model_for(role)
    return ModelKey(
        role=role,
        spec=spec,
        instance=instance_id(spec),
        base_url=context.base_url,
        temperature=context.temperature,
        max_output_retries=context.max_output_retries,
        retry_wait=context.retry_wait,
        model_timeout=context.model_timeout,
        verifier=context.verifier if role == "verify" else "shipped",
        as_of=context.as_of if role == "verify" else None,
    )


@dataclass(frozen=True)
class Engines:
    """The engines answering each role of one run."""

    decomposer: Decomposer
    judge: Judge
    refiner: QueryRefiner

    @property
    def offline(self) -> bool:
        """True when no role calls a model: decomposer and judge run on the offline engine."""
        inner = [getattr(e, "inner", e) for e in (self.decomposer, self.judge)]
        return not any(e.calls_model for e in inner)

    @property
    def name(self) -> str:
        """What a report calls its engine: 'offline', or the judge's revision."""
        return "offline" if self.offline else self.judge.revision


def caller_options(key: ModelKey) -> dict[str, Any]:
    """Retry and deadline settings of the LLM engines, from the run's settings."""
    return {
        "max_retries": key.max_output_retries,
        "retry_wait": key.retry_wait,
        "timeout": key.model_timeout,
    }


@functools.lru_cache(maxsize=64)
def engine(key: ModelKey) -> Decomposer | Judge | QueryRefiner:
    """The engine for ``key``: built on first use, then shared (bounded: oldest dropped)."""
    from triqua.engines.llm.engine import LLMDecomposer, LLMJudge, LLMRefiner
    from triqua.engines.offline.engine import OfflineDecomposer, OfflineJudge

    if not key.spec:
        if key.role == "verify":
            return OfflineJudge(key.verifier)
        return OfflineDecomposer() if key.role == "decompose" else TemplateRefiner()
    model = chat_model(
        key.spec, base_url=key.base_url, temperature=key.temperature, timeout=key.model_timeout
    )
    llm: dict[str, Callable[..., Decomposer | Judge | QueryRefiner]]
    llm = {"decompose": LLMDecomposer, "verify": LLMJudge, "refine": LLMRefiner}
    options = caller_options(key)
    if key.role == "verify":
        options["as_of"] = key.as_of
    built = llm[key.role](model, **options)
    if isinstance(built, Judge):
        from triqua.engines.second_opinion import second_opinion

        return second_opinion(built, key.verifier)
    return built


def resolve_engines(context: Context) -> Engines:
    """Engines for each role: the configured chat model, or the offline engine when none."""
    return Engines(
        decomposer=engine(model_key(context, "decompose")),  # type: ignore[arg-type]
        judge=engine(model_key(context, "verify")),  # type: ignore[arg-type]
        refiner=engine(model_key(context, "refine")),  # type: ignore[arg-type]
    )


def coverage_judge(context: Context, spec: str) -> RequestedCoverageJudge:
    """The requested-content coverage judge on chat model ``spec``, with ``context``'s calls.

    Raises:
        ValueError: when the model cannot be built.
    """
    from triqua.engines.llm.coverage import RequestedCoverageJudge

    return RequestedCoverageJudge(
        chat_model_for(context, spec, temperature=0.0),
        max_retries=context.max_output_retries,
        retry_wait=context.retry_wait,
        timeout=context.model_timeout,
    )


def offline_judge(verifier: str = "shipped") -> Judge:
    """The offline engine's judge under a ``verifier`` setting, built anew (evaluation cases)."""
    from triqua.engines.offline.engine import OfflineJudge

    return OfflineJudge(verifier)


def offline_facts(chunks: Sequence[tuple[Chunk, str | None, str | None]]) -> list[list[Fact]]:
    """Facts of each ``(chunk, previous chunk, question)`` on the offline decomposer.

    All chunks are parsed together in one spaCy batch (an evaluation decomposes many texts
    at once); the facts of each chunk come back in input order.
    """
    from triqua.engines.offline.decompose.decomposer import ChunkInput, get_decomposer

    requests = [
        ChunkInput(
            text=chunk.text,
            offset=chunk.start,
            chunk_index=chunk.index,
            previous_chunk=previous,
            question=question,
        )
        for chunk, previous, question in chunks
    ]
    return get_decomposer().decompose_many(requests)
