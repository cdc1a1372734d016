"""Evaluation harness: FActScore biographies, claim verification, decomposition diagnostics.

Each evaluation freezes its run the way a check does (same settings, engines, cache and
spec), writes a results folder stamped with the spec hash, model revisions and data hashes,
and can be compared with another run (``triqua eval compare``).
"""

from triqua.evals.results import EvalRun, compare_runs, load_run, write_run
from triqua.evals.setup import EvalSetup, prepare_eval

__all__ = ["EvalRun", "EvalSetup", "compare_runs", "load_run", "prepare_eval", "write_run"]
