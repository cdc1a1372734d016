"""Where the offline judge may read an aligned sentence after its subject's earlier name.

An aligned sentence (an anchor) that refers back by a pronoun or a description, after
sentences about no one the passage's topic reading links to the subject, may be read after
the sentence in its paragraph that last named the subject, the sentences between left out:
"Marie Curie was born in Warsaw in 1867. Warsaw was then part of the Russian Empire. She
moved to Paris in 1891." reads "Marie Curie was born in Warsaw in 1867. She moved to Paris
in 1891.". The join is refused where the pronoun does not fit the subject, or where the
naming sentence or one between names another the pronoun may stand for
(:func:`triqua.core.reading.orphans.rival_referent`: "Bronislawa Sklodowska, her elder
sister, moved to Paris in 1885. She qualified as a physician in 1891." is no sentence about
Marie). The verifier builds its last windows from these joins
(``verify.entailed.joined_windows``), read only when no other window supports the fact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from triqua.core.reading.mentions import refers_back
from triqua.core.reading.name_match import ALIAS
from triqua.core.reading.orphans import rival_referent
from triqua.engines.offline.alignment import Sentence

__all__ = ["REACH", "joins", "paragraph_between"]

REACH = 5
"""Sentences back from the anchor within which its subject's earlier name is looked for."""

#: What a written sentence ends with.
_SENTENCE_ENDS = (".", "!", "?", '"', "”", "’", "'", ")", ":", ";")


def paragraph_between(passage: str, first: Sentence, second: Sentence) -> bool:
    """True when a blank line, or a line break after an unpunctuated line, separates them.

    A line without final punctuation ("# Rivers", "Title: …") heads what follows; it is not
    the start of the next sentence's statement.
    """
    gap = passage[first.end : second.start].replace("\r", "")
    if "\n\n" in gap:
        return True
    return "\n" in gap and not first.info.text.rstrip().endswith(_SENTENCE_ENDS)


def joins(
    anchors: Sequence[Sentence],
    by_place: Mapping[tuple[int, int], Sentence],
    passages: Sequence[str],
    subject: str,
    values: str = "",
    *,
    reach: int = REACH,
) -> list[tuple[Sentence, Sentence]]:
    """Each anchor that refers back with the sentence that last named ``subject`` before it.

    Only an anchor about no one (subject score 0) that refers back (``mentions.refers_back``)
    is joined; the nearest sentence before it that is about the subject must name it (a
    sentence that itself refers back ends the search), within ``reach`` sentences and the
    anchor's paragraph, with at least one sentence between (a neighbour makes a window of
    its own). ``values`` are the fact's object and qualifier values: names the fact writes
    are no rival referents. Returns (naming sentence, anchor) pairs, each once.
    """
    out: dict[tuple[int, int, int], tuple[Sentence, Sentence]] = {}
    for anchor in anchors:
        if anchor.subject > 0 or anchor.alone or not refers_back(anchor.info):
            continue
        mention = _named_before(anchor, by_place, passages[anchor.passage], reach)
        if mention is None:
            continue
        between = [
            by_place[(anchor.passage, i)].info.text for i in range(mention.index, anchor.index)
        ]
        if not rival_referent(subject, anchor.info.text, " ".join(between), values):
            out.setdefault((anchor.passage, mention.index, anchor.index), (mention, anchor))
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
