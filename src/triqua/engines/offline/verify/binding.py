"""Which evidence sentences speak about a fact's subject, read as a reader would.

A sentence speaks about the subject when it names it ("Marie Curie", or "Curie" once the
passage has named her in full), or when it refers back to it: it opens with a pronoun
("She won ...") or a definite description ("The city had ...") while the subject is the
passage's current topic. The topic is the title or the first sentence's subject, and it
changes whenever a sentence opens with another name ("Pierre Curie was ... He ...").
A sentence whose subject is another name refers back to nobody, whatever description or
pronoun it holds later: "Canberra is the capital of Australia." is about Canberra, not
about the city the passage named before it.
An untitled excerpt opening with a pronoun is about no one it does not name: a chunk cut
from a longer text ("He later moved to Ulm.") may mean anyone.

A heuristic, not the decomposer's parse-based coreference: parsing every evidence passage
costs ~30 ms, too slow for the evidence of every fact, while the rules here cost nothing
and capture how encyclopaedic passages refer back to their topic.
"""

from __future__ import annotations

from collections.abc import Sequence

from triqua.core.reading.analysis import TextInfo
from triqua.core.reading.lexicon import LEXICON
from triqua.core.reading.name_match import ALIAS, name_match
from triqua.nlp.passages import entities

__all__ = ["REFERS", "refers_back", "subject_extended", "subject_scores"]

REFERS = 0.7
"""Subject score of a sentence that refers back to the subject (pronoun, "the city")."""

_PRONOUNS = LEXICON.pronouns
_DETERMINERS = frozenset({"the", "this", "that", "these", "those"})
_OPENING = 8  # words at the start of a sentence that may hold its subject
#: Verbs that follow a one-word name as a sentence's subject ("Canberra is", "Sydney has").
_FINITE = frozenset(
    {"is", "are", "was", "were", "has", "have", "had", "became", "becomes", "remains"}
    | {"remained", "will", "would", "can", "could", "may", "might", "also"}
)
#: Endings of an opening word that is no name: an adverb or a participle ("Initially named",
#: "Having won", "Founded by").
_NOT_NAME_ENDINGS = ("ly", "ing", "ed")


def refers_back(info: TextInfo) -> bool:
    """True when the sentence opens with a pronoun or "the/this <noun>" before any name.

    A sentence whose subject is another name refers back to nobody, whatever it says of
    "the capital" or "he" later ("Canberra is the capital of Australia").
    """
    return _reference(info) and not _name_subject(info)


def _reference(info: TextInfo) -> bool:
    """True when a pronoun or "the/this <noun>" comes before any name past the first word."""
    tokens = info.tokens[:_OPENING]
    for i, token in enumerate(tokens):
        low = token.text.lower()
        if low in _PRONOUNS:
            return True
        if low in _DETERMINERS:
            after = [t.text.lower() for t in tokens[i + 1 : i + 3]]
            if after and (
                after[0] in LEXICON.definite_heads
                or (
                    len(after) > 1
                    and not tokens[i + 1].is_capitalised
                    and after[1] in (LEXICON.definite_heads)
                )
            ):
                return True
        if i > 0 and token.is_capitalised and not token.is_stop:
            return False  # a name comes first: the sentence is about it
    return False


def _name_subject(info: TextInfo) -> bool:
    """True when the sentence's first word is a one-word name that is its subject.

    A capitalised first word may be a name when a verb follows it ("Canberra is", "Einstein
    won") or it is a possessive ("Sydney's harbour"); an adverb, a participle or a word
    before a comma or a function word opens a phrase instead ("Later, she", "Born in").
    The entity recogniser then decides: "Canberra" is a name, "Critics" of "Critics
    praised the film" is not (it runs only on such openings). Names of two words are read
    where their second word stands (``refers_back``).
    """
    if len(info.tokens) < 2:
        return False
    first, second = info.tokens[0], info.tokens[1]
    low = first.text.lower()
    if (
        not first.is_capitalised
        or first.is_stop
        or low in _PRONOUNS
        or low in _DETERMINERS
        or first.text.isdigit()
    ):
        return False
    if info.text[first.end : second.start].strip() or second.is_capitalised:
        return False
    following = second.text.lower()
    possessive = low.endswith(("'s", "’s"))
    phrase = second.is_stop or following in _PRONOUNS or low.endswith(_NOT_NAME_ENDINGS)
    if not possessive and following not in _FINITE and phrase:
        return False
    return any(start == first.start for start, _, _ in entities(info.text))


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
    subject: TextInfo, sentences: Sequence[TextInfo], title: TextInfo | None
) -> list[float]:
    """How strongly each sentence of one passage speaks about ``subject`` (0: not at all).

    1.0 names it in full, ``ALIAS`` by surname or acronym (or by its first word once the
    passage names it in full: "Syracuse" for "Syracuse New York"), ``REFERS`` refers back.
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
    for i, info in enumerate(sentences):
        if scores[i] > 0:
            topic = True
        elif refers_back(info):
            scores[i] = REFERS if topic else 0.0
        elif _opens_with_name(info):
            topic = False
    return scores
