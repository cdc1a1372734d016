"""Phrase helpers of the offline decomposer: names, noun phrases, text and value kinds.

Everything here reads one spaCy parse (``en_core_web_sm`` labels) and knows nothing about
facts; the clause rules and the pronoun resolver build on it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Iterable

from spacy.tokens import Doc, Token

from triqua.engines.offline.lexicon import LEXICON

Refer = Callable[[Token], str | None]
"""Returns the referent text of a pronoun token, or ``None`` when it has none."""

TIME_ENTS = {"DATE", "TIME"}
PLACE_ENTS = {"GPE", "LOC", "FAC"}
QUANTITY_ENTS = {"CARDINAL", "QUANTITY", "MONEY", "PERCENT"}
YEAR = re.compile(r"^(1[0-9]{3}|20[0-9]{2})s?$")
_MONTHS = frozenset(LEXICON.months)
_RELATIVE_PRONOUNS = {"who", "whom", "which", "that"}
_NONRESTRICTIVE_WORDS = {"who", "whom", "which", "where", "when", "whose"}
_CUT_PUNCT = {",", ";", ":", "(", ")", "[", "]", "—", "–"}
_KEEP_LEADING = {"$", "€", "£", '"'}
_KEEP_TRAILING = {"%", ")", '"'}
_NAME_PARTICLES = {
    "al", "bin", "da", "das", "de", "del", "della", "den", "der", "des", "di", "do", "dos",
    "du", "el", "ibn", "la", "le", "ter", "van", "von",
}  # fmt: skip


def repair_names(doc: Doc) -> None:
    """Merge names joined by a lowercase particle ("Copa do Brasil") into one proper noun.

    The small parser often reads such particles as verbs or prepositions and breaks the name
    apart, so the name becomes one token that keeps the attachment of its first part.
    """
    spans: list[tuple[int, int, int]] = []
    n = len(doc)
    i = 1
    while i < n - 1:
        if doc[i].lower_ in _NAME_PARTICLES and doc[i].is_lower and _is_name(doc[i - 1]):
            j = i
            while j < n and doc[j].lower_ in _NAME_PARTICLES and doc[j].is_lower:
                j += 1
            if j < n and doc[j].is_title and not any(doc[k].is_sent_start for k in range(i, j + 1)):
                end = j + 1
                while end < n and _is_name(doc[end]) and not doc[end].is_sent_start:
                    end += 1
                start = i - 1
                while start > 0 and _is_name(doc[start - 1]) and not doc[start].is_sent_start:
                    start -= 1
                spans.append((start, end, i - 1))
                i = end
                continue
        i += 1
    for start, end, anchor in reversed(spans):
        head_i, dep = doc[anchor].head.i, doc[anchor].dep_
        with doc.retokenize() as retokenizer:
            retokenizer.merge(doc[start:end], attrs={"POS": "PROPN", "TAG": "NNP"})
        if start <= head_i < end:
            continue
        if head_i >= end:
            head_i -= end - start - 1
        merged, head = doc[start], doc[head_i]
        if head.i != merged.i and not any(a.i == merged.i for a in head.ancestors):
            merged.head = head
            merged.dep_ = dep


def merge_hyphenated(doc: Doc) -> None:
    """Merge a hyphenated word ("Abong-Mbang", "sub-division") into one token.

    The tokenizer splits such words at the hyphen and the small parser often attaches the
    parts apart, cutting a name or compound in two ("the Abong-Mbang sub"); the merged
    token keeps the attachment of its last part, the head of an English hyphen compound.
    """
    spans: list[tuple[int, int]] = []
    n = len(doc)
    i = 1
    while i < n - 1:
        if _joins(doc, i):
            start, end = i - 1, i + 2
            while end < n - 1 and _joins(doc, end):
                end += 2
            spans.append((start, end))
            i = end
            continue
        i += 1
    for start, end in reversed(spans):
        last = doc[end - 1]
        outer = [t for t in doc[start:end] if not start <= t.head.i < end]  # heads outside
        anchor = outer[-1] if outer else last
        head_i, dep = anchor.head.i, anchor.dep_
        with doc.retokenize() as retokenizer:
            retokenizer.merge(doc[start:end], attrs={"POS": last.pos_, "TAG": last.tag_})
        if head_i >= end:
            head_i -= end - start - 1
        merged, head = doc[start], doc[head_i]
        if head.i != merged.i and not any(a.i == merged.i for a in head.ancestors):
            merged.head = head
            merged.dep_ = dep


def _joins(doc: Doc, i: int) -> bool:
    """True when ``doc[i]`` is a hyphen joining two words with no space around it."""
    left, mid, right = doc[i - 1], doc[i], doc[i + 1]
    return (
        mid.text == "-"
        and not left.whitespace_
        and not mid.whitespace_
        and left.text.isalnum()
        and right.text.isalnum()
        and any(c.isalpha() for c in left.text + right.text)
        and not right.is_sent_start
    )


def _is_name(token: Token) -> bool:
    return token.pos_ == "PROPN" and token.is_title


def render(tokens: Iterable[Token], refer: Refer | None = None, *, lower: bool = False) -> str:
    """Write tokens back as text in document order, substituting resolved pronouns.

    Emoji and edge punctuation are dropped; ``lower`` lowercases all but proper nouns.
    """
    toks = sorted(
        {t.i: t for t in tokens if not t.is_space and not _is_pictograph(t.text)}.values(),
        key=lambda t: t.i,
    )
    while toks and toks[0].is_punct and toks[0].text not in _KEEP_LEADING:
        toks.pop(0)
    while toks and toks[-1].is_punct and toks[-1].text not in _KEEP_TRAILING:
        toks.pop()
    parts: list[str] = []
    for k, tok in enumerate(toks):
        text = tok.text
        referent = refer(tok) if refer is not None and is_pronoun(tok) else None
        if referent:
            text = referent + "'s" if tok.dep_ == "poss" or tok.tag_ == "PRP$" else referent
        elif lower and tok.pos_ != "PROPN" and tok.text != "I":
            text = text.lower()
        parts.append(text)
        if k + 1 < len(toks):
            parts.append(tok.whitespace_ if toks[k + 1].i == tok.i + 1 else " ")
    return re.sub(r"\s+", " ", "".join(parts)).strip()


def _is_pictograph(text: str) -> bool:
    """True for emoji and other symbol-only tokens, which carry no checkable content."""
    return all(unicodedata.category(c) in {"So", "Sk", "Mn", "Me", "Cf"} for c in text)


def noun_phrase(head: Token, drop: Collection[Token] = ()) -> list[Token]:
    """Tokens of ``head``'s noun phrase without conjuncts, side remarks and ``drop`` children."""
    cut = [
        c
        for c in head.children
        if c.dep_ in {"cc", "conj", "preconj"} or is_side_part(c) or c in drop
    ]
    removed = {t.i for c in cut for t in c.subtree}
    return [t for t in head.subtree if t.i not in removed]


def is_side_part(child: Token) -> bool:
    """True for a child that adds a side remark to a noun: appositive, comma clause, comma."""
    dep = child.dep_
    return (
        dep in {"appos", "advcl", "parataxis"}
        or (dep == "relcl" and is_nonrestrictive(child))
        or (dep == "acl" and after_comma(child))
        or (dep == "punct" and child.text in _CUT_PUNCT)
    )


def is_nonrestrictive(clause: Token) -> bool:
    """True for a relative clause set off by a comma or opened by who/which/where/when."""
    return after_comma(clause) or clause.doc[clause.left_edge.i].lower_ in _NONRESTRICTIVE_WORDS


def after_comma(token: Token) -> bool:
    """True when the phrase headed by ``token`` directly follows a comma."""
    i = token.left_edge.i
    return i > 0 and token.doc[i - 1].text == ","


def is_pronoun(token: Token) -> bool:
    """True for pronouns, including possessive determiners (his, its)."""
    return token.pos_ == "PRON" or token.tag_ in {"PRP", "PRP$"}


def is_time(head: Token) -> bool:
    """True when a noun phrase head denotes a date or time (entity, year or month)."""
    return any(
        tok.ent_type_ in TIME_ENTS or YEAR.match(tok.text) or tok.lower_ in _MONTHS
        for tok in [head, *head.lefts]
    )


def is_date_list(token: Token) -> bool:
    """True for the rest of a list of dates ("2009, 2010 and 2011"), which is no side remark."""
    return all(
        t.ent_type_ in TIME_ENTS or t.is_punct or t.dep_ == "cc" or YEAR.match(t.text)
        for t in token.subtree
    )


def is_place(head: Token) -> bool:
    """True when a noun phrase head is a place entity (GPE, LOC, FAC)."""
    return head.ent_type_ in PLACE_ENTS


def is_quantity(head: Token) -> bool:
    """True when a noun phrase head is a number, amount, measure or percentage."""
    if head.ent_type_ in QUANTITY_ENTS or head.like_num:
        return True
    return any(t.dep_ == "nummod" and t.ent_type_ in QUANTITY_ENTS for t in head.lefts)


def is_concrete(token: Token) -> bool:
    """True for a name, an entity or a number other than "one" (as in "one of the best")."""
    if token.lower_ == "one":
        return False
    return token.pos_ in {"PROPN", "NUM"} or bool(token.ent_type_)


def substitute_relative(token: Token) -> Token:
    """A relative pronoun stands for the noun its clause modifies; other tokens stay."""
    if token.lower_ in _RELATIVE_PRONOUNS and token.tag_ in {"WDT", "WP"}:
        clause = token.head
        while clause.dep_ not in {"relcl", "ROOT"} and clause.head.i != clause.i:
            clause = clause.head
        if clause.dep_ == "relcl":
            return clause.head
    return token
