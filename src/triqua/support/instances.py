"""The one registry of objects a caller hands triqua by name: chat models and retrievers.

``Context`` holds only plain settings (it is saved with a run and edited in Studio), so an
object (a chat model instance, a custom retriever) is registered here and named in the
settings as ``instance:NAME``. Everything else triqua uses is built from settings by cached
factories (:mod:`triqua.runtime.resources`); this registry holds only what settings cannot describe.
"""

from __future__ import annotations

import threading
import uuid
from typing import Any, TypeVar

__all__ = ["PREFIX", "instance", "instance_id", "name_for", "register_instance"]

#: Settings values naming a registered object start with this.
PREFIX = "instance:"

T = TypeVar("T")

_INSTANCES: dict[str, Any] = {}
_LOCK = threading.Lock()


def register_instance(name: str, value: object) -> str:
    """Register ``value`` under ``instance:NAME`` and return that name (idempotent)."""
    key = name if name.startswith(PREFIX) else f"{PREFIX}{name}"
    with _LOCK:
        _INSTANCES[key] = value
    return key


def name_for(value: object) -> str:
    """The ``instance:`` name of ``value``, registering it under a fresh name the first time.

    Names never come from ``id()``: an address is reused once its object is gone, and caches
    keyed by the name (calls, reports) would then serve the old object's answers. The same
    object always gets the same name, so its caches still hit within a process.
    """
    with _LOCK:
        for key, known in _INSTANCES.items():
            if known is value:
                return key
        key = f"{PREFIX}{type(value).__name__}-{uuid.uuid4().hex[:12]}"
        _INSTANCES[key] = value
    return key


def instance(name: str, kind: type[Any], what: str) -> Any:
    """The object registered as ``name``, which must be a ``kind``.

    Raises:
        ValueError: when nothing (or something of another kind) is registered as ``name``.
    """
    with _LOCK:
        value = _INSTANCES.get(name)
    if not isinstance(value, kind):
        raise ValueError(f"no {what} registered as {name!r}")
    return value


def instance_id(name: str | None) -> int:
    """Identity of the object registered as ``name`` (0 for none): part of cache keys.

    Registering another object under the same name changes it, so a cached engine or
    retriever built on the old object is never served for the new one.
    """
    if not name or not name.startswith(PREFIX):
        return 0
    with _LOCK:
        value = _INSTANCES.get(name)
    return id(value) if value is not None else 0
