"""Evaluation harness: FActScore biographies, claim verification, decomposition diagnostics.

Each evaluation freezes its run the way a check does (same settings, engines, cache and
spec), writes a results folder stamped with the spec hash, model revisions and data hashes,
and can be compared with another run (``triqua eval compare``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from triqua.support.lazy import lazy_names

if TYPE_CHECKING:
    from triqua.evals.results import EvalRun, compare_runs, load_run, write_run
    from triqua.evals.setup import EvalSetup, prepare_eval

__all__ = ["EvalRun", "EvalSetup", "compare_runs", "load_run", "prepare_eval", "write_run"]

# Loaded on first use, so that importing one evaluation module (or the CLI's defaults, for
# ``triqua --help``) does not load the check engine that ``setup`` needs.
_EXPORTS = {
    "EvalRun": "triqua.evals.results",
    "compare_runs": "triqua.evals.results",
    "load_run": "triqua.evals.results",
    "write_run": "triqua.evals.results",
    "EvalSetup": "triqua.evals.setup",
    "prepare_eval": "triqua.evals.setup",
}

__getattr__, __dir__ = lazy_names(__name__, _EXPORTS)
