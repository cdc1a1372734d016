"""Where triqua keeps its data on this machine (the embedded Chroma store, for one)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["HOME_ENV", "default_chroma_path", "triqua_home"]

#: Environment variable that moves all of triqua's data.
HOME_ENV = "TRIQUA_HOME"


def triqua_home() -> Path:
    """Where triqua keeps its runs, cache and Chroma store.

    ``$TRIQUA_HOME``, else ``$XDG_DATA_HOME/triqua``, else ``~/.local/share/triqua``.
    """
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "triqua"


def default_chroma_path() -> Path:
    """Directory of the embedded Chroma store."""
    return triqua_home() / "chroma"
