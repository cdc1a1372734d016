"""Decontextualisation: no unresolved pronoun, demonstrative, relative time or bare comparative."""

from __future__ import annotations

import functools
import re

from triqua.evals.decomposition_judges.verdicts import CriterionVerdict
from triqua.schema import Fact

_PRONOUN = re.compile(
    r"\b(he|she|it|they|him|her|them|his|hers|its|their|theirs|himself|herself|itself|"
    r"themselves|we|us|our|ours|i|me|my|you|your)\b",
    re.I,
)
_DEMONSTRATIVE = re.compile(r"^(this|that|these|those)\b|^the (latter|former)$", re.I)
_UNIT = r"(year|month|week|day|decade|century|season|summer|winter|spring|autumn|fall|time)s?"
_RELATIVE_TIME = re.compile(
    r"\b(recently|currently|now|nowadays|today|tonight|yesterday|tomorrow|lately|presently|"
    r"soon|ago|formerly|since then|to date|so far|at the time|in recent " + _UNIT + r"|"
    r"(last|next|this|previous|following|coming|past|that|same|prior) " + _UNIT + r"|"
    r"(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|several|a few|many) "
    + _UNIT
    + r" (later|earlier|before|after))\b",
    re.I,
)
_QUOTED = re.compile(r'"[^"]*"|“[^”]*”')
_THAN = re.compile(r"\bthan\b", re.I)
_BARE_MORE = re.compile(r"\b(more|less|fewer)\b", re.I)


# Comparatives end in "-er" or are irregular; other text skips the parser (most elements).
_MAYBE_COMPARATIVE = re.compile(r"\w\wer\b|\b(worse|less|more|fewer)\b", re.I)


@functools.lru_cache(maxsize=4096)
def _tagged_comparatives(text: str) -> tuple[str, ...]:
    """Words spaCy tags as comparative (JJR, RBR) in ``text``."""
    from triqua.nlp.pipeline import NLP_LOCK, load_nlp

    with NLP_LOCK:
        doc = load_nlp()(text)
    return tuple(t.text for t in doc if t.tag_ in {"JJR", "RBR"})


# "older sister", "elder brother": kinship terms, not comparisons with something left out.
_KINSHIP = re.compile(
    r"(elder|older|younger) (brother|sister|son|daughter|sibling|child|half-\w+)", re.I
)


def _comparatives(text: str) -> list[str]:
    """Comparative words of ``text`` (spaCy tags JJR/RBR, and 'more'/'less'/'fewer')."""
    if not _MAYBE_COMPARATIVE.search(text):
        return []
    found = [w for w in _tagged_comparatives(text) if not _KINSHIP.match(text, text.find(w))]
    found += [m.group(0) for m in _BARE_MORE.finditer(text) if m.group(0) not in found]
    return found


def _in_name(text: str, word: str) -> bool:
    """True when ``word`` is capitalised past the element's start: part of a name or title.

    "the US", "films including Me Before You", "The Closer": not references to resolve.
    """
    at = text.find(word)
    return at > 0 and word[:1].isupper()


def _first(pattern: re.Pattern[str], text: str) -> str | None:
    """The first match of ``pattern`` in ``text`` that is not part of a name."""
    for match in pattern.finditer(text):
        if match.start() == 0 or not match.group(0)[:1].isupper():
            return match.group(0)
    return None


def judge_decontextualised(fact: Fact) -> CriterionVerdict:
    """No unresolved pronoun, demonstrative, relative time or bare comparative in the fact.

    Pronouns are looked for in every element; demonstratives only at the start of the
    subject, object and qualifier values (a relation's "that" is a conjunction); a
    comparative is bare when its element has no "than". Quoted titles are skipped, and so
    are capitalised matches past an element's start (names and titles: "the US", "The
    Closer"); kinship terms ("older sister") are not comparisons.
    """
    parts = [
        (fact.triple_text, "subject", fact.subject),
        (fact.triple_text, "relation", fact.relation),
        (fact.triple_text, "object", fact.object),
        *((str(q), "value", q.value) for q in fact.qualifiers),
    ]
    problems: list[tuple[str, str]] = []
    for name, role, quoted in parts:
        text = _QUOTED.sub(" ", quoted)  # a title ("My Way") is a name, not a reference
        if not text.strip():
            continue
        text = text.strip()
        if match := _first(_PRONOUN, text):
            problems.append((name, f"pronoun {match!r} in {role}"))
        if role != "relation" and (match := _first(_DEMONSTRATIVE, text)):
            problems.append((name, f"demonstrative {match!r} in {role}"))
        if match := _first(_RELATIVE_TIME, text):
            problems.append((name, f"relative time {match!r} in {role}"))
        words = [w for w in _comparatives(text) if not _in_name(text, w)]
        if words and not _THAN.search(text):
            problems.append((name, f"bare comparative {words[0]!r} in {role}"))
    return CriterionVerdict.of(problems)
