"""A subject that is a plural common noun: a class, not a name ("Bellflowers are …").

A fact opens with its subject capitalised, so "Bellflowers are found in forests" or "Firms
advertise" looks like a name; its verb's agreement says it is a plural common noun, carried
by its stem in any case ("a bellflower", "Bristly Bellflower"), and under the default
grounding rule a class the judge reads (``core.reading.quote_values``).
"""

from __future__ import annotations

import re

from triqua.core.reading.quotes import normalise
from triqua.core.reading.words import irregular_form, word_stems
from triqua.schema import FactUnit

__all__ = ["class_written", "plural_common_noun", "stem_written"]

#: Verb forms that agree only with a plural subject: "Firms are", "Bellflowers have".
_PLURAL_VERBS = frozenset(["are", "were", "have", "do", "aren't", "weren't", "haven't", "don't"])
#: Verbs without an "s" that agree with a singular subject too (modals, past forms).
_EITHER_NUMBER = frozenset(
    (
        "can", "could", "will", "would", "shall", "should", "may", "might", "must", "did",
        "had", "cannot", "won't", "can't", "used", "ought", "need", "dare",
    )
)  # fmt: skip
#: One capitalised word ending in a plural "s" ("Bellflowers"; not "Glass", "Cactus").
_PLURAL_WORD = re.compile(r"[A-Z][a-z]{2,}(?<![su])s")


def plural_common_noun(unit: FactUnit) -> str:
    """A unit's subject, normalised, when it is a plural common noun opening its fact, or "".

    "Bellflowers are found in forests", "Firms advertise": one capitalised word ending in
    "s" whose verb agrees only with a plural ("are", "were", "have", "do", or a present
    verb of three letters or more without its "s": not a modal, nor a past form such as
    "founded" or "won"). A name
    is singular to its verb ("Williams is", "Texas has", "Lawson offers"), so it stays a
    name written as a name.
    """
    if unit.kind not in ("base", "qualifier") or not _PLURAL_WORD.fullmatch(unit.subject.strip()):
        return ""
    verb = unit.relation.replace("’", "'").split()[:1]
    if not verb:
        return ""
    word = verb[0]
    bare = (
        len(word) > 2
        and word.isalpha()
        and word.islower()
        and not word.endswith(("s", "ed"))
        and word not in _EITHER_NUMBER
        and not irregular_form(word)
    )
    return normalise(unit.subject) if word.lower() in _PLURAL_VERBS or bare else ""


def stem_written(noun: str, text: str) -> bool:
    """True when ``text`` writes the common noun in any case, singular or plural (its stem)."""
    return word_stems(noun) <= word_stems(text)


def class_written(noun: str, quote: str, before: str, refers: object) -> bool:
    """True when ``quote`` writes the plural common noun's stem, or ``before`` does.

    ``before`` counts only when a pronoun or description of the quote refers back
    (``refers``, read only then).
    """
    return stem_written(noun, quote) or bool(refers and stem_written(noun, before))
