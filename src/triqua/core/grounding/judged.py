"""The ``judge`` grounding rule: the entailment judge reads the cited window, value gates veto.

A quote cited for a "supported" unit touches one or more sentences of its passage. Those
sentences, whole, in runs of at most three that never cross a blank line (a paragraph),
are the cited windows. A window supports the unit when no value gate fires on it
(:func:`triqua.core.grounding.gates.gate`: the unit's values are in the quote, no year bound
to another event, no restrictor, no other holder of a role only one holds, no negation of
the unit's words) and the entailment judge finds it entailing the unit, or the sentence the
unit came from, at the judge card's ``grounding`` threshold. A window that names none of
the subject's words (it refers back by "she" or "the film") is read with the sentence
before it in its paragraph too, so the judge knows who is meant; one that opens with the
pronoun carrying a named subject ("She was the first woman …") is also read against the
unit said of that pronoun ("She is a female justice"), since a small judge does not link a
pronoun to a name (:func:`read_window`).

Whether the unit's words are written there no longer matters: a paraphrase the judge
entails stands, and a sentence with every word of the unit and another meaning does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from triqua.core.grounding.gates import gate
from triqua.core.grounding.statement import unstated_words
from triqua.core.reading.quote_values import unit_values
from triqua.core.reading.quotes import normalise
from triqua.core.reading.values.name_rivals import How, named
from triqua.core.reading.values.names import name_runs, surname
from triqua.schema import FactUnit
from triqua.sentences import sentence_spans

if TYPE_CHECKING:
    from triqua.core.grounding.meaning_reader import MeaningReader

__all__ = [
    "MAX_WINDOW_SENTENCES",
    "cited_windows",
    "names_subject",
    "not_entailed",
    "pronoun_unit",
    "read_window",
]

#: Sentences one cited window holds at most.
MAX_WINDOW_SENTENCES = 3
_MAX_CHARS = 1500  # characters of a window the judge reads


def _paragraph_break(passage: str, end: int, start: int) -> bool:
    """True when a blank line separates two sentences of ``passage``."""
    return "\n\n" in passage[end:start].replace("\r", "")


def cited_windows(
    passage: str, span: tuple[int, int]
) -> list[tuple[tuple[int, int], tuple[int, int] | None]]:
    """The cited windows of a quote at ``span``: (window, the sentence before it or None).

    The sentences the quote touches, cut into paragraphs and then into runs of at most
    :data:`MAX_WINDOW_SENTENCES` (a longer quote gives each run of three its turn); the
    sentence before a window, in its paragraph, is its context.
    """
    spans = sentence_spans(passage) or [(0, len(passage))]
    touched = [i for i, (a, b) in enumerate(spans) if b > span[0] and a < span[1]]
    if not touched:
        return []
    paragraphs: list[list[int]] = [[touched[0]]]
    for i in touched[1:]:
        if _paragraph_break(passage, spans[i - 1][1], spans[i][0]):
            paragraphs.append([i])
        else:
            paragraphs[-1].append(i)
    out: list[tuple[tuple[int, int], tuple[int, int] | None]] = []
    for run in paragraphs:
        width = min(MAX_WINDOW_SENTENCES, len(run))
        for first in range(len(run) - width + 1):
            a, b = run[first], run[first + width - 1]
            before = spans[a - 1] if a > 0 else None
            if before is not None and _paragraph_break(passage, before[1], spans[a][0]):
                before = None
            out.append(((spans[a][0], spans[b][1]), before))
    return out


def names_subject(unit: FactUnit, text: str) -> bool:
    """True when ``text`` names the unit's subject: its name as that name, or its words.

    A subject with a name is named as the name readers compare ("Trump" in "Trump Tower"
    names a building, not Donald Trump, so the window is read with the sentence before
    it, which says who "the real estate developer" is); one without a name by any word.
    """
    values = unit_values(unit)
    names = values.subject or values.base_subject
    padded = f" {normalise(text)} "
    if names:
        # The run must close with the name's surname: "Trump Tower" is named after him.
        closing = {surname(run.name.split()) for run in name_runs(text) if run.name}
        return any(
            surname(name.split()) in closing and named(name, text, padded, "", How(about=True))
            for name in names
        )
    return any(f" {w} " in padded for w in normalise(unit.subject).split())


#: Pronouns a sentence may open with for a subject named before it, as the unit says them.
_OPENING_PRONOUNS = {"he": "He", "she": "She", "it": "It", "they": "They"}


def pronoun_unit(unit: FactUnit, window: str) -> FactUnit | None:
    """The unit said of the pronoun ``window`` opens with, when it may carry the subject.

    Only a subject with a name is carried so (the value gates have found that name before
    the window); a window that writes a word of the subject speaks of it itself.
    """
    words = window.split(maxsplit=1)
    opening = words[0].strip(",;:").casefold() if words else ""
    pronoun = _OPENING_PRONOUNS.get(opening)
    values = unit_values(unit)
    if pronoun is None or not (values.subject or values.base_subject):
        return None
    if names_subject(unit, window):
        return None
    return unit.model_copy(update={"subject": pronoun})


def read_window(
    reader: MeaningReader,
    unit: FactUnit,
    window: str,
    context: str | None,
    source: str,
) -> float:
    """The judge's best entailment of the unit by one cited window.

    The window is read alone and, when it names none of the subject's words, with the
    sentence before it (``context``: that sentence and the window), so the judge knows who
    is meant; a window opening with a pronoun for a named subject is also read against the
    unit said of that pronoun. The sentence before only tells who is meant: when it writes a
    word of the unit that the window does not, it may state that word of something else
    ("Carl Lund did not win the race. He was born in Oslo." states no win; nor does "…
    trained the horse that won the race"), which a small judge reads as entailing, so the
    window is then read alone.
    """
    premises: Sequence[str] = [window[:_MAX_CHARS]]
    if (
        context is not None
        and not names_subject(unit, window)
        and not _supplies_words(unit, window, context)
    ):
        premises = [*premises, context[:_MAX_CHARS]]
    p = reader.entailment(premises, unit, source)
    said = pronoun_unit(unit, window)
    if said is not None:
        p = max(p, reader.entailment([window[:_MAX_CHARS]], said, ""))
    return p


def _supplies_words(unit: FactUnit, window: str, context: str) -> bool:
    """True when the sentence before ``window`` (in ``context``) writes a word it lacks."""
    missing = unstated_words(unit, window)
    before = context[: max(0, len(context) - len(window))]
    return bool(missing) and len(unstated_words(unit, before, missing)) < len(missing)


def not_entailed(
    unit: FactUnit,
    passage: str,
    span: tuple[int, int],
    source: str,
    reader: MeaningReader,
    opens: bool = False,
) -> str | None:
    """Why no cited window of the quote at ``span`` supports the unit, or None when one does.

    Args:
        unit: The unit judged supported.
        passage: The cited passage.
        span: Where the quote stands in ``passage``.
        source: The sentence the unit's fact came from (a second hypothesis).
        reader: The entailment judge, with its ``grounding_threshold``.
        opens: The passage opens its document (``core.grounding.gates.gate``).
    """
    vetoes: list[str] = []
    best = 0.0
    needed = reader.grounding_threshold
    windows = cited_windows(passage, span)
    for (start, end), before in windows:
        window = passage[start:end]
        part = (max(start, span[0]), min(end, span[1]))
        why = gate(unit, window, passage[part[0] : part[1]], passage[: part[0]], opens=opens)
        if why:
            vetoes.append(why)
            continue
        context = passage[before[0] : end] if before is not None else None
        p = read_window(reader, unit, window, context, source)
        if p >= needed:
            return None
        best = max(best, p)
    if len(vetoes) == len(windows):
        return vetoes[0] if vetoes else "the quote touches no sentence of the passage"
    return (
        f"the entailment judge ({reader.revision}) finds the cited text not entailing it "
        f"({best:.2f} < {needed:.2f})"
    )
