"""Acronyms and the names they spell: "U.S." and "the United States".

A unit writes a name as its initials ("a U.S. state") where its evidence writes it whole
("a state … of the United States"), or the other way round. The initials are read from a
run of capitalised words, which may hold the small words a name keeps inside it ("of",
"the", "and", "for"); an acronym of one letter per word must equal the initials of the run,
or of a stretch of it. Two letters spell many names, so a name of two initials is two
words with nothing between them ("United States", never "University of Sydney").

Initials are ambiguous ("CTA" is the Chicago Transit Authority and Construction Time Again),
so for the grounding rule an acronym stands for a name only where the passage read so far
spells it as no other name.

An acronym may also only qualify the name written after it: "the 1986 FIFA World Cup" is
"the 1986 World Cup", the organisation's letters left out (:func:`qualifies`). The name after
it must be written as a name, with nothing capitalised in the acronym's place ("the Rugby
World Cup", "the Women's World Cup" are other cups).
"""

from __future__ import annotations

import re

from triqua.core.reading.quotes import normalise
from triqua.core.reading.role_acronyms import role_letters, role_spellings, same_role

__all__ = [
    "abbreviated",
    "acronym_of",
    "own_acronym",
    "qualifies",
    "qualifies_name",
    "spelled_initials",
    "spelled_out",
    "stands_for",
]

#: Small words inside a name that give no initial ("United States of America": USA).
_INNER = r"(?:of|the|and|for|de|du|des|la|le)"
_CAPITALISED = r"[A-Z][\w'’-]*"
#: A run of capitalised words, small inner words allowed between them.
_INNER_WORD = re.compile(_INNER, re.IGNORECASE)
_RUN = re.compile(rf"{_CAPITALISED}(?:\s+(?:{_INNER}\s+)*{_CAPITALISED})*")
#: An acronym as written: capitals with dots ("U.S.", "U.K.") or two to six capitals.
_WRITTEN = re.compile(r"\b(?:[A-Z]\.){2,6}|\b[A-Z]{2,6}\b")


def acronym_of(name: str, said: str) -> str:
    """The letters of ``name`` (normalised) when ``said`` writes it as an acronym, else ""."""
    for match in _WRITTEN.finditer(said):
        letters = match.group().replace(".", "").lower()
        if normalise(match.group()) == name or letters == name.replace(" ", ""):
            return letters
    return ""


def own_acronym(acronym: str, name: str) -> bool:
    """True when ``acronym`` is written as an acronym and spells ``name``'s initials.

    "BPE" of "Byte Pair Encoding (BPE)" is the name again, no other one beside it.
    """
    if not _WRITTEN.fullmatch(acronym.strip()):
        return False
    initials = _initials(name.split())
    return initials is not None and acronym.replace(".", "").strip().lower() == initials


def _initials(words: list[str]) -> str | None:
    """The initials of a name's words, small inner words skipped; None when ambiguous.

    Two letters spell many names ("U.S.": the United States, the University of Sydney), so
    a name of two initials must be two words with nothing between them ("United States");
    a longer acronym may skip the small words a name keeps inside it ("USA").
    """
    kept = [w for w in words if not re.fullmatch(_INNER, w, re.IGNORECASE)]
    if len(kept) < 2 or (len(kept) == 2 and len(words) != 2):
        return None
    return "".join(w[0] for w in kept).lower()


def spelled_initials(text: str) -> frozenset[str]:
    """The initials of every name ``text`` writes out, lower-case: "United States" -> "us".

    A name is a run of capitalised words, or a stretch of one ("the United States Supreme
    Court" writes "U.S.", "SC" and "USSC"); the offline verifier and the grounding rule read
    a passage's acronyms here alike. A role written out in lower case gives its acronym
    only in a listed spelling ("chief executive officer": CEO;
    :mod:`triqua.core.reading.role_acronyms`).
    """
    out: set[str] = set(role_letters(text))
    for words in _name_stretches(text):
        if len(words) < 2:
            continue
        # Each stretch's initials as ``_initials`` reads them, built word by word.
        letters = ["" if _INNER_WORD.fullmatch(w) else w[0].lower() for w in words]
        for start in range(len(words)):
            initials = ""
            for end in range(start, len(words)):
                initials += letters[end]
                if len(initials) > 2 or (len(initials) == 2 and end == start + 1):
                    out.add(initials)
    return frozenset(out)


def _name_stretches(text: str) -> list[list[str]]:
    """The runs of capitalised words ``text`` writes, each cut at a word written as an acronym.

    An acronym gives its own letters, never an initial to the words beside it: "the UK
    Supreme Court" spells no "U.S." ("UK Supreme"), only "SC".
    """
    stretches: list[list[str]] = []
    for match in _RUN.finditer(text):
        current: list[str] = []
        for word in match.group().split():
            if _WRITTEN.fullmatch(word.rstrip("'’s")):
                stretches.append(current)
                current = []
            else:
                current.append(word)
        stretches.append(current)
    return [words for words in stretches if words]


def spelled_out(letters: str, text: str) -> bool:
    """True when ``text`` writes a name whose initials are ``letters``."""
    return len(letters) >= 2 and letters in spelled_initials(text)


def _spellings(letters: str, text: str) -> set[str]:
    """The names (their initialled words, normalised) ``text`` writes with ``letters``.

    A role counts once however it is written ("Chief Executive Officer", "chief
    executive"): two spellings of one acronym are two names only when they are two roles.
    """
    found: set[str] = set()
    if len(letters) < 2:
        return found
    found |= role_spellings(letters, text)
    for stretch in _name_stretches(text):
        words = [w for w in stretch if not re.fullmatch(_INNER, w)]
        if len(words) < len(letters):
            continue
        initials = "".join(w[0] for w in words).lower()
        start = initials.find(letters)
        while start >= 0:
            found.add(same_role(normalise(" ".join(words[start : start + len(letters)]))))
            start = initials.find(letters, start + 1)
    return found


def _written(letters: str, text: str) -> bool:
    """True when ``text`` writes ``letters`` as an acronym ("U.S.", "CTA")."""
    return any(m.group().replace(".", "").lower() == letters for m in _WRITTEN.finditer(text))


def abbreviated(name: str, text: str) -> bool:
    """True when ``text`` writes the acronym of ``name`` (normalised): "U.S." of "united states"."""
    initials = _initials(name.split())
    return initials is not None and _written(initials, text)


def stands_for(name: str, said: str, quote: str, before: str = "") -> bool:
    """True when ``quote`` writes ``name`` as the acronym or the name it spells, unambiguously.

    ``said`` is the unit's text that writes ``name``, ``before`` the passage before the
    quote. When the unit writes the acronym the quote must spell it out, and when the unit
    writes the name the quote must write its acronym; either way the passage up to the
    quote's end must spell those letters as no other name ("The Chicago Transit Authority
    … CTA" is no album's "CTA").
    """
    letters = acronym_of(name, said)
    read = f"{before} {quote}"
    if letters:
        return spelled_out(letters, quote) and len(_spellings(letters, read)) == 1
    initials = _initials(name.split()) or ""
    if not initials or not _written(initials, quote):
        return False
    own = same_role(normalise(" ".join(w for w in name.split() if not re.fullmatch(_INNER, w))))
    return not _spellings(initials, read) - {own}


#: Words a name the acronym qualifies may not open with: they start a phrase of their own.
_PHRASE_BREAK = frozenset(
    ("in", "on", "at", "to", "by", "with", "from", "as", "and", "or", "is", "was", "for")
)
#: Capitalised words that may open a sentence before the name ("The World Cup of 1986").
_DETERMINERS = frozenset(("the", "a", "an", "this", "that", "its", "their", "his", "her"))
_QUALIFIED_WORDS = 2  # words of the name after the acronym, at least
#: Letters of an acronym that may be left out: two are a country's ("the US Air Force" is
#: not any air force), an organisation's run longer ("FIFA", "NASA", "UEFA").
_QUALIFYING_LETTERS = 3
_WORD = re.compile(r"[^\W\d_][\w'’-]*")


def _qualified(letters: str, said: str) -> list[str]:
    """The words ``said`` writes right after the acronym ``letters``, up to a phrase break."""
    for match in _WRITTEN.finditer(said):
        if match.group().replace(".", "").lower() != letters:
            continue
        words: list[str] = []
        rest = said[match.end() :]
        for word in rest.split():
            bare = word.strip(',.;:!?()"“”')
            if not _WORD.fullmatch(bare) or bare.casefold() in _PHRASE_BREAK:
                break
            words.append(bare)
            if bare != word:
                break  # punctuation ends the name
        return words
    return []


def qualifies(name: str, said: str, quote: str, before: str = "") -> bool:
    """True when the acronym ``name`` only qualifies a name ``quote`` writes without it.

    ``said`` (the unit's text) writes the acronym, of three letters or more (two are a
    country's: "the US Air Force" is no other air force), right before two or more words
    ("FIFA world cup"); ``quote`` writes those words as a name, capitalised ("the 1986 World
    Cup"), and nothing capitalised, no other acronym, stands right before them in the
    acronym's place ("the Rugby World Cup" is another cup). The passage up to the quote's
    end (``before`` and ``quote``) must spell those letters as no name at all: a passage
    that spells them is about that name, and the quote leaves it out.
    """
    letters = name.replace(" ", "")
    words = _qualified(letters, said) if len(letters) >= _QUALIFYING_LETTERS else []
    if len(words) < _QUALIFIED_WORDS or _spellings(letters, f"{before} {quote}"):
        return False
    return _written_bare(words, quote)


def qualifies_name(name: str, said: str, quote: str) -> bool:
    """True when the acronym ``name`` only qualifies the capitalised name ``quote`` writes bare.

    The value gate's reading, where the judge reads the rest: ``said`` writes the acronym,
    of any length, right before two or more capitalised words ("a U.S. Supreme Court
    justice"), and ``quote`` writes those words as a name (possessive allowed: "the Supreme
    Court's first female justice") with nothing capitalised, no other acronym, in the
    acronym's place: "the Texas Supreme Court", "the UK Supreme Court" and "the Royal Air
    Force" are other ones.
    """
    words: list[str] = []
    for word in _qualified(name.replace(" ", ""), said):
        if not word[:1].isupper():
            break
        words.append(word)
    return len(words) >= _QUALIFIED_WORDS and _written_bare(words, quote, possessive=True)


def _written_bare(words: list[str], quote: str, possessive: bool = False) -> bool:
    """Whether ``quote`` writes ``words`` capitalised with no other name's word before them."""
    phrase = r"\s+".join(re.escape(w) for w in words)
    end = r"(?:['’]s)?(?![\w'’-])" if possessive else r"(?![\w'’-])"
    for match in re.finditer(rf"(?<![\w'’-]){phrase}{end}", quote, re.IGNORECASE):
        written = match.group().split()
        if not all(w[:1].isupper() for w in written):
            continue  # "the air force" names no one force
        ahead = quote[: match.start()].split()
        previous = ahead[-1] if ahead else ""
        if _WRITTEN.search(previous):
            continue  # "the ICC World Cup", "the U.S. Air Force": another one's letters
        if (
            previous[:1].isupper()
            and previous.casefold() not in _DETERMINERS
            and previous[-1:] not in ".:;!?"
        ):
            continue  # "the Rugby World Cup", "Women's World Cup": another one's name
        return True
    return False
