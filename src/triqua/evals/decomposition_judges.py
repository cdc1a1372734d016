"""Rule judges of decomposition quality (TriQua §4.2), so diagnostics run without a model.

Three criteria are judged per fact:

* ``entailed``: the source sentence entails the fact. Offline this is token containment: the
  share of each element's content words found in the source sentence (names may also come
  from the text before it: a resolved pronoun's antecedent) must reach ``threshold``.
* ``decontextualised``: the fact stands alone: no unresolved pronoun or demonstrative, no
  relative time ("last year", "recently") and no bare comparative ("larger" without "than").
* ``qualifiers_ok``: no qualifier modifies another qualifier, states a general property of an
  entity, or has a preposition as its label.

Each verdict names the offending elements (``(s, r, o)`` or ``(label, value)``) so that rates
can be broken down per qualifier label.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, Field

from triqua.evals.defaults import DEFAULT_CONTAINMENT_THRESHOLD
from triqua.schema import Fact, Qualifier

__all__ = [
    "CRITERIA",
    "DEFAULT_CONTAINMENT_THRESHOLD",
    "CriterionVerdict",
    "FactDiagnosis",
    "containment",
    "judge_decontextualised",
    "judge_entailed",
    "judge_qualifiers",
    "rule_diagnosis",
]

Criterion = Literal["entailed", "decontextualised", "qualifiers_ok"]
CRITERIA: tuple[Criterion, ...] = ("entailed", "decontextualised", "qualifiers_ok")


class CriterionVerdict(BaseModel):
    """One judge's verdict on one criterion of one fact."""

    passed: bool
    elements: list[str] = Field(
        default_factory=list, description="Offending elements: '(s, r, o)' or '(label, value)'."
    )
    reason: str = ""


class FactDiagnosis(BaseModel):
    """One judge's verdicts on a fact, one per criterion."""

    verdicts: dict[str, CriterionVerdict]

    def failed_labels(self, criterion: str, fact: Fact) -> set[str]:
        """Qualifier labels of ``fact`` that fail ``criterion``.

        A failure that names no qualifier (a fact-wide failure, or one on the base triple)
        counts against every qualifier label of the fact only when no element is named.
        """
        verdict = self.verdicts[criterion]
        if verdict.passed:
            return set()
        named = {q.label for q in fact.qualifiers if _names(verdict.elements, q)}
        if verdict.elements:
            return named
        return {q.label for q in fact.qualifiers}


def _names(elements: Iterable[str], qualifier: Qualifier) -> bool:
    """True when an element string refers to ``qualifier`` (as '(label, value)' or label)."""
    wanted = {_norm(str(qualifier)), _norm(qualifier.label)}
    return any(_norm(e) in wanted for e in elements)


def _norm(text: str) -> str:
    return " ".join(_WORD.findall(text.casefold()))


_WORD = re.compile(r"\w+")

# -- (a) entailment by token containment -------------------------------------------------


def _words(text: str) -> tuple[str, ...]:
    """The whitespace-separated words of ``text``, in order (word lists kept readable)."""
    return tuple(text.split())


_STOPWORDS = frozenset(
    _words(
        """a an the and or but nor of to in on at by for with from as into onto upon than then
    is are was were be been being am has have had having do does did done doing will would
    shall should can could may might must not no that which who whom whose this these those
    it its he she they them his her their him hers theirs there here also s"""
    )
)
_MONTHS = {
    m: str(i)
    for i, m in enumerate(
        _words(
            "january february march april may june july august september october november december"
        ),
        start=1,
    )
}


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
    return [w for w in _WORD.findall(text) if w.casefold() not in _STOPWORDS]


def _vocabulary(text: str) -> set[str]:
    """Stems of ``text``'s words, with month names also as their numbers."""
    words = _WORD.findall(text)
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


# -- (b) decontextualisation ---------------------------------------------------------------

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
    from triqua.engines.offline.nlp import NLP_LOCK, load_nlp

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
    if not problems:
        return CriterionVerdict(passed=True)
    return CriterionVerdict(
        passed=False,
        elements=list(dict.fromkeys(name for name, _ in problems)),
        reason="; ".join(why for _, why in problems),
    )


# -- (c) qualifier misuse ------------------------------------------------------------------

#: Bare prepositions. "including" and "excluding" are left out: they are Wikidata qualifier
#: properties (P1012, P1011), the labels the offline decomposer gives such phrases.
_PREPOSITIONS = frozenset(
    _words(
        """about above across after against along amid among around as at before behind below
    beneath beside besides between beyond by despite down during except following
    for from in inside into like near of off on onto out outside over past per
    plus since than through throughout till to toward towards under underneath unlike until
    up upon versus via with within without"""
    )
)
#: Properties of an entity itself (Wikidata main-statement properties), not of one statement:
#: as a qualifier they describe the subject or object instead of qualifying the triple.
_ENTITY_PROPERTIES = frozenset(
    {
        "nationality",
        "citizenship",
        "country of citizenship",
        "occupation",
        "profession",
        "job",
        "gender",
        "sex",
        "religion",
        "ethnicity",
        "ethnic group",
        "date of birth",
        "birth date",
        "place of birth",
        "birthplace",
        "birth place",
        "date of death",
        "place of death",
        "spouse",
        "height",
        "weight",
        "eye color",
        "hair color",
        "native language",
        "genre",
        "official language",
        "capital",
        "population",
        "area",
        "currency",
        "founder",
        "founded",
        "inception",
        "headquarters",
        "headquarters location",
        "description",
        "instance of",
        "subclass of",
        "title",
        "known for",
        "alias",
        "nickname",
    }
)
_OF_TARGET = re.compile(r"\bof (the )?(.+)$")


def _is_preposition_label(label: str) -> bool:
    words = _norm(label).split()
    return bool(words) and all(w in _PREPOSITIONS for w in words)


def _modifies(qualifier: Qualifier, other: Qualifier) -> bool:
    """True when ``qualifier`` qualifies ``other`` rather than the base triple.

    Its label names the other's label or value ("country of location", "league of Real
    Madrid"), or its value restates the other's value with more words.
    """
    label = _norm(qualifier.label)
    target = _OF_TARGET.search(label)
    other_label, other_value = _norm(other.label), _norm(other.value)
    if target and target.group(2) in {other_label, other_value}:
        return True
    if (
        other_value
        and not other_value.isdigit()
        and re.search(rf"\b{re.escape(other_value)}\b", label)
    ):
        return True
    value = _norm(qualifier.value)
    return bool(other_value) and value != other_value and value.startswith(other_value + " ")


def judge_qualifiers(fact: Fact) -> CriterionVerdict:
    """No qualifier of another qualifier, no entity property as qualifier, no preposition label."""
    problems: list[tuple[str, str]] = []
    for qualifier in fact.qualifiers:
        name = str(qualifier)
        if _is_preposition_label(qualifier.label):
            problems.append((name, f"preposition {qualifier.label!r} as label"))
        if _norm(qualifier.label) in _ENTITY_PROPERTIES:
            problems.append((name, f"general property {qualifier.label!r} as qualifier"))
        for other in fact.qualifiers:
            if other is not qualifier and _modifies(qualifier, other):
                problems.append((name, f"qualifies {other} instead of the triple"))
                break
    if not problems:
        return CriterionVerdict(passed=True)
    return CriterionVerdict(
        passed=False,
        elements=list(dict.fromkeys(name for name, _ in problems)),
        reason="; ".join(why for _, why in problems),
    )


def rule_diagnosis(
    fact: Fact,
    source: str,
    context: str = "",
    threshold: float = DEFAULT_CONTAINMENT_THRESHOLD,
) -> FactDiagnosis:
    """All three rule judges on one fact."""
    return FactDiagnosis(
        verdicts={
            "entailed": judge_entailed(fact, source, context, threshold),
            "decontextualised": judge_decontextualised(fact),
            "qualifiers_ok": judge_qualifiers(fact),
        }
    )
