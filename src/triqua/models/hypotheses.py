"""TriQua facts and units written as plain sentences: the entailment judge's hypotheses.

The judge reads (premise, hypothesis) pairs of text, so a fact is rendered the way a
person would state it: "Marie Curie won the Nobel Prize in Physics in 1903". A qualifier's
label names a property, not the preposition it came with, so each label maps back to the
preposition that introduces it in English. Training (``training/prepare.py``) renders its
hypotheses with these same functions, so the judge sees at run time what it learned on.
"""

from __future__ import annotations

from triqua.schema import Fact, FactUnit, Qualifier
from triqua.sentences import sentence_spans

__all__ = [
    "LABEL_PREPOSITIONS",
    "fact_hypothesis",
    "qualifier_phrase",
    "source_hypothesis",
    "unit_hypothesis",
]

_MAX_SOURCE = 300  # characters of a source sentence read as a hypothesis

#: The preposition that introduces each qualifier property ("" for a bare value).
LABEL_PREPOSITIONS: dict[str, str] = {
    "point in time": "in",
    "start time": "from",
    "end time": "until",
    "duration": "for",
    "location": "in",
    "destination": "to",
    "origin": "from",
    "via": "via",
    "purpose": "for",
    "recipient": "to",
    "beneficiary": "for",
    "agent": "by",
    "instrument": "with",
    "together with": "with",
    "opponent": "against",
    "subject has role": "as",
    "main subject": "about",
    "on behalf of": "on behalf of",
    "replaces": "instead of",
    "excluding": "excluding",
    "including": "including",
    "part of": "among",
    "stated in": "according to",
    "stated by": "according to",
    "cause": "because of",
    "follows": "after",
    "precedes": "before",
    "quantity": "",
    "frequency": "",
    "ordinal": "",
    "restriction": "",
    "context": "",
}

_LEADING_WORDS = frozenset(
    {
        "in", "on", "at", "during", "since", "from", "until", "till", "to", "by", "for",
        "with", "after", "before", "about", "as", "of", "around", "circa", "through",
        "throughout", "within", "according", "because", "due", "among", "including",
        "excluding", "against", "via", "into", "toward", "towards", "instead",
    }
)  # fmt: skip


def qualifier_phrase(label: str, value: str) -> str:
    """The words a qualifier adds to its fact ("in 1903", "with Pierre Curie").

    A value that already opens with a preposition keeps it; an unknown label (a host
    fact's relation, such as "played for") stands before its value.
    """
    value = value.strip()
    first = value.split(maxsplit=1)[0].lower() if value else ""
    if first in _LEADING_WORDS:
        return value
    preposition = LABEL_PREPOSITIONS.get(label.strip().lower(), label.strip())
    return f"{preposition} {value}".strip()


def _sentence(subject: str, relation: str, obj: str, phrases: list[str]) -> str:
    words = " ".join(w for w in (subject, relation, obj, *phrases) if w and w.strip())
    words = " ".join(words.split()).rstrip(" .;,")
    return f"{words[:1].upper()}{words[1:]}." if words else ""


def fact_hypothesis(fact: Fact, qualifiers: list[Qualifier] | None = None) -> str:
    """The fact as one sentence, with ``qualifiers`` (default: all of the fact's)."""
    chosen = fact.qualifiers if qualifiers is None else qualifiers
    phrases = [qualifier_phrase(q.label, q.value) for q in chosen]
    return _sentence(fact.subject, fact.relation, fact.object, phrases)


def unit_hypothesis(unit: FactUnit) -> str:
    """One unit as a sentence: the base triple, plus the unit's qualifier when it has one."""
    phrases = []
    if unit.kind == "qualifier":
        phrases.append(qualifier_phrase(unit.label or "", unit.value or ""))
    return _sentence(unit.subject, unit.relation, unit.object, phrases)


def source_hypothesis(source_text: str, rendered: str) -> str | None:
    """The sentence a fact came from, as a second hypothesis; None when it adds nothing.

    Only a single sentence of ordinary length counts (a long span would let one entailed
    clause stand for others), and only when it differs from the rendered fact.
    """
    text = " ".join(source_text.split())
    if not text or len(text) > _MAX_SOURCE or text.rstrip(".") == rendered.rstrip("."):
        return None
    if len(sentence_spans(text)) != 1 or text.endswith("?"):
        return None
    return text
