"""Keyword lists: a line of short comma-separated items names things and states nothing.

"Tags: Eiffel Tower, Rome, is in, Italy" holds every word of a fact and states no relation
between them. :func:`is_list` is the first statement gate (``core.reading.statements``), read
by the grounding rule and the offline verifier alike.
"""

from __future__ import annotations

from triqua.nlp.pipeline import NLP_LOCK, load_nlp

__all__ = ["is_list"]

_LIST_ITEMS = 3  # comma-separated items from which an unpunctuated line may be a list
_ITEM_WORDS = 3  # median words per item of a list


def is_list(text: str) -> bool:
    """True for a line of short comma-separated items with no closing stop: tags, keywords.

    A list names things side by side and states no relation between them, so "Tags: Eiffel
    Tower, Rome, is in, Italy" supports nothing, whatever words it shares with a fact. Prose
    enumerations end with a stop ("She spoke English, French, German and Polish."). A line
    with no capital and no stop at all ("berlin wall fell 1975 cold war") is a search string.
    """
    stripped = text.strip()
    if stripped and _labelled_list(stripped):
        return True
    if not stripped or stripped[-1] in ".!?\"'”’)":
        return False
    if stripped == stripped.lower() and len(stripped.split()) >= _ITEM_WORDS + 1:
        return True
    items = [item.split() for item in stripped.replace(";", ",").replace("|", ",").split(",")]
    if len(items) < _LIST_ITEMS:
        return False
    sizes = sorted(len(item) for item in items)
    # Three items are a list only when short ("Peru, Andes trekking, volcano summit"): "John
    # Smith, the former CFO, is the CEO of Acme" is an apposition.
    return sizes[len(sizes) // 2] <= (_ITEM_WORDS if len(items) > _LIST_ITEMS else 2)


def _labelled_list(text: str) -> bool:
    """True for a label, a colon and a list of short items ("Notable people: A, B, C.").

    The label names a category and states nothing ("Notable people of the region"); a
    sentence before a colon does state ("She spoke three languages: English, French,
    German."), so a label with a verb is prose. Only a line of that shape is parsed.
    """
    head, colon, rest = text.partition(":")
    if not colon or ":" in rest or not head.strip():
        return False
    items = [item.split() for item in rest.strip().rstrip(".!?").replace(";", ",").split(",")]
    if len(items) < _LIST_ITEMS or max(len(item) for item in items) > _ITEM_WORDS:
        return False
    with NLP_LOCK:
        label = load_nlp()(head)
    return not any(t.pos_ in ("VERB", "AUX") for t in label)
