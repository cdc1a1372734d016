"""The default grounding rule: a cited window states the unit, read by the judge or by its words.

A quote cited for a "supported" unit touches one or more sentences of its passage; those
sentences, whole, in runs of at most three within a paragraph, are its cited windows
(:func:`triqua.core.grounding.judged.cited_windows`). A window supports the unit when no
value gate fires on it (:func:`triqua.core.grounding.gates.gate`: the unit's numbers,
dates, units and names are in the quote; no year bound to another event; no restrictor; no
other holder of a role only one holds; no negation of the unit's words) and either

- it **writes the unit's words** (:mod:`triqua.core.grounding.statement`: stems, the
  lexicon's word forms and relation groups) and denies nothing, or
- the **entailment judge** finds it entailing the unit, or the sentence the unit came from,
  at the reader's ``judged_threshold`` — a lower one (``judged_some_threshold``) when the
  window writes some of the unit's words, since a window that shares none of them must be
  read as a paraphrase with more confidence.

So a paraphrase the judge reads stands ("is appointed by a resolution of the House" for
"requires the agreement of the House"), a window writing every word stands where a small
judge misreads it, and a gate vetoes both. Both thresholds are chosen on a dev split by
``benchmarks/grounding_rule.py`` and kept on the judge's card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from triqua.core.grounding.gates import gate
from triqua.core.grounding.judged import cited_windows, read_window
from triqua.core.grounding.statement import content_words, denies, unstated_words
from triqua.schema import FactUnit

if TYPE_CHECKING:
    from triqua.core.grounding.meaning_reader import MeaningReader

__all__ = ["judged_thresholds", "not_stated"]


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


def not_stated(
    unit: FactUnit,
    passage: str,
    span: tuple[int, int],
    source: str,
    reader: MeaningReader,
) -> str | None:
    """Why no cited window of the quote at ``span`` states the unit, or None when one does.

    Args:
        unit: The unit judged supported.
        passage: The cited passage.
        span: Where the quote stands in ``passage``.
        source: The sentence the unit's fact came from (a second hypothesis for the judge).
        reader: The entailment judge.
    """
    vetoes: list[str] = []
    best, best_needed = 0.0, 0.0
    thresholds: tuple[float, float] | None = None  # read only when the judge is asked
    words = len(content_words(unit))
    windows = cited_windows(passage, span)
    for (start, end), before in windows:
        window = passage[start:end]
        part = (max(start, span[0]), min(end, span[1]))
        why = gate(unit, window, passage[part[0] : part[1]], passage[: part[0]], classes=True)
        if why:
            vetoes.append(why)
            continue
        missing = unstated_words(unit, window)
        if not missing and not denies(unit, window):
            return None
        context = passage[before[0] : end] if before is not None else None
        thresholds = thresholds or judged_thresholds(reader)
        needed = thresholds[0] if len(missing) < words else thresholds[1]
        p = read_window(reader, unit, window, context, source)
        if p >= needed:
            return None
        if p - needed >= best - best_needed or best_needed == 0.0:
            best, best_needed = p, needed
    if len(vetoes) == len(windows):
        return vetoes[0] if vetoes else "the quote touches no sentence of the passage"
    return (
        f"the cited text does not write the unit's words, and the entailment judge "
        f"({reader.revision}) finds it not entailing it ({best:.2f} < {best_needed:.2f})"
    )
