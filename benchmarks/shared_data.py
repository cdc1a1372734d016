"""Where the benchmarks find the shared data sets, and what they do when it is not there.

``TRIQUA_DATA`` names the folder; else ``../shared/data`` beside the checkout; else
``/work/shared/data``. A benchmark that needs a file which is not there says so in one line
and exits 0 (it is skipped, not failed), so ``make bench`` runs anywhere.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["data_dir", "data_file", "require"]

_ROOT = Path(__file__).resolve().parents[1]


def data_dir() -> Path:
    """The shared data folder (it may not exist)."""
    for candidate in (
        os.environ.get("TRIQUA_DATA"),
        _ROOT.parent / "shared" / "data",
        "/work/shared/data",
    ):
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    return _ROOT.parent / "shared" / "data"


def data_file(relative: str) -> Path:
    """A file of the shared data folder (it may not exist)."""
    return data_dir() / relative


def require(path: Path) -> Path:
    """``path``, or a one-line skip (exit 0) naming what is missing and how to point at it."""
    if not path.exists():
        print(f"skipped: {path} not found (set TRIQUA_DATA to the shared data folder)")
        sys.exit(0)
    return path
