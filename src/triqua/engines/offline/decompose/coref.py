"""Pronoun resolution for the offline decomposer: the most recent compatible mention wins.

A small heuristic stands in for a coreference model (none ships without PyTorch): he/she
take the latest person of a compatible gender (``gender``: titles, first names,
gendered nouns, and earlier pronouns that already referred to the person), it the latest
non-person entity or common-noun subject, they the latest group (plural or coordinated
subject, organisation, nationality). Mentions in the same sentence come first (for a subject
pronoun only the subjects of other clauses: "Together with Pierre, she ..." is not Pierre),
then earlier sentences (subjects preferred), then the previous chunk, then the question.
A surname alone ("Curie") stands for the one full name in the text that ends with it. A
subject said to be a work ("Jerry Maguire is a 1996 film", ``titles``) is a thing there: "it",
never "he" or "she".
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from triqua.core.reading.gender import (
    PRONOUN_GENDER,
    Gender,
    name_gender,
    noun_gender,
)
from triqua.engines.offline.decompose.phrases import render
from triqua.engines.offline.decompose.titles import names_work
from triqua.nlp.tokens import Doc, Token

PERSON = "person"
THING = "thing"
GROUP = "group"

_PRONOUN_CLASSES = {
    **dict.fromkeys(["he", "him", "his", "himself", "she", "her", "hers", "herself"], PERSON),
    **dict.fromkeys(["it", "its", "itself"], THING),
    **dict.fromkeys(["they", "them", "their", "theirs", "themselves"], GROUP),
}
_ENTITY_KINDS: dict[str, frozenset[str]] = {
    "PERSON": frozenset({PERSON}),
    "ORG": frozenset({THING, GROUP}),
    "NORP": frozenset({GROUP}),
    **{
        label: frozenset({THING})
        for label in ("GPE", "LOC", "FAC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE")
    },
}
_SUBJECT_DEPS = {"nsubj", "nsubjpass"}
_OPEN_QUOTES = {'"', "“"}
_CLOSE_QUOTES = {'"', "”"}
_WINDOW = 60  # mentions looked back over; bounds the cost on very long texts


@dataclass(frozen=True)
class Mention:
    """Something a pronoun can refer to, with where it was said."""

    text: str
    kinds: frozenset[str]
    start: int
    sentence_start: int
    subject: bool
    gender: Gender | None = None
    end: int = -1
    """Character offset just past the mention (its last token), -1 when unknown."""
    work: bool = False
    """Said to be a work ("… is a 1996 film"): a thing, whatever its name looks like."""


def pronoun_class(token: Token) -> str | None:
    """The class of referent a personal pronoun needs, or ``None`` for other tokens."""
    if token.pos_ != "PRON" and token.tag_ not in {"PRP", "PRP$"}:
        return None
    return _PRONOUN_CLASSES.get(token.lower_)


def collect_mentions(doc: Doc, base: int = 0) -> list[Mention]:
    """Named entities and noun subjects of a parsed text, ordered by position.

    Args:
        doc: the parsed text.
        base: character offset of ``doc`` in the text that positions are reported in.
    """
    out: list[Mention] = []
    in_entity: set[int] = set()
    for ent in doc.ents:
        kinds = _ENTITY_KINDS.get(ent.label_)
        if kinds is None:
            continue
        tokens = [t for t in ent if t.dep_ != "case"]  # "Eiffel's" names Eiffel
        if not tokens:
            continue
        while tokens[0].i > 0:
            prev = doc[tokens[0].i - 1]
            if (
                prev.pos_ == "PROPN"
                and prev.dep_ == "compound"
                and prev.head.i in range(ent.start, ent.end)
            ):
                tokens.insert(0, prev)
            else:
                break
        before = _nickname_start(doc, tokens)
        if tokens[0].text[:1] in _OPEN_QUOTES and tokens[-1].text[-1:] in _CLOSE_QUOTES:
            kinds = frozenset({THING})  # a quoted title ('"Emma"') is a work, never "he"
        elif before:  # Saul "Canelo" Álvarez, read as a title "Canelo" Álvarez
            tokens = [*before, *tokens]
            kinds = frozenset({PERSON})
        in_entity.update(t.i for t in tokens)
        subject = ent.root.dep_ in _SUBJECT_DEPS
        work = names_work(ent.root)
        if work:
            kinds = frozenset({THING})
        gender = _gender_of(ent.root, [t.text for t in tokens]) if PERSON in kinds else None
        found = _mention(render(tokens), kinds, tokens[0], base, subject, gender, tokens[-1])
        out.append(replace(found, work=work))
    for token in doc:
        if _is_definite_thing(token) and token.i not in in_entity:
            text = render(t for t in token.subtree if t.dep_ != "punct")
            if text and not any(t.pos_ == "PRON" for t in token.subtree):
                out.append(_mention(text, frozenset({THING}), token.left_edge, base, False))
        if token.dep_ not in _SUBJECT_DEPS or token.pos_ not in {"NOUN", "PROPN"}:
            continue
        conj = [c for c in token.rights if c.dep_ == "conj"]
        if token.i in in_entity and not conj:
            continue
        words = [t for left in token.lefts if left.dep_ != "punct" for t in left.subtree]
        if any(t.pos_ == "PRON" for t in words):
            continue  # "his work": its text only makes sense once "his" is resolved
        if conj:
            words += [t for t in token.subtree if t.i > token.i and t.i <= conj[-1].i]
            kinds = frozenset({GROUP})
        elif _is_title(token) or names_work(token):
            kinds = frozenset({THING})  # a title names a work, never "he" or "she"
        elif token.pos_ == "PROPN" or noun_gender(token.text) is not None:
            kinds = frozenset({PERSON})  # a name, or "the actress"
        else:
            kinds = frozenset({GROUP if token.tag_ == "NNS" else THING})
        text = render([*words, token])
        if text:
            first = doc[min(t.i for t in [*words, token])]
            gender = (
                _gender_of(token, [t.text for t in [*words, token]]) if PERSON in kinds else None
            )
            found = _mention(text, kinds, first, base, True, gender, token)
            out.append(replace(found, work=names_work(token)))
    out.sort(key=lambda m: m.start)
    return out


def _nickname_start(doc: Doc, tokens: list[Token]) -> list[Token]:
    """The first name (and opening quote) left out of an entity of a quoted nickname.

    In 'Saul "Canelo" Álvarez' the tagger may take '"Canelo" Álvarez' for a title: a name
    word, an opening quote, words up to a closing quote, then a name word, is one person's
    name. Returns the words to put before ``tokens`` (none where the pattern is not there).
    """
    head = tokens[0]
    if len(tokens) > 1 and head.text[:1] in _OPEN_QUOTES and head.text[-1:] in _CLOSE_QUOTES:
        # the quoted nickname merged into one word ('"Canelo"')
        name = doc[head.i - 1] if head.i > 0 else None
        if name is not None and name.pos_ == "PROPN" and tokens[-1].pos_ == "PROPN":
            return [name]
        return []
    quote = head.i if head.text in _OPEN_QUOTES else head.i - 1
    if quote < 1 or doc[quote].text not in _OPEN_QUOTES or doc[quote - 1].pos_ != "PROPN":
        return []
    close = next((t.i for t in tokens if t.text in _CLOSE_QUOTES and t.i > quote), None)
    if close is None or close >= tokens[-1].i or tokens[-1].pos_ != "PROPN":
        return []
    return list(doc[quote - 1 : tokens[0].i])


def _is_title(token: Token) -> bool:
    """True for a work's title: written in quotes ('"Emma"') or tagged as a work of art."""
    return token.text[:1] in _OPEN_QUOTES or token.ent_type_ == "WORK_OF_ART"


def _is_definite_thing(token: Token) -> bool:
    """True for "the film" as an object: a definite common noun "it" may refer to."""
    return (
        token.dep_ in {"dobj", "pobj"}
        and token.pos_ == "NOUN"
        and token.tag_ == "NN"
        and noun_gender(token.text) is None
        and any(c.dep_ == "det" and c.lower_ in {"the", "this", "that"} for c in token.children)
        and len(list(token.subtree)) <= 6
    )


def _gender_of(head: Token, words: list[str]) -> Gender | None:
    """A person's gender from the name, or from a gendered noun said of them in the clause."""
    found = name_gender(words) or noun_gender(head.text)
    if found is not None:
        return found
    said = [c for c in head.children if c.dep_ == "appos"]
    if head.dep_ in _SUBJECT_DEPS:
        said += [c for c in head.head.children if c.dep_ == "attr"]
    for noun in said:
        found = noun_gender(noun.text)
        if found is not None:
            return found
    return None


def _mention(
    text: str,
    kinds: frozenset[str],
    first: Token,
    base: int,
    subject: bool,
    gender: Gender | None = None,
    last: Token | None = None,
) -> Mention:
    end = base + last.idx + len(last.text) if last is not None else -1
    return Mention(
        text, kinds, base + first.idx, base + first.sent.start_char, subject, gender, end
    )


def _pick(
    mentions: Sequence[Mention],
    needed: str,
    sentence_start: int | None,
    subject: bool,
    gender: Gender | None = None,
    genders: dict[str, Gender] | None = None,
) -> Mention | None:
    """The latest compatible mention, by the order of preference in the module docstring.

    A person of the other gender (by name, noun or an earlier pronoun) is not compatible.
    In the pronoun's own sentence a subject pronoun takes only a subject (of another
    clause); earlier on, subjects are preferred to other mentions.
    """
    known = genders or {}
    compatible = [
        m
        for m in mentions
        if needed in m.kinds
        and (gender is None or (m.gender or known.get(m.text)) in (None, gender))
    ]
    if not compatible:
        return None
    same = [m for m in compatible if m.sentence_start == sentence_start]
    if same:
        pool = [m for m in same if m.subject] if subject else same
        if pool:
            return pool[-1]
    earlier = [m for m in compatible if m.sentence_start != sentence_start]
    if not earlier:
        return None
    subjects = [m for m in earlier if m.subject]
    return (subjects or earlier)[-1]


#: Lower-case words inside personal names ("Baltasar Corrada del Río", "Ludwig van Beethoven").
_NAME_PARTICLES = frozenset(
    {"de", "del", "della", "da", "dos", "van", "von", "der", "la", "le", "bin", "al"}
)


def _name_as_person(mentions: Sequence[Mention]) -> Mention | None:
    """For "he" or "she" with no person in sight: the latest subject that reads as a name.

    The small tagger labels some people's names as organisations ("Roxana Díaz is a
    Venezuelan athlete"); only a person is "he" or "she", so a subject of two to four
    capitalised words (name particles such as "del" aside; a hyphenated given name such as
    "Abdou-Lakhad" is one), with no article or digit, is taken for the person named.
    """
    for mention in reversed(mentions):
        words = mention.text.split()
        if (
            mention.subject
            and PERSON not in mention.kinds
            and not mention.work
            and 2 <= len(words) <= 5
            and all(_name_word(w) or w in _NAME_PARTICLES for w in words)
            and words[-1][:1].isupper()
            and words[0].lower() != "the"
        ):
            return mention
    return None


def _name_word(word: str) -> bool:
    """A capitalised word of letters, or of such words hyphenated ("Abdou-Lakhad")."""
    return all(part.isalpha() and part[:1].isupper() for part in word.split("-"))


def _full_names(mentions: list[Mention]) -> list[Mention]:
    """Mentions with a lone surname ("Curie") replaced by the text's one full name ending so.

    A surname shared by two full names ("Marie Curie", "Pierre Curie") stays as written; a
    work's title ("Jerry Maguire is a 1996 film") is no full name.
    """
    full: dict[str, set[str]] = {}
    for m in mentions:
        if m.work:
            continue
        words = m.text.split()
        person = PERSON in m.kinds or (THING in m.kinds and name_gender(words) is not None)
        if person and 1 < len(words) <= 4 and all(w[:1].isupper() for w in words[-2:]):
            full.setdefault(words[-1], set()).add(m.text)
    out = []
    for m in mentions:
        # a lone surname may be typed as a person or (wrongly) an organisation, not a place
        names = full.get(m.text, set()) if PERSON in m.kinds or GROUP in m.kinds else set()
        if len(names) == 1:
            [name] = names
            gender = m.gender or name_gender(name.split())
            kinds = frozenset({PERSON})
            m = Mention(name, kinds, m.start, m.sentence_start, m.subject, gender, m.end)
        out.append(m)
    return out


def resolve_pronouns(
    docs: Sequence[tuple[int, Doc]],
    fallbacks: Sequence[Callable[[], Sequence[Mention]]] = (),
) -> dict[int, str]:
    """Map the character offset of each resolvable pronoun to its referent's text.

    Args:
        docs: the parsed pieces of one chunk, each with its offset in the chunk.
        fallbacks: mentions of the previous chunk, then of the question, computed on demand.
    """
    found = sorted(
        (m for base, doc in docs for m in collect_mentions(doc, base)), key=lambda m: m.start
    )
    mentions = _full_names(found)
    resolved: dict[int, str] = {
        m.end: m.text for m, was in zip(mentions, found, strict=True) if m.text != was.text
    }  # aliases, keyed by the end of the surname; pronouns are keyed by their start
    genders: dict[str, Gender] = {m.text: m.gender for m in mentions if m.gender is not None}
    starts = [m.start for m in mentions]
    loaded: dict[int, Sequence[Mention]] = {}
    for base, doc in docs:
        for sent in doc.sents:
            sentence_start = base + sent.start_char
            for token in sent:
                needed = pronoun_class(token)
                if needed is None:
                    continue
                position = base + token.idx
                subject = token.dep_ in _SUBJECT_DEPS
                gender = PRONOUN_GENDER.get(token.lower_)
                k = bisect.bisect_left(starts, position)
                window = mentions[max(0, k - _WINDOW) : k]
                picked = _pick(window, needed, sentence_start, subject, gender, genders)
                for n, fallback in enumerate(fallbacks):
                    if picked is not None:
                        break
                    if n not in loaded:
                        loaded[n] = _full_names(list(fallback()))
                    picked = _pick(loaded[n], needed, None, subject, gender, genders)
                if picked is None and gender is not None:
                    picked = _name_as_person(window)
                if picked is None:
                    continue
                referent = picked.text
                if gender is not None and picked.gender is None:
                    genders.setdefault(referent, gender)
                resolved[position] = referent
                kinds = picked.kinds if needed == PERSON else frozenset({needed})
                mentions.insert(
                    k,
                    Mention(referent, kinds, position, sentence_start, subject, gender, -1),
                )
                starts.insert(k, position)
    return resolved
