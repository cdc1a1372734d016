"""HTML building blocks of the report page: escaping, verdict labels and colours, links, marks."""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape
from pathlib import Path
from urllib.parse import quote

from triqua.schema import Status

STATUS_LABEL = {
    Status.SUPPORTED: "supported",
    Status.CONTRADICTED: "contradicted",
    Status.INSUFFICIENT: "insufficient evidence",
    Status.NOT_CHECKABLE: "not checkable",
}
#: Chart colours per status (the page's CSS uses the same hues).
STATUS_COLOUR = {
    Status.SUPPORTED: "#43a047",
    Status.CONTRADICTED: "#e53935",
    Status.INSUFFICIENT: "#f9a825",
    Status.NOT_CHECKABLE: "#9e9e9e",
}
SNIPPET_CHARS = 420
_URL = re.compile(r"^https?://", re.IGNORECASE)
_FRAGMENT = re.compile(r"#\d+$")
_PATH_LIKE = re.compile(r"[\\/]|^~|\.[A-Za-z0-9]{1,8}$")


def esc(value: object) -> str:
    """HTML-escape any value (quotes included, so it is safe in attributes too)."""
    return escape(str(value), quote=True)


def pct(value: float | None) -> str:
    """A share as a percentage, or "undefined"."""
    return "undefined" if value is None else f"{value:.1%}"


def _href(source: str) -> str | None:
    """A safe link target for an evidence source: http(s) URLs and file paths only."""
    if _URL.match(source):
        return source
    if ":" in source.split("/", 1)[0] and not re.match(r"^[A-Za-z]:[\\/]", source):
        return None  # another scheme (javascript:, data:, …): shown, never linked
    fragment = _FRAGMENT.search(source)
    path = source[: fragment.start()] if fragment else source
    if not _PATH_LIKE.search(path):
        return None  # a name such as "document 1", not a place to go
    target = Path(path).expanduser()
    if target.is_absolute():
        return target.as_uri() + (fragment.group() if fragment else "")
    return quote(path) + (fragment.group() if fragment else "")


def source_link(source: str | None, fallback: str) -> str:
    """A source as a link where it is a safe target, else as plain text (``fallback`` if none)."""
    text = source or fallback
    href = _href(source) if source else None
    if href is None:
        return f'<span class="mono">{esc(text)}</span>'
    return f'<a href="{esc(href)}">{esc(text)}</a>'


def highlight(text: str, spans: Iterable[str]) -> str:
    """Escape ``text`` and wrap each case-insensitive occurrence of an error span in <mark>."""
    needles = sorted({s.strip() for s in spans if s and s.strip()}, key=len, reverse=True)
    if not needles:
        return esc(text)
    pattern = re.compile("|".join(re.escape(n) for n in needles), re.IGNORECASE)
    out, cursor = [], 0
    for match in pattern.finditer(text):
        out.append(esc(text[cursor : match.start()]))
        out.append(f'<mark class="err">{esc(match.group())}</mark>')
        cursor = match.end()
    out.append(esc(text[cursor:]))
    return "".join(out)
