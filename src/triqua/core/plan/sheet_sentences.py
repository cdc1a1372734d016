"""Which sentences of a batch's passages the evidence sheet shows for each fact.

Sentences are chosen the way the offline verifier ranks the windows it judges: by word
overlap with the fact, the subject's words weighing 0.5, the relation's 0.2 and the object's
0.3 (a sentence that neither names the subject nor refers back to it, "She …" right after
a sentence naming it, weighs half), and, when the caller gives a ``similarity`` (the LLM
engine passes MiniLM's cosine), the lexically closest few are ranked by 0.6 × cosine + 0.4 ×
overlap. A fact is shown its best sentence, and then each next one that scores at least
``CLOSE_SCORE`` of the best, up to ``MAX_SENTENCES_PER_FACT``: where one sentence clearly
decides, one is shown; where several passages compete, more are. Each of these is shown with
its window, the sentence right before it and the one right after it in its paragraph (none
across a blank line), as the offline verifier reads an aligned sentence together with its
neighbour when the sentence alone does not state the fact ("Put the matcha powder in hot
water." then "Whisk until it has dissolved."). A qualifier is shown its own best sentence, by
overlap with the qualifier (its words taking the subject's weight), the relation and the
object, without a window: a qualifier is judged in its base's window. A chosen sentence that
refers back ("She …", "The film …") is shown with the sentence before it, where the name
stands, and a sentence that continues a chosen one ("It …" right after it) is shown too. A
sentence that two passages both hold is shown once, so it takes one of a fact's places, not
two. Sentences are split as ``triqua.sentences`` splits them ("U.S." ends none), and a run-on
(web boilerplate) is cut into pieces of ``MAX_SENTENCE_WORDS`` words, so that one long line
costs no more than a sentence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from triqua.core.reading.lexicon import LEXICON
from triqua.core.reading.words import definite_heads, word_stems
from triqua.schema import Evidence, Fact
from triqua.sentences import sentence_spans

__all__ = [
    "Place",
    "Similarity",
    "choose_sentences",
    "split_sentences",
]

Similarity = Callable[[str, Sequence[str]], Sequence[float]]
"""Cosine similarity of a query with each of some sentences, in their order."""

Place = tuple[int, int]
"""A sentence of the sheet's passages: (passage index among those shown, sentence index)."""

#: Most sentences shown per fact, chosen by their score against the fact's base triple.
MAX_SENTENCES_PER_FACT = 4
#: A fact's further sentences are shown while they score at least this share of its best.
CLOSE_SCORE = 0.8
#: Further sentences shown per qualifier of a fact, chosen by their score against it.
SENTENCES_PER_QUALIFIER = 1
#: Overlap weights of the subject's, the relation's and the object's words (the offline
#: verifier's); a qualifier's words take the subject's weight when choosing its sentence.
PART_WEIGHTS = (0.5, 0.2, 0.3)
#: Sentences (the lexically closest) whose similarity to the fact is asked for.
EMBEDDED_SENTENCES = 8
#: Weight of the similarity in a sentence's score; the overlap takes the rest.
COSINE_WEIGHT = 0.6
#: Longer sentences (run-ons of web boilerplate) are cut into pieces of this many words.
MAX_SENTENCE_WORDS = 40
#: Weight of a sentence's overlap when it does not name the fact's subject.
NAMELESS_WEIGHT = 0.5

_NUMBER = re.compile(r"\d+")
_TOKEN = re.compile(r"\S+")
#: Words a sentence opens with when it refers back to a subject named before it.
_REFERRING = LEXICON.pronouns
_DETERMINERS = frozenset(("the", "this", "these", "that", "those"))


def _words(text: str) -> set[str]:
    """Word stems ("founded", "founding": "found") and numbers of ``text``."""
    return {w for w in word_stems(text) if len(w) > 2} | set(_NUMBER.findall(text))


def split_sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``, run-ons cut at ``MAX_SENTENCE_WORDS``."""
    out = []
    for start, end in sentence_spans(text):
        tokens = [(start + m.start(), start + m.end()) for m in _TOKEN.finditer(text[start:end])]
        for i in range(0, len(tokens), MAX_SENTENCE_WORDS):
            piece = tokens[i : i + MAX_SENTENCE_WORDS]
            out.append((piece[0][0], piece[-1][1]))
    return out


def _refers_back(sentence: str) -> bool:
    """Whether ``sentence`` opens by referring back to a name before it ("She", "The film")."""
    words = sentence.split(maxsplit=2)
    first = words[0].casefold().strip("\"'“‘(") if words else ""
    if first in _REFERRING:
        return True
    return first in _DETERMINERS and len(words) > 1 and words[1].casefold() in definite_heads()


@dataclass(frozen=True)
class _Wanted:
    """What one of a fact's choices looks for: weighted words, a query, how many sentences.

    Attributes:
        weights: Each word's weight (a part's weight shared by its words); they sum to 1.
        query: The text a sentence's similarity is measured against.
        keep: The most sentences chosen.
    """

    weights: dict[str, float]
    query: str
    keep: int


def _weights(parts: Sequence[str]) -> dict[str, float]:
    """Word weights of ``parts`` (``PART_WEIGHTS`` in order), normalised over the parts with words.

    A part's weight is shared by its words; a word of two parts weighs the more of the two.
    """
    weights: dict[str, float] = {}
    sets = [(_words(part), weight) for part, weight in zip(parts, PART_WEIGHTS, strict=True)]
    total = sum(weight for words, weight in sets if words)
    for words, weight in sets:
        for word in words:
            weights[word] = max(weights.get(word, 0.0), weight / len(words) / total)
    return weights


def _wanted(fact: Fact) -> list[_Wanted]:
    """What a fact's sentences are chosen by: its base triple, then each qualifier."""
    base = f"{fact.subject} {fact.relation} {fact.object}"
    out = [
        _Wanted(_weights((fact.subject, fact.relation, fact.object)), base, MAX_SENTENCES_PER_FACT)
    ]
    for q in fact.qualifiers:
        weights = _weights((f"{q.label} {q.value}", fact.relation, fact.object))
        out.append(_Wanted(weights, f"{base} {q.label} {q.value}", SENTENCES_PER_QUALIFIER))
    return out


def _best(
    texts: Sequence[str],
    words: Sequence[set[str]],
    wanted: _Wanted,
    named: Sequence[bool],
    similarity: Similarity | None,
) -> list[int]:
    """Indices of the sentences chosen for ``wanted``, best first (ties: earlier).

    A sentence scores its overlap (the weight of ``wanted``'s words it holds), halved when
    it does not name the fact's subject (``named``). With a ``similarity``, the
    ``EMBEDDED_SENTENCES`` best by overlap are scored ``COSINE_WEIGHT`` × similarity + the
    rest × overlap (a lone candidate is not embedded), and the others are not chosen. The
    best is chosen, and each next while it scores at least ``CLOSE_SCORE`` of the best, up
    to ``wanted.keep``. A sentence with the words of one already chosen (the same sentence
    in another passage, which the sheet shows once) is passed over: it spends no place.
    """

    def overlap(i: int) -> float:
        score = sum(wanted.weights.get(w, 0.0) for w in words[i])
        return score if named[i] else score * NAMELESS_WEIGHT

    scores = {i: overlap(i) for i in range(len(texts))}
    order = [i for i in sorted(scores, key=lambda i: -scores[i]) if scores[i] > 0]
    if similarity is not None and len(order) > 1:  # one candidate is chosen as it is
        order = order[:EMBEDDED_SENTENCES]
        cosines = similarity(wanted.query, [texts[i] for i in order])
        for i, cosine in zip(order, cosines, strict=True):
            scores[i] = COSINE_WEIGHT * cosine + (1 - COSINE_WEIGHT) * scores[i]
        order = sorted(order, key=lambda i: -scores[i])  # stable: ties earlier
    picked: list[int] = []
    for i in order:
        if len(picked) == wanted.keep or (picked and scores[i] < CLOSE_SCORE * scores[picked[0]]):
            break
        if all(words[i] != words[j] for j in picked):
            picked.append(i)
    return picked


def _neighbours(
    places: Sequence[tuple[int, int]],
    shown: Sequence[Evidence],
    spans: dict[str, list[tuple[int, int]]],
) -> set[tuple[int, int]]:
    """The sentences right before and right after each of ``places``, in its paragraph.

    A sentence and its neighbour are what the offline verifier reads as one window around
    a sentence it aligns (``verify.entailed.windows``), and, as there, no window reads
    across a blank line.
    """
    out = set()
    for n, k in places:
        text, own = shown[n].text, spans[shown[n].id]
        for j in (k - 1, k + 1):
            if 0 <= j < len(own):
                gap = text[own[min(j, k)][1] : own[max(j, k)][0]]
                if "\n\n" not in gap.replace("\r", ""):
                    out.add((n, j))
    return out


def _context(
    chosen: set[tuple[int, int]], shown: Sequence[Evidence], spans: dict[str, list[tuple[int, int]]]
) -> set[tuple[int, int]]:
    """Sentences shown for the chosen ones' sake.

    The sentence before one that refers back (where the name stands), and the sentence after
    one when that sentence refers back (it continues the chosen one).
    """

    def refers(n: int, k: int) -> bool:
        passage = shown[n]
        start, end = spans[passage.id][k]
        return _refers_back(passage.text[start:end])

    out = set()
    for n, k in chosen:
        if k > 0 and refers(n, k):
            out.add((n, k - 1))
        if k + 1 < len(spans[shown[n].id]) and refers(n, k + 1):
            out.add((n, k + 1))
    return out


def _chosen_for(
    fact: Fact,
    own: Sequence[int],
    shown: Sequence[Evidence],
    spans: dict[str, list[tuple[int, int]]],
    all_words: dict[Place, set[str]],
    similarity: Similarity | None,
) -> set[Place]:
    """The sentences chosen for one fact among its own passages ``own`` (best-ranked first).

    The base triple's sentences come each with its window; each qualifier adds its own.
    """
    candidates = [(n, k) for n in own for k in range(len(spans[shown[n].id]))]
    if not candidates:
        return set()
    words = [all_words[c] for c in candidates]
    texts = [shown[n].text[slice(*spans[shown[n].id][k])] for n, k in candidates]
    subject = _words(fact.subject)
    # A sentence names the subject, or refers back ("She …") right after one that does.
    named = [
        not subject
        or bool(subject & all_words[n, k])
        or (k > 0 and _refers_back(text) and bool(subject & all_words[n, k - 1]))
        for (n, k), text in zip(candidates, texts, strict=True)
    ]
    chosen: set[Place] = set()
    for n_wanted, wanted in enumerate(_wanted(fact)):
        picked = [candidates[i] for i in _best(texts, words, wanted, named, similarity)]
        chosen.update(picked)
        if n_wanted == 0:  # the base triple's sentences, each with its window
            chosen |= _neighbours(picked, shown, spans)
    return chosen


def choose_sentences(
    facts: Sequence[tuple[Fact, Sequence[int]]],
    shown: Sequence[Evidence],
    spans: dict[str, list[tuple[int, int]]],
    similarity: Similarity | None,
) -> set[Place]:
    """Every sentence the sheet shows: each fact's chosen ones and their context.

    Args:
        facts: Each fact with the indices in ``shown`` of its own passages, best-ranked first.
        shown: The batch's passages shown, de-duplicated.
        spans: Each shown passage's sentence spans (:func:`split_sentences`), by its id.
        similarity: Cosine of a fact's text with candidate sentences (None: overlap alone).

    Returns:
        The chosen sentences as (passage index, sentence index).
    """
    all_words = {
        (n, k): _words(p.text[s:e])
        for n, p in enumerate(shown)
        for k, (s, e) in enumerate(spans[p.id])
    }
    chosen: set[Place] = set()
    for fact, own in facts:
        chosen |= _chosen_for(fact, own, shown, spans, all_words, similarity)
    return chosen | _context(chosen, shown, spans)
