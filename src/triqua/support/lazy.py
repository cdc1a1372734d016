"""Public names of a package loaded on first use (module ``__getattr__``, PEP 562).

A package lists where each public name lives; importing the package then loads none of
those modules, so ``import triqua`` and ``triqua --help`` stay fast.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    package: str, exports: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose names live in ``exports``.

    Args:
        package: The package's module name (``__name__``).
        exports: Each public name and the module it is imported from on first access.
    """

    def getattr_(name: str) -> Any:
        """Import a public name from its module the first time it is used."""
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        vars(sys.modules[package])[name] = value  # later accesses skip this function
        return value

    def dir_() -> list[str]:
        return sorted({*vars(sys.modules[package]), *exports})

    return getattr_, dir_
