"""Text as every reader sees it: invisible characters out, compatibility forms folded.

Evidence and the text to check are normalised once, where they come in, so the
sentencizer, the word readers, the entailment judge and quote matching all read the same
words. A zero-width space inside "not" ("n\u200bot") hid the negation from the word
readers while a reader of the rendered text saw it; a fullwidth or mathematical-bold letter
is another code point for the same letter. So:

- format characters (Unicode category Cf: zero-width spaces and joiners, the soft hyphen,
  direction marks and overrides, tag characters, the byte-order mark) are removed: they
  change no word a person reads;
- compatibility forms are folded by NFKC (ligatures, fullwidth and styled letters, no-break
  spaces), except superscripts, subscripts and vulgar fractions, whose folding changes a
  value ("10²" is not "102"); then canonical composition (NFC) joins a letter and its
  accent.

Evidence loses its struck-out text too (:func:`strike_out`): text struck through is text
its author deleted ("is in ~~Seattle~~ San Francisco" says San Francisco), so it is read as
absent. Offsets, quotes and hashes are all of the normalised text.
"""

from __future__ import annotations

import functools
import re
import unicodedata

__all__ = ["evidence_text", "normalise_text", "strike_out"]

#: Compatibility decompositions whose folding changes a value: kept as written.
_KEPT_FORMS = ("<super>", "<sub>", "<fraction>")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
#: Markdown strikethrough (``~~struck~~``, within a paragraph), with one space before it, so
#: the sentence closes over the gap.
_TILDES = re.compile(
    r"[^\S\n]?(?<!~)~~(?=[^\s~])(?:[^~\n]|~(?!~)|\n(?![^\S\n]*\n))+?(?<=[^\s~])~~(?!~)"
)
#: The opening of HTML's struck elements (``del``, ``s``, ``strike``) written inline, or of
#: an HTML comment (never shown by a Markdown or HTML reader), with one space before it.
_OPENING = re.compile(r"[^\S\n]?(?:<(del|s|strike)\b[^<>]*>|<!--)", re.IGNORECASE)
#: What closes each opening.
_CLOSING = {
    kind: re.compile(rf"</{kind}\s*>", re.IGNORECASE) for kind in ("del", "s", "strike")
} | {"--": re.compile("-->")}


@functools.cache  # characters repeat; unicodedata per character is the cost
def _folded(char: str) -> str:
    """One non-ASCII character as the readers see it: removed, folded, or as written."""
    if unicodedata.category(char) == "Cf":
        return ""
    if unicodedata.decomposition(char).startswith(_KEPT_FORMS):
        return char
    return unicodedata.normalize("NFKC", char)


def normalise_text(text: str) -> str:
    """``text`` without format characters, its compatibility forms folded (see the module).

    Idempotent, and the identity on ASCII text.
    """
    if text.isascii():
        return text
    folded = _NON_ASCII.sub(lambda m: _folded(m.group()), text)
    return unicodedata.normalize("NFC", folded)


def strike_out(text: str) -> str:
    """``text`` without its struck-out parts (``~~…~~``, ``<del>``, ``<s>``) and comments.

    Linear in the text: an opening never closed is kept, and once one kind finds no closing
    after it, no later opening of that kind looks again.
    """
    if "~~" in text:
        text = _TILDES.sub("", text)
    if "<" not in text:
        return text
    kept: list[str] = []
    done = searched = 0
    unclosed: set[str] = set()
    while opening := _OPENING.search(text, searched):
        kind = (opening.group(1) or "--").lower()
        closing = None if kind in unclosed else _CLOSING[kind].search(text, opening.end())
        if closing is None:
            unclosed.add(kind)
            searched = opening.end()
            continue
        kept.append(text[done : opening.start()])
        done = searched = closing.end()
    return "".join(kept) + text[done:] if kept else text


def evidence_text(text: str) -> str:
    """Evidence text as the readers see it: normalised, its struck-out text removed."""
    return strike_out(normalise_text(text))
