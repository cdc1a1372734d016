"""A truth value read on first use: for readings that cost a parse and are often not needed.

``Deferred(read)`` is true or false as ``read()`` is, but ``read`` runs only when the value
is first tested (``if``, ``and``, ``not``, ``bool()``), and then once: later tests reuse the
answer. A reader that answers only some questions from a costly reading (a quote's pronouns
read from spaCy's parse, needed only when a name is not written in the quote itself) passes
it on deferred, so the reading runs only when a question needs it; the answers are the same.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Deferred"]


class Deferred:
    """A truth value computed by ``read`` when first tested, then kept (not thread-shared)."""

    __slots__ = ("_read", "_value")

    def __init__(self, read: Callable[[], bool]) -> None:
        """Keep ``read`` to run when the value is first tested."""
        self._read: Callable[[], bool] | None = read
        self._value = False

    def __bool__(self) -> bool:
        """``read()``'s answer, read on the first test only."""
        if self._read is not None:
            self._value = bool(self._read())
            self._read = None
        return self._value

    def __repr__(self) -> str:
        state = "unread" if self._read is not None else str(self._value)
        return f"Deferred({state})"
