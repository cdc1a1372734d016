"""Rival referents: the nouns for which "the <noun>" may mean something other than the subject.

"The Brooklyn Bridge is older than the Golden Gate Bridge. The bridge opened in 1937." may
mean either bridge: a passage that names another thing with a noun ("Golden Gate Bridge",
"Palace of Versailles") makes "the bridge" ambiguous. So does a class given to another
thing: after "The lion is a cat species.", "The species was described in 1758." may be
the lion. Both engines read these rivals with :func:`rival_kinds`: the offline verifier
while it decides which sentences speak about a fact's subject, the grounding rule before
a quote that refers back by "the <noun>" (:func:`rivals_before`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from itertools import pairwise

from triqua.core.reading.analysis import TextInfo, Token, analyse
from triqua.core.reading.lexicon import LEXICON
from triqua.core.reading.name_match import name_match
from triqua.core.reading.quotes import normalise
from triqua.core.reading.words import definite_heads
from triqua.sentences import sentence_spans

__all__ = [
    "by_head_noun",
    "class_of",
    "definite_reference",
    "named_kinds",
    "rival_kinds",
    "rivals_before",
]

_COPULAS = frozenset({"is", "was", "are", "were"})
_ARTICLES = frozenset({"a", "an", "the"})


def class_of(info: TextInfo) -> frozenset[str]:
    """The class a sentence gives its subject: "carmaker" of "Toyota is a Japanese carmaker".

    A passage that says what its topic is may go on calling it so ("The carmaker employs
    …"): the head noun of the first "is a …" phrase, its last word before a function word.
    """
    tokens = info.tokens
    for i in range(len(tokens) - 2):
        if tokens[i].text.lower() in _COPULAS and tokens[i + 1].text.lower() in _ARTICLES:
            run = []
            for token in tokens[i + 2 :]:
                if token.is_stop or not token.text.replace("-", "").isalnum():
                    break
                run.append(token)
            head = run[-1] if run else None
            if head is None or head.is_capitalised or not head.text.isalpha():
                return frozenset()
            return frozenset({head.text.lower()})
    return frozenset()


def rival_kinds(info: TextInfo, subject: frozenset[str], about: bool) -> frozenset[str]:
    """The nouns one sentence gives things other than the subject (``subject``: its stems).

    Every name in it that is not the subject's (:func:`named_kinds`), and, unless the
    sentence is ``about`` the subject (names it or refers back to it), the class it gives
    its own subject (:func:`class_of`): "The lion is a cat species" makes "species" a rival.
    """
    kinds = named_kinds(info, subject)
    return kinds if about else kinds | class_of(info)


@functools.lru_cache(maxsize=1024)  # each value of each unit citing a passage asks it again
def rivals_before(subject: str, before: str) -> frozenset[str]:
    """The rival nouns of the passage text ``before`` a quote, for a fact about ``subject``.

    A sentence is about the subject when it names it or opens with a pronoun (the grounding
    rule reads a reference back to the subject so); the rest give their class as a rival.
    """
    if not before.strip():
        return frozenset()
    named = analyse(subject)
    stems = frozenset(t.stem for t in named.content)
    kinds: set[str] = set()
    for start, end in sentence_spans(before):
        info = analyse(before[start:end])
        first = info.tokens[0].text.lower() if info.tokens else ""
        about = name_match(named, info) > 0 or first in LEXICON.pronouns
        kinds |= rival_kinds(info, stems, about)
    return frozenset(kinds)


#: Verbs after which "this" is a pronoun standing for something named before ("that is"
#: opens a relative clause as often, about a noun of the quote itself).
_DEMONSTRATIVE_VERBS = frozenset(("is", "was", "has", "had", "became", "remains"))


#: A definite description restricted by the clause right after it ("the film that beat
#: it") picks out another one than the thing named before; after a comma it does not.
_RESTRICTED = re.compile(r"\b(?:the|this)\s+(\w+)\s+(?:that|which|who|whom|whose)\b", re.I)


def definite_reference(padded: str, raw: str = "", rivals: frozenset[str] = frozenset()) -> bool:
    """True when the text refers back to something named before it.

    By a definite description ("the film", "this city") or a demonstrative pronoun ("This
    is the first Depeche Mode album …"). A description a relative clause restricts ("The
    film that beat it won …", in ``raw``, the text as written) is another film, no
    reference back; nor is one by a noun of ``rivals``.
    """
    restricted = rivals | {m.group(1).casefold() for m in _RESTRICTED.finditer(raw)}
    words = padded.split()
    return any(
        (a in ("the", "this") and b in definite_heads() and b not in restricted)
        or (a == "this" and b in _DEMONSTRATIVE_VERBS)
        for a, b in pairwise(words)
    )


def by_head_noun(subject: str, padded: str, rivals: frozenset[str]) -> bool:
    """Whether a quote (``padded``) names the subject by its head noun, no rival of its kind.

    "the wall" for "The Berlin Wall"; not after a passage naming another wall (``rivals``,
    :func:`rivals_before`).
    """
    head = normalise(subject).split()[-1:]
    return (
        len(subject.split()) > 1
        and f" the {' '.join(head)} " in padded
        and not (set(head) & rivals)
    )


def named_kinds(info: TextInfo, subject: frozenset[str]) -> frozenset[str]:
    """The head nouns of names in a sentence that are not the subject's ("bridge").

    A capitalised noun inside another name ("Golden Gate Bridge", "Palace of Versailles")
    makes "the <noun>" ambiguous. The name is the run of capitalised words around the noun
    (joined by "of"); it is the subject's own mention when another of its words is the
    subject's ("Brooklyn Bridge" for "The Brooklyn Bridge").
    """
    return frozenset(low for low, others in _name_heads(info) if not others & subject)


@functools.lru_cache(maxsize=4096)  # a passage's sentences are read for every subject
def _name_heads(info: TextInfo) -> tuple[tuple[str, frozenset[str]], ...]:
    """Each capitalised noun inside a longer name, with the stems of that name's other words."""
    tokens = info.tokens
    heads = []
    for i, token in enumerate(tokens):
        low = token.text.lower()
        if i == 0 or not token.is_capitalised or token.is_stop or not low.isalpha():
            continue
        run = _name_run(tokens, i)
        if len(run) > 1:
            heads.append((low, frozenset(t.stem for t in run if t is not token)))
    return tuple(heads)


def _name_run(tokens: Sequence[Token], at: int) -> list[Token]:
    """The capitalised words around ``tokens[at]``, "of" between them included."""

    def named(j: int) -> bool:
        return 0 <= j < len(tokens) and tokens[j].is_capitalised and not tokens[j].is_stop

    run = [tokens[at]]
    j = at - 1
    while named(j) or (tokens[j].text == "of" and named(j - 1) if j > 0 else False):
        run.insert(0, tokens[j])
        j -= 1
    j = at + 1
    while named(j) or (j < len(tokens) and tokens[j].text == "of" and named(j + 1)):
        run.append(tokens[j])
        j += 1
    return [t for t in run if t.text != "of"]
