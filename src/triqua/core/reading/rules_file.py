"""A reader's rules file: one JSON object of word lists, tables and worked examples.

The lexicon (``data/lexicon.json``), the value rules (``values/data/values.json``) and the
restrictor words (``data/restrictors.json``) are read alike, and a damaged file is the same
one-line error whichever reader meets it first.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["read_rules_file"]


def read_rules_file(path: Path, name: str) -> dict[str, Any]:
    """The JSON object of the rules file at ``path``, as written.

    Args:
        path: the file.
        name: what the file holds ("lexicon", "value rules"), for the error.

    Raises:
        RuntimeError: when the file is missing, is not JSON, or is not an object.
    """
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RuntimeError(f"the {name} file {path} is unreadable: {exc}") from exc
    if not isinstance(raw, dict):
        raise RuntimeError(f"the {name} file {path} is unreadable: not a JSON object")
    return raw
