"""The text's language, so the English-only offline engine never scores another language.

The offline decomposer parses with an English spaCy model: French or German text is read as
English (a wrong year can score 100 %), Chinese yields nothing. Detection is langdetect's
(a port of Google's language-detection, profiles packaged), seeded so it is deterministic,
on the first few thousand characters; short texts are not judged (a name-heavy English
sentence can look German), nor texts where English is a close second.
"""

from __future__ import annotations

import functools
import threading

__all__ = ["detected_language", "language_problem", "text_language"]

_SAMPLE_CHARS = 3_000
_MIN_LETTERS = 40  # shorter texts are too unreliable to judge
_CONFIDENT = 0.95  # the language's probability needed to call the text non-English
_LOCK = threading.Lock()  # langdetect's factory is process-wide state
#: English function words: a text where they are frequent is English, whatever its names
#: look like ("Georg Friedrich Parrot was born in Mutschelleben" is not German).
_ENGLISH_WORDS = (
    "the a an is was were are be been of in on at to for with by from as and or not "
    "that this it he she they his her their has have had"
)
_ENGLISH = frozenset(_ENGLISH_WORDS.split())
_ENGLISH_SHARE = 0.1


@functools.cache
def _factory() -> object:
    from langdetect import DetectorFactory

    DetectorFactory.seed = 0  # the same text always gets the same answer
    return DetectorFactory


def detected_language(text: str) -> tuple[str, float] | None:
    """The text's language code and its probability, or None when it cannot be judged."""
    sample = text[:_SAMPLE_CHARS]
    # A CJK character carries about a word: it counts as two letters.
    if sum(2 if c >= "\u2e80" else 1 for c in sample if c.isalpha()) < _MIN_LETTERS:
        return None
    from langdetect import detect_langs
    from langdetect.lang_detect_exception import LangDetectException

    _factory()
    try:
        with _LOCK:
            found = detect_langs(sample)
    except LangDetectException:
        return None
    return (found[0].lang, float(found[0].prob)) if found else None


def text_language(text: str, declared: str) -> str | None:
    """The language a report records: the ``language`` setting when given, else detected.

    Plainly English text is "en" without loading the detector; None when the text is too
    short or mixed to tell.
    """
    if declared != "auto":
        return declared.lower()
    if _english_share(text) >= _ENGLISH_SHARE:
        return "en"
    found = detected_language(text)
    return found[0] if found else None


def language_problem(text: str, declared: str, *, offline_decomposer: bool) -> str | None:
    """Why the text cannot be checked as given, or None.

    ``declared`` is the ``language`` setting: "auto" detects; a code is taken as given.
    Only the offline decomposer is bound to English; chat models read other languages.
    """
    if not offline_decomposer:
        return None
    if declared != "auto":
        code, sure = declared.lower(), True
    else:
        if _english_share(text) >= _ENGLISH_SHARE:
            return None  # plainly English: no detector to load (it costs ~0.7 s once)
        found = detected_language(text)
        if found is None:
            return None
        code, probability = found
        sure = probability >= _CONFIDENT
    if code == "en" or not sure:
        return None
    return (
        f"the text looks like language '{code}', and the offline engine reads English only "
        "(its verdicts would be wrong): check it with a chat model (--model / TRIQUA_MODEL), "
        "or pass --language en if the text is English"
    )


def _english_share(text: str) -> float:
    """Share of the text's words that are English function words."""
    words = [w.strip(".,;:!?\"'()").lower() for w in text[:_SAMPLE_CHARS].split()]
    words = [w for w in words if w]
    return sum(w in _ENGLISH for w in words) / len(words) if words else 0.0
