"""A verb left out of a list's later conjuncts, read back: "… in 1994 and Germany in 2014".

"Brazil won the World Cup in 1994 and Germany in 2014." states that Germany won the World
Cup in 2014: the later conjunct reuses the first clause's verb and every phrase it does not
name again (gapping). Read as written, the later name sits in the first clause, where a
reader of clauses finds Brazil's verb governing it. The reading here restores each later
conjunct as a sentence of its own: "Brazil won the World Cup in 1994. Germany won the World
Cup in 2014."

A remnant is a leading name and the phrase it states, with no verb of its own; the name
takes the place of the first clause's subject, and the phrase the place of the phrase of its
kind: a phrase after the same preposition ("in 2014" for "in 1994"), a count of the same
noun ("four times" for "five times"), or else the verb's object ("C. S. Lewis The
Chronicles of Narnia" for "… wrote The Hobbit"). The name stands for the subject or the
object, whichever is a name of its kind ("NeXT" for the "Apple" of "Steve Jobs founded Apple
in 1976 and NeXT in 1985."). A sentence whose later words hold a verb, whose list holds no
such remnant ("She visited Paris, London and Rome."), whose subject is a pronoun, or whose
remnant's name is of the kind of both or neither ("He met Barack Obama in 2009 and Michelle
Obama in 2010.") is read as written. The coordinators are
data (``gapping_coordinators`` of ``data/restating.json``), with worked examples run as tests.
"""

from __future__ import annotations

import re
from functools import lru_cache

from triqua.core.reading.label_lines import RULES_PATH
from triqua.core.reading.rules_file import read_rules_file
from triqua.nlp.clauses import entities, window_parse
from triqua.nlp.tokens import Span, Token

__all__ = ["ungapped"]

_COORDINATORS = frozenset(
    str(w) for w in read_rules_file(RULES_PATH, "restating")["gapping_coordinators"]
)
#: A list's last item opening with a capitalised word, to the sentence's end: the cheap
#: test before a parse.
_LAST_NAME = re.compile(
    r"(?:,|\b(?i:" + "|".join(sorted(_COORDINATORS)) + r"))\s+([A-Z][^,;:]*?)[\s.!?\"”’)]*$"
)
#: Words of a remnant at most: a name and its phrase ("C. S. Lewis The Chronicles of Narnia").
_REMNANT_WORDS = 7
#: Verbs a later conjunct with a verb of its own writes most often (no gap then).
_AUXILIARIES = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
        "will",
        "would",
        "can",
        "could",
        "may",
        "might",
        "shall",
        "should",
        "must",
    ]
)
_SUBJECT_DEPS = {"nsubj", "nsubjpass"}
_OBJECT_DEPS = {"dobj", "attr", "oprd"}
_VERB_POS = {"VERB", "AUX"}


@lru_cache(maxsize=4096)
def ungapped(sentence: str) -> str | None:
    """The sentence with each gapped conjunct restored as a sentence; None when it has none."""
    if not _may_gap(sentence):
        return None
    doc = window_parse(sentence)
    if len(list(doc.sents)) != 1:
        return None
    root = next(iter(doc.sents)).root
    subject = next((c for c in root.lefts if c.dep_ in _SUBJECT_DEPS), None)
    if root.pos_ not in _VERB_POS or subject is None or subject.pos_ == "PRON":
        return None
    end = len(doc)
    while end > root.i and (doc[end - 1].is_punct or doc[end - 1].is_space):
        end -= 1
    cut = next(
        (
            at
            for at in range(root.i + 1, end)
            if _separates(doc[at]) and not any(t.pos_ in _VERB_POS for t in doc[at:end])
        ),
        None,
    )
    if cut is None:
        return None
    groups = _remnants(list(doc[cut:end]))
    if not groups or _inside_first_clause(groups, root, cut):
        return None
    obj = next((c for c in root.rights if c.dep_ in _OBJECT_DEPS and c.i < cut), None)
    kinds = _kinds(sentence)
    clauses = [_text(doc[:cut])]
    for name, rest in groups:
        slot = _slot(root, rest, cut)
        stands_for = _stands_for(kinds, name, subject, obj)
        if slot is None or stands_for is None:
            return None
        first = (stands_for.left_edge.i, min(stands_for.right_edge.i + 1, cut))
        if first[1] > slot[0] and slot[1] > first[0]:
            return None  # the name and the phrase would take one place
        clauses.append(_text_with(doc[:cut], {first: _text(name), slot: _text(rest)}))
    return " ".join(c[:1].upper() + c[1:] + "." for c in clauses)


def _inside_first_clause(
    groups: list[tuple[list[Token], list[Token]]], root: Token, cut: int
) -> bool:
    """True when a remnant's phrase hangs on a word of the first clause other than its verb.

    "… known for his work in Telugu and Hindi films": "films" is the object of the first
    clause's "in", so "Hindi films" is a part of that clause's phrase, not a conjunct
    reusing its verb; a true remnant's phrase ("and Germany in 2014") hangs on the verb or
    on the remnant itself. (Its name may hang anywhere: a parser often attaches "Germany"
    to the year before it.)
    """
    for name, rest in groups:
        own = {t.i for t in (*name, *rest)}
        if any(t.head.i < cut and t.head.i not in (root.i, *own) for t in rest):
            return True
    return False


def _kinds(sentence: str) -> dict[int, str]:
    """The entity kind of each token the recogniser puts in an entity."""
    return {at: kind for start, end, kind in entities(sentence) for at in range(start, end)}


def _stands_for(
    kinds: dict[int, str], name: list[Token], subject: Token, obj: Token | None
) -> Token | None:
    """The first clause's subject or object that a remnant's name stands for, if one alone.

    A name stands for the phrase whose head is a name of its kind: "Germany" for "Brazil",
    "NeXT" for the "Apple" of "Steve Jobs founded Apple in 1976 and NeXT in 1985." A name
    of the kinds of both, or of neither, is no reading ("He met Barack Obama in 2009 and
    Michelle Obama in 2010.").
    """
    kind = kinds.get(name[-1].i)
    if kind is None:
        return None
    as_subject = kinds.get(subject.i) == kind
    as_object = obj is not None and kinds.get(obj.i) == kind
    if as_subject == as_object:
        return None
    return subject if as_subject else obj


def _may_gap(sentence: str) -> bool:
    """False when the sentence's last conjunct cannot be a remnant, read without a parse."""
    found = _LAST_NAME.search(sentence)
    if found is None:
        return False
    words = found.group(1).split()
    return len(words) <= _REMNANT_WORDS and not any(
        w.lower() in _AUXILIARIES or (w.islower() and w.endswith(("ed", "ing"))) for w in words
    )


def _separates(token: Token) -> bool:
    return token.text == "," or token.lower_ in _COORDINATORS


def _remnants(tokens: list[Token]) -> list[tuple[list[Token], list[Token]]]:
    """Each later conjunct as its leading name and the rest; [] when one is no remnant."""
    groups: list[list[Token]] = [[]]
    for token in tokens:
        if _separates(token):
            if groups[-1]:
                groups.append([])
            continue
        groups[-1].append(token)
    found = []
    for group in groups:
        lead = 0
        while lead < len(group) and group[lead].pos_ == "PROPN":
            lead += 1
        if lead == 0 or lead == len(group):
            return []  # a plain list of names, or a conjunct that opens with no name
        found.append((group[:lead], group[lead:]))
    return found


def _slot(root: Token, rest: list[Token], cut: int) -> tuple[int, int] | None:
    """The token range of the first clause's phrase the remnant ``rest`` stands in for."""
    head = rest[0]
    if head.tag_ == "IN":
        found = [
            t
            for t in root.subtree
            if root.i < t.i < cut and t.dep_ == "prep" and t.lower_ == head.lower_
        ]
    elif head.like_num:
        noun = rest[-1].lower_
        found = [
            t
            for t in root.subtree
            if root.i < t.i < cut and t.lower_ == noun and any(c.like_num for c in t.children)
        ]
    else:
        found = [c for c in root.rights if c.dep_ in _OBJECT_DEPS and c.i < cut]
    if not found:
        return None
    phrase = found[0]
    return phrase.left_edge.i, min(phrase.right_edge.i + 1, cut)


def _text(tokens: Span | list[Token]) -> str:
    return "".join(t.text_with_ws for t in tokens).strip(" ,")


def _text_with(clause: Span, swaps: dict[tuple[int, int], str]) -> str:
    """The clause as text, each swapped token range written as its replacement."""
    out: list[str] = []
    skip_to = -1
    for token in clause:
        if token.i < skip_to:
            continue
        swap = next(((stop, text) for (at, stop), text in swaps.items() if at == token.i), None)
        if swap is None:
            out.append(token.text_with_ws)
            continue
        stop, text = swap
        out.append(text + clause.doc[stop - 1].whitespace_)
        skip_to = stop
    return "".join(out).strip(" ,")
