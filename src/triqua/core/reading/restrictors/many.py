"""Many against one: "appeared in multiple shows" is not stated by "starred only in The Class".

A claim that counts its object as many (a word of ``many`` in ``data/restrictors.json``,
"multiple", "several", or a count of two or more) is not stated by a window that restricts
the relation to one thing: an exclusive word ("only", "sole", "lone") followed, past
prepositions and determiners, by "one" or "single", by a singular of the claim's own noun
("only in television show …" for "multiple television shows"), or by one name ("only for
Ajax"); or closing its clause right after one name ("sold in Norway only"), when the window
counts nothing as many itself. A plural after it ("only in comedies"), another word ("only
briefly appeared") or two names joined ("only for Ajax and PSV") restrict nothing to one.
The judge reads the shared words as entailing; this reader is the offline value gates'
(``gates``) and the grounding rule's.
"""

from __future__ import annotations

from collections.abc import Sequence

from triqua.core.reading.analysis import TextInfo, Token, stems_match
from triqua.core.reading.restrictors.words import WORDS

__all__ = ["one_against_many"]

_REACH = 3  # prepositions and determiners between the exclusive word and what it restricts
_ONE = frozenset({"one", "single"})
_JOINS = frozenset({"and", "or", "&"})
#: Words between the exclusive word and what it restricts, and that end a noun's phrase.
_FUNCTION = (
    WORDS.group_determiners
    | WORDS.role_prepositions
    | _JOINS
    | frozenset({"a", "an", "as", "into", "that", "which", "who", "when", "where"})
    | frozenset({"is", "was", "are", "were", "be", "been", "has", "had", "have"})
)


def _counts_many(claim: TextInfo) -> bool:
    """Whether the claim's words count its object as two or more."""
    for token in claim.tokens:
        low = token.text.lower()
        if low in WORDS.exclusive:
            return False  # "its only two albums" restricts itself
        count = int(low) if low.isdigit() and len(low) < 4 else WORDS.count_words.get(low, 0)
        if low in WORDS.many or count >= 2:  # a year is no count
            return True
    return False


def _singular(token: Token) -> bool:
    """A word not written as an English plural ("show", not "shows"; "class" is singular)."""
    low = token.text.lower()
    return not low.endswith("s") or low.endswith(("ss", "us", "is"))


def _one_after(tokens: Sequence[Token], at: int, head: Token | None, text: str) -> bool:
    """Whether the exclusive word at ``at`` restricts what follows it to one thing."""
    j = at + 1
    while j < len(tokens) and j - at <= _REACH and tokens[j].text.lower() in _FUNCTION | _ONE:
        if tokens[j].text.lower() in _ONE:
            return True
        j += 1
    if j >= len(tokens):
        return False
    if tokens[j].text.lower() in _ONE:
        return True
    if tokens[j].is_capitalised:
        end = j
        while end + 1 < len(tokens) and tokens[end + 1].is_capitalised:
            end += 1
        rest = text[tokens[end].end :].lstrip(" ,").lower()
        return not any(rest.startswith(w + " ") for w in _JOINS)
    run: list[Token] = []
    while j < len(tokens) and tokens[j].text.lower() not in _FUNCTION | _ONE:
        if tokens[j].is_capitalised or (run and text[run[-1].end : tokens[j].start].strip()):
            break
        run.append(tokens[j])
        j += 1
    return (
        bool(run)
        and head is not None
        and stems_match(run[-1].stem, head.stem)
        and (_singular(run[-1]))
    )


def one_against_many(claim: TextInfo, window: TextInfo) -> str | None:
    """The window's exclusive word when it restricts to one what ``claim`` counts as many.

    Args:
        claim: The claim's object ("multiple television shows").
        window: The evidence window read for it.
    """
    if not _counts_many(claim):
        return None
    content = [t for t in claim.content if t.text.lower() not in WORDS.many]
    head = content[-1] if content else None
    tokens = window.tokens
    counted = any(_counts_many_word(t) for t in tokens)  # "several countries in Europe only"
    for k, token in enumerate(tokens):
        if token.text.lower() not in WORDS.exclusive:
            continue
        if _one_after(tokens, k, head, window.text) or (
            not counted and _one_before(tokens, k, window.text)
        ):
            return token.text
    return None


def _counts_many_word(token: Token) -> bool:
    """Whether ``token`` counts many ("several", "three"; not a year)."""
    low = token.text.lower()
    count = int(low) if low.isdigit() and len(low) < 4 else WORDS.count_words.get(low, 0)
    return low in WORDS.many or count >= 2


def _one_before(tokens: Sequence[Token], at: int, text: str) -> bool:
    """Whether the exclusive word at ``at`` closes its clause after one name ("in Norway only").

    The word must end its clause (a stop, a comma or the text's end after it): "Norway only
    joined in 1994" restricts the joining, not a place. Two names joined ("in Norway and
    Sweden only") restrict nothing to one.
    """
    rest = text[tokens[at].end :].lstrip()
    if rest and rest[0] not in ".,;:)":
        return False
    j = at - 1
    while (
        j >= 0
        and tokens[j].is_capitalised
        and not text[tokens[j].end : tokens[j + 1].start].strip()
    ):
        j -= 1
    if j == at - 1:
        return False  # no name right before it
    if j < 0:
        return True
    gap = text[tokens[j].end : tokens[j + 1].start].strip()  # ", " of "Oslo, Bergen only"
    return not gap and not tokens[j].is_capitalised and tokens[j].text.lower() not in _JOINS
