"""Settings fields: a default, the description Studio shows, and the environment variable.

The run settings (``triqua.context.Context``) are declared with :func:`setting`, so each
field carries its description and, where it has one, its ``TRIQUA_*`` variable.
"""

from __future__ import annotations

import os
from dataclasses import field
from typing import Any

__all__ = ["setting"]


def _env(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    return value if value not in (None, "") else default


def _from_env(name: str, default: Any) -> Any:
    """``$name`` parsed like ``default`` (an int, a float or a string), else ``default``."""
    value = _env(name)
    if value is None:
        return default
    parse, what = {int: (int, "an integer"), float: (float, "a number")}.get(
        type(default), (str, "text")
    )
    try:
        return parse(value)
    except ValueError as exc:
        raise ValueError(f"{name} must be {what}, got {value!r}") from exc


def setting(default: Any, description: str, *, env: str | None = None) -> Any:
    """A ``Context`` field: its default, the description Studio shows, its environment variable.

    The variable (``TRIQUA_*``), when set and not empty, replaces the default; a list default
    is copied for every context. The field's metadata holds the description and the
    variable's name (``env``).
    """
    metadata = {"description": description}
    if env is not None:
        metadata["env"] = env
        return field(default_factory=lambda: _from_env(env, default), metadata=metadata)
    if isinstance(default, list):
        return field(default_factory=lambda: list(default), metadata=metadata)
    return field(default=default, metadata=metadata)
