"""The CPU cores this process may run on: the one count every cap on parallel work reads.

The offline engine's fan-out (``Context.workers``) and the embedder's side-by-side batches
both read it, so a process pinned to fewer cores (``taskset``, a container's CPU set) runs
fewer tasks at once, and a test or benchmark that pretends another machine patches this
one function.
"""

from __future__ import annotations

import os


def available_cores() -> int:
    """Cores this process may run on: its CPU affinity where the OS has one, else all."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)
