"""Pronoun resolution for the offline decomposer: the most recent compatible mention wins.

A small heuristic stands in for a coreference model (none ships without PyTorch): he/she
take the latest person, it the latest non-person entity or common-noun subject, they the
latest group (plural or coordinated subject, organisation, nationality). Mentions in the
same sentence come first, then earlier sentences (subjects preferred), then the previous
chunk, then the question.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from spacy.tokens import Doc, Token

from triqua.engines.offline.decomposer_phrases import render

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
_WINDOW = 60  # mentions looked back over; bounds the cost on very long texts


@dataclass(frozen=True)
class Mention:
    """Something a pronoun can refer to, with where it was said."""

    text: str
    kinds: frozenset[str]
    start: int
    sentence_start: int
    subject: bool


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
        in_entity.update(t.i for t in tokens)
        subject = ent.root.dep_ in _SUBJECT_DEPS
        out.append(_mention(render(tokens), kinds, tokens[0], base, subject))
    for token in doc:
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
        elif token.pos_ == "PROPN":
            kinds = frozenset({PERSON})
        else:
            kinds = frozenset({GROUP if token.tag_ == "NNS" else THING})
        text = render([*words, token])
        if text:
            out.append(_mention(text, kinds, doc[min(t.i for t in [*words, token])], base, True))
    out.sort(key=lambda m: m.start)
    return out


def _mention(text: str, kinds: frozenset[str], first: Token, base: int, subject: bool) -> Mention:
    return Mention(text, kinds, base + first.idx, base + first.sent.start_char, subject)


def _pick(
    mentions: Sequence[Mention], needed: str, sentence_start: int | None, subject: bool
) -> str | None:
    """The latest compatible mention, by the order of preference in the module docstring.

    In the pronoun's own sentence a subject pronoun prefers a subject; earlier on, subjects
    are preferred to other mentions.
    """
    compatible = [m for m in mentions if needed in m.kinds]
    if not compatible:
        return None
    same = [m for m in compatible if m.sentence_start == sentence_start]
    if same:
        same_subjects = [m for m in same if m.subject] if subject else []
        return (same_subjects or same)[-1].text
    subjects = [m for m in compatible if m.subject]
    return (subjects or compatible)[-1].text


def resolve_pronouns(
    docs: Sequence[tuple[int, Doc]],
    fallbacks: Sequence[Callable[[], Sequence[Mention]]] = (),
) -> dict[int, str]:
    """Map the character offset of each resolvable pronoun to its referent's text.

    Args:
        docs: the parsed pieces of one chunk, each with its offset in the chunk.
        fallbacks: mentions of the previous chunk, then of the question, computed on demand.
    """
    mentions = sorted(
        (m for base, doc in docs for m in collect_mentions(doc, base)), key=lambda m: m.start
    )
    starts = [m.start for m in mentions]
    loaded: dict[int, Sequence[Mention]] = {}
    resolved: dict[int, str] = {}
    for base, doc in docs:
        for sent in doc.sents:
            sentence_start = base + sent.start_char
            for token in sent:
                needed = pronoun_class(token)
                if needed is None:
                    continue
                position = base + token.idx
                subject = token.dep_ in _SUBJECT_DEPS
                k = bisect.bisect_left(starts, position)
                window = mentions[max(0, k - _WINDOW) : k]
                referent = _pick(window, needed, sentence_start, subject)
                for n, fallback in enumerate(fallbacks):
                    if referent is not None:
                        break
                    if n not in loaded:
                        loaded[n] = fallback()
                    referent = _pick(loaded[n], needed, None, subject)
                if referent is None:
                    continue
                resolved[position] = referent
                mentions.insert(
                    k, Mention(referent, frozenset({needed}), position, sentence_start, subject)
                )
                starts.insert(k, position)
    return resolved
