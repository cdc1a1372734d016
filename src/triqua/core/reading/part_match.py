"""A fact's parts found in a sentence: the object's words, its restrictors, a denial.

A fact is read through its parts (``fact_parts``); these readings say whether a sentence
states the object's words and restrictors in its own words, and whether it denies the
relation. A statement in other words is an entailment judge's to read, and what a reading
means for a unit is the verifier's to decide (``engines.offline.verify``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from triqua.core.reading.analysis import TextInfo, Token, analyse, coverage, has_stem
from triqua.core.reading.fact_parts import FactParts, antonym_in
from triqua.core.reading.mentions import REFERS, subject_extended
from triqua.core.reading.name_match import name_match, name_words_in
from triqua.core.reading.negation import cues_in_scope
from triqua.core.reading.part_rivals import negated_near, substitution
from triqua.core.reading.restrictors.markers import check, markers
from triqua.schema import Fact, FactUnit

__all__ = [
    "NAMED_BY_NUMBER",
    "TextMatch",
    "comparative",
    "extends_subject",
    "measured",
    "negated_in",
    "restrictor_left_out",
    "restrictors_stated",
    "said_object",
    "text_matches",
    "written_share",
]

#: Share of a text value's content words an evidence sentence must hold to state it; a
#: sentence that says it in other words is the judge's to read.
COVERAGE = 0.75


def measured(part: TextInfo) -> bool:
    """True when the part is a measured quantity: with a unit or a counted noun.

    "9,000 metres", "4.2%", "$2 billion", "2.1 million inhabitants" are; "the 200
    metres" (a race) names a thing, not a quantity.
    """
    if NAMED_BY_NUMBER.match(part.text):
        return False
    return any(n.noun or any(r[1] != "count" for r in n.readings) for n in part.numbers)


NAMED_BY_NUMBER = re.compile(r"^\s*the\s+\d", re.I)


def claim_stems(parts: FactParts) -> tuple[str, ...]:
    """The stems of the fact's subject, relation and object words (what the claim writes)."""
    return tuple(
        t.stem for part in (parts.subject, parts.relation, parts.object) for t in part.content
    )


def restrictors_stated(
    parts: FactParts, sentence: TextInfo, referent: TextInfo | None = None
) -> tuple[str, str | None]:
    """Whether the sentence states the fact's restrictors ("once", "the first", "only").

    A sentence that refers back to the subject ("It was first performed in Vienna") writes
    the subject's own restrictors in the sentence it refers to (``referent``: "Beethoven
    completed his Ninth Symphony"); the fact's other restrictors it must write itself.
    Returns ("ok" | "missing" | "rival", the rival's words or the missing restrictor).
    """
    said = claim_stems(parts)
    named = [sentence] if referent is None else [sentence, referent]
    outcome, claimed, rival = check(parts.subject_restrictors, named, rivals=False, said=said)
    if outcome == "ok":
        outcome, claimed, rival = check(parts.restrictors, [sentence], said=said)
    if outcome == "rival" and rival is not None:
        return outcome, rival.text
    if outcome == "ok":
        compared = comparative(parts.object)
        if compared is not None and not has_stem(sentence.stems, compared.stem):
            return "missing", compared.text  # "weaker than" is no paraphrase of "strong"
    return outcome, claimed.text if claimed is not None else None


def restrictor_left_out(parts: FactParts, info: TextInfo) -> bool:
    """True when the sentence states no restrictor of the kind the fact's object writes.

    "was named best restaurant in the world" for "one of the best restaurants", "by itself"
    for "hydrochloric acid alone": no value in the sentence disagrees, so it is no crisp
    mismatch (the grounding rule's ``rival_restrictor`` reads it so too); the offline
    judge reads it, at a stricter bar (``engines.offline.verify.reading.needed``). A
    restrictor of the same kind on another noun ("the only legitimate child" for "the only
    child"), a rival one (a count for a frequency), or a subject's restrictor left out
    ("The second woman in space" for "The first woman") is a mismatch.
    """
    said = claim_stems(parts)
    if check(parts.subject_restrictors, [info], rivals=False, said=said)[0] != "ok":
        return False
    outcome, claimed, _ = check(parts.restrictors, [info], said=said)
    if outcome != "missing" or claimed is None:
        return False
    # A count stands for a frequency ("three World Cups" for "won the World Cup once").
    kinds = {claimed.kind, "count"} if claimed.kind == "frequency" else {claimed.kind}
    return not any(m.kind in kinds for m in markers(info.text))


def comparative(part: TextInfo) -> Token | None:
    """The word a comparison turns on ("weaker" in "weaker than those of black holes").

    The word right before "than", unless it is a quantity word ("more than 300": the
    number decides). None when the part compares nothing.
    """
    tokens = part.tokens
    for i, token in enumerate(tokens):
        if token.text.lower() == "than" and i > 0:
            before = tokens[i - 1]
            if before.text.lower() in _QUANTITY_WORDS or not before.text.isalpha():
                return None
            return before
    return None


_QUANTITY_WORDS = frozenset({"more", "less", "fewer", "rather", "other", "greater", "lower"})


def negated_in(sentence: TextInfo, anchor: Token | None, parts: FactParts) -> bool:
    """True when the sentence denies the relation: a cue before it, or an antonym of a word.

    Which cues can deny the fact is the shared negation reading of both engines
    (``core.reading.negation.cues_in_scope``): a cue inside a clause under a noun that writes
    no more of the fact's words than the rest of its sentence ("Marie Curie, who did not win
    it in 1903, won it in 1911", for a win in 1911) denies that clause, not the fact.
    """
    unit = FactUnit(
        kind="base",
        subject=parts.subject.text,
        relation=parts.relation.text,
        object=parts.object.text,
    )
    if negated_near(sentence, anchor, parts.object, cues_in_scope(unit, sentence.text)):
        return True
    return antonym_in(parts.relation, sentence) is not None or (
        antonym_in(parts.object, sentence) is not None
    )


def extends_subject(subject: TextInfo, sentence: TextInfo, score: float) -> bool:
    """True when the sentence names someone else with the subject's name ("Pierre Curie").

    ``score`` is how the sentence speaks of the subject (``mentions.subject_scores``): one
    that refers back to it, or barely names it, is not checked.
    """
    if score < 0.6 or score == REFERS:
        return False
    return subject_extended(subject, sentence)


@dataclass
class TextMatch:
    """Whether a sentence states a text value, and how (named, or in its own words)."""

    ok: bool
    reason: str = ""


def text_matches(part: TextInfo, sentence: TextInfo, before: str = "") -> TextMatch:
    """Whether the sentence states the part's words (``before``: the passage before it).

    A name must be named (alias rules); in descriptive text every capitalised word (a
    name inside it: "a tool developed by Mondeca") must occur, no word may be replaced by
    another ("baseball clubs" / "football clubs"), and ``COVERAGE`` of the other words must.
    """
    if not part.content:
        return TextMatch(True, "stated")
    if part.is_name:
        return TextMatch(name_match(part, sentence) > 0, "named")
    if not name_words_in(part, sentence, before):
        return TextMatch(False)
    cover = coverage(part, sentence)
    if cover >= 1.0:
        return TextMatch(True, "stated")
    antonym = antonym_in(part, sentence)
    if antonym is not None:
        # "ineffective" states "effective", denied: the words match and the negation check
        # of the caller turns the unit into a contradiction.
        rest = [t for t in part.content if not antonym.stem.endswith(t.stem)]
        if all(has_stem(sentence.stems, t.stem) for t in rest):
            return TextMatch(True, "stated")
    if substitution(part, sentence) is not None:
        return TextMatch(False)
    return TextMatch(cover >= COVERAGE, f"word coverage {cover:.2f}")


def written_share(part: TextInfo, info: TextInfo) -> float:
    """The share of ``part``'s content words ``info`` writes, an acronym spelled out included."""
    if not part.content:
        return 0.0
    found = sum(
        has_stem(info.stems, t.stem) or t.text.lower() in info.acronyms for t in part.content
    )
    return found / len(part.content)


def said_object(fact: Fact, parts: FactParts) -> TextInfo:
    """The object as the claim says it: a lost one is its sentence's words after the verb.

    "Humphrey Bogart | was ranked |" from "… was ranked worst male star of Classic American
    cinema": a window with "greatest" in the place of "worst" rivals what the sentence says.
    """
    if parts.object.content or not fact.relation.strip():
        return parts.object
    source = " ".join(fact.source_text.split())
    relation = " " + fact.relation.strip().lower() + " "
    at = source.lower().find(relation)
    tail = source[at + len(relation) :].rstrip(" .!;") if at >= 0 else ""
    return analyse(tail) if tail else parts.object
