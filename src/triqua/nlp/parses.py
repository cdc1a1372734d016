"""Full parses of sentences, shared by the readers of a run: each text parsed once.

The element graph parses every sentence of a text with the whole pipeline (parser and
entity recogniser) before the facts are verified; the offline verifier's role and clause
gates then parse evidence windows, and a one-sentence window is often one of those very
sentences (214 of the 377 windows the gates parse on 40 KB of bios). The offline
decomposer's chunks are parsed here too (it merges tokens in copies), so a one-sentence
chunk is not parsed again for its element graph. :func:`parse_many`
parses texts in bounded batches and keeps the last :data:`CACHE_SIZE` parses;
:func:`parsed` hands a kept parse to any later reader without parsing again.

A kept parse is the one a reader would get alone: spaCy parses a text the same whatever it
is batched with, and ``en_core_web_sm``'s entity recogniser runs in layers of its own, so a
parse made with it has the same tags and dependencies as one made without it (tests check
both). Readers only read a kept parse; none may change it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from triqua.nlp.pipeline import NLP_LOCK, load_nlp

if TYPE_CHECKING:
    from triqua.nlp.tokens import Doc

__all__ = ["CACHE_SIZE", "PARSE_BATCH", "clear", "parse_many", "parsed"]

CACHE_SIZE = 4096
"""Parses kept (least recently used dropped first)."""

PARSE_BATCH = 32
"""Texts per spaCy batch: its working arrays grow with the batch and are not handed back to
the system, so a text's ~340 sentences in one batch raised the peak by ~105 MB where batches
of 32 raise it by ~7 MB, for the same parses and no more CPU."""

_docs: OrderedDict[str, Doc] = OrderedDict()
_lock = threading.Lock()


def parse_many(texts: Sequence[str]) -> list[Doc | None]:
    """The full parse of each text (one batch for the new ones; None for an empty text)."""
    with _lock:
        known = {t: _docs[t] for t in texts if t in _docs}
        for text in known:
            _docs.move_to_end(text)
    missing = list(dict.fromkeys(t for t in texts if t not in known and t))
    if missing:
        with NLP_LOCK:
            fresh = list(load_nlp().pipe(missing, batch_size=PARSE_BATCH))
        with _lock:
            for text, doc in zip(missing, fresh, strict=True):
                _docs[text] = doc
            while len(_docs) > CACHE_SIZE:
                _docs.popitem(last=False)
        known.update(zip(missing, fresh, strict=True))
    return [known.get(t) for t in texts]


def parsed(text: str) -> Doc | None:
    """The kept full parse of ``text``, or None when it was not parsed lately (nothing runs)."""
    with _lock:
        doc = _docs.get(text)
        if doc is not None:
            _docs.move_to_end(text)
        return doc


def clear() -> None:
    """Forget every kept parse."""
    with _lock:
        _docs.clear()
