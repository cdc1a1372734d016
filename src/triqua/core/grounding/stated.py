"""The default grounding rule: a cited window states the unit, read by the judge or by its words.

A quote cited for a "supported" unit touches one or more sentences of its passage; those
sentences, whole, in runs of at most three within a paragraph, are its cited windows
(:func:`triqua.core.grounding.judged.cited_windows`). A window supports the unit when no
value gate fires on it (:func:`triqua.core.grounding.gates.gate`: the unit's numbers,
dates, units and names are in the quote; no year bound to another event; no restrictor; no
other holder of a role only one holds; no negation of the unit's words) and either

- one of its sentences **writes the unit's words** (:mod:`triqua.core.grounding.statement`:
  stems, the lexicon's word forms and relation groups) and, for a base triple, its values
  (a subject carried by a pronoun counts), and the window denies nothing, or
- the **entailment judge** finds it entailing the unit, or the sentence the unit came from,
  at the reader's ``judged_threshold`` — a lower one (``judged_some_threshold``) when a
  sentence of the window writes some of the unit's words, since a window that shares none
  of them must be read as a paraphrase with more confidence. The object's common words
  alone are not some of them: the sentence, or for the subject and the object's names the
  one before it, must also write a word of the subject or of the relation, or a name of the
  object ("Electricity demand from sunlight-rich regions peaks in the evening" writes
  "sunlight" and "electricity" and nothing of "Solar panels convert").

Words spread over two sentences are not written: "Albert Einstein was born in 1879. He died
in Princeton" writes "born" and "Princeton", and the conjunction is no birth in Princeton,
so the judge reads such a window (:func:`written`).

So a paraphrase the judge reads stands ("is appointed by a resolution of the House" for
"requires the agreement of the House"), a window writing every word stands where a small
judge misreads it, and a gate vetoes both. Both thresholds are chosen on a dev split by
``benchmarks/grounding_rule.py`` and kept on the judge's card.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from triqua.core.grounding.gates import gate
from triqua.core.grounding.judged import cited_windows, read_window
from triqua.core.grounding.statement import content_words, denies, unstated_words
from triqua.core.reading.quote_values import missing_values
from triqua.core.reading.quotes import normalise
from triqua.core.reading.words import word_stems
from triqua.schema import FactUnit
from triqua.sentences import sentence_spans

if TYPE_CHECKING:
    from triqua.core.grounding.meaning_reader import MeaningReader

__all__ = ["anchored", "judged_thresholds", "not_stated", "written"]

#: Words of a subject that name nothing of it ("the", "of").
_SUBJECT_FILLERS = word_stems("the a an of in on at to for and or its his her their this that")


def judged_thresholds(reader: MeaningReader) -> tuple[float, float]:
    """(some words written, none written): the entailment a window needs under this rule.

    A reader built outside triqua that names no thresholds of this rule reads at its
    ``grounding_threshold`` in both cases.
    """
    none = getattr(reader, "judged_threshold", None)
    some = getattr(reader, "judged_some_threshold", None)
    fallback = reader.grounding_threshold
    return (
        float(some if some is not None else none if none is not None else fallback),
        float(none if none is not None else fallback),
    )


@functools.lru_cache(maxsize=4096)  # a unit is settled again after re-verification
def written(
    unit: FactUnit, window: str, before: str = "", opens: bool = False
) -> tuple[bool, bool]:
    """(every, some): whether one sentence of ``window`` writes all / some of the unit's words.

    Every word means the unit's content words and its values (names, numbers, dates; a
    subject carried by a pronoun counts, read with ``before``, the passage text before the
    window, all of its document before it when ``opens``). Words spread over sentences
    state no unit: "Albert Einstein was born in 1879. He died in Princeton" writes "born"
    and "Princeton", one in each, and their conjunction is not a birth in Princeton. Such a
    window is the judge's to read, never accepted by its words. A qualifier's value often
    stands in the sentence after its base's ("… was born in Stratford. He was baptised there
    in 1564"): its words are read so, its value by the gates that bind a value to its event.
    """
    words = content_words(unit)
    every = some = False
    spans = sentence_spans(before)
    context = before[spans[-1][0] :] if spans else before
    for start, end in sentence_spans(window) or [(0, len(window))]:
        sentence = window[start:end]
        missing = unstated_words(unit, sentence)
        some = some or (
            len(missing) < len(words) and anchored(unit, sentence, context + window[:start])
        )
        if not (every or missing) and unit.kind != "base":
            every = True  # a qualifier's value is read against its base by the value gates
        elif not (every or missing):
            lacking = missing_values(
                unit, sentence, before + window[:start], classes=True, owners=True, opens=opens
            )
            # The subject may be carried by a description ("the album"), read by the gates.
            subject = f" {normalise(unit.subject)} "
            every = all(f" {normalise(value)} " in subject for value in lacking)
    return every, some


def anchored(unit: FactUnit, sentence: str, context: str = "") -> bool:
    """True when ``sentence`` writes more of a base unit than its object's common words.

    A word of the relation in ``sentence``, or a word of the subject or a name of the object
    in it or in ``context`` (the text before it, its sentence before read as who is meant),
    ties the sentence to the unit; the object's common words alone may be said of anything
    ("Electricity prices in windy regions fall at night" for "Wind turbines convert wind
    into electricity"). A qualifier is read against its base by the value gates.
    """
    if unit.kind != "base":
        return True
    relation = content_words(unit.model_copy(update={"object": ""}))
    if relation and len(unstated_words(unit, sentence, relation)) < len(relation):
        return True
    names = " ".join(w for w in unit.object.split() if w[:1].isupper())
    wanted = (word_stems(unit.subject) | word_stems(names)) - _SUBJECT_FILLERS
    return bool(wanted & (word_stems(sentence) | word_stems(context)))


def not_stated(
    unit: FactUnit,
    passage: str,
    span: tuple[int, int],
    source: str,
    reader: MeaningReader,
    opens: bool = False,
) -> str | None:
    """Why no cited window of the quote at ``span`` states the unit, or None when one does.

    Args:
        unit: The unit judged supported.
        passage: The cited passage.
        span: Where the quote stands in ``passage``.
        source: The sentence the unit's fact came from (a second hypothesis for the judge).
        reader: The entailment judge.
        opens: The passage opens its document (``core.grounding.gates.gate``).
    """
    vetoes: list[str] = []
    best, best_needed = 0.0, 0.0
    thresholds: tuple[float, float] | None = None  # read only when the judge is asked
    spread = False  # a window writes every word, but only across its sentences
    windows = cited_windows(passage, span)
    for (start, end), before in windows:
        window = passage[start:end]
        part = (max(start, span[0]), min(end, span[1]))
        quoted, before_quote = passage[part[0] : part[1]], passage[: part[0]]
        why = gate(unit, window, quoted, before_quote, classes=True, opens=opens)
        if why:
            vetoes.append(why)
            continue
        every, some = written(unit, window, passage[:start], opens)
        if every and not denies(unit, window):
            return None
        spread = spread or (not every and not unstated_words(unit, window))
        context = passage[before[0] : end] if before is not None else None
        thresholds = thresholds or judged_thresholds(reader)
        needed = thresholds[0] if some else thresholds[1]
        p = read_window(reader, unit, window, context, source)
        if p >= needed:
            return None
        if p - needed >= best - best_needed or best_needed == 0.0:
            best, best_needed = p, needed
    if len(vetoes) == len(windows):
        return vetoes[0] if vetoes else "the quote touches no sentence of the passage"
    said = (
        "writes the unit's words only across sentences"
        if spread
        else "does not write the unit's words"
    )
    return (
        f"the cited text {said}, and the entailment judge "
        f"({reader.revision}) finds it not entailing it ({best:.2f} < {best_needed:.2f})"
    )
