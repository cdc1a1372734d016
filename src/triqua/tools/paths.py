"""Where triqua keeps its data on this machine (the embedded Chroma store, for one)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["HOME_ENV", "default_chroma_path", "default_data_dir"]

#: Environment variable that moves all of triqua's data.
HOME_ENV = "TRIQUA_HOME"


def default_data_dir() -> Path:
    """``$TRIQUA_HOME``, else ``$XDG_DATA_HOME/triqua``, else ``~/.local/share/triqua``."""
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "triqua"


def default_chroma_path() -> Path:
    """Directory of the embedded Chroma store."""
    return default_data_dir() / "chroma"
