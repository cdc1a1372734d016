"""The grounding rule: "supported" must rest on a cited sentence of this run that states the unit.

A unit may be "supported" only when it cites an evidence id of this run, quotes that passage
verbatim (after normalising case, whitespace, unicode quotes and dashes, accents,
punctuation and symbols), and the cited text states the unit:

- **values**: its numbers, dates and capitalised names are written there
  (:mod:`triqua.core.quote_values`: a name as that name, never another person sharing a
  word; approximate numbers only for a fact that says "about");
- **one place**: they are all inside the quote's part of one sentence (the subject may be
  carried by a pronoun or "the film" referring back), so a quote spanning a paragraph
  grounds nothing it spreads over several sentences;
- **meaning**: the unit's relation and object words are stated in that sentence, or with the
  sentence beside it when that one is about the same subject (:mod:`triqua.core.statement`:
  stems, the lexicon's word forms and relation groups), or, when they are paraphrased, a
  :class:`MeaningReader` (the entailment judge) finds that text entailing the unit at its
  threshold;
- **no restrictor**: a sentence that makes the unit's word one of a group ("one of the
  largest" for "the largest", :mod:`triqua.core.restrictors`) does not state it, whatever
  the entailment judge reads.

"Contradicted" needs a cited passage of this run (and its quote, when it gives one, must be
found there). Whatever the judge said, anything short of that is insufficient evidence, with
the reason recorded.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from triqua.core.quote_values import missing_values, unit_values
from triqua.core.quotes import locate_quote, normalise
from triqua.core.restrictors import restriction
from triqua.core.statement import content_words, denies, unstated_words
from triqua.core.value_binding import misdated
from triqua.schema import FactUnit, Status
from triqua.sentences import sentence_spans

__all__ = [
    "Grounding",
    "MeaningReader",
    "check_quote",
    "locate_quote",
    "missing_values",
    "normalise",
    "unit_values",
]


class MeaningReader(Protocol):
    """Reads whether a text entails a unit: the entailment judge, seen from the rule.

    ``threshold`` applies when the cited text states some of the unit's words;
    ``paraphrase_threshold`` (higher) when it states none of them — a sentence that merely
    names the subject ("X was born in Ulm" for "X was a footballer") must be read as
    entailing the unit with the confidence the offline engine needs to support a paraphrase.
    """

    revision: str
    threshold: float
    paraphrase_threshold: float

    def entailment(self, premises: Sequence[str], unit: FactUnit, source: str) -> float:
        """The best probability that one of ``premises`` entails the unit.

        ``source`` is the sentence the unit's fact came from, a second hypothesis.
        """
        ...


@dataclass(frozen=True)
class Grounding:
    """The outcome of the grounding check on one unit verdict.

    Attributes:
        ok: The verdict may keep its status.
        reason: Why it may not (recorded with the downgraded unit), else None.
        evidence_ids: The cited ids of this run, the passage holding the quote first.
        quote: The quote as the passage writes it (whole words), when found.
    """

    ok: bool
    reason: str | None = None
    evidence_ids: tuple[str, ...] = ()
    quote: str | None = None


_PRONOUN = re.compile(r"\b(he|she|it|they|his|her|its|their|him|them)\b", re.IGNORECASE)
_MAX_WINDOW = 1500  # characters of a window the meaning reader reads


def _windows(
    passage: str, span: tuple[int, int], subject: Sequence[str]
) -> list[tuple[tuple[int, int], list[str]]]:
    """Each sentence the quote touches: the quote's part in it, and the texts around it.

    The values must sit in that part (the subject may be carried by a pronoun); the words
    may be stated anywhere in its sentence, or with the sentence right before or after it
    when that second sentence is about the same subject (names it or refers back by
    pronoun).
    """
    spans = sentence_spans(passage) or [(0, len(passage))]
    touched = [i for i, (a, b) in enumerate(spans) if b > span[0] and a < span[1]]
    out = []
    for i in touched:
        texts = [passage[spans[i][0] : spans[i][1]]]
        for first in (i - 1, i):
            if first < 0 or first + 1 >= len(spans):
                continue
            second = passage[spans[first + 1][0] : spans[first + 1][1]]
            padded = f" {normalise(second)} "
            if _PRONOUN.search(second) or any(
                f" {w} " in padded for name in subject for w in name.split()
            ):
                texts.append(passage[spans[first][0] : spans[first + 1][1]])
        part = (max(spans[i][0], span[0]), min(spans[i][1], span[1]))
        out.append((part, texts))
    return out


def _states(
    unit: FactUnit,
    passage: str,
    span: tuple[int, int],
    source: str,
    reader: MeaningReader | None,
) -> str | None:
    """Why the cited text does not state the unit, or None when it does."""
    candidates = _windows(passage, span, unit_values(unit).subject)
    valued = [
        texts
        for (start, end), texts in candidates
        if not missing_values(unit, passage[start:end], passage[:start])
    ]
    dated = [texts for texts in valued if not misdated(unit, texts[0])]
    if valued and not dated:
        year = misdated(unit, valued[0][0])
        return f"the cited sentence gives {year} to another event than the unit's"
    valued = dated
    if not valued:
        exact = passage[span[0] : span[1]]
        lacking = missing_values(unit, exact, passage[: span[0]])
        if lacking:
            return f"quote lacks value {', '.join(lacking)}"
        return "quote spreads the unit's values over several sentences"
    windows = [text for texts in valued for text in texts]
    restricted = [restriction(unit, window) for window in windows]
    windows = [w for w, phrase in zip(windows, restricted, strict=True) if phrase is None]
    if not windows:
        return f"the cited text restricts it: '{restricted[0]}'"
    unstated: list[str] | None = None
    for window in windows:
        missing = unstated_words(unit, window)
        if not missing and not denies(unit, window):
            return None
        if unstated is None or len(missing) < len(unstated):
            unstated = missing
    shown = ", ".join(f"'{w}'" for w in unstated[:3]) if unstated else "it (the text negates)"
    if reader is None:
        return f"the cited text does not state {shown}"
    premises = list(dict.fromkeys(text[:_MAX_WINDOW] for text in windows))
    p = reader.entailment(premises, unit, source)
    some_stated = unstated is not None and len(unstated) < len(content_words(unit))
    needed = reader.threshold if some_stated else reader.paraphrase_threshold
    if p >= needed:
        return None
    return (
        f"the cited text does not state {shown}, and the entailment judge "
        f"({reader.revision}) finds it not entailed ({p:.2f} < {needed:.2f})"
    )


def check_quote(
    unit: FactUnit,
    status: Status,
    evidence_ids: Sequence[str],
    quote: str | None,
    passages: Mapping[str, str],
    *,
    source: str = "",
    reader: MeaningReader | None = None,
) -> Grounding:
    """Apply the grounding rule to one unit verdict.

    Args:
        unit: The unit judged.
        status: The judge's status for it; only supported and contradicted need grounding.
        evidence_ids: The ids the judge cited for it.
        quote: The judge's verbatim quote, if any.
        passages: This run's evidence passages for the fact, by id.
        source: The sentence the unit's fact came from (a second hypothesis for ``reader``).
        reader: Reads paraphrase; without one, every content word must be stated.

    Returns:
        The outcome: ``ok`` False with the reason when the verdict must become
        insufficient evidence.
    """
    if status not in (Status.SUPPORTED, Status.CONTRADICTED):
        return Grounding(ok=True, evidence_ids=tuple(evidence_ids), quote=quote)
    cited = list(dict.fromkeys(i for i in evidence_ids if i in passages))
    unknown = [i for i in evidence_ids if i not in passages]
    if not cited:
        if unknown:
            shown = ", ".join(unknown[:3])
            verb = "is" if len(unknown) == 1 else "are"
            return Grounding(ok=False, reason=f"cited id {shown} {verb} not evidence of this run")
        return Grounding(ok=False, reason="no evidence id cited")
    quote = (quote or "").strip()
    if not quote:
        if status is Status.CONTRADICTED:
            return Grounding(ok=True, evidence_ids=tuple(cited))
        return Grounding(ok=False, reason=f"no quote from {cited[0]}", evidence_ids=tuple(cited))
    for evidence_id in cited:
        span = locate_quote(passages[evidence_id], quote)
        if span is None:
            continue
        exact = passages[evidence_id][span[0] : span[1]]
        ids = (evidence_id, *(i for i in cited if i != evidence_id))
        if status is Status.SUPPORTED:
            why = _states(unit, passages[evidence_id], span, source, reader)
            if why:
                return Grounding(ok=False, reason=why, evidence_ids=ids, quote=exact)
        return Grounding(ok=True, evidence_ids=ids, quote=exact)
    return Grounding(
        ok=False, reason=f"quote not found in {', '.join(cited)}", evidence_ids=tuple(cited)
    )
