"""The lexicon file (``data/lexicon.json``): relation synonyms, word forms, negation cues.

Read once for the word reader's lists (``lexicon``), which the offline engine and the
grounding rule's word check (``words``, ``core.grounding.statement``) share.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = ["LEXICON_PATH", "read_lexicon"]

LEXICON_PATH = Path(__file__).parent / "data" / "lexicon.json"


@lru_cache(maxsize=4)
def read_lexicon(path: Path = LEXICON_PATH) -> dict[str, Any]:
    """The lexicon's lists as written, read once per path.

    Raises:
        RuntimeError: when the file is missing, is not JSON, or is not an object.
    """
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RuntimeError(f"lexicon {path} is unreadable: {exc}") from exc
    if not isinstance(raw, dict):
        raise RuntimeError(f"lexicon {path} is unreadable: not a JSON object")
    return raw
