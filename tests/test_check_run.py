"""One run object: a CheckRun built from settings takes the text once and stores its report."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from triqua.api import make_context
from triqua.execution.check_run import CheckInput, CheckRun
from triqua.execution.report_cache import REPORT_CACHE_NOTE
from triqua.runtime.persistence.checkpoints import thread_ages
from triqua.store import RunStore

from .conftest import CURIE, PARIS

DOCS = [PARIS, CURIE]
TEXT = f"{PARIS} {CURIE}"


@pytest.mark.slow
def test_a_run_stores_its_report_and_a_second_run_is_served_by_the_cache(
    scripted: Any, tmp_path: Path
) -> None:
    model = scripted()
    runs = RunStore(tmp_path / "runs.sqlite")
    run = CheckRun(make_context(model=model, chunk_size=0), runs=runs)
    given = CheckInput(TEXT, documents=DOCS, case_id="case-1")

    first = asyncio.run(run.check(given, "run-1"))
    second = asyncio.run(run.check(given, "run-2"))

    assert first.run_id == "run-1" and len(model.calls) == 2  # decompose, verify: once
    assert runs.report(first.run_id).scores == first.scores
    assert any(REPORT_CACHE_NOTE in note and "run-1" in note for note in second.notes)
    assert runs.report(second.run_id).scores == first.scores
    assert all(r.case_id == "case-1" for r in second.records)


def test_a_durable_run_forgets_its_checkpoints_and_a_stored_run_refuses_empty_text(
    scripted: Any, tmp_path: Path
) -> None:
    checkpoints = tmp_path / "checkpoints.sqlite"
    context = make_context(model=scripted(), chunk_size=0, cache=False)
    run = CheckRun(context, durable=True, checkpoints=checkpoints)

    report = asyncio.run(run.check(CheckInput(TEXT, documents=DOCS), "durable-1"))

    assert report.run_id == "durable-1" and report.records
    assert checkpoints.exists() and thread_ages(checkpoints) == {}
    with pytest.raises(ValueError, match="text is empty"):
        asyncio.run(CheckRun(context, runs=RunStore(tmp_path / "r.sqlite")).check(CheckInput(" ")))
