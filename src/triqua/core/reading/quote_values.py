"""The checkable values of a unit, and whether a quote carries them.

A unit's numbers, dates and capitalised names must be written in the text that grounds it.
The values are read by ``triqua.core.reading.values`` (the reader the offline verifier uses
too): a date or quantity is carried as the verifier compares them, with the same tolerance
for approximate ones; a name as that name, not another one sharing a word. The grounding
rule's value gate and the plan's founded-fact check (``core.plan.founded``) read it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace

from triqua.core.reading.acronyms import qualifies, stands_for
from triqua.core.reading.datelines import dateline_end
from triqua.core.reading.lexicon import LEXICON
from triqua.core.reading.orphans import orphan_description, orphan_pronoun
from triqua.core.reading.plural_subjects import class_written, plural_common_noun
from triqua.core.reading.quotes import normalise, quoted_titles
from triqua.core.reading.reference import free_pronoun
from triqua.core.reading.rivals import by_head_noun, definite_reference, rivals_before
from triqua.core.reading.speech import (
    inside_speech,
    open_quotation,
    outside_speech,
    speaks_of_another,
)
from triqua.core.reading.values.carried import Values, carried, name_carried, read_values
from triqua.core.reading.values.dates import DateValue
from triqua.core.reading.values.name_rivals import How, named
from triqua.core.reading.values.names import name_runs
from triqua.core.reading.values.names import names as read_names
from triqua.core.reading.values.numbers import NumberValue
from triqua.schema import FactUnit
from triqua.sentences import sentence_spans
from triqua.support.deferred import Deferred

__all__ = ["UnitValues", "missing_values", "unit_values"]


@dataclass(frozen=True)
class UnitValues:
    """What a quote must carry to ground a unit; ``subject`` names may be carried by reference."""

    #: The dates and quantities the unit writes.
    numbers: tuple[DateValue | NumberValue, ...]
    names: tuple[str, ...]
    subject: tuple[str, ...] = ()
    #: A qualifier's base object, which the quote must name too (see ``unit_values``).
    anchors: tuple[str, ...] = ()
    #: A qualifier's base subject: it may stand for the anchors (see ``unit_values``).
    base_subject: tuple[str, ...] = ()


@functools.lru_cache(maxsize=4096)  # a unit's values are read for each window it cites
def unit_values(unit: FactUnit) -> UnitValues:
    """The unit's checkable values: a base's subject and object, a qualifier's value.

    A qualifier's quote must also name its base: the base object's names, or its subject
    (a pronoun may carry it) when the quote names nothing else — a date qualifies that
    statement, not another one the passage makes beside it ("She won it again in 1911 for
    Chemistry" gives no year of the Physics prize).
    """
    subject = tuple(_subject_names(unit.subject))
    if unit.kind == "base":
        numbers = tuple(v for part in (unit.subject, unit.object) for v in _values(part))
        names = tuple(dict.fromkeys([*subject, *read_names(unit.object)]))
        return UnitValues(numbers=numbers, names=names, subject=subject)
    value = unit.value or ""
    return UnitValues(
        numbers=_values(value),
        names=tuple(read_names(value)),
        # "Jesse Foppert's debut": a possessor naming the subject is the subject, no anchor.
        anchors=tuple(n for n in read_names(unit.object) if n not in subject),
        base_subject=subject,
    )


def _values(text: str) -> tuple[DateValue | NumberValue, ...]:
    """The dates and quantities ``text`` writes, in the order they are written."""
    read = read_values(text)
    return tuple(sorted((*read.dates, *read.numbers), key=lambda v: v.start))


def _subject_names(subject: str) -> list[str]:
    """A subject's names, without a capitalised common word that only opens its sentence.

    "Red sauce" or "Sinking sand" is capitalised because a fact starts with it; a one-word
    run followed by a lower-case word is not taken for a name.
    """
    names = read_names(subject)
    words = subject.split()
    if names and len(words) > 1 and words[1][:1].islower() and names[0] == normalise(words[0]):
        names = names[1:]
    return names


#: Words by which a quote refers back to a subject named earlier in its passage.
_PRONOUNS = LEXICON.pronouns
#: A person's pronouns of either gender: a quote holding both refers to two people.
_GENDERED = frozenset(("he", "she"))
#: Words by which a quote refers back to a thing (a unit's object) named just before it.
_THING_PRONOUNS = frozenset(["it", "its"])


def missing_values(
    unit: FactUnit,
    quote: str,
    before: str = "",
    *,
    classes: bool = False,
    owners: bool = False,
    opens: bool = False,
) -> list[str]:
    """The unit's values (as the unit writes them) that ``quote`` does not carry.

    The subject's name may be carried by reference: a quote with a pronoun ("She won …")
    carries it when ``before`` (the passage text before the quote) names the subject, or,
    when ``before`` is all of its document before it (``opens``), as an orphan pronoun
    (:mod:`triqua.core.reading.orphans`); a pronoun in direct speech (``"He was born in
    Ulm," wrote Einstein``) is the speaker's and carries nothing from before; any other
    name of the unit when the quote refers to a thing ("it", "its", "the band") and
    the sentence right before the quote names it ("The 1993 FA Cup … It was won by Arsenal"
    carries "FA Cup"). A subject that is a plural common noun ("Bellflowers are …") is
    carried by its stem in any case, singular or plural ("Bristly Bellflower", "a
    bellflower"); with ``classes`` (the default grounding rule, whose judge reads meaning)
    it is a class, not a value, and is not checked here at all. With ``owners`` (the same
    rule) an acronym that only qualifies the name after it ("the 1986 FIFA World Cup") is
    carried by that name written without it ("the 1986 World Cup";
    :func:`triqua.core.reading.acronyms.qualifies`). A passage's dateline ("TOKYO, March 3
    —") is no part of the statement after it; "the bridge" after a passage naming another
    bridge refers to no one (:func:`triqua.core.reading.rivals.rivals_before`).
    """
    if not before or before.endswith("\n"):
        quote = quote[dateline_end(quote) :]
    values = unit_values(unit)
    written = read_values(quote)
    padded = f" {normalise(quote)} "
    ref = _references(unit.subject, quote, padded, before)
    refers, refers_to_thing, heard = ref.refers, ref.refers_to_thing, ref.heard
    said = f"{unit.subject} {unit.object}" if unit.kind == "base" else unit.value or ""
    # A qualifier carries its base's names too ("CEO" of "became CEO of Apple" in 2011).
    spelled = f"{unit.subject} {unit.object} {unit.value or ''}"
    missing = _missing_written(values, said, written, padded)
    opener = normalise(unit.subject.split()[0]) if unit.subject.split() else ""
    possessors = {run.name for run in name_runs(unit.subject) if run.possessor}
    plural = plural_common_noun(unit)
    for name in values.names:
        # A qualifier value naming the base subject ("Douglas's retirement in 1975") is the
        # subject, carried by a pronoun as it is.
        subject = name in values.subject or name in values.base_subject
        if subject and opens and _orphan(unit.subject, quote, before, unit.object):
            continue  # "He …", "The film …" opening a document naming no one: ``orphans``
        if name == plural:  # "Bellflowers are …": "a bellflower" or "Bristly Bellflower"
            if not classes and not class_written(name, quote, before, refers):
                missing.append(name)
            continue
        own = ref.refers_possessor if name in possessors else refers
        about = subject and name not in possessors
        how = How(own if subject else refers_to_thing, name == opener, about)
        # The subject may be carried from anywhere before; another name only by "it" or a
        # definite description, from the sentence right before the quote ("… the FA Cup.
        # It was won by Arsenal"): "She won …" refers to a person, the subject.
        context = before if subject else _last_sentence(before)
        if (
            subject
            and heard is not None
            and not named(name, heard, f" {normalise(heard)} ", "", how)
        ):
            missing.append(name)
            continue
        # An acronym and the name it spells: "U.S." and "the United States".
        if (
            not _name_is_number(name, values.numbers)
            and not named(name, quote, padded, context, how)
            and not stands_for(name, spelled, quote, before)
            and not (owners and qualifies(name, said, quote, before))
        ):
            missing.append(name)
    # "Potatoes were introduced to Europe | in the 16th century": under ``classes`` the class
    # is the judge's to read, as a base's is; the qualifier's anchors are still checked.
    if classes:
        values = replace(values, base_subject=tuple(s for s in values.base_subject if s != plural))
    missing += _missing_base(values, quote, padded, before, opener, refers, spelled)
    return list(dict.fromkeys(missing))


def _missing_written(values: UnitValues, said: str, written: Values, padded: str) -> list[str]:
    """The unit's numbers and quoted titles (in ``said``) that the quote does not write."""
    missing = [
        _shown(v) for v in values.numbers if not carried(v, written) and not name_carried(v, padded)
    ]
    return missing + [t for t in quoted_titles(said) if f" {normalise(t)} " not in padded]


def _missing_base(
    values: UnitValues,
    quote: str,
    padded: str,
    before: str,
    opener: str,
    refers: Deferred,
    said: str = "",
) -> list[str]:
    """A qualifier's base object and subject that ``quote`` does not carry.

    A qualifier's base object is carried as another name is, or by a pronoun when the
    sentence right before names it and the quote writes the base subject itself, so the
    pronoun stands for no one else ("… Ronald Reagan promised … He made good on that
    promise in 1981, when he announced O'Connor's nomination"; in "She won the Nobel
    Prize in Chemistry in 1911" "She" is Marie Curie, not the Physics prize). An anchor the
    unit (``said``) writes as an acronym is carried by the name or role it spells ("CEO":
    "chief executive officer").
    """
    if not values.anchors and not values.base_subject:
        return []  # a base: no anchors to carry
    last = _last_sentence(before)
    subject_written = bool(values.base_subject) and all(
        named(s, quote, padded, "", How()) for s in values.base_subject
    )
    anchor_how = How(by_reference=subject_written and refers)
    unnamed = [
        a
        for a in values.anchors
        if not named(a, quote, padded, last, anchor_how)
        and not (said and stands_for(a, said, quote, before))
    ]
    if unnamed or (not values.anchors and values.base_subject):
        by_subject = bool(values.base_subject) and all(
            named(s, quote, padded, before, How(by_reference=refers)) for s in values.base_subject
        )
        known = {
            w for n in (*values.names, *values.anchors, *values.base_subject) for w in n.split()
        }
        foreign = [n for n in read_names(quote) if not set(n.split()) & known]
        if not by_subject or (unnamed and foreign):
            return unnamed or list(values.base_subject)
    elif values.base_subject and not _said_of_subject(
        values, quote, padded, before, opener, refers
    ):
        return list(values.base_subject)
    return []


@dataclass(frozen=True)
class _Reference:
    """What a quote's pronouns and definite descriptions may carry from the passage before."""

    #: The subject, by a pronoun free to refer back or a definite description. Deferred:
    #: the pronoun is read from the quote's parse only when a name is not written in it.
    refers: Deferred
    #: A possessor the unit names ("His father …"), by any pronoun or description.
    refers_possessor: bool
    #: A thing named in the sentence before, by "it", "its" or a definite description.
    refers_to_thing: bool
    #: The speech of a third person, when the quote reports one; None otherwise.
    heard: str | None


def _references(subject: str, quote: str, padded: str, before: str) -> _Reference:
    """Read what ``quote`` (``padded``) may refer back to, after ``before``.

    See :func:`missing_values`; a quote naming ``subject`` by its head noun ("the wall")
    refers to it (:func:`triqua.core.reading.rivals.by_head_noun`).
    """
    rivals = rivals_before(subject, before)
    spoken_aside, described, written_pronoun, to_thing, heard = _reference_words(
        quote, open_quotation(before), rivals
    )

    def refers() -> bool:
        # "Her rival was born …": a pronoun inside another's subject phrase refers to no
        # one the sentence is about, except to the possessor the unit names ("His father
        # …"). "She said that he was born …": a "he" beside a "she" in one sentence may be
        # either one, whoever the passage named before.
        both = any(
            set(normalise(spoken_aside[a:b]).split()) >= _GENDERED
            for a, b in sentence_spans(spoken_aside)
        )
        return described or (written_pronoun and not both and free_pronoun(spoken_aside, _PRONOUNS))

    # Speech of "he" or "she" is about a third person ('"He was born in Warsaw," she said'):
    # the subject is carried only when the speech names it itself.
    head = by_head_noun(subject, padded, rivals)
    return _Reference(
        refers=Deferred(lambda: True) if head else Deferred(refers),
        refers_possessor=written_pronoun or described,
        refers_to_thing=to_thing or described,
        heard=heard,
    )


@functools.lru_cache(maxsize=4096)  # a quote is read for each value of each unit citing it
def _reference_words(
    quote: str, before: str, rivals: frozenset[str]
) -> tuple[str, bool, bool, bool, str | None]:
    """What :func:`_references` reads off the words alone, remembered by quote.

    The quote outside direct speech, whether it holds a definite description, a pronoun
    and a thing's pronoun, and the speech of a third person it reports (None: none).
    ``before`` is the quotation mark the passage before leaves open (``open_quotation``),
    all the speech readers read of it, so the passage itself is neither read nor kept;
    ``rivals`` the nouns by which "the <noun>" may mean another thing.
    """
    spoken_aside = outside_speech(quote, before)
    narrated = f" {normalise(spoken_aside)} "
    words = narrated.split()
    return (
        spoken_aside,
        definite_reference(narrated, spoken_aside, rivals),
        bool(_PRONOUNS.intersection(words)),
        bool(_THING_PRONOUNS.intersection(words)),
        inside_speech(quote, before) if speaks_of_another(quote, before) else None,
    )


def _said_of_subject(
    values: UnitValues, quote: str, padded: str, before: str, opener: str, refers: Deferred
) -> bool:
    """True unless a quote naming a qualifier's base object says it of another subject.

    "Albert Einstein was born in Ulm in 1879" names Ulm but gives no year of Isaac
    Newton's birth there: a quote that names anything besides the base object and the
    value, or says it of someone by a pronoun ("He was born in Ulm in 1879"), must name
    the base subject, or refer to it (a pronoun in direct speech is the speaker's and
    refers to no one before).
    """
    anchored = {w for n in (*values.names, *values.anchors) for w in n.split()}
    pronoun = bool(_PRONOUNS.intersection(padded.split()))
    if not pronoun and all(set(n.split()) <= anchored for n in read_names(quote)):
        return True  # "The tower was completed in 1889": nothing said of another one
    return all(
        named(s, quote, padded, before, How(by_reference=refers, common=s == opener, about=True))
        for s in values.base_subject
    )


def _last_sentence(before: str) -> str:
    """The last sentence of the passage text ``before`` a quote (all of it when one)."""
    spans = sentence_spans(before)
    return before[spans[-1][0] : spans[-1][1]] if spans else before


def _name_is_number(name: str, numbers: Sequence[DateValue | NumberValue]) -> bool:
    """A "name" that is only a number's words ("19th Century") is checked as the number."""
    return any(normalise(_shown(n)) == name for n in numbers)


def _shown(value: DateValue | NumberValue) -> str:
    """A value as the unit writes it: a date whole, a number without its counted noun."""
    return value.figure if isinstance(value, NumberValue) else value.text


def _orphan(subject: str, quote: str, before: str, values: str) -> bool:
    """True when the quote refers to ``subject`` by a pronoun or a bare "the <noun>" alone."""
    return bool(
        orphan_pronoun(subject, quote, before, values)
        or orphan_description(subject, quote, before, values)
    )
