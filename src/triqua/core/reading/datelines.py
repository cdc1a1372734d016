"""News datelines: the place a report was filed from, opening its first line.

"FRANKFURT — The European Central Bank on Thursday raised its key rates …" states what
the bank did; "FRANKFURT" is no part of the statement, yet a parse takes it for the
sentence's subject, and a reader of clauses would give the bank's act to Frankfurt. A
dateline is a place in capitals (a region, a date or an agency may follow), a dash, then a
sentence opening with a capital letter; an acronym before a lower-case aside ("NASA — the
agency — said …") is no dateline.
"""

from __future__ import annotations

import re

__all__ = ["dateline_end"]

_DATELINE = re.compile(
    r"[A-Z]{2}[A-Z.'’ -]*(?:, [A-Z][\w.]*(?: [A-Z0-9][\w.]*)?){0,2}"  # PARIS, France, May 3
    r"(?: \([^()]{1,40}\))? ?[—–-]{1,2} (?=[A-Z])"  # (Reuters) — The
)


def dateline_end(text: str) -> int:
    """Where the statement after a dateline opening ``text`` starts (0 when it has none)."""
    found = _DATELINE.match(text)
    return found.end() if found is not None else 0
