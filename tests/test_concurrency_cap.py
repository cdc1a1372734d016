"""Offline runs fan out to at most the cores; model-backed runs keep max_concurrency."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import triqua
from triqua.api import effective_concurrency
from triqua.context import Context
from triqua.execution.runner import run_config
from triqua.support.cores import available_cores

from .conftest import CURIE, PARIS

pinnable = pytest.mark.skipif(
    not hasattr(os, "sched_setaffinity"), reason="the OS cannot pin a thread to cores"
)


@contextmanager
def pinned_to(count: int) -> Iterator[int]:
    """Run the block on at most ``count`` of this thread's cores (as ``taskset`` would)."""
    before = os.sched_getaffinity(0)
    allowed = set(sorted(before)[:count])
    os.sched_setaffinity(0, allowed)
    try:
        yield len(allowed)
    finally:
        os.sched_setaffinity(0, before)


def test_offline_runs_are_capped_at_the_cores() -> None:
    """The cap is the cores this process may use now, whatever the machine has."""
    cores = available_cores()
    offline = Context(model=None, max_concurrency=cores + 6)
    assert effective_concurrency(offline) == cores
    assert run_config(offline)["max_concurrency"] == cores
    assert effective_concurrency(Context(model=None, max_concurrency=1)) == 1


@pinnable
@pytest.mark.parametrize("count", [1, 2])
def test_the_cap_follows_the_cores_the_process_is_pinned_to(count: int) -> None:
    with pinned_to(count) as pinned:  # 1 core: as under taskset -c 0
        assert available_cores() == pinned
        offline = Context(model=None, max_concurrency=8)
        assert effective_concurrency(offline) == pinned
        assert run_config(offline)["max_concurrency"] == pinned
    assert available_cores() >= pinned  # the whole set is back


def test_model_backed_runs_keep_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("triqua.support.cores.available_cores", lambda: 2)
    one = {"max_concurrency": 8, "verify_batch": 1}
    assert effective_concurrency(Context(model="openai:gpt-4.1-mini", **one)) == 8
    assert effective_concurrency(Context(verify_model="openai:x", **one)) == 8


def test_batched_runs_fan_out_batches_and_hold_the_setting_in_calls() -> None:
    """Each verify batch is one task: the fan-out is max_concurrency batches, and the run's
    call slots keep max_concurrency calls in flight (a batch's members call side by side)."""
    from triqua.runtime.resources import RunLedger

    context = Context(model="openai:gpt-4.1-mini", max_concurrency=3, verify_batch=4)
    assert effective_concurrency(context) == 3
    slots = RunLedger.for_context(context).slots
    assert [slots.acquire(blocking=False) for _ in range(4)] == [True, True, True, False]


def test_cores_counts_this_process() -> None:
    assert 1 <= available_cores() <= (os.cpu_count() or 1)


@pytest.mark.slow
def test_capped_and_uncapped_offline_runs_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    text, documents = f"{PARIS} {CURIE}", [PARIS, CURIE]
    monkeypatch.setattr("triqua.support.cores.available_cores", lambda: 1)
    assert effective_concurrency(Context(model=None, max_concurrency=8)) == 1
    capped = triqua.check(text, documents=documents, cache=False, chunk_size=0)
    monkeypatch.setattr("triqua.support.cores.available_cores", lambda: 8)
    assert effective_concurrency(Context(model=None, max_concurrency=8)) == 8
    uncapped = triqua.check(text, documents=documents, cache=False, chunk_size=0)

    def verdicts(report: triqua.Report) -> list[dict[str, object]]:
        return [r.verdict.model_dump(exclude={"created_at"}) for r in report.records]

    assert verdicts(capped) == verdicts(uncapped)
    assert capped.scores == uncapped.scores
