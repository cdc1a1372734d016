"""The lexicon file (``data/lexicon.json``): relation synonyms, word forms, negation cues.

Read once for the word reader's lists (``lexicon``), which the offline engine and the
grounding rule's word check (``words``, ``core.grounding.statement``) share.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from triqua.core.reading.rules_file import read_rules_file

__all__ = ["LEXICON_PATH", "read_lexicon"]

LEXICON_PATH = Path(__file__).parent / "data" / "lexicon.json"


@lru_cache(maxsize=4)
def read_lexicon(path: Path = LEXICON_PATH) -> dict[str, Any]:
    """The lexicon's lists as written, read once per path.

    Raises:
        RuntimeError: when the file is missing, is not JSON, or is not an object.
    """
    return read_rules_file(path, "lexicon")
