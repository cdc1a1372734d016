"""Chroma's rules for a collection name, checked before any store is opened.

Chroma refuses a bad name only once a client is open (and a server reached), with a message
naming one rule. ``triqua ingest`` and the ingest graph check the name first, with the rule
it breaks and the whole rule set, so a typo costs no walk of the files and no connection.
The rules are Chroma 1.x's; this module needs no Chroma install.
"""

from __future__ import annotations

import ipaddress
import re

__all__ = ["COLLECTION_NAME_RULE", "check_collection_name"]

#: What Chroma accepts as a collection name, as the refusals say it.
COLLECTION_NAME_RULE = (
    "3 to 512 characters, only letters, digits, '.', '_' and '-', starting and ending with a "
    "letter or digit, no '..', and not an IP address"
)
_MIN, _MAX = 3, 512
#: Characters of a refused name quoted in the refusal.
_SHOWN = 60
_CHARACTERS = re.compile(r"[A-Za-z0-9._-]+")
_ENDS = re.compile(r"[A-Za-z0-9]")


def _fault(name: str) -> str | None:
    """The first of Chroma's rules that ``name`` breaks, or None."""
    if not _MIN <= len(name) <= _MAX:
        return f"it has {len(name)} characters"
    if not _CHARACTERS.fullmatch(name):
        bad = sorted({c for c in name if not _CHARACTERS.fullmatch(c)})
        return "it contains " + ", ".join(map(repr, bad))
    if not (_ENDS.fullmatch(name[0]) and _ENDS.fullmatch(name[-1])):
        return "it starts or ends with '.', '_' or '-'"
    if ".." in name:
        return "it contains '..'"
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return None
    return "it is an IP address"


def check_collection_name(name: object) -> str:
    """``name`` when Chroma accepts it as a collection name.

    Raises:
        ValueError: naming the rule ``name`` breaks and Chroma's rules
            (:data:`COLLECTION_NAME_RULE`).
    """
    if not isinstance(name, str):
        raise ValueError(f"collection name must be text, got {name!r} ({type(name).__name__})")
    fault = _fault(name)
    if fault is not None:
        shown = repr(name) if len(name) <= _SHOWN else repr(name[:_SHOWN]) + "…"
        raise ValueError(
            f"invalid collection name {shown}: {fault}; Chroma accepts {COLLECTION_NAME_RULE}"
        )
    return name
