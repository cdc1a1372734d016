"""Settings from the environment: a ``TRIQUA_*`` variable parsed like the default it replaces.

Environment variables only provide defaults; an explicit value always wins (``Context``).
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["from_env"]


def _env(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    return value if value not in (None, "") else default


def from_env(name: str, default: Any) -> Any:
    """``$name`` parsed like ``default`` (an int, a float or a string), else ``default``.

    Raises:
        ValueError: the variable is set to something that does not parse.
    """
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
