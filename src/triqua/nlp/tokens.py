"""spaCy's parse types and English stop words, for the modules that walk a parse.

Importing this module imports spaCy (no model is loaded): the offline engine and the
element graph read ``Doc``, ``Span`` and ``Token`` objects, and name them from here so that
spaCy is imported in one package only.
"""

from __future__ import annotations

from spacy.lang.en.stop_words import STOP_WORDS
from spacy.language import Language
from spacy.pipeline import Sentencizer
from spacy.tokens import Doc, Span, Token

__all__ = ["STOP_WORDS", "Doc", "Language", "Sentencizer", "Span", "Token"]
