"""One thread-safe, build-once getter for the offline engine's process-wide resources.

The spaCy pipeline, the MiniLM embedder, the decomposer and the verifier each cost seconds or
hundreds of MB to build, so each is built once per process on first use. ``functools.cache``
alone could build twice when two threads miss together; the lock makes later callers wait for
the first build and then share it. A build that raises caches nothing: the next call retries.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def once(build: Callable[[], T]) -> Callable[[], T]:
    """``build`` wrapped so that it runs once per process (thread-safe); later calls reuse it."""
    cached = functools.cache(build)
    lock = threading.Lock()

    @functools.wraps(build)
    def get() -> T:
        with lock:
            return cached()

    return get
