"""Reading citations: markers and the source list out of a text, and the keys a claim cites."""

from __future__ import annotations

import re

from triqua.schema import Fact
from triqua.schema.citations import CitationMarker, CitationSource, CitedText

#: A marker range such as ``[2-9]`` may name at most this many sources.
_MAX_RANGE = 50

# Keys have at most three digits, so a bracketed year such as "[2024]" is not a marker.
_MARKER = re.compile(r"[ \t]*\[\^?(\d{1,3}(?:\s*[-–,]\s*\d{1,3})*)\](?!\()")
_BRACKET_DEF = re.compile(r"^\s*(?:[-*]\s+)?\[\^?(\d+)\]:?\s+(\S.*?)\s*$")
_NUMBERED_DEF = re.compile(r"^\s*(?:[-*]\s+)?(\d+)[.)]\s+(\S.*?)\s*$")
_HEADING = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:\*\*|__)?\s*(?:references|sources|bibliography|citations|works cited)"
    r"\s*:?\s*(?:\*\*|__)?\s*:?\s*$",
    re.IGNORECASE,
)
_URL = re.compile(r"https?://[^\s<>\"'`]+", re.IGNORECASE)
_PATH_SUFFIX = re.compile(r"\.[A-Za-z0-9]{1,8}(?:#\d+)?$")
_SENTENCE_END = re.compile(r"[.!?][\"'”’)\]]*(?=\s|$)|\n")


def _source_of(key: str, rest: str, line: str) -> CitationSource:
    """Classify a source-list entry: a URL anywhere in it, else a path-like token, else text."""
    url = _URL.search(rest)
    if url:
        return CitationSource(key=key, target=url.group().rstrip(".,;:)]>"), kind="url", line=line)
    for token in reversed(rest.split()):
        token = token.strip("<>`'\"()[],;")
        if token and ("/" in token or _PATH_SUFFIX.search(token)) and not token.endswith("."):
            return CitationSource(key=key, target=token, kind="path", line=line)
    return CitationSource(key=key, target=rest, kind="text", line=line)


def _lines(text: str) -> list[tuple[int, str]]:
    """(offset, line without its line break) for every line of ``text``."""
    out, offset = [], 0
    for line in text.splitlines(keepends=True):
        out.append((offset, line.rstrip("\r\n")))
        offset += len(line)
    return out


def _source_list(text: str) -> tuple[int, dict[str, CitationSource]]:
    """Where the source list starts in ``text`` and its entries (``len(text)`` when none).

    The list is either everything after the last "References"/"Sources" heading, when every
    non-blank line there is an entry (``[n] …`` or ``n. …``), or the trailing run of
    ``[n] …`` lines.
    """
    lines = _lines(text)
    for i in range(len(lines) - 1, -1, -1):
        if not _HEADING.match(lines[i][1]):
            continue
        entries = [_BRACKET_DEF.match(s) or _NUMBERED_DEF.match(s) for _, s in lines[i + 1 :]]
        body = [(m, s) for m, (_, s) in zip(entries, lines[i + 1 :], strict=True) if s.strip()]
        if body and all(m is not None for m, _ in body):
            return lines[i][0], {
                m.group(1): _source_of(m.group(1), m.group(2), s) for m, s in body if m
            }
        break
    start, found = len(text), {}
    for offset, line in reversed(lines):
        if not line.strip():
            continue
        match = _BRACKET_DEF.match(line)
        if match is None:
            break
        start = offset
        found[match.group(1)] = _source_of(match.group(1), match.group(2), line)
    return start, dict(reversed(found.items()))


def _expand(keys: str) -> list[str]:
    """Marker content to keys: ``"1, 3-5"`` → ``["1", "3", "4", "5"]``."""
    out: list[str] = []
    for part in re.split(r"\s*,\s*", keys):
        low, _, high = re.sub(r"\s*[-–]\s*", "-", part).partition("-")
        if high and int(low) <= int(high) <= int(low) + _MAX_RANGE:
            out.extend(str(n) for n in range(int(low), int(high) + 1))
        else:
            out.extend(p for p in (low, high) if p)
    return list(dict.fromkeys(out))


def parse_citations(text: str) -> CitedText:
    """Split ``text`` into the text to check, its citation markers and its source list.

    Markers (``[1]``, ``[1, 2]``, ``[2-4]``, ``[^1]``) are removed with the spaces before
    them, so ``"… in 1903 [1]."`` is checked as ``"… in 1903."``; each marker keeps the offset
    where it stood. A ``[1](…)`` Markdown link is not a marker.
    """
    list_start, sources = _source_list(text)
    body = text[:list_start].rstrip()
    pieces: list[str] = []
    markers: list[CitationMarker] = []
    cursor = length = 0
    for match in _MARKER.finditer(body):
        kept = body[cursor : match.start()]
        pieces.append(kept)
        length += len(kept)
        markers.append(
            CitationMarker(
                keys=_expand(match.group(1)), position=length, start=match.start(), end=match.end()
            )
        )
        cursor = match.end()
    pieces.append(body[cursor:])
    return CitedText(original=text, text="".join(pieces), sources=sources, markers=markers)


def _claim_region(text: str, fact: Fact) -> tuple[int, int] | None:
    """The claim's span in ``text`` extended to the end of its sentence, or None if unknown."""
    if fact.span is not None and fact.span.end <= len(text):
        start, end = fact.span.start, fact.span.end
    else:
        at = text.find(fact.source_text.strip()) if fact.source_text.strip() else -1
        if at < 0:
            return None
        start, end = at, at + len(fact.source_text.strip())
    stop = _SENTENCE_END.search(text, max(start, end - 1))
    if stop is None:
        return start, len(text)
    return start, stop.start() if stop.group() == "\n" else stop.end()


def claim_keys(cited: CitedText, fact: Fact) -> list[str]:
    """Keys of the markers in the claim's sentence or right after it, in order of appearance.

    A marker counts for every claim of the sentence it closes, so a sentence holding two
    claims that cite different sources gives both claims both sources (they are then judged
    jointly, and each link on its own).
    """
    region = _claim_region(cited.text, fact)
    if region is None:
        return []
    start, end = region
    keys = [k for m in cited.markers if start <= m.position <= end for k in m.keys]
    return list(dict.fromkeys(keys))
