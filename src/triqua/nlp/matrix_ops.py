"""How the shared pipeline multiplies matrices: NumPy's BLAS, its thread pool held to one.

spaCy's models multiply through thinc's ``NumpyOps``, which by default calls BLIS. The
``blis`` wheel falls back to its generic reference kernels on CPUs it has no tuned kernels
for, where its products are far slower than those of the OpenBLAS in NumPy's wheel, and the
parses are the same either way (checked on every text of the offline speed benchmark). So the
pipeline's models are set to ``NumpyOps(use_blis=False)``: their layers multiply with
``numpy`` (the transition parser's inner loop still calls BLIS through thinc's ``cblas``).

OpenBLAS starts one thread per core, and on spaCy's small matrices those threads
spin waiting for work and cost more CPU than they save. So when the pipeline loads,
the BLAS libraries then loaded in the process (threadpoolctl's ``"blas"`` API, NumPy's
OpenBLAS among them) are held to one thread for the rest of the process. A BLAS pool has no
per-caller setting, so the caller's own NumPy products run on one thread too; the pool is left
as it is when ``$TRIQUA_BLAS_THREADS`` is ``0``, or when it is unset and the environment
already says how many threads BLAS takes (``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS``, ...).
``$TRIQUA_BLAS_THREADS=N`` holds it at N threads. A limit the caller sets later (with
threadpoolctl, say) replaces this one.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from triqua.nlp.tokens import Language

__all__ = ["BLAS_THREADS_ENV", "blas_threads", "hold_blas_threads", "use_numpy_blas"]

BLAS_THREADS_ENV = "TRIQUA_BLAS_THREADS"
"""Threads BLAS is held to when the pipeline loads; ``0`` leaves the pool as it is."""

_CALLER_THREAD_ENVS = (
    "OPENBLAS_NUM_THREADS",
    "GOTO_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
)
"""Variables by which a caller says how many threads BLAS takes (then triqua keeps out)."""


def blas_threads() -> int | None:
    """Threads the BLAS pool is to be held to, from the environment; None: leave it alone.

    ``$TRIQUA_BLAS_THREADS`` when set (``0`` for None), else None when a BLAS or OpenMP
    thread variable is set (the caller chose), else 1.

    Raises:
        ValueError: when ``$TRIQUA_BLAS_THREADS`` is not a whole number ≥ 0.
    """
    raw = os.environ.get(BLAS_THREADS_ENV, "").strip()
    if raw:
        try:
            threads = int(raw)
        except ValueError:
            threads = -1
        if threads < 0:
            raise ValueError(
                f"{BLAS_THREADS_ENV} must be a whole number of threads "
                f"(0 leaves BLAS's threads as they are), got {raw!r}"
            )
        return threads or None
    if any(os.environ.get(name, "").strip() for name in _CALLER_THREAD_ENVS):
        return None
    return 1


def hold_blas_threads() -> int | None:
    """Hold the BLAS libraries loaded in this process to :func:`blas_threads` threads.

    Process-wide and lasting (not undone on return). Call it once NumPy is imported, so that
    its OpenBLAS is among the libraries held.

    Returns:
        The threads BLAS is held to, or None when it was left alone.
    """
    threads = blas_threads()
    if threads is not None:
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=threads, user_api="blas")
    return threads


def use_numpy_blas(nlp: Language) -> None:
    """Make every layer of the pipeline's models multiply with NumPy's BLAS, not BLIS.

    thinc gives each layer the current ops when it is built, and spaCy builds some (the
    parser's output layer) on ``NumpyOps()`` whatever the current ops, so every layer of every
    component's model is set to one ``NumpyOps(use_blis=False)`` after loading instead.
    """
    from thinc.api import NumpyOps

    ops = NumpyOps(use_blis=False)
    for _, component in nlp.pipeline:
        model = getattr(component, "model", None)
        if model is not None:
            for layer in model.walk():
                layer.ops = ops
