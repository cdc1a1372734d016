"""The role gate: whose clause holds the fact's object, read from spaCy's dependency parse.

A sentence may hold every word of a fact and another meaning: "Sydney is the largest city
of Australia, but Canberra is the capital of Australia" holds "Sydney" and "the capital of
Australia", yet the capital is Canberra's. The gate finds the clause that holds the object's
head word (its nearest governing word with a nominal subject) and reads that subject: when
it names someone else — a proper name that is not the fact's subject, nor a pronoun that
may refer back to it — the sentence gives the relation to another, and it never supports.
Read on the few windows that would support, so the parse costs one call per fact at most.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from triqua.engines.offline.verify.align import TextInfo, analyse
from triqua.engines.offline.verify.words import stem
from triqua.nlp.pipeline import MAX_TEXT_CHARS, NLP_LOCK, load_nlp

if TYPE_CHECKING:
    from triqua.nlp.tokens import Doc
    from triqua.nlp.tokens import Token as SpacyToken

__all__ = ["held_by_another"]

_SUBJECTS = frozenset({"nsubj", "nsubjpass", "csubj"})


# The gate reads the dependency parse and coarse tags only: the entity recogniser, about half
# of the pipeline's time, runs in its own layers (en_core_web_sm's tagger and parser share a
# tok2vec it does not listen to), so leaving it out changes no parse.
_UNREAD_PIPES = ("ner",)


@functools.lru_cache(maxsize=512)
def _parse(text: str) -> Doc:
    """SpaCy's parse of a window, cached: the facts of one sentence share its windows."""
    with NLP_LOCK:
        nlp = load_nlp()
        return nlp(text, disable=[p for p in _UNREAD_PIPES if p in nlp.pipe_names])


def _owner(token: SpacyToken) -> SpacyToken | None:
    """The nominal subject of the nearest clause that governs ``token`` (None: no clause).

    A pronoun subject that opens a later sentence is read as the subject of the sentence
    before it, as a reader takes it ("Marie married Pierre. She was born in Warsaw": she is
    Marie).
    """
    for head in (token, *token.ancestors):
        found = [child for child in head.children if child.dep_ in _SUBJECTS]
        if found:
            owner = found[0]
            sentence = owner.sent
            if owner.pos_ == "PRON" and sentence.start > 0:
                before = owner.doc[sentence.start - 1].sent
                antecedent = [t for t in before.root.children if t.dep_ in _SUBJECTS]
                if antecedent and antecedent[0].pos_ != "PRON":
                    return antecedent[0]
            return owner
    return None


def held_by_another(subject: TextInfo, obj: TextInfo, text: str) -> str | None:
    """The other name whose clause holds the object, if it is not the subject's.

    The clause that holds most of the object's words is the one that states it ("the Amazon
    is the longest river in South America" over "the Nile is the longest river in Africa").
    None when that clause is the subject's (or a pronoun's that may be its, or the object's
    own, as in a passive), when its owner is no proper name ("the team won the cup" leaves
    the judge to read), or when no clause holds the object.
    """
    if not obj.content or not text.strip():
        return None
    subject_stems = {t.stem for t in subject.content}
    object_stems = {t.stem for t in obj.content} - subject_stems
    if not object_stems:
        return None
    if not _other_capitalised(text, subject_stems | object_stems):
        return None  # no name but the fact's own: no other name can hold the object
    doc = _parse(text[:MAX_TEXT_CHARS])
    held: dict[int, set[str]] = {}
    owners: dict[int, SpacyToken | None] = {}
    for token in doc:
        word = stem(token.text)
        if word in object_stems:
            owner = _owner(token)
            key = owner.i if owner is not None else -1
            held.setdefault(key, set()).add(word)
            owners[key] = owner
    if not held:
        return None
    most = max(len(words) for words in held.values())
    verdicts = [
        _other_name(owners[k], subject_stems, object_stems)
        for k, w in held.items()
        if len(w) == most
    ]
    return None if None in verdicts else verdicts[0]


def _other_capitalised(text: str, own: set[str]) -> bool:
    """True when a capitalised word that is not the fact's own stands inside a sentence."""
    for token in analyse(text).tokens:
        before = text[: token.start].rstrip()
        opens = not before or before[-1] in '.!?:;"“'
        if token.is_capitalised and token.stem not in own and not opens:
            return True
    return False


def _other_name(
    owner: SpacyToken | None, subject_stems: set[str], object_stems: set[str]
) -> str | None:
    """The owner's words when it is a proper name other than the subject (else None)."""
    if owner is None or owner.pos_ == "PRON":
        return None
    words = list(owner.subtree)
    stems = {stem(t.text) for t in words}
    if stems & subject_stems or stems & object_stems:
        return None
    if not any(t.pos_ == "PROPN" for t in words):
        return None
    return " ".join(t.text for t in words)
