"""Settings, resources and the frozen spec of an evaluation run, exactly as a check builds them.

Evaluations go through the same settings path as ``triqua check`` (engines, retriever,
cache), so a repeated evaluation reuses cached model answers and searches like a repeated
check does, and its stamp's spec is the one its checks carry but for each check's own
evidence (its corpus snapshot): :func:`stamp_settings` verifies that for every run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from triqua.api import make_context
from triqua.context import Context
from triqua.runtime.resources import RunResources, build_resources
from triqua.runtime.resources.spec import build_spec
from triqua.schema import Document, FactualitySpec

__all__ = ["EvalSetup", "prepare_eval", "runs_summary", "stamp_settings"]


@dataclass(frozen=True)
class EvalSetup:
    """What an evaluation needs before it starts: settings, engines, retriever and spec."""

    context: Context
    resources: RunResources
    spec: FactualitySpec

    @property
    def offline(self) -> bool:
        """True when every role runs on the offline engine."""
        return self.resources.engines.offline

    @property
    def engine(self) -> str:
        """'offline', or the judge's revision (what a report calls its engine)."""
        return self.resources.engines.name


def prepare_eval(
    context: Context | None = None,
    *,
    documents: Sequence[Document] = (),
    **settings: Any,
) -> EvalSetup:
    """Resolve settings and build the run's resources and spec, failing fast when unusable.

    Args:
        context: Base settings; ``settings`` override fields (e.g. ``retriever="supplied"``).
        documents: Example evidence for supplied-context runs (builds the retriever revision).
        **settings: ``Context`` fields.

    Raises:
        ValueError: when a setting, a model or a retriever is unusable.
    """
    # Evals judge requested-content coverage themselves (``--coverage-model``), once per item.
    ctx = make_context(context, **{"requested_coverage": False, **settings})
    resources = build_resources(ctx, list(documents))
    return EvalSetup(context=ctx, resources=resources, spec=build_spec(ctx, resources, None))


def stamp_settings(run: FactualitySpec, stamp: FactualitySpec) -> bool:
    """True when a check run's spec is the evaluation's stamp but for its own evidence.

    Each item is checked against its own passages, so its run's corpus snapshot differs from
    the stamp's; every other setting that can change a verdict or a score must be the same.
    """
    return run.model_copy(update={"corpus_snapshot": stamp.corpus_snapshot}).hash == stamp.hash


def runs_summary(matches: Sequence[bool | None]) -> dict[str, int]:
    """How many check runs an evaluation made and how many had the stamp's settings.

    ``matches`` holds one entry per item: None when no check run was made for it (the
    offline claims path verifies facts directly), else :func:`stamp_settings`.
    """
    made = [m for m in matches if m is not None]
    return {"check_runs": len(made), "with_stamp_settings": sum(made)}
