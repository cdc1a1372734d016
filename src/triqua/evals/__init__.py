"""Evaluation harness: FActScore biographies, claim verification, decomposition diagnostics.

Each evaluation freezes its run the way a check does (same settings, engines, cache and
spec), writes a results folder stamped with the spec hash, model revisions and data hashes,
and can be compared with another run (``triqua eval compare``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from triqua.evals.results import EvalRun, compare_runs, load_run, write_run
    from triqua.evals.setup import EvalSetup, prepare_eval

__all__ = ["EvalRun", "EvalSetup", "compare_runs", "load_run", "prepare_eval", "write_run"]

#: Where each name lives; loaded on first use, so that importing one evaluation module (or
#: the CLI's defaults) does not load the check engine that ``setup`` needs.
_HOMES = {
    "EvalRun": "results",
    "compare_runs": "results",
    "load_run": "results",
    "write_run": "results",
    "EvalSetup": "setup",
    "prepare_eval": "setup",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
