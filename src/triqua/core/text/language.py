"""The text's language, so the English-only offline engine never scores another language.

The offline decomposer parses with an English spaCy model: French or German text is read as
English (a wrong year can score 100 %), Chinese yields nothing. Detection is langdetect's
(a port of Google's language-detection, profiles packaged, 55 languages), seeded so it is
deterministic, on the first few thousand characters. The detector decides first, for every
language it knows, with a minimum confidence; short texts are not judged.

A text in a script other than Latin (Arabic, Cyrillic, CJK, ...) is never English, however
short: its script decides. A Latin-script text the detector gives to another language is
weighed once more, because names mislead character n-grams ("Georg Friedrich Parrot was born
in Mutschelleben" reads as German): the words that are function words of only one of the two
languages (spaCy's stop-word lists) are counted, and the text is English only when English's
own words outnumber the other language's. Words both languages share ("in", "an", "was" in
German and Dutch) count for neither.
"""

from __future__ import annotations

import functools
import importlib.util
import threading
import unicodedata
from pathlib import Path

__all__ = ["detected_language", "foreign_language", "language_problem", "text_language"]

_SAMPLE_CHARS = 3_000
_MIN_LETTERS = 40  # shorter Latin-script texts are too unreliable to judge
_MIN_SCRIPT_LETTERS = 4  # a script is plain from a few letters
_CONFIDENT = 0.95  # the language's probability needed to call the text non-English
_LOCK = threading.Lock()  # langdetect's factory is process-wide state
#: Where langdetect's code and spaCy's language package differ.
_SPACY_CODES = {"no": "nb", "zh-cn": "zh", "zh-tw": "zh"}
#: English function words, for texts the detector cannot judge (too short) and for languages
#: spaCy has no stop words for: a share of ``_ENGLISH_SHARE`` makes the text English.
_ENGLISH_WORDS = (
    "the a an is was were are be been of in on at to for with by from as and or not "
    "that this it he she they his her their has have had"
)
_ENGLISH = frozenset(_ENGLISH_WORDS.split())
_ENGLISH_SHARE = 0.1
#: Function words of its own language (not English's) a Latin-script passage must hold to
#: be left unread as foreign: one may be a name's ("van", "de").
_FOREIGN_WORDS = 2


@functools.cache
def _factory() -> object:
    from langdetect import DetectorFactory

    DetectorFactory.seed = 0  # the same text always gets the same answer
    return DetectorFactory


def _letter_weight(char: str) -> int:
    # A CJK character carries about a word: it counts as two letters.
    return 2 if char >= "\u2e80" else 1


def _script(text: str) -> str | None:
    """The script most of the text's letters are written in ("LATIN", "ARABIC", ...)."""
    counts: dict[str, int] = {}
    for char in text:
        if char.isalpha():
            name = unicodedata.name(char, "UNKNOWN").split(" ", 1)[0]
            counts[name] = counts.get(name, 0) + _letter_weight(char)
    return max(counts, key=counts.__getitem__) if counts else None


def detected_language(text: str) -> tuple[str, float] | None:
    """The text's language code and its probability, or None when it cannot be judged.

    A Latin-script text needs ``_MIN_LETTERS`` letters; any other script a few.
    """
    sample = text[:_SAMPLE_CHARS]
    letters = sum(_letter_weight(c) for c in sample if c.isalpha())
    latin = _script(sample) in (None, "LATIN")
    if letters < (_MIN_LETTERS if latin else _MIN_SCRIPT_LETTERS):
        return None
    from langdetect import detect_langs
    from langdetect.lang_detect_exception import LangDetectException

    _factory()
    try:
        with _LOCK:
            found = detect_langs(sample)
    except LangDetectException:
        found = []
    if found:
        return found[0].lang, float(found[0].prob)
    return None if latin else (str(_script(sample)).lower(), 1.0)


@functools.cache
def _stop_words(code: str) -> frozenset[str]:
    """The stop words spaCy lists for a language (empty when spaCy has none for it).

    Read from the list's own file, without importing the language's package: some build
    their tokenizer rules on import (French: ~2 s), and only the list is read here.
    """
    name = _SPACY_CODES.get(code, code)
    lang = importlib.util.find_spec("spacy.lang")
    folders = lang.submodule_search_locations if lang is not None else None
    path = Path(next(iter(folders or [])), name, "stop_words.py") if folders else None
    if path is None or not name.isidentifier() or not path.is_file():
        return frozenset()
    spec = importlib.util.spec_from_file_location(f"triqua_stop_words_{name}", path)
    if spec is None or spec.loader is None:
        return frozenset()
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return frozenset(getattr(module, "STOP_WORDS", ()))


def _words(text: str) -> list[str]:
    words = [w.strip(".,;:!?\"'()[]«»„“”#*").lower() for w in text[:_SAMPLE_CHARS].split()]
    return [w for w in words if w]


def _english_share(text: str) -> float:
    """Share of the text's words that are English function words."""
    words = _words(text)
    return sum(w in _ENGLISH for w in words) / len(words) if words else 0.0


def _english_after_all(text: str, code: str) -> bool:
    """Whether a Latin-script text given to ``code`` is English by its function words."""
    english, other = _stop_words("en"), _stop_words(code)
    words = _words(text)
    if not words:
        return False
    if not other:
        return _english_share(text) >= _ENGLISH_SHARE
    english_own = sum(w in english and w not in other for w in words)
    other_own = sum(w in other and w not in english for w in words)
    return english_own >= other_own


def _judged(text: str) -> tuple[str, bool] | None:
    """The text's language and whether it is sure enough to refuse on, or None."""
    found = detected_language(text)
    if found is None:
        return None
    code, probability = found
    if code == "en":
        return "en", True
    if _script(text[:_SAMPLE_CHARS]) not in (None, "LATIN"):
        return code, True  # another script is never English
    if _english_after_all(text, code):
        return "en", True
    return code, probability >= _CONFIDENT


def _surely_foreign(text: str) -> str | None:
    """The text's language when the detector is sure it is not English, else None."""
    judged = _judged(text)
    if judged is None:
        return None
    code, sure = judged
    return code if code != "en" and sure else None


def text_language(text: str, declared: str) -> str | None:
    """The language a report records: the ``language`` setting when given, else detected.

    A text too short for the detector is "en" when English function words are frequent in
    it ("Paris is the capital of France."); None when the text is too short or mixed to tell.
    """
    if declared != "auto":
        return declared.lower()
    judged = _judged(text)
    if judged is not None:
        return judged[0]
    return "en" if _english_share(text) >= _ENGLISH_SHARE else None


@functools.cache
def _stop_word_codes() -> tuple[dict[str, tuple[str, ...]], frozenset[str]]:
    """The detector's languages by their stop words, and those spaCy lists none for.

    Returns each stop word of a language the detector knows (English aside) with the
    languages that list it, and the languages without a list.
    """
    from langdetect import detector_factory

    with _LOCK:
        detector_factory.init_factory()
        known = detector_factory._factory.get_lang_list()  # the profiles it loaded
    codes = [c for c in known if c != "en"]
    by_word: dict[str, list[str]] = {}
    for code in codes:
        for word in _stop_words(code):
            by_word.setdefault(word, []).append(code)
    listless = frozenset(c for c in codes if not _stop_words(c))
    return {w: tuple(c) for w, c in by_word.items()}, listless


def _english_whatever_detected(text: str) -> bool:
    """True when no language the detector could name would leave ``text`` unread.

    A Latin-script passage too short to judge is read; a longer one is left unread only
    when its own function words outweigh
    English's for the language detected, and are at least ``_FOREIGN_WORDS`` (or, for a
    language spaCy lists no stop words for, when English function words are rare): the
    same counts :func:`_english_after_all` and :func:`foreign_language` make, made here for
    every language the detector knows at once. When none could, the detector (the costly
    part: a few ms a passage) need not run; the answer is the one it would lead to.
    """
    sample = text[:_SAMPLE_CHARS]
    if _script(sample) not in (None, "LATIN"):
        return False
    if sum(_letter_weight(c) for c in sample if c.isalpha()) < _MIN_LETTERS:
        return True  # too short for the detector to judge: read
    words = _words(text)
    if not words:
        return False
    by_word, listless = _stop_word_codes()
    if listless and _english_share(text) < _ENGLISH_SHARE:
        return False
    english = _stop_words("en")
    in_english = 0
    shared: dict[str, int] = {}  # English stop words a language lists too
    own: dict[str, int] = {}  # a language's stop words English does not list
    for word in words:
        codes = by_word.get(word, ())
        if word in english:
            in_english += 1
            for code in codes:
                shared[code] = shared.get(code, 0) + 1
        else:
            for code in codes:
                own[code] = own.get(code, 0) + 1
    return all(n < _FOREIGN_WORDS or n <= in_english - shared.get(c, 0) for c, n in own.items())


@functools.lru_cache(maxsize=4096)  # a passage is read for every fact of a run
def foreign_language(text: str) -> str | None:
    """The language of a passage the detector is sure is not English, else None.

    The offline readers (negation cues, value rules, the entailment judge) read English
    only: "n'est pas à Seattle" carries no English negation, so a French denial read as
    English states the claim. Such a passage is not read at all. A passage too short to
    judge, or judged English after all by its function words, is read. A passage whose
    function words settle it as English whatever the detector says is read without
    running the detector (:func:`_english_whatever_detected`).
    """
    return None if _english_whatever_detected(text) else _detected_foreign(text)


def _detected_foreign(text: str) -> str | None:
    """:func:`foreign_language` by the detector: its language, weighed by function words."""
    code = _surely_foreign(text)
    if code is None:
        return None
    if _script(text[:_SAMPLE_CHARS]) not in (None, "LATIN"):
        return code
    # Names mislead n-grams ("Ludwig van Beethoven was born in Bonn" reads as Dutch by
    # "van"): a Latin-script passage is foreign on the evidence of its own function words.
    english, other = _stop_words("en"), _stop_words(code)
    own = sum(w in other and w not in english for w in _words(text))
    return code if own >= _FOREIGN_WORDS or not other else None


def language_problem(text: str, declared: str, *, offline_decomposer: bool) -> str | None:
    """Why the text cannot be checked as given, or None.

    ``declared`` is the ``language`` setting: "auto" detects; a code is taken as given.
    Only the offline decomposer is bound to English; chat models read other languages.
    """
    if not offline_decomposer:
        return None
    code = declared.lower() if declared != "auto" else _surely_foreign(text)
    if code is None or code == "en":
        return None
    return (
        f"the text looks like language '{code}', and the offline engine reads English only "
        "(its verdicts would be wrong): check it with a chat model (--model / TRIQUA_MODEL), "
        "or pass --language en if the text is English"
    )
