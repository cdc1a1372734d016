"""Which sentences of a passage speak about a subject, read as a reader would.

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

import functools
from collections.abc import Sequence

from triqua.core.reading.analysis import TextInfo, Token, analyse
from triqua.core.reading.lexicon import LEXICON
from triqua.core.reading.name_match import ALIAS, name_match
from triqua.core.reading.quotes import normalise
from triqua.core.reading.rivals import class_of, rival_kinds
from triqua.core.reading.values.leads import read_as_lead
from triqua.core.reading.values.name_rivals import reference_beside_another
from triqua.core.reading.values.names import name_runs
from triqua.nlp.passages import entities
from triqua.sentences import sentence_spans

__all__ = [
    "REFERS",
    "passage_scores",
    "passive",
    "refers_back",
    "sentence_before",
    "subject_extended",
    "subject_scores",
]

REFERS = 0.7
"""Subject score of a sentence that refers back to the subject (pronoun, "the city")."""

_PRONOUNS = LEXICON.pronouns
#: Pronouns that may stand as a clause's subject after an opening phrase.
_SUBJECT_PRONOUNS = frozenset({"he", "she", "it", "they"})
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


def refers_back(
    info: TextInfo, own: frozenset[str] = frozenset(), rivals: frozenset[str] = frozenset()
) -> bool:
    """True when the sentence opens with a pronoun or "the/this <noun>" before any name.

    The noun is one the lexicon knows for a topic ("the city"), or one of ``own``: the
    subject's own head noun ("the wall" for "The Berlin Wall"). It may be a possessor
    ("The company's headquarters are in Stockholm"). A noun of ``rivals`` is no reference
    to the subject: the passage has named another of that kind. An opening
    phrase set off by a comma may hold names of its own: "Born in the Austrian Empire, he
    studied …" and "Set on Long Island, it was published …" refer back by their subject.
    A sentence whose subject is another name refers back to nobody ("Canberra is the
    capital of Australia").
    """
    if _name_subject(info):
        return False  # "Canberra is the capital …" is Canberra's, whatever "the capital" says
    heads = (LEXICON.definite_heads | own) - rivals
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
        if low in _DETERMINERS and _definite(tokens[i + 1 : i + 5], heads):
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
    return low in _DETERMINERS and _definite(tokens[1:5], heads)


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
    if following is not None and following.text.lower() == "of" and at + 2 < len(after):
        # "The largest city of Australia" describes something of a name: no reference.
        return not after[at + 2].is_capitalised
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
    subject: TextInfo,
    sentences: Sequence[TextInfo],
    title: TextInfo | None,
    *,
    patient: bool = False,
    lead: bool = False,
) -> list[float]:
    """How strongly each sentence of one passage speaks about ``subject`` (0: not at all).

    1.0 names it in full, ``ALIAS`` by surname or acronym (or by its first word once the
    passage names it in full: "Syracuse" for "Syracuse New York"), ``REFERS`` refers back.
    For a fact whose subject is its relation's patient (``patient``: "was launched on"), a
    sentence that opens with other names and writes "it" as its verb's object ("Jimmy Wales
    and Larry Sanger launched it on …") refers back to the topic too, and keeps it. A titled
    passage that opens its document (``lead``) names the title's person in its first
    sentence, by whatever longer name (:func:`triqua.core.reading.titles.read_as_lead`).
    """
    scores = []
    for info in sentences:
        score = name_match(subject, info)
        if score == ALIAS and subject_extended(subject, info):
            score = 0.0  # "Pierre Curie" is no alias of "Marie Curie"
        scores.append(score)
    titled = title is not None and name_match(subject, title) > 0
    if titled and lead and title is not None:
        _read_lead(subject, sentences, title, scores)
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
        *(class_of(info) for info, score in zip(sentences, scores, strict=True) if score == 1.0)
    )
    stems = frozenset(t.stem for t in subject.content)
    rivals: frozenset[str] = frozenset()
    # "… than the Golden Gate Bridge", "The lion is a cat species": a later "the bridge" or
    # "the species" may mean another one. The sentences read so far give their rivals when
    # a later one is read for a reference back (most never are).
    unread: list[tuple[TextInfo, bool]] = []
    for i, info in enumerate(sentences):
        about = scores[i] > 0
        if about:
            topic = True
        else:
            rivals = rivals.union(*(rival_kinds(seen, stems, was) for seen, was in unread))
            unread = []
            if refers_back(info, own, rivals):
                shared = i > 0 and _beside_another(subject, sentences[i - 1], info)
                scores[i] = REFERS if topic and not shared else 0.0
                about = True
            elif patient and topic and _object_it(info):
                scores[i] = REFERS
                about = True
            elif _opens_with_name(info):
                topic = False
        unread.append((info, about))
    return scores


def _read_lead(
    subject: TextInfo, sentences: Sequence[TextInfo], title: TextInfo, scores: list[float]
) -> None:
    """Score a titled page's lead as naming the title's person in full (in place).

    The lead is the first sentence, or the second when the first only repeats the title
    ("# Bill Gates" as a Markdown heading).
    """
    first = 1 if sentences and normalise(sentences[0].text) == normalise(title.text) else 0
    if (
        first < len(sentences)
        and scores[first] < 1.0
        and read_as_lead(normalise(subject.text), sentences[first].text, title.text)
    ):
        scores[first] = 1.0


def _beside_another(subject: TextInfo, before: TextInfo, sentence: TextInfo) -> bool:
    """True when the sentence before names the subject beside another name in a core part.

    "Apple bought Beats and Google bought Fitbit. Its price …": "its" may mean either, so
    the sentence after refers to no one (the grounding rule reads it so too). The subject's
    name is its first capitalised run ("Fitbit" of "Fitbit's price"). A name the referring
    ``sentence`` writes itself is not the one it means ("… met Queen Victoria. He married
    Queen Victoria …": he is not Victoria).
    """
    runs = name_runs(subject.text)
    return bool(runs) and reference_beside_another(runs[0].name, before.text, sentence.text)


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


@functools.lru_cache(maxsize=4096)
def passage_scores(
    subject: TextInfo,
    texts: tuple[str, ...],
    title: TextInfo | None,
    patient: bool = False,
    lead: bool = False,
) -> tuple[float, ...]:
    """:func:`subject_scores` of a passage's sentences, remembered.

    The facts of one subject share their passages (and a re-verified fact reads them again),
    and the scores are a function of the subject, the sentences, the title, whether the
    subject is its relation's patient and whether the passage opens its document.
    """
    infos = [analyse(text) for text in texts]
    return tuple(subject_scores(subject, infos, title, patient=patient, lead=lead))


def sentence_before(before: str) -> TextInfo | None:
    """The last sentence of ``before``: the one a sentence that refers back refers to."""
    spans = sentence_spans(before)
    if not spans:
        return None
    start, end = spans[-1]
    return analyse(before[start:end])
