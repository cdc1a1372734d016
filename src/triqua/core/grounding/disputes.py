"""A cited support another passage of the run disputes: the grounding rule's dispute reading.

A judge that quotes "Marie Curie was born in Paris." from one passage grounds the unit by
that passage alone, yet another passage of the same run may say "Marie Curie was born in
Warsaw in 1867.": one of them is wrong, and the run cannot tell which. The sentences about
the subject outside the quote (``core.reading.mentions``, as the offline verifier finds
them) are read for a rival value by the reader both engines share
(``core.reading.disputes``): a rival name or year in the slot of a bare relation or of a
birth's or a death's own word, confirmed by the judge, or a role only one holds given to
another name. A disputed support is left insufficient, its reason naming both passages.

The reader's judge is asked through its ``contradiction`` and ``rival_threshold``, read
only once a sentence gives a rival (a judge loaded on first read stays unloaded otherwise);
a reader without them (one built outside triqua) or whose threshold is never reached (the
offline verifier's own: it reads disputes among its aligned sentences itself) disputes
nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

from triqua.core.grounding.meaning_reader import MeaningReader
from triqua.core.reading.analysis import TextInfo, analyse
from triqua.core.reading.disputes import (
    confirmed_rival,
    dispute_reason,
    rival_value,
    role_dispute,
)
from triqua.core.reading.fact_parts import fact_parts
from triqua.core.reading.mentions import passage_scores, passive
from triqua.core.reading.passage_reading import read_pieces
from triqua.schema import Fact, FactUnit

__all__ = ["disputed_quote"]

_ABOUT = 0.6  # how surely a sentence must be about the subject to rival its value


def disputed_quote(
    unit: FactUnit,
    quoted: tuple[str, int, int],
    passages: Mapping[str, str],
    reader: MeaningReader | None,
    read_before: Mapping[str, str] | None = None,
) -> str | None:
    """Why the support quoted at ``quoted`` (id, start, end) is disputed, else None.

    Args:
        unit: The supported unit; only a base triple is read.
        quoted: The passage id holding the quote, and the quote's offsets in it.
        passages: This run's evidence passages for the fact, by id.
        reader: The judge's reader: its ``contradiction`` confirms a rival.
        read_before: Each passage's document title, as the grounding rule reads it.
    """
    contradiction = getattr(reader, "contradiction", None)
    if unit.kind != "base" or contradiction is None:
        return None
    fact = Fact(subject=unit.subject, relation=unit.relation, object=unit.object)
    parts = fact_parts(fact)
    places, infos = _about(parts.subject, parts.relation, quoted, passages, read_before or {})
    # The crisp readings first: a judge read lazily (``models.reader.LazyReader``) loads
    # only where a sentence gives a rival value or a role to another name.
    rivals = any(rival_value(parts, info) is not None for info in infos)
    role = role_dispute(fact, [info.text for info in infos]) if infos else None
    if not rivals and role is None:
        return None
    threshold = getattr(reader, "rival_threshold", None)
    if threshold is None or threshold > 1.0:
        return None
    found = None
    if rivals:
        found = confirmed_rival(
            parts, infos, lambda texts: contradiction(texts, unit), float(threshold)
        )
    dispute = found[0] if found is not None else role
    if dispute is None:
        return None
    at, why = dispute.at, dispute.why
    evidence_id, start, end = quoted
    said = (evidence_id, passages[evidence_id][start:end])
    return dispute_reason(said, (places[at], infos[at].text), why)


def _about(
    subject: TextInfo,
    relation: TextInfo,
    quoted: tuple[str, int, int],
    passages: Mapping[str, str],
    read_before: Mapping[str, str],
) -> tuple[list[str], list[TextInfo]]:
    """The sentences about the subject outside the quote, with the id of each one's passage."""
    places: list[str] = []
    infos: list[TextInfo] = []
    for evidence_id, text in passages.items():
        pieces = read_pieces(text)
        title_line = read_before.get(evidence_id, "").split("\n", 1)[0].strip()
        title = analyse(title_line) if title_line else None
        scores = passage_scores(subject, tuple(p.text for p in pieces), title, passive(relation))
        for piece, score in zip(pieces, scores, strict=True):
            inside = evidence_id == quoted[0] and piece.start < quoted[2] and quoted[1] < piece.end
            if score >= _ABOUT and not inside:
                places.append(evidence_id)
                infos.append(analyse(piece.text))
    return places, infos
