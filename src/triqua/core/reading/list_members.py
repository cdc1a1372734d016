"""List members: a window that names what fills a slot states no object left out of its list.

"Recruiters are responsible for a variety of tasks, including developing job descriptions,
posting job ads and checking references" names the recruiters' tasks; "Recruiters are
responsible for hiring candidates" is none of them, although a judge reads the two as close.
A list is a list opener ("including", "such as") followed by two members or more, or three
comma-separated members or more, the last after a join ("A, B and C"); it runs to the end of
its clause. A window names the slot's members when one of its sentences writes the fact's
relation and, after it, a list (after a copula, only a list after a word of the object: "are
responsible for a variety of tasks, including …"); the object is left out when that sentence
writes no word of the object's head (its last content word) and no list of the window writes
a content word of the object. A window that writes the relation and lists members after it
elsewhere ("sell food items such as bento, noodles and coffee, but also carry …") is not
read so. The words are data (``data/list_members.json``, with facts and texts that must and
must not be read as leaving the object out, run as tests). The offline verifier reads no
support in such a window, and the statement gates both engines share refuse it
(``core.reading.statements``).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from triqua.core.reading.analysis import TextInfo, analyse, has_stem
from triqua.core.reading.copular import copular_rules
from triqua.core.reading.fact_parts import FactParts, sentence_relation_hit
from triqua.core.reading.rules_file import read_rules_file
from triqua.core.reading.words import Token
from triqua.sentences import sentence_spans

__all__ = ["LIST_MEMBERS_PATH", "left_out_of_list", "list_members_rules", "list_spans"]

LIST_MEMBERS_PATH = Path(__file__).parent / "data" / "list_members.json"

_TOKEN = re.compile(r"[^\W_](?:[\w'’-]|\.(?=\w))*\.?|[^\w\s]")


@functools.lru_cache(maxsize=1)
def list_members_rules() -> dict[str, Any]:
    """The rules file ``data/list_members.json``, as written."""
    return read_rules_file(LIST_MEMBERS_PATH, "list members rules")


@functools.lru_cache(maxsize=1)
def _phrases(name: str) -> tuple[tuple[str, ...], ...]:
    """A list of phrases of the rules file as word tuples, longest first."""
    phrases = {tuple(p.casefold().split()) for p in list_members_rules()[name]}
    return tuple(sorted(phrases, key=len, reverse=True))


def _at(words: list[str], i: int, phrases: tuple[tuple[str, ...], ...]) -> int:
    """The number of words of the phrase starting at ``words[i]``, 0 when none does."""
    for phrase in phrases:
        if tuple(words[i : i + len(phrase)]) == phrase:
            return len(phrase)
    return 0


def _members(words: list[str], start: int, ends: frozenset[str]) -> tuple[int, int]:
    """(members, end) of the enumeration starting at ``words[start]``, to its clause's end."""
    joins = _phrases("joins")
    longest = int(list_members_rules()["member_words"])
    members, length, i = 0, 0, start
    while i < len(words) and words[i] not in ends:
        joined = _at(words, i, joins)
        if words[i] == "," or joined:
            members += length > 0
            length = 0
            i += max(joined, 1)
            continue
        length += 1
        if length > longest:
            break
        i += 1
    return members + (length > 0), i


def _before(words: list[str], join: int, ends: frozenset[str]) -> tuple[int, int]:
    """(members, start) of the comma-separated members before the join at ``words[join]``.

    Every member between two commas has at most ``member_words`` words; the first one, before
    the first comma, is cut to the length of the longest of the others ("The museum holds
    paintings, drawings and prints" begins at "paintings").
    """
    longest = int(list_members_rules()["member_words"])
    lengths: list[int] = []
    k = join - 1 if words[join - 1] == "," else join
    while k > 0 and words[k - 1] not in ends:
        j = k - 1
        while j >= 0 and words[j] not in ends and words[j] != ",":
            j -= 1
        lengths.append(k - j - 1)
        if j < 0 or words[j] != "," or k - j - 1 > longest:
            break
        k = j
    if len(lengths) < 2 or not all(0 < n <= longest for n in lengths[:-1]):
        return 0, join
    first = min(lengths[-1], max(lengths[:-1]))
    return len(lengths), k - first


@functools.lru_cache(maxsize=4096)
def list_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The character spans of the lists ``text`` writes (an opener's or a bare enumeration)."""
    tokens = list(_TOKEN.finditer(text))
    words = [t.group().casefold() for t in tokens]
    rules = list_members_rules()
    ends = frozenset(rules["ends"])
    joins = _phrases("joins")
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        opener = _at(words, i, _phrases("openers"))
        if opener:
            members, end = _members(words, i + opener, ends)
            if members >= 2:
                spans.append((tokens[i].start(), tokens[end - 1].end()))
                i = end
                continue
        i += max(opener, 1)
    opened = tuple(spans)
    # A bare enumeration: "A, B and C", each member a few words, the last after a join.
    for i in range(1, len(words)):
        if _at(words, i, joins):
            members, start = _before(words, i, ends)
            _, end = _members(words, i, ends)
            span = (tokens[start].start(), tokens[end - 1].end()) if end > i + 1 else None
            # One inside an opener's list is that list: its first member is after the opener.
            if (
                span is not None
                and members + 1 >= int(rules["bare_members"])
                and not any(a < span[1] and span[0] < b for a, b in opened)
            ):
                spans.append(span)
    return tuple(spans)


def left_out_of_list(parts: FactParts, said: TextInfo, text: str) -> str | None:
    """The list of ``text`` that names the slot's members and leaves the object out; else None.

    A sentence of ``text`` about the subject (a word of it, or a pronoun first) writes the
    fact's relation and, after it, a list (a copula's list after a word of the object: "are
    responsible for a variety of tasks, including …"); the object's head (``said``'s last
    content word) is not written in that sentence, and none of the object's content words is
    written inside any list of ``text``.
    """
    if not said.content:
        return None
    head = said.content[-1].stem
    copulas = frozenset(copular_rules()["copulas"])
    found = None
    for a, b in sentence_spans(text):
        sentence = text[a:b]
        spans = list_spans(sentence)
        if not spans:
            continue
        for start, end in spans:
            inside = analyse(sentence[start:end]).stems
            if any(has_stem(inside, t.stem) for t in said.content):
                return None  # the object is one of the members
        info = analyse(sentence)
        if found is not None or has_stem(info.stems, head) or not _about(parts, info):
            continue
        hit = _relation_at(parts, info, copulas)
        if hit is None:
            continue
        for start, end in spans:
            if start <= hit.start:
                continue
            if hit.text.casefold() in copulas and not any(
                hit.start < t.start < start and has_stem(frozenset({t.stem}), w.stem)
                for t in info.content
                for w in said.content
            ):
                continue
            found = sentence[start:end]
            break
    return found


def _relation_at(parts: FactParts, info: TextInfo, copulas: frozenset[str]) -> Token | None:
    """The sentence token writing the fact's relation: a word of it, else its copula."""
    hit = sentence_relation_hit(parts, info)
    if isinstance(hit, Token):
        return hit
    # A relation's word the stop list holds ("used") is still its word; a function word is not.
    function = frozenset(list_members_rules()["function_words"])
    own = [
        t.stem
        for t in parts.relation.tokens
        if t.text.casefold() not in copulas
        and t.text.casefold() not in function
        and (not t.is_stop or len(t.text) > 3)
    ]
    for token in info.tokens:
        if any(has_stem(frozenset({token.stem}), word) for word in own):
            return token
    if own or not any(t.text.casefold() in copulas for t in parts.relation.tokens):
        return None
    return next((t for t in info.tokens if t.text.casefold() in copulas), None)


def _about(parts: FactParts, info: TextInfo) -> bool:
    """True when the sentence writes a word of the subject or opens with a pronoun.

    "The Danube flows through ten countries, including Austria and Hungary." lists the
    Danube's countries, nothing of the Rhine's.
    """
    if any(has_stem(info.stems, t.stem) for t in parts.subject.content):
        return True
    first = info.tokens[0].text.casefold() if info.tokens else ""
    return first in frozenset(list_members_rules()["pronouns"])
