"""Names as a text writes them: runs of capitalised words, and whether a text writes a name.

A name is read word group by word group ("University of Paris" is "university" and
"paris"); it may be shortened ("Obama"), derived ("Kenyan" for "Kenya") or titled ("Justice
William O. Douglas"), but a word that makes it another place ("South Sudan" for "Sudan") or
a regnal number ("Elizabeth II") must be written too. Whether a written name is another
person's ("Marie Curie" for "Pierre Curie") is ``name_rivals``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from triqua.core.reading.quotes import normalise
from triqua.core.reading.values.table import RULES
from triqua.nlp.parses import parse_many
from triqua.sentences import sentence_spans

__all__ = [
    "GENERATIONAL",
    "KIN",
    "PLACE_MODIFIERS",
    "POST_NOMINALS",
    "TITLES",
    "Run",
    "capitalised",
    "common_opening_lowered",
    "demonym_written",
    "name_in",
    "name_of",
    "name_runs",
    "names",
    "numeral",
    "surname",
]

#: Capitalised words that name nothing on their own.
STOP_NAMES = frozenset(
    {
        *("a", "an", "the", "of", "in", "on", "at", "to", "for", "and", "or", "by", "with"),
        *("from", "as", "is", "was", "are", "were", "this", "that", "these", "those"),
        *("it", "its", "he", "she", "they", "his", "her", "their", "i"),
    }
)


_POSSESSIVE = re.compile(r"['’]s?$", re.IGNORECASE)
#: A word closing with "'s" (its punctuation aside): "Oliphant's", "Curie’s,".
_POSSESSIVE_WORD = re.compile(r"\w['’]s[.,:;)]*$", re.IGNORECASE)
#: Punctuation that ends a name run ("Leadership: Maradona", "Queens, New York").
_RUN_BREAK = (",", ":", ";", ")")


@dataclass(frozen=True)
class Run:
    """A run of capitalised words, normalised.

    ``possessor`` when it ends "'s" ("Pierre's"), with the word it possesses ("wife").
    """

    name: str
    possessor: bool
    possessed: str = ""


#: Nouns by which "X's <noun>" names another person than X ("Pierre Curie's wife").
KIN = frozenset(
    (
        "wife", "husband", "spouse", "widow", "widower", "partner", "son", "daughter",
        "child", "children", "father", "mother", "parent", "parents", "brother", "sister",
        "sibling", "siblings", "uncle", "aunt", "nephew", "niece", "cousin", "grandson",
        "granddaughter", "grandfather", "grandmother", "stepson", "stepdaughter",
        "stepfather", "stepmother", "fiance", "fiancee", "girlfriend", "boyfriend", "lover",
        "friend", "colleague", "assistant", "student", "pupil", "teacher", "mentor",
        "successor", "predecessor", "rival", "opponent", "heir", "deputy", "secretary",
        "coach", "manager", "lawyer", "biographer",
    )
)  # fmt: skip


def _name_part(token: str) -> str:
    """A token without the suffix that makes an adjective of a name ("Java-based": "Java").

    The suffixes are the rules file's ``name_suffixes``; the punctuation after the token
    is kept, as it may end a run.
    """
    head, dash, tail = token.rpartition("-")
    word = tail.rstrip(".,:;)!?")
    if dash and head and word.islower() and word in RULES.name_suffixes:
        return head + tail[len(word) :]
    return token


def name_runs(text: str) -> list[Run]:
    """Capitalised names in ``text`` as written, one per run (repeats kept)."""
    return list(_name_runs(text))


_PARAGRAPH_BREAK = re.compile(r"\n[^\S\n]*\n")


@functools.lru_cache(maxsize=8192)
def _name_runs(text: str) -> tuple[Run, ...]:
    """``name_runs``, cached by text: the grounding rules read one quote for many facts."""
    runs: list[Run] = []
    run: list[str] = []
    # A blank line ends a run: a heading and the paragraph under it are never one name; so
    # does a sentence's end ("… in Wilmington, Delaware. Shue is …" names no "Delaware Shue"),
    # and an opening bracket ("Chris Kyle (April 8, 1974 – …)" names no "Chris Kyle April").
    tokens = [
        t
        for paragraph in _PARAGRAPH_BREAK.split(text)
        for a, b in sentence_spans(paragraph) or [(0, len(paragraph))]
        for word in (*paragraph[a:b].split(), "")
        for t in (("", word) if word.startswith(("(", "[")) else (word,))
    ]
    for at, token in enumerate(tokens):
        token = _name_part(token)
        letters = [c for c in token if c.isalpha()]
        if run and token in RULES.name_particles and at + 1 < len(tokens):
            # "Osama bin Laden", "Leonardo da Vinci": a particle between capitalised words
            # is a word of the name, not a break.
            following = next((c for c in tokens[at + 1] if c.isalpha()), "")
            if following.isupper():
                run.append(token)
                continue
        if letters and letters[0].isupper():
            run.append(token)
            # A possessive closes its name: "Travis Oliphant's Ph.D." is his, not one name.
            if not (token.endswith(_RUN_BREAK) or _POSSESSIVE_WORD.search(token)):
                continue
            if not token.endswith(_RUN_BREAK) and at + 1 < len(tokens):
                token = tokens[at + 1]
                letters = [c for c in token if c.isalpha()]
        while run and normalise(run[0]) in STOP_NAMES:
            run.pop(0)
        while run and normalise(run[-1]) in STOP_NAMES:
            run.pop()
        words = [_POSSESSIVE.sub("", word.rstrip(".,:;)")) for word in run]
        name = normalise(" ".join(words))
        if name:
            possessor = bool(_POSSESSIVE.search(run[-1].rstrip(".,:;)")))
            after = normalise(token) if letters else ""
            possessed = after.split()[0] if possessor and after else ""
            runs.append(Run(name, possessor, possessed))
        run = []
    return tuple(runs)


#: A regnal or serial number closing a name: "Elizabeth II", "Henry VIII", "World War II".
#: A closing "I" is read as the pronoun and dropped from the run, so "Elizabeth I" compares
#: as "Elizabeth" (no numeral), which still differs from "Elizabeth II".
_NUMERAL = re.compile(r"^(?=[ivxl]+$)x{0,3}(?:ix|iv|v?i{0,3})$")


def numeral(words: Sequence[str]) -> str:
    """The numeral closing a normalised name ("ii" of "elizabeth ii"), or ""."""
    return words[-1] if len(words) >= 2 and _NUMERAL.match(words[-1]) else ""


#: Generational suffixes that close a name after the surname ("Martin Luther King Jr.").
GENERATIONAL = frozenset(("jr", "sr", "jnr", "snr"))
#: Post-nominal letters that follow a name as no word of it ("Bruce Shand MC", "… OBE").
POST_NOMINALS = frozenset(
    ("mc", "vc", "dso", "obe", "mbe", "cbe", "kbe", "dbe", "gbe", "frs", "qc", "kc", "phd")
)


def surname(words: Sequence[str]) -> str:
    """The last word of a name before its numeral or generational suffix.

    "elizabeth" of "elizabeth ii", "king" of "martin luther king jr".
    """
    closes = numeral(words) or (len(words) > 1 and words[-1] in GENERATIONAL)
    return words[-2] if closes else words[-1]


def names(text: str) -> list[str]:
    """Capitalised names in ``text``: maximal runs of capitalised words, normalised.

    Lower-case words split runs ("University of Paris" is "university" and "paris"), so a
    name is checked word group by word group; stop words at either end are dropped.
    """
    return list(dict.fromkeys(run.name for run in name_runs(text)))


#: Words that make another place of a name they stand before: "South Sudan" is not
#: "Sudan", "West Virginia" not "Virginia", "New York" not "York".
PLACE_MODIFIERS = frozenset(
    (
        "north", "south", "east", "west", "northern", "southern", "eastern", "western",
        "northeast", "northwest", "southeast", "southwest", "central", "upper", "lower",
        "new", "old", "greater", "great", "little", "inner", "outer", "equatorial",
    )
)  # fmt: skip


#: Words that may stand before a name without making it another person's.
TITLES = frozenset(
    (
        "mr", "mrs", "ms", "miss", "dr", "doctor", "prof", "professor", "sir", "dame",
        "lord", "lady", "king", "queen", "prince", "princess", "saint", "st", "pope",
        "president", "justice", "judge", "senator", "governor", "general", "captain",
        "chief", "rev", "reverend", "emperor", "empress", "duke", "duchess", "count",
        "countess", "baron", "baroness", "earl", "viscount", "viscountess", "marquess",
        "sheikh",
    )
)  # fmt: skip


def name_in(name: str, padded: str, raw: str, common: bool = False) -> bool:
    """True when a text writes the name, or enough of it, capitalised.

    Names are often shortened ("Obama" for "Barack Obama", "William O. Douglas" for "Justice
    William O. Douglas", "U.S. Supreme Court") or derived ("Kenyan"): the name's last word and
    at least half of its words (initials aside; a word of four letters or more may open a
    derived one) must appear, and every word that makes it another place ("South" of "South
    Sudan"). A name found by one word must have it capitalised in ``raw`` (the text as
    written): "apple" or "bush" is a common word, not "Apple" or "Bush" (several words,
    "byte pair encoding" for "Byte Pair Encoding", are the name). A one-word ``common`` subject
    "name" that only opens its sentence ("Recruiters screen candidates") is a common noun
    when ``raw`` writes it in lower case, singular or plural ("a recruiter").
    """
    # A count in title case ("Seven Years") is a number and its noun, not a name.
    counted = any(w in RULES.word_numbers for w in name.split())
    capitals = frozenset(padded.split()) if counted else capitalised(raw)
    if f" {name} " in padded and (" " in name or name in capitals):
        return True
    if demonym_written(name, raw):
        return True
    # A title is no word of the person's name: "Reagan" writes "President Ronald Reagan".
    # Nor is a particle a word to find: "bin Laden" writes "Osama bin Laden".
    words = [
        w for w in name.split() if len(w) > 1 and w not in TITLES and w not in RULES.name_particles
    ] or name.split()
    if len(words) == 1 and common and common_noun(words[0], raw):
        return True
    present = [w for w in words if f" {w} " in padded or derived(w, padded)]
    return (
        words[-1] in present
        and (len(present) > 1 or derived(words[-1], f" {' '.join(capitals)} ", exact=True))
        and 2 * len(present) >= len(words)
        and all(w in present for w in words if w in PLACE_MODIFIERS)
    )


#: Each demonym with the places it names ("irish": "ireland").
_PLACES: dict[str, tuple[str, ...]] = {}
for _place, _demonyms in RULES.demonyms.items():
    for _demonym in _demonyms:
        _PLACES[_demonym] = (*_PLACES.get(_demonym, ()), _place)


def demonym_written(name: str, raw: str) -> bool:
    """True when ``raw`` writes, capitalised, a demonym of the place ``name`` (normalised).

    "Chinese" names China, "American" the United States (the rules file's ``demonyms``),
    and the place names its demonym ("in Ireland" writes "Irish cities"). A demonym names
    the place as an adjective before a noun ("a Chinese university"): one before a colon or
    a function word names a language ("Italian: Colosseo", "known in Chinese as"); a place
    modifier before it makes it another place's ("South Korean" is no "Korean").
    """
    words = name.split()
    key = " ".join(words[1:] if words[:1] == ["the"] else words)
    demonyms = RULES.demonyms.get(key, ())
    for demonym in (*demonyms, *_PLACES.get(key, ())):
        written = r"\s+".join(w.capitalize() for w in demonym.split())
        for found in re.finditer(rf"(?<![\w-]){written}(?![\w-])", raw):
            before = raw[: found.start()].split()[-1:]
            if before and normalise(before[0]).strip() in PLACE_MODIFIERS:
                continue
            after = raw[found.end() :].split()[:1]
            if demonym in demonyms and (
                not after or not after[0][0].isalpha() or after[0].lower() in STOP_NAMES
            ):
                continue  # a language ("Italian: Colosseo", "known in Chinese as"), no place
            return True
    return False


@functools.lru_cache(maxsize=8192)
def capitalised(raw: str) -> frozenset[str]:
    """The normalised words ``raw`` writes with a capital ("O'Connor" gives "o", "connor").

    Cached by text: one evidence window is read for each fact checked against it.
    """
    return frozenset(
        word
        for token in raw.split()
        if any(c.isalpha() for c in token) and next(c for c in token if c.isalpha()).isupper()
        for word in normalise(token).split()
    )


def common_noun(word: str, raw: str) -> bool:
    """True when ``raw`` writes ``word`` (or its singular) in lower case, as a whole word.

    A person is never written in lower case, so "Williams" is not carried by "Prince
    William"; "recruiters" is by "an HR recruiter".
    """
    forms = {word, word[:-1]} if len(word) >= 5 and word.endswith("s") else {word}
    return any(re.search(rf"(?<![\w-]){re.escape(f)}(?![\w-])", raw) for f in forms)


#: Endings that derive a word from a name: "Kenyan", "Japanese", "Marxist", "Cups".
_DERIVING = ("s", "es", "n", "an", "ian", "ean", "ese", "i", "ish", "ic", "ist", "ism", "ite")


def derived(word: str, padded: str, exact: bool = False) -> bool:
    """True when the text writes ``word`` (with ``exact``) or a word derived from it.

    A derived word is the name and an ending that derives ("Kenyan" for "Kenya"), never a
    longer name ("Nigeria" for "Niger").
    """
    if exact and f" {word} " in padded:
        return True
    if len(word) < 4:
        return f" {word}s " in padded or f" {word}es " in padded
    return any(f" {word}{ending} " in padded for ending in _DERIVING)


def name_of(other: str, name: str, text: str) -> bool:
    """True when ``text`` (normalised) writes ``other`` "of" ``name`` as one name.

    "The International Committee of the Red Cross" is one organisation: its "Red Cross" is
    no second name beside "International Committee".
    """
    padded = f" {text} "
    return any(f" {other} of {the}{name} " in padded for the in ("", "the "))


def common_opening_lowered(sentence: str) -> str:
    """``sentence`` with its first word in lower case when it is capitalised only to open it.

    "Poverty marked her youth" names no one: the parser reads its first word as neither a
    proper noun nor part of a named entity, so it is no name the pronoun after it could
    be about. A name ("Curie moved …", "Lyon is …") keeps its capital.
    """
    words = sentence.split(maxsplit=1)
    if not words or not words[0][:1].isupper() or not name_runs(words[0]):
        return sentence
    doc = parse_many([sentence])[0]
    first = next((t for t in doc or () if t.is_alpha), None)
    if first is None or first.pos_ == "PROPN" or first.ent_type_:
        return sentence
    start = sentence.index(words[0])
    return sentence[:start] + sentence[start].lower() + sentence[start + 1 :]
