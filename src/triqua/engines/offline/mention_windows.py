"""The last windows the offline judge reads: an anchor joined to its subject's earlier name.

An aligned sentence (an anchor) that refers back by a pronoun or a description, after
sentences about no one the passage's topic reading links to the subject, is read after the
sentence in its paragraph that last named the subject, the sentences between left out:
"Marie Curie was born in Warsaw in 1867. Warsaw was then part of the Russian Empire. She
moved to Paris in 1891." reads "Marie Curie was born in Warsaw in 1867. She moved to Paris
in 1891.". The join is refused where the pronoun does not fit the subject, or where the
naming sentence or one between names another the pronoun may stand for
(:func:`triqua.core.reading.orphans.rival_referent`: "Bronislawa, her elder sister, moved
to Paris in 1885. She qualified as a physician in 1891." is no sentence about Marie). The
verifier reads these windows only when no other window supports the fact
(``verify.reading``), every gate on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from triqua.core.reading.mentions import refers_back
from triqua.core.reading.name_match import ALIAS
from triqua.core.reading.orphans import rival_referent
from triqua.engines.offline.verify.entailed import Window, as_read, paragraph_between
from triqua.engines.offline.verify.findings import Sentence

__all__ = ["REACH", "mention_windows"]

REACH = 5
"""Sentences back from the anchor within which its subject's earlier name is looked for."""


def mention_windows(
    anchors: Sequence[Sentence],
    by_place: Mapping[tuple[int, int], Sentence],
    passages: Sequence[str],
    subject: str,
    values: str = "",
    *,
    reach: int = REACH,
) -> list[Window]:
    """Each anchor that refers back, read after the sentence that last named ``subject``.

    Only an anchor about no one (subject score 0) that refers back (``mentions.refers_back``)
    is joined; the nearest sentence before it that is about the subject must name it (a
    sentence that itself refers back ends the search), within ``reach`` sentences and the
    anchor's paragraph, with at least one sentence between (a neighbour makes a window of
    its own). ``values`` are the fact's object and qualifier values: names the fact writes
    are no rival referents.
    """
    out: dict[tuple[int, int, int], Window] = {}
    for anchor in anchors:
        if anchor.subject > 0 or anchor.alone or not refers_back(anchor.info):
            continue
        mention = _named_before(anchor, by_place, passages[anchor.passage], reach)
        if mention is None:
            continue
        between = [
            by_place[(anchor.passage, i)].info.text for i in range(mention.index, anchor.index)
        ]
        if rival_referent(subject, anchor.info.text, " ".join(between), values):
            continue
        text = " ".join(
            as_read(passages[anchor.passage], s, s, by_place) for s in (mention, anchor)
        )
        out.setdefault(
            (anchor.passage, mention.index, anchor.index), Window(mention, anchor, anchor, text)
        )
    return list(out.values())


def _named_before(
    anchor: Sentence, by_place: Mapping[tuple[int, int], Sentence], passage: str, reach: int
) -> Sentence | None:
    """The sentence naming the subject before ``anchor``, past sentences about no one, if any."""
    later = anchor
    for back in range(1, reach + 1):
        before = by_place.get((anchor.passage, anchor.index - back))
        if before is None or before.alone or before.end > later.start:
            return None
        if paragraph_between(passage, before, later):
            return None
        if before.subject > 0:
            return before if back > 1 and before.subject >= ALIAS else None
        later = before
    return None
