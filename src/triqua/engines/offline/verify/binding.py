"""Which evidence sentences speak about a fact's subject, read as a reader would.

A sentence speaks about the subject when it names it ("Marie Curie", or "Curie" once the
passage has named her in full), or when it refers back to it: it opens with a pronoun
("She won ...") or a definite description ("The city had ...") while the subject is the
passage's current topic. The topic is the title or the first sentence's subject, and it
changes whenever a sentence opens with another name ("Pierre Curie was ... He ...").
An untitled excerpt opening with a pronoun is about no one it does not name: a chunk cut
from a longer text ("He later moved to Ulm.") may mean anyone.

A heuristic, not the decomposer's parse-based coreference: parsing every evidence passage
costs ~30 ms, too slow for the evidence of every fact, while the rules here cost nothing
and capture how encyclopaedic passages refer back to their topic.
"""

from __future__ import annotations

from collections.abc import Sequence

from triqua.core.reading.analysis import TextInfo, Token
from triqua.core.reading.lexicon import LEXICON
from triqua.core.reading.name_match import ALIAS, name_match

__all__ = ["REFERS", "passive", "refers_back", "subject_extended", "subject_scores"]

REFERS = 0.7
"""Subject score of a sentence that refers back to the subject (pronoun, "the city")."""

_PRONOUNS = LEXICON.pronouns
#: Pronouns that may stand as a clause's subject after an opening phrase.
_SUBJECT_PRONOUNS = frozenset({"he", "she", "it", "they"})
_DETERMINERS = frozenset({"the", "this", "that", "these", "those"})
_OPENING = 8  # words at the start of a sentence that may hold its subject


def refers_back(info: TextInfo, own: frozenset[str] = frozenset()) -> bool:
    """True when the sentence opens with a pronoun or "the/this <noun>" before any name.

    The noun is one the lexicon knows for a topic ("the city"), or one of ``own``: the
    subject's own head noun ("the wall" for "The Berlin Wall"). It may be a possessor
    ("The company's headquarters are in Stockholm"). An opening
    phrase set off by a comma may hold names of its own: "Born in the Austrian Empire, he
    studied …" and "Set on Long Island, it was published …" refer back by their subject.
    """
    heads = LEXICON.definite_heads | own
    if _opens_referring(info.tokens[:_OPENING], heads):
        return True
    comma = info.text.find(",")
    if comma < 0:
        return False
    rest = [t for t in info.tokens if t.start > comma][:_OPENING]
    opening = [t for t in info.tokens if t.start < comma]
    return len(opening) <= _OPENING and _subject_refers(rest, heads)


def _opens_referring(tokens: Sequence[Token], heads: frozenset[str]) -> bool:
    """Whether these opening words reach a pronoun or a definite description before a name."""
    for i, token in enumerate(tokens):
        low = token.text.lower()
        if low in _PRONOUNS:
            return True
        if low in _DETERMINERS and _definite(tokens[i + 1 : i + 4], heads):
            return True
        if i > 0 and token.is_capitalised and not token.is_stop:
            return False  # a name comes first: the sentence is about it
    return False


def _subject_refers(tokens: Sequence[Token], heads: frozenset[str]) -> bool:
    """Whether a clause starts with a subject pronoun or "the <noun>" ("he studied …")."""
    if not tokens:
        return False
    low = tokens[0].text.lower()
    if low in _SUBJECT_PRONOUNS:
        return True
    return low in _DETERMINERS and _definite(tokens[1:4], heads)


def _definite(after: Sequence[Token], heads: frozenset[str]) -> bool:
    """Whether the words after a determiner head a definite description ("city", "band's").

    A description with a name after it ("the engineer Joseph Strauss") names someone else.
    """
    words = [_head_word(t.text) for t in after[:2]]
    if not words:
        return False
    at = 0 if words[0] in heads else None
    if at is None and len(words) > 1 and not after[0].is_capitalised:
        at = 1 if words[1] in heads else None
    if at is None:
        return False
    following = after[at + 1] if at + 1 < len(after) else None
    return following is None or not (following.is_capitalised and not following.is_stop)


def _head_word(text: str) -> str:
    """A word lower-cased, its possessive ending dropped ("company's" -> "company")."""
    low = text.lower()
    for ending in ("'s", "’s"):
        if low.endswith(ending):
            return low[: -len(ending)]
    return low


def _own_head(subject: TextInfo) -> frozenset[str]:
    """The head noun of a subject's name, lower-cased: "wall" of "The Berlin Wall"."""
    last = subject.content[-1].text.lower() if len(subject.content) > 1 else ""
    return frozenset({last}) if last.isalpha() and len(last) > 2 else frozenset()


_COPULAS = frozenset({"is", "was", "are", "were"})
_ARTICLES = frozenset({"a", "an", "the"})


def _class_of(info: TextInfo) -> frozenset[str]:
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


def _opens_with_name(info: TextInfo) -> bool:
    """True when the sentence's first word is a name (not a function word)."""
    first = info.tokens[0] if info.tokens else None
    if first is None:
        return False
    if first.text.lower() in _DETERMINERS and len(info.tokens) > 1:
        return info.tokens[1].is_capitalised  # "The Beatles were ..."
    return first.is_capitalised and not first.is_stop and not first.text.isdigit()


def subject_extended(subject: TextInfo, sentence: TextInfo) -> bool:
    """True when every mention of the subject runs into other name words.

    "James Lawson" for "Lawson" may name another entity, so it is not the subject.
    """
    if not subject.is_name:
        return False
    stems = {t.stem for t in subject.content}
    tokens = sentence.tokens
    mentions = [i for i, t in enumerate(tokens) if t.stem in stems]

    def extended(i: int) -> bool:
        # "Newton's Principia" is Newton's: a possessive does not run into the next name.
        possessive = tokens[i].text.lower().endswith(("'s", "’s"))
        for j in (i - 1,) if possessive else (i - 1, i + 1):
            if 0 <= j < len(tokens):
                other = tokens[j]
                # "War, Turing": punctuation between two capitalised words ends a name.
                left, right = sorted((other, tokens[i]), key=lambda t: t.start)
                adjacent = not sentence.text[left.end : right.start].strip()
                if (
                    adjacent
                    and other.is_capitalised
                    and not other.is_stop
                    and other.stem not in stems
                ):
                    return True
        return False

    return bool(mentions) and all(extended(i) for i in mentions)


def subject_scores(
    subject: TextInfo,
    sentences: Sequence[TextInfo],
    title: TextInfo | None,
    *,
    patient: bool = False,
) -> list[float]:
    """How strongly each sentence of one passage speaks about ``subject`` (0: not at all).

    1.0 names it in full, ``ALIAS`` by surname or acronym (or by its first word once the
    passage names it in full: "Syracuse" for "Syracuse New York"), ``REFERS`` refers back.
    For a fact whose subject is its relation's patient (``patient``: "was launched on"), a
    sentence that opens with other names and writes "it" as its verb's object ("Jimmy Wales
    and Larry Sanger launched it on …") refers back to the topic too, and keeps it.
    """
    scores = []
    for info in sentences:
        score = name_match(subject, info)
        if score == ALIAS and subject_extended(subject, info):
            score = 0.0  # "Pierre Curie" is no alias of "Marie Curie"
        scores.append(score)
    titled = title is not None and name_match(subject, title) > 0
    named_in_full = titled or any(s == 1.0 for s in scores)
    if not named_in_full and any(subject_extended(subject, info) for info in sentences):
        # "Marie Curie … Curie won": a passage that names another person of that surname in
        # full, and never the subject, means that person by the surname alone.
        scores = [0.0 if s == ALIAS else s for s in scores]
    first = subject.content[0] if subject.content else None
    if named_in_full and subject.is_name and first is not None and len(first.stem) >= 4:
        for i, info in enumerate(sentences):
            if not scores[i] and first.stem in info.stems and not subject_extended(subject, info):
                scores[i] = ALIAS
    topic = titled or (bool(scores) and scores[0] > 0)
    own = _own_head(subject).union(
        *(_class_of(info) for info, score in zip(sentences, scores, strict=True) if score == 1.0)
    )
    for i, info in enumerate(sentences):
        if scores[i] > 0:
            topic = True
        elif refers_back(info, own):
            scores[i] = REFERS if topic else 0.0
        elif patient and topic and _object_it(info):
            scores[i] = REFERS
        elif _opens_with_name(info):
            topic = False
    return scores


def _object_it(info: TextInfo) -> bool:
    """True when "it" is the object of the sentence's first verb ("Facebook bought it").

    The first verb is the first lower-case word in a past form ("-ed", or an irregular
    form of the lexicon: "bought"). "Google acquired DeepMind in 2014 and renamed it" puts
    another object first, which "it" may mean: it refers to no topic then.
    """
    tokens = info.tokens
    for at, token in enumerate(tokens[:-1]):
        low = token.text.lower()
        if token.is_stop or token.is_capitalised or not low.isalpha():
            continue
        if low.endswith("ed") or low in LEXICON.word_forms:
            return tokens[at + 1].text == "it"
    return False


def passive(relation: TextInfo) -> bool:
    """True for a passive relation, its subject the patient: "was launched on", "is owned by"."""
    words = [t.text.lower() for t in relation.tokens]
    return (
        len(words) >= 2
        and words[0] in _BE
        and words[1].isalpha()
        and (words[1].endswith(("ed", "en")) or words[1] in _PARTICIPLES)
    )


_BE = frozenset({"is", "was", "are", "were", "been"})
#: Irregular past participles that end in neither "-ed" nor "-en".
_PARTICIPLES = frozenset({"built", "made", "sold", "held", "led", "won", "set", "bought", "run"})
