"""Token merges run on every parse before the clause rules: names and values kept whole.

The small parser splits some single names and values into several tokens and then attaches
the parts apart, so a rule that reads one token keeps only a piece: "Prescott, Arizona is a
city" gives the subject "Arizona", "The dose is 310-320mg" the object "310-320". Each merge
here joins such a run into one token that keeps the attachment of the part the parse hangs
the clause on.
"""

from __future__ import annotations

from itertools import pairwise

from triqua.engines.offline.decompose.hygiene import DETERMINER_WORDS
from triqua.engines.offline.decompose.misread_verbs import repair_misread_verbs
from triqua.engines.offline.decompose.phrases import (
    PLACE_ENTS,
    merge_hyphenated,
    merge_quoted,
    merge_span,
    repair_names,
)
from triqua.engines.offline.decompose.titles import retag_title_words
from triqua.nlp.tokens import Doc, Token

_SUBJECT_DEPS = {"nsubj", "nsubjpass"}
_SPEAKER_WORDS = frozenset({"i", "me", "we", "us", "you"})
#: How the parse attaches the first name of a "City, State" pair when it misreads the comma.
_PLACE_PAIR_DEPS = {"npadvmod", "nsubj", "nsubjpass", "compound", "appos", "nmod"}
#: Entity kinds the first name of a place pair may carry ("" where the recogniser saw none):
#: a person, a date or a nationality before a comma is a clause opener, not a city.
_NAME_ENTS = PLACE_ENTS | {"ORG", ""}
_RANGE_DASHES = {"-", "–", "—"}
#: Words a title writes in lower case inside it ("In the End", "Gone with the Wind").
_TITLE_SMALL = {"the", "a", "an", "of", "in", "on", "with", "and", "to", "for", "at", "by", "or"}
_FINITE_TAGS = {"VBZ", "VBD", "VBP", "MD"}
_NO_SUBJECT_DEPS = {"nsubj", "nsubjpass", "expl", "csubj", "csubjpass"}


def repair_tokens(doc: Doc) -> None:
    """Apply every token merge, in order, to a freshly parsed document, then the verb repairs."""
    merge_quoted(doc)
    repair_names(doc)
    merge_hyphenated(doc)
    merge_place_names(doc)
    merge_glued_units(doc)
    merge_fronted_titles(doc)
    merge_joined_names(doc)
    retag_title_words(doc, DETERMINER_WORDS | _SPEAKER_WORDS)
    repair_misread_verbs(doc)


def merge_place_names(doc: Doc) -> None:
    """Merge a "City, State" or "City, Country" name ("Prescott, Arizona") into one token.

    The parse reads the comma as a clause break or an apposition, so the state becomes the
    subject ("Arizona is a city in Yavapai County") or hangs off the city. The pair is merged
    when both sides are capitalised proper nouns, the second is a place, and the parse ties
    them as head and dependent (or as two subjects of one verb). A list ("Paris, London and
    Rome are capitals") is left apart: a conjunct is read as the second half of a name only
    where no coordinator ("and", "or") joins the chain.
    """
    spans: list[tuple[int, int, int]] = []
    n = len(doc)
    i = 1
    while i < n - 1:
        pair = _place_pair(doc, i) if doc[i].text == "," else None
        if pair is not None:
            spans.append(pair)
            i = pair[1]
            continue
        i += 1
    for start, end, anchor in reversed(spans):
        merge_span(doc, start, end, anchor, {"POS": "PROPN", "TAG": "NNP"})


def _place_pair(doc: Doc, comma: int) -> tuple[int, int, int] | None:
    """The (start, end, anchor) of a place name split at ``doc[comma]``, or ``None``."""
    left = doc[comma - 1]
    end = comma + 1
    while end < len(doc) and _is_name(doc[end]) and not doc[end].is_sent_start:
        end += 1
    if end == comma + 1 or not _is_name(left) or left.ent_type_ not in _NAME_ENTS:
        return None
    right = _root(doc, comma + 1, end)
    if right is None or right.ent_type_ not in PLACE_ENTS:
        return None
    if left.dep_ == "conj" or any(c.dep_ == "cc" for c in left.children):
        return None
    if any(c.dep_ in {"conj", "cc"} for c in right.children):
        return None
    if end < len(doc) and doc[end].lower_ in {"and", "or", "&"}:
        return None
    start = comma - 1
    while start > 0 and _is_name(doc[start - 1]) and doc[start - 1].head.i == left.i:
        start -= 1
    if right.head.i == left.i and right.dep_ in _PLACE_PAIR_DEPS | {"conj"}:
        anchor = left.i
    elif left.head.i == right.i or (
        left.head.i == right.head.i
        and left.dep_ in _PLACE_PAIR_DEPS
        and right.dep_ in _SUBJECT_DEPS
    ):
        anchor = right.i
    else:
        return None
    return start, end, anchor


def _root(doc: Doc, start: int, end: int) -> Token | None:
    """The one token of ``doc[start:end]`` whose head lies outside it, if there is one."""
    outer = [t for t in doc[start:end] if not start <= t.head.i < end]
    return outer[0] if len(outer) == 1 else None


def merge_glued_units(doc: Doc) -> None:
    """Merge a number or number range glued to its unit ("310-320mg", "5km") into one token.

    The tokenizer cuts the unit off the number and the parse may attach the two apart, so
    the object "310-320mg" came out as "310-320". The merged token keeps the attachment of
    the part whose head lies outside the run (the unit, where the parse reads it as the noun).
    """
    spans: list[tuple[int, int]] = []
    n = len(doc)
    i = 0
    while i < n - 1:
        if _is_number(doc[i]) and not doc[i].whitespace_:
            end = i + 1
            while (
                end + 1 < n
                and doc[end].text in _RANGE_DASHES
                and not doc[end].whitespace_
                and _is_number(doc[end + 1])
                and not doc[end + 1].whitespace_
            ):
                end += 2
            if end < n and _is_unit(doc[end]) and not doc[end - 1].whitespace_:
                spans.append((i, end + 1))
                i = end + 1
                continue
        i += 1
    for start, end in reversed(spans):
        outer = [t for t in doc[start:end] if not start <= t.head.i < end]
        anchor = outer[-1] if outer else doc[end - 1]
        unit = doc[end - 1]
        merge_span(doc, start, end, anchor.i, {"POS": unit.pos_, "TAG": unit.tag_})


def _is_number(token: Token) -> bool:
    return any(c.isdigit() for c in token.text) and all(
        c.isdigit() or c in ".," for c in token.text
    )


def _is_unit(token: Token) -> bool:
    return token.is_alpha and len(token.text) <= 5 and not token.is_sent_start


def _is_name(token: Token) -> bool:
    return token.pos_ == "PROPN" and token.is_title


def merge_fronted_titles(doc: Doc) -> None:
    """Merge an unquoted title the parse read as an opening phrase into the verb's subject.

    "Down With Love is a film." and "In the End was released in 2001." parse with the
    title as a prepositional phrase and the verb with no subject, so no fact comes out.
    Where the words before the first finite verb of a subjectless clause are written as a
    title (capitalised first and last words, small words between) and something marks them
    as one, a capitalised small word ("With") or a capitalised word after a lower-case
    small word ("the End", "Down with Love") in no place name, they become one name, the
    verb's subject. A place after a preposition ("In London is a museum") stays a phrase of
    place. A title ending in a capitalised pronoun after a name ("Doctor Who is a television
    series") is one as well, though the parse took the pronoun for the subject.
    """
    found = [span for sent in doc.sents if (span := _fronted_title(sent.start, sent.end, doc))]
    for start, end, verb in reversed(found):
        if _bare_past(doc[end]):  # "premiered", tagged a participle for want of a subject
            doc[end].tag_ = "VBD"
        merge_span(doc, start, end, start, {"POS": "PROPN", "TAG": "NNP"})
        title, head = doc[start], doc[verb - (end - start - 1)]
        title.head = head
        passive = any(c.dep_ == "auxpass" for c in head.children)
        title.dep_ = "nsubjpass" if passive else "nsubj"


def _fronted_title(start: int, end: int, doc: Doc) -> tuple[int, int, int] | None:
    """``(start, end, verb)`` of a title opening ``doc[start:end]`` with no subject, or None."""
    finite = next((t for t in doc[start:end] if t.tag_ in _FINITE_TAGS or _bare_past(t)), None)
    if finite is None or finite.i - start < 2:
        return None
    verb = finite.head if finite.dep_ in {"aux", "auxpass"} else finite
    subjects = [c for c in verb.children if c.dep_ in _NO_SUBJECT_DEPS]
    ends_name = bool(subjects) and _pronoun_ending_name(subjects[0], start, finite.i)
    if verb.dep_ != "ROOT" or (subjects and not ends_name):
        return None
    words = list(doc[start : finite.i])
    if not all(w.is_alpha for w in words) or len(words) > 8:
        return None
    if not (words[0].is_title and words[-1].is_title):
        return None
    named = [w for w in words[1:] if w.lower_ not in _TITLE_SMALL]
    if named and all(w.ent_type_ in PLACE_ENTS for w in named):  # "In London": a place
        return None
    if any(not w.is_title and w.lower_ not in _TITLE_SMALL for w in words):
        return None
    marked = (
        ends_name
        or any(w.is_title and w.lower_ in _TITLE_SMALL for w in words[1:])
        or any(
            a.lower_ in _TITLE_SMALL and not a.is_title and b.is_title for a, b in pairwise(words)
        )
    )
    outside = [w for w in words if not start <= w.head.i < finite.i]
    if not marked or any(w.head.i != verb.i for w in outside):
        return None
    return start, finite.i, verb.i


def _pronoun_ending_name(subject: Token, start: int, finite: int) -> bool:
    """A capitalised pronoun right before the verb, after a name: "Doctor Who is …".

    Not a speaker's word: "Kill Me, Heal Me" ends titles that come in lists the parse
    misreads as appositives.
    """
    return (
        subject.pos_ == "PRON"
        and subject.lower_ not in _SPEAKER_WORDS
        and subject.is_title
        and start < subject.i == finite - 1
        and subject.doc[subject.i - 1].pos_ == "PROPN"
    )


def merge_joined_names(doc: Doc) -> None:
    """Merge names joined by "and" before a singular verb into one name: a title or a pair.

    "Pride and Prejudice is a novel", "Simon and Garfunkel was a duo", "A & E is a network":
    two subjects take a plural verb, so capitalised words joined by "and" or "&" that take
    a singular one ("is", "was", "has") name one thing. "Marie and Pierre Curie were
    physicists" stays two subjects.
    """
    found = []
    for token in doc:
        span = _joined_name(token) if token.dep_ in _SUBJECT_DEPS else None
        if span is not None:
            found.append(span)
    for start, end, anchor in reversed(found):
        merge_span(doc, start, end, anchor, {"POS": "PROPN", "TAG": "NNP"})


def _joined_name(subject: Token) -> tuple[int, int, int] | None:
    """``(start, end, anchor)`` of a subject of names joined before a singular verb, or None."""
    conj = [c for c in subject.children if c.dep_ == "conj"]
    joins = [c for c in subject.children if c.dep_ == "cc"]
    if len(conj) != 1 or len(joins) != 1 or joins[0].lower_ not in {"and", "&"}:
        return None
    verb = subject.head
    finite = next((c for c in verb.children if c.dep_ in {"aux", "auxpass"}), verb)
    if not (finite.tag_ == "VBZ" or finite.lower_ == "was") or finite.i < subject.i:
        return None
    words = list(subject.doc[subject.left_edge.i : conj[0].right_edge.i + 1])
    if not (words[0].is_title and words[-1].is_title) or words[-1].i >= finite.i:
        return None
    for word in words:
        if word.text != "&" and not (
            word.is_alpha and (word.is_title or word.lower_ in _TITLE_SMALL)
        ):
            return None
    return words[0].i, words[-1].i + 1, subject.i


def _bare_past(token: Token) -> bool:
    """A root participle with no auxiliary: a past verb the tagger read so for want of a subject."""
    return (
        token.tag_ == "VBN"
        and token.dep_ == "ROOT"
        and not any(c.dep_ in {"aux", "auxpass"} for c in token.children)
    )
