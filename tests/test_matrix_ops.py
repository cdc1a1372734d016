"""The shared pipeline multiplies with NumPy's BLAS on one thread, and parses as on BLIS."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from triqua.nlp import matrix_ops
from triqua.nlp.matrix_ops import BLAS_THREADS_ENV, blas_threads, hold_blas_threads
from triqua.nlp.pipeline import build_pipeline, load_nlp

SENTENCES = [
    "Marie Curie won the Nobel Prize in Physics in 1903, and she was born in Warsaw.",
    "He did not play for Arsenal until 1998; before that, he coached in Lyon.",
    "The U.S. Dept. of State said 3.5% of $1,200 were e-mailed at 5 p.m. on 4 July 2001.",
    "Born in 1946 to a Kenyan father, she studied law at Columbia University in New York.",
]
CALLER_ENVS = [BLAS_THREADS_ENV, *matrix_ops._CALLER_THREAD_ENVS]


def _ops_of(nlp: Any) -> list[Any]:
    """The ops of every layer of every model in the pipeline."""
    return [
        node.ops for _, pipe in nlp.pipeline if hasattr(pipe, "model") for node in pipe.model.walk()
    ]


def _blas_threads() -> list[int]:
    return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]


def _rows(doc: Any) -> list[tuple[Any, ...]]:
    return [
        (
            t.text,
            t.tag_,
            t.pos_,
            t.lemma_,
            t.dep_,
            t.head.i,
            t.ent_iob_,
            t.ent_type_,
            t.is_sent_start,
        )
        for t in doc
    ]


def _clear_caller_envs(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in CALLER_ENVS:
        monkeypatch.delenv(name, raising=False)


def test_the_shared_pipeline_multiplies_with_numpy_not_blis() -> None:
    ops = _ops_of(load_nlp())
    assert len(ops) > 20
    assert {type(o).__name__ for o in ops} == {"NumpyOps"}
    assert not any(o.use_blis for o in ops)


def test_the_pipeline_parses_the_same_as_on_blis() -> None:
    on_blis = build_pipeline(numpy_blas=False)
    assert all(o.use_blis for o in _ops_of(on_blis))  # thinc's default: a real comparison
    shared = load_nlp()
    for text in SENTENCES:
        ours, theirs = shared(text), on_blis(text)
        assert _rows(ours) == _rows(theirs), text
        assert abs(ours.tensor - theirs.tensor).max() < 1e-4
    assert [d.ents for d in shared.pipe(SENTENCES)]  # the batched path runs on NumPy too


def test_blas_threads_follow_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    _clear_caller_envs(monkeypatch)
    assert blas_threads() == 1
    monkeypatch.setenv("OMP_NUM_THREADS", "4")
    assert blas_threads() is None  # the caller chose: left alone
    monkeypatch.setenv(BLAS_THREADS_ENV, "3")
    assert blas_threads() == 3  # triqua's own variable wins
    monkeypatch.setenv(BLAS_THREADS_ENV, "0")
    assert blas_threads() is None
    for bad in ("two", "-1", "1.5"):
        monkeypatch.setenv(BLAS_THREADS_ENV, bad)
        with pytest.raises(ValueError, match=BLAS_THREADS_ENV):
            blas_threads()


def test_holding_blas_sets_every_loaded_blas_pool_to_one_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _clear_caller_envs(monkeypatch)
    with threadpool_limits(limits=2, user_api="blas"):  # restored on leaving
        assert _blas_threads() and set(_blas_threads()) == {2}
        assert hold_blas_threads() == 1
        assert set(_blas_threads()) == {1}
    with threadpool_limits(limits=2, user_api="blas"):
        monkeypatch.setenv(BLAS_THREADS_ENV, "0")
        assert hold_blas_threads() is None
        assert set(_blas_threads()) == {2}  # opted out: untouched


_PROBE = (
    "import json; from threadpoolctl import threadpool_info; "
    "from triqua.nlp.pipeline import load_nlp; nlp = load_nlp(); nlp('She was born in Paris.'); "
    "print(json.dumps([i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas']))"
)


def _threads_after_loading(**env: str) -> list[int]:
    """BLAS threads in a fresh process once it has loaded the pipeline and parsed a sentence."""
    clean = {k: v for k, v in os.environ.items() if k not in CALLER_ENVS}
    out = subprocess.run(
        [sys.executable, "-c", _PROBE],
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    threads: list[int] = json.loads(out.strip().splitlines()[-1])
    return threads


def test_loading_the_pipeline_holds_blas_to_one_thread_unless_the_caller_chose() -> None:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    chosen = _threads_after_loading(OPENBLAS_NUM_THREADS="2")  # OpenBLAS takes at most the cores
    assert chosen and set(chosen) == {min(2, cores or 1)}  # the caller's choice, kept
    held = _threads_after_loading()
    assert held and set(held) == {1}
