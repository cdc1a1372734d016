"""Phrase helpers of the offline decomposer: names, noun phrases, text and value kinds.

Everything here reads one spaCy parse (``en_core_web_sm`` labels) and knows nothing about
facts; the clause rules and the pronoun resolver build on it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Iterable
from typing import Any

from triqua.core.reading.lexicon import LEXICON
from triqua.engines.offline.decompose.titles import one_title
from triqua.nlp.tokens import Doc, Span, Token

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
        merge_span(doc, start, end, anchor, {"POS": "PROPN", "TAG": "NNP"})


MAX_QUOTED_WORDS = 10
"""Longest quoted title or name (in words) that ``merge_quoted`` keeps as one token."""
_OPEN_QUOTES = {'"', "\u201c"}
_CLOSE_QUOTES = {'"', "\u201d"}
_FINITE_TAGS = {"VBD", "VBZ", "VBP", "MD"}


def merge_quoted(doc: Doc) -> None:
    """Merge a quoted title or name ("Pride and Prejudice"), quotes included, into one token.

    The parser reads the words inside as ordinary words, so a title is split at "and"
    (two objects) or its quotes are left behind on the noun it names ('The novel " "').
    The merged token (a proper noun when title-cased) keeps the attachment of the span's
    head word; a title right after the noun it names ('the novel "Emma"') becomes part of
    that noun's phrase instead of an appositive. Quoted speech (a lowercase clause with a
    finite verb), text ending in "." or "," inside the quotes, and spans over
    ``MAX_QUOTED_WORDS`` words or across a sentence start are left alone.
    """
    spans: list[tuple[int, int]] = []
    n = len(doc)
    i = 0
    while i < n - 2:
        if _opens_quote(doc, i):
            close = next((j for j in range(i + 2, n) if _closes_quote(doc, j)), None)
            if close is not None and _is_title_span(doc[i + 1 : close]):
                spans.append((i, close + 1))
                i = close + 1
                continue
        i += 1
    for start, end in reversed(spans):
        _merge_title(doc, start, end)


def _merge_title(doc: Doc, start: int, end: int) -> None:
    """Merge ``doc[start:end]`` (a quoted title) and attach it as one noun phrase."""
    span = doc[start:end]
    outer = [t for t in span if not start <= t.head.i < end and t.head.i != t.i]
    outer.sort(key=lambda t: (t.is_punct, t.dep_ not in _NOMINAL_DEPS, t.i))
    root = next((t for t in span if t.head.i == t.i), None)
    # Words outside the title that the parser hung on a verb inside it ("in 2017")
    # belong to the clause the title sits in; a verb outside hung on it heads that clause.
    strays = [
        t.i
        for t in doc[span.sent.start : span.sent.end]
        if not start <= t.i < end and start <= t.head.i < end and t.head.pos_ in {"VERB", "AUX"}
    ]
    verb = next((i for i in strays if doc[i].pos_ in {"VERB", "AUX"}), None)
    title = _title_case(doc[start + 1 : end - 1])
    anchor = outer[0] if outer else None
    pos, tag = ("PROPN", "NNP") if title else (doc[start + 1].pos_, doc[start + 1].tag_)
    head_i = anchor.head.i if anchor is not None else None
    dep = anchor.dep_ if anchor is not None else "ROOT"
    with doc.retokenize() as retokenizer:
        retokenizer.merge(span, attrs={"POS": pos, "TAG": tag, "LEMMA": span.text})
    shift = end - start - 1

    def moved(i: int) -> int:
        return i - shift if i >= end else i

    merged = doc[start]
    if root is not None and verb is not None:  # the title held the root: the verb heads it
        head = doc[moved(verb)]
        head.head, head.dep_ = head, "ROOT"
        head_i, dep = head.i, ""
    elif head_i is None:
        return
    else:
        head_i = moved(head_i)
    head = doc[head_i]
    if head.i == merged.i or any(a.i == merged.i for a in head.ancestors):
        return
    merged.head, merged.dep_ = head, _title_dep(merged, head, dep)
    for i in strays:
        stray = doc[moved(i)]
        if stray.head.i != merged.i or stray.i == head.i:
            continue
        if stray.dep_ in _NOMINAL_DEPS and stray.pos_ == "PROPN" and stray.i > merged.i:
            stray.dep_ = "conj"  # '"Bring It On", "True Lies"': the next title of a list
        elif head.pos_ in {"VERB", "AUX", "ADP"}:
            stray.head = head


_NOMINAL_DEPS = {
    "nsubj", "nsubjpass", "dobj", "attr", "pobj", "appos", "conj", "npadvmod", "dative",
    "oprd", "compound", "nmod", "poss",
}  # fmt: skip


def _title_dep(merged: Token, head: Token, dep: str) -> str:
    """The dependency label of a merged title under ``head``, given its word's label ``dep``.

    A title right after the noun it names is part of that noun's phrase; a title the
    parser read as a verb or clause of its own is the subject before a verb, the object
    after it.
    """
    if head.pos_ in {"NOUN", "PROPN"} and head.i == merged.i - 1:
        return "nmod"  # 'the novel "Emma"'
    if dep in _NOMINAL_DEPS:
        return dep
    if head.dep_ in {"prep", "agent"} or head.pos_ == "ADP":
        return "pobj"  # 'including "Bring It On"'
    if head.pos_ in {"VERB", "AUX"}:
        others = {c.dep_ for c in head.children if c.i != merged.i}
        if merged.i < head.i and not others & {"nsubj", "nsubjpass", "expl", "csubj"}:
            return "nsubjpass" if "auxpass" in others else "nsubj"
        if merged.i > head.i and not others & {"dobj", "attr"}:
            return "dobj"
    return "dep"


def _opens_quote(doc: Doc, i: int) -> bool:
    """True for a quote mark that opens a quotation: after a space or a bracket, before a word."""
    tok = doc[i]
    if tok.text not in _OPEN_QUOTES or tok.whitespace_:
        return False
    return i == 0 or bool(doc[i - 1].whitespace_) or doc[i - 1].text in {"(", "[", "\u2014"}


def _closes_quote(doc: Doc, j: int) -> bool:
    """True for a quote mark that closes a quotation: right after a word, no space before."""
    return doc[j].text in _CLOSE_QUOTES and not doc[j - 1].whitespace_


def _is_title_span(inner: Span) -> bool:
    """True when the words between two quote marks read as one title or name."""
    words = [t for t in inner if not t.is_punct]
    if not words or len(words) > MAX_QUOTED_WORDS or inner[-1].text in {".", ",", ";", ":"}:
        return False
    if any(t.is_sent_start for t in inner) or any(t.text in _OPEN_QUOTES for t in inner):
        return False
    return _title_case(inner) or not any(t.tag_ in _FINITE_TAGS for t in words)


def _title_case(inner: Span) -> bool:
    """True when a span is written as a title: every word but short function words capitalised."""
    words = [t for t in inner if not t.is_punct]
    return (
        bool(words)
        and words[0].text[:1].isupper()
        and all(t.is_stop or not t.is_alpha or t.text[:1].isupper() for t in words)
    )


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
        merge_span(doc, start, end, anchor.i, {"POS": last.pos_, "TAG": last.tag_})


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
        if (c.dep_ in {"cc", "conj", "preconj"} and not one_title(head, c))
        or is_side_part(c)
        or c in drop
    ]
    removed = {t.i for c in cut for t in c.subtree}
    return [t for t in head.subtree if t.i not in removed]


def is_side_part(child: Token) -> bool:
    """True for a child that adds a side remark to a noun: appositive, comma clause, comma.

    A name right after its noun, with no comma, is no remark but the noun's identity (a
    restrictive appositive): "the film Broken Bridges", "the poet Lord Byron".
    """
    dep = child.dep_
    return (
        (dep == "appos" and not restrictive_name(child))
        or dep in {"advcl", "parataxis"}
        or (dep == "relcl" and is_nonrestrictive(child))
        or (dep == "acl" and after_comma(child))
        or (dep == "punct" and child.text in _CUT_PUNCT)
    )


def restrictive_name(appos: Token) -> bool:
    """True for a proper name written right after the common noun it names, no comma between."""
    head = appos.head
    return (
        appos.pos_ == "PROPN"
        and head.pos_ == "NOUN"
        and appos.left_edge.i == head.i + 1
        and appos.i > head.i
        and not any(c.dep_ in {"cc", "conj"} for c in appos.children)
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


def merge_span(doc: Doc, start: int, end: int, anchor: int, attrs: dict[str | int, Any]) -> None:
    """Merge ``doc[start:end]`` into one token attached as ``doc[anchor]`` was."""
    head_i, dep = doc[anchor].head.i, doc[anchor].dep_
    with doc.retokenize() as retokenizer:
        retokenizer.merge(doc[start:end], attrs=attrs)
    if start <= head_i < end:
        return
    if head_i >= end:
        head_i -= end - start - 1
    merged, head = doc[start], doc[head_i]
    if head.i != merged.i and not any(a.i == merged.i for a in head.ancestors):
        merged.head = head
        merged.dep_ = dep
