"""Text as every reader sees it: invisible characters out, compatibility forms folded.

Evidence and the text to check are normalised once, where they come in, so the
sentencizer, the word readers, the entailment judge and quote matching all read the same
words. A zero-width space inside "not" ("n\u200bot") hid the negation from the word
readers while a reader of the rendered text saw it; a fullwidth or mathematical-bold letter
is another code point for the same letter. So:

- format characters (Unicode category Cf: zero-width spaces and joiners, the soft hyphen,
  direction marks and overrides, tag characters, the byte-order mark) and the other
  default-ignorable characters (the combining grapheme joiner, variation selectors, Hangul
  fillers) are removed: they change no word a person reads;
- in a word that mixes Latin letters with Cyrillic or Greek ones, the Cyrillic and Greek
  letters drawn like Latin ones are read as those Latin letters ("n\u043et", with a Cyrillic
  o, reads "not"), and an apostrophe look-alike between two letters (the modifier letter
  apostrophe, the prime, the acute accent) as an apostrophe ("isn\u02bct" reads "isn't"): a
  reader sees the Latin word; a word written wholly in Cyrillic or Greek is kept;
- compatibility forms are folded by NFKC (ligatures, fullwidth and styled letters, no-break
  spaces), except superscripts, subscripts and vulgar fractions, whose folding changes a
  value ("10²" is not "102"); then canonical composition (NFC) joins a letter and its
  accent.

Evidence loses its struck-out text too (:func:`strike_out`): text struck through is text
its author deleted ("is in ~~Seattle~~ San Francisco" says San Francisco), so it is read as
absent, and so are comments and hidden elements, which no reader of the page sees. Offsets,
quotes and hashes are all of the normalised text.
"""

from __future__ import annotations

import functools
import re
import unicodedata

__all__ = ["evidence_text", "normalise_text", "strike_out"]

#: Compatibility decompositions whose folding changes a value: kept as written.
_KEPT_FORMS = ("<super>", "<sub>", "<fraction>")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
#: Default-ignorable characters outside category Cf: drawn as nothing, so removed too.
_IGNORABLE = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u3164\uffa0"
    + "".join(map(chr, range(0xFE00, 0xFE10)))
    + "".join(map(chr, range(0xE0100, 0xE01F0)))
)
#: Cyrillic and Greek letters drawn like a Latin letter, read as it inside a Latin word.
_LOOKALIKES = str.maketrans(
    "\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0456\u0458\u0455\u0501\u04bb\u0410\u0412"
    "\u0415\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0425\u0406\u0408\u0405"
    "\u03bf\u03b1\u03b9\u03ba\u03bd\u0391\u0392\u0395\u0396\u0397\u0399\u039a"
    "\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7",
    "aeopcyxijsdhABEKMHOPCTXIJSoaikvABEZHIKMNOPTYX",
)
#: A word: letters, and apostrophes between them.
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019\u02bc\u2032\u00b4][^\W\d_]+)*")
#: A Cyrillic or Greek character.
_OTHER_SCRIPT = re.compile(r"[\u0370-\u03ff\u0400-\u052f]")
#: Apostrophe look-alikes, read as an apostrophe between two letters.
_APOSTROPHES = re.compile(r"(?<=[^\W\d_])[\u02bc\u2032\u00b4](?=[^\W\d_])")
#: Markdown strikethrough (``~~struck~~``, within a paragraph), with one space before it, so
#: the sentence closes over the gap.
_TILDES = re.compile(
    r"[^\S\n]?(?<!~)~~(?=[^\s~])(?:[^~\n]|~(?!~)|\n(?![^\S\n]*\n))+?(?<=[^\s~])~~(?!~)"
)
#: HTML elements that hold text: one that hides itself hides what it holds (a closed set, so
#: the closing tags looked for are few and the reading stays linear).
_CONTAINERS = frozenset(
    {
        "a", "abbr", "address", "article", "aside", "b", "big", "blockquote", "center",
        "cite", "code", "dd", "details", "div", "dl", "dt", "em", "figcaption", "figure",
        "font", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "i", "ins", "kbd",
        "label", "li", "main", "mark", "nav", "ol", "p", "pre", "q", "samp", "section",
        "small", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot",
        "th", "thead", "time", "tr", "tt", "u", "ul", "var",
    }
)  # fmt: skip
#: Letters drawn with a stroke through them (a combining overlay after each: "R\u0336o\u0336"),
#: with one space before them: struck out, as "~~…~~" is.
_OVERLAID = re.compile(r"[^\S\n]?(?:[^\n\u0334-\u0338][\u0334-\u0338]+)+")
_OVERLAY = re.compile(r"[\u0334-\u0338]")
#: The opening of HTML's struck elements (``del``, ``s``, ``strike``) written inline, of
#: an HTML comment (never shown by a Markdown or HTML reader), or of an element that hides
#: itself (``hidden``, an inline ``display: none`` or ``visibility: hidden``), with one
#: space before it.
_OPENING = re.compile(
    r"[^\S\n]?(?:<(del|s|strike)\b[^<>]*>|<!--"
    r"|<(?P<hidden>(?:"
    + "|".join(sorted(_CONTAINERS, key=len, reverse=True))
    + r"))\b(?=[^<>]*?(?:\shidden\b|\sstyle\s*=\s*[\"'][^\"'<>]*?"
    r"(?:display\s*:\s*none|visibility\s*:\s*hidden)))[^<>]*>)",
    re.IGNORECASE,
)
#: A Markdown link definition with a title, alone on its line: no reader sees it, and
#: ``[//]: # (…)`` is how Markdown writes a comment.
_LINK_DEFINITION = re.compile(
    r"^ {0,3}\[[^\]\n]*\]:[ \t]*\S+[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^)\n]*\))[ \t]*$",
    re.MULTILINE,
)
#: What closes each opening.
_CLOSING = {
    kind: re.compile(rf"</{kind}\s*>", re.IGNORECASE) for kind in ("del", "s", "strike")
} | {"--": re.compile("-->")}


@functools.cache  # characters repeat; unicodedata per character is the cost
def _folded(char: str) -> str:
    """One non-ASCII character as the readers see it: removed, folded, or as written."""
    if char in _IGNORABLE or unicodedata.category(char) == "Cf":
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
    folded = _APOSTROPHES.sub("'", folded)
    if _OTHER_SCRIPT.search(folded):
        folded = _WORD.sub(_latin_word, folded)
    return unicodedata.normalize("NFC", folded)


def _latin_word(match: re.Match[str]) -> str:
    """A word as read: its look-alike letters Latin when it mixes them with Latin letters."""
    word = match.group()
    if not any("a" <= c.lower() <= "z" for c in word) or not _OTHER_SCRIPT.search(word):
        return word
    latin = word.translate(_LOOKALIKES)
    return word if _OTHER_SCRIPT.search(latin) else latin


def strike_out(text: str) -> str:
    """``text`` without its struck-out parts (``~~…~~``, ``<del>``, ``<s>``) and comments.

    Comments are HTML's (``<!-- … -->``) and Markdown's (a titled link definition alone on
    its line, ``[//]: # (…)``); letters overlaid with a stroke ("R\u0336o\u0336m\u0336e\u0336")
    are struck out, and an inline HTML element that hides itself is never seen.

    Linear in the text: an opening never closed is kept, and once one kind finds no closing
    after it, no later opening of that kind looks again.
    """
    if "~~" in text:
        text = _TILDES.sub("", text)
    if _OVERLAY.search(text):
        text = _OVERLAID.sub("", text)
    if "]:" in text:
        text = _LINK_DEFINITION.sub("", text)
    if "<" not in text:
        return text
    kept: list[str] = []
    done = searched = 0
    unclosed: set[str] = set()
    while opening := _OPENING.search(text, searched):
        kind = (opening.group(1) or opening.group("hidden") or "--").lower()
        if kind in unclosed:
            end = None
        elif opening.group("hidden"):
            end = _element_end(text, kind, opening.end())
        else:
            closing = _CLOSING[kind].search(text, opening.end())
            end = closing.end() if closing else None
        if end is None:
            unclosed.add(kind)
            searched = opening.end()
            continue
        kept.append(text[done : opening.start()])
        done = searched = end
    return "".join(kept) + text[done:] if kept else text


@functools.cache
def _tags(tag: str) -> re.Pattern[str]:
    """An opening or closing ``tag``: the closing one has group 1."""
    return re.compile(rf"<(/)?{re.escape(tag)}\b[^<>]*>", re.IGNORECASE)


def _element_end(text: str, tag: str, start: int) -> int | None:
    """Where the ``tag`` element opened just before ``start`` closes (same tags nested)."""
    depth = 1
    for match in _tags(tag).finditer(text, start):
        depth += -1 if match.group(1) else 1
        if not depth:
            return match.end()
    return None


def evidence_text(text: str) -> str:
    """Evidence text as the readers see it: normalised, its struck-out text removed."""
    return strike_out(normalise_text(text))
