"""Entailment by token containment: is each element of a fact found in its source sentence?"""

from __future__ import annotations

from triqua.core.reading.lexicon_file import read_lexicon
from triqua.evals.decomposition_judges.verdicts import CriterionVerdict
from triqua.evals.decomposition_judges.words import WORD, word_list
from triqua.evals.defaults import DEFAULT_CONTAINMENT_THRESHOLD
from triqua.schema import Fact

_STOPWORDS = frozenset(
    word_list(
        """a an the and or but nor of to in on at by for with from as into onto upon than then
    is are was were be been being am has have had having do does did done doing will would
    shall should can could may might must not no that which who whom whose this these those
    it its he she they them his her their him hers theirs there here also s"""
    )
)
#: Month names with their numbers as text (the lexicon's one month table).
_MONTHS = {name.lower(): str(number) for name, number in read_lexicon()["months"].items()}


def _stem(word: str) -> str:
    """A light suffix stripper (plural, past, gerund): enough to match inflected forms."""
    word = word.casefold()
    if word.isdigit():
        return word.lstrip("0") or "0"
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + keep
            break
    # "prize"/"prizes", "release"/"released": a final e is dropped on both sides.
    return word[:-1] if word.endswith("e") and len(word) >= 4 else word


def _content(text: str) -> list[str]:
    return [w for w in WORD.findall(text) if w.casefold() not in _STOPWORDS]


def _vocabulary(text: str) -> set[str]:
    """Stems of ``text``'s words, with month names also as their numbers."""
    words = WORD.findall(text)
    stems = {_stem(w) for w in words}
    stems |= {_MONTHS[w.casefold()] for w in words if w.casefold() in _MONTHS}
    return stems


def containment(element: str, source: str, context: str = "") -> float | None:
    """Share of ``element``'s content words found in ``source`` (None: no content word).

    Capitalised words (names) may instead be found in ``context``, the text before the
    source sentence, since a decontextualised fact spells out what a pronoun referred to.
    """
    words = _content(element)
    if not words:
        return None
    in_source = _vocabulary(source)
    in_context = _vocabulary(context)
    found = sum(
        1 for w in words if _stem(w) in in_source or (w[:1].isupper() and _stem(w) in in_context)
    )
    return found / len(words)


def judge_entailed(
    fact: Fact,
    source: str,
    context: str = "",
    threshold: float = DEFAULT_CONTAINMENT_THRESHOLD,
) -> CriterionVerdict:
    """Entailment by containment: every element must reach ``threshold``."""
    elements = [(fact.triple_text, f"{fact.subject} {fact.relation} {fact.object}")]
    elements += [(str(q), q.value) for q in fact.qualifiers]
    failing = []
    for name, text in elements:
        share = containment(text, source, context)
        if share is not None and share < threshold:
            failing.append((name, share))
    if not failing:
        return CriterionVerdict(passed=True)
    reason = "; ".join(
        f"{name}: {share:.2f} of content words in the source" for name, share in failing
    )
    return CriterionVerdict(passed=False, elements=[n for n, _ in failing], reason=reason)
