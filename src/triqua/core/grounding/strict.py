"""The strict grounding rule: the cited sentence states the unit's words.

Today's ``--grounding strict``: a cited quote supports a unit only when its sentence carries
the unit's values in one place and states the unit's relation and object words
(:mod:`triqua.core.grounding.statement`: stems, the lexicon's word forms and relation groups), or,
when they are paraphrased, a :class:`~triqua.core.grounding.rule.MeaningReader` (the entailment
judge) finds that text entailing the unit at its ``threshold`` (some words stated) or
``paraphrase_threshold`` (none stated). A restrictor ("one of the largest") keeps the
sentence from stating the unit whatever the judge reads.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from triqua.core.grounding.slots import slot_holder
from triqua.core.grounding.statement import content_words, denies, unstated_words
from triqua.core.grounding.value_binding import misdated
from triqua.core.reading.lexicon import LEXICON
from triqua.core.reading.quote_values import missing_values, unit_values
from triqua.core.reading.quotes import normalise
from triqua.core.reading.restrictors.groups import restriction
from triqua.schema import FactUnit
from triqua.sentences import sentence_spans

if TYPE_CHECKING:
    from triqua.core.grounding.meaning_reader import MeaningReader

__all__ = ["unstated"]


_PRONOUN = re.compile(r"\b(" + "|".join(sorted(LEXICON.pronouns)) + r")\b", re.IGNORECASE)
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


def unstated(
    unit: FactUnit,
    passage: str,
    span: tuple[int, int],
    source: str,
    reader: MeaningReader | None,
    opens: bool = False,
) -> str | None:
    """Why the cited text does not state the unit, or None when it does.

    ``opens``: the passage opens its document (``core.grounding.gates.gate``).
    """
    candidates = _windows(passage, span, unit_values(unit).subject)
    valued = [
        texts
        for (start, end), texts in candidates
        if not missing_values(unit, passage[start:end], passage[:start], opens=opens)
    ]
    dated = [texts for texts in valued if not misdated(unit, texts[0])]
    if valued and not dated:
        year = misdated(unit, valued[0][0])
        return f"the cited sentence gives {year} to another event than the unit's"
    slotted = [texts for texts in dated if not slot_holder(unit, texts[0])]
    if dated and not slotted:
        held = slot_holder(unit, dated[0][0])
        return f"the cited text puts '{held}' in the relation's slot, not the unit's object"
    valued = slotted
    if not valued:
        exact = passage[span[0] : span[1]]
        lacking = missing_values(unit, exact, passage[: span[0]], opens=opens)
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
