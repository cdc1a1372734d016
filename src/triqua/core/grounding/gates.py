"""Value gates: crisp mismatches that keep a cited window from supporting a unit.

Under the default grounding rule the entailment judge reads whether a cited window entails a
unit; a gate may then veto that reading when the window visibly disagrees with the unit, and
never turns anything into "supported". Each gate reads one window (1–3 sentences) and the
quote's part of it:

- **values**: the unit's numbers, dates, units and capitalised names are written in the
  quote (:func:`triqua.core.reading.quote_values.missing_values`: a name as that name, never
  another person sharing a word; approximate numbers only for a unit that says "about");
- **dates bound to another event**: a year the window (each sentence a clause of its own)
  gives to another thing than the unit's object
  (:func:`triqua.core.grounding.value_binding.misdated`);
- **the relation's value slot**: a year or number qualifier the relation's verb does not
  govern, when it governs another ("started in 1959, and … opened in 1973" for "opened |
  1959") (:func:`triqua.core.reading.value_slot.qualifier_slot`);
- **life dates**: the parenthesis after the subject's name ("Newton (1643–1727)") gives
  another date of the birth or death the unit dates
  (:func:`triqua.core.reading.values.life_dates.life_dates`);
- **restrictors**: "one of the largest" for "the largest", "the former CEO" for "the CEO"
  (:func:`triqua.core.reading.restrictors.groups.restriction`), and a rival restrictor of the
  unit's own ("three World Cups" for "won the World Cup once", "the smallest" for "the
  largest"), read as the offline verifier reads it
  (:func:`triqua.core.reading.restrictors.markers.check`);
- **roles only one holds**: the window gives the unit's role ("the capital of Australia",
  "the largest city in Texas") to another name and never to the unit's own;
- **one thing's head**: the window writes the unit's ordinal or superlative lead-in before
  another head ("the first published algorithm" for "the first published novel") and never
  the unit's own (:func:`triqua.core.reading.slot_words.unique_head_rival`);
- **the relation's slot**: where the window writes the unit's relation ("nominated by"),
  the phrase in its slot is another one than the unit's object ("nominated by *his rival*",
  "born in *Lyon*") and no such slot names the object (:func:`slot_holder`);
- **negation**: the window negates one of the unit's own words ("is not the capital") and
  the unit is not itself negative (:func:`triqua.core.reading.negation.negated`, the
  offline verifier's polarity reading too);
- **modifiers**: the unit carries a modifier that changes its claim ("has yet to win",
  "more than $1 million", "was positively reviewed", "the only") and the window writes none
  of its phrases (:func:`triqua.core.reading.modifiers.unstated`);
- **disowning labels**: the quoted sentence opens with a label that disowns what follows it
  ("Myth: …", "Rumour: …", "Misconception: …") or closes with a tag that does ("…, a common
  misconception.").
"""

from __future__ import annotations

import functools
import re

from triqua.core.grounding.slots import slot_holder
from triqua.core.grounding.value_binding import misdated
from triqua.core.reading import roles
from triqua.core.reading.analysis import analyse
from triqua.core.reading.disowned import disowning_tag as closing_tag
from triqua.core.reading.modifiers import unstated
from triqua.core.reading.negation import negated
from triqua.core.reading.quote_values import missing_values
from triqua.core.reading.restrictors.groups import restriction
from triqua.core.reading.restrictors.many import one_against_many
from triqua.core.reading.restrictors.markers import check, markers, object_head
from triqua.core.reading.slot_words import unique_head_rival
from triqua.core.reading.value_slot import qualifier_slot
from triqua.core.reading.values.dates import find_dates
from triqua.core.reading.values.life_dates import life_date_readings, life_event
from triqua.schema import FactUnit
from triqua.sentences import sentence_spans

__all__ = [
    "disowned",
    "gate",
    "life_dated",
    "negated",
    "rival_restrictor",
    "role_rival",
    "slot_holder",
]

#: Label words that disown the statement after their colon ("Myth: Sydney is the capital").
_DISOWNING = frozenset(
    (
        "myth",
        "myths",
        "misconception",
        "misconceptions",
        "rumour",
        "rumours",
        "rumor",
        "rumors",
        "claim",
        "claims",
        "allegation",
        "allegations",
        "alleged",
        "false",
        "fake",
        "hoax",
        "untrue",
        "wrong",
        "incorrect",
        "fiction",
        "legend",
        "lie",
        "lies",
        "debunked",
        "disputed",
        "unverified",
        "fabrication",
        "misinformation",
        "disinformation",
        "satire",
    )
)
#: A label of up to four words closing with a colon at the start of a sentence.
_LABEL = re.compile(r"^\W*(?P<label>[^\W\d_][\w'’ -]{0,40}?)\s*:")
_TOKEN = re.compile(r"[^\W_]+(?:['’]t)?")


def disowned(window: str, quoted: str) -> str | None:
    """The label ("Myth") that disowns the sentence of ``window`` holding ``quoted``, or None.

    A sentence under a label such as "Myth:" or "Rumour:" repeats a statement to deny it;
    it states nothing, whatever its words. The sentence read is the one where the quote starts
    (the first sentence when the quote is not found verbatim).
    """
    sentence = _quoted_sentence(window, quoted)
    match = _LABEL.match(sentence)
    if not match:
        return None
    label = match.group("label")
    words = [w.casefold() for w in _TOKEN.findall(label)]
    return label.strip() if len(words) <= 4 and any(w in _DISOWNING for w in words) else None


def disowning_tag(window: str, quoted: str) -> str | None:
    """The tag ("a common misconception") that closes and disowns the quoted sentence, or None.

    "The Eiffel Tower is in Rome — a common misconception." repeats a statement to deny it,
    as a label before it does; the sentence read is :func:`disowned`'s, the tag read by the
    shared reader (:func:`triqua.core.reading.disowned.disowning_tag`, words as data).
    """
    return closing_tag(_quoted_sentence(window, quoted))


def _quoted_sentence(window: str, quoted: str) -> str:
    """The sentence of ``window`` where ``quoted`` starts (the first when it is not found)."""
    at = max(window.find(quoted), 0) if quoted else 0
    for start, end in sentence_spans(window) or [(0, len(window))]:
        if end > at:
            return window[start:end]
    return ""


def role_rival(unit: FactUnit, window: str) -> str | None:
    """The other name ``window`` gives the unit's role only one holds, or None.

    "Canberra is the capital of Australia" (or "The capital of Australia is Canberra", or
    "Canberra, the capital of Australia, …") for "Sydney is the capital of Australia"; the
    shared reader of roles (``core.reading.roles.role_rival``) reads it, as the offline
    verifier does.
    """
    if unit.kind != "base":
        return None
    rival = roles.role_rival(unit.subject, unit.relation, unit.object, [window])
    return rival.name if rival else None


def life_dated(unit: FactUnit, window: str) -> str | None:
    """The other date of birth or death that the subject's life dates in ``window`` give.

    "Isaac Newton (1643–1727)" for "Isaac Newton was born in 1650" (or its qualifier
    "point in time: 1650"): the parenthesis right after the subject's last name word dates
    the birth and the death, read as the offline verifier reads it
    (:func:`~triqua.core.reading.values.life_dates.life_date_readings`). None when the unit
    dates neither, or the dates agree.
    """
    names = [w.strip(",.;:") for w in unit.subject.split() if w[:1].isupper()]
    if life_event(unit.relation) is None or not names:
        return None
    claimed = find_dates(unit.object if unit.kind == "base" else unit.value or "")
    if len(claimed) != 1:
        return None
    readings = life_date_readings(unit.relation, names[-1], claimed[0], window)
    return next((stated.text for outcome, stated in readings if outcome == "conflict"), None)


def rival_restrictor(unit: FactUnit, window: str) -> str | None:
    """The restrictor ``window`` states instead of the unit's own, or None.

    "Argentina has won three World Cups" for "won the World Cup once"; "the second woman"
    for "the first woman"; "the smallest country" for "the largest". Only a rival of the
    same kind counts: a window that leaves a restrictor out is the judge's to read.
    """
    head: tuple[str, ...] = ()
    if unit.kind == "base":
        claimed = markers(unit.relation) + markers(unit.object)
    else:
        claimed, head = markers(unit.value or ""), object_head(analyse(unit.object))
    if not claimed:
        return None
    sentences = [analyse(window[a:b]) for a, b in sentence_spans(window)] or [analyse(window)]
    outcome, _, rival = check(claimed, sentences, head)
    return rival.text if outcome == "rival" and rival is not None else None


@functools.lru_cache(maxsize=4096)
def gate(
    unit: FactUnit,
    window: str,
    quoted: str,
    before: str,
    *,
    classes: bool = False,
    opens: bool = False,
) -> str | None:
    """Why ``window`` cannot support ``unit`` whatever the judge reads, or None.

    Remembered (a function of its arguments alone): a unit is grounded again when its fact
    is settled again after re-verification, and windows overlap, so ~40% of the calls on
    a run repeat one.

    Args:
        unit: The unit the window is cited for.
        window: The cited sentences, whole.
        quoted: The quote's part of ``window``: it must carry the unit's values.
        before: The passage text before ``quoted`` (it may name a subject a pronoun
            carries).
        classes: A subject that is a plural common noun ("Firms advertise …") is a class
            the judge reads, not a value the quote must write; an acronym that only
            qualifies the name after it ("the 1986 FIFA World Cup") may be left out.
        opens: ``before`` is all of its document before ``quoted`` (the passage opens its
            document), so a pronoun opening it with no name before may be the subject's.
    """
    lacking = missing_values(unit, quoted, before, classes=classes, owners=classes, opens=opens)
    if lacking:
        return f"quote lacks value {', '.join(lacking)}"
    # Each sentence is a clause of its own: "X won Physics in 1903. X won Chemistry in 1911."
    clauses = "; ".join(window[a:b] for a, b in sentence_spans(window)) or window
    year = misdated(unit, clauses)
    if year:
        return f"the cited text gives {year} to another event than the unit's"
    governed = qualifier_slot(unit, window)
    if governed:
        return f"the cited text's {unit.relation!r} governs {governed}, not {unit.value}"
    other_date = life_dated(unit, window)
    if other_date:
        return f"the life dates after the name give {other_date}"
    phrase = restriction(unit, window)
    if phrase:
        return f"the cited text restricts it: '{phrase}'"
    rival = rival_restrictor(unit, window)
    if rival:
        return f"the cited text states '{rival}' instead"
    if unit.kind == "base" and one_against_many(analyse(unit.object), analyse(window)):
        return "the cited text restricts to one what the unit counts as many"
    other = role_rival(unit, window)
    if other:
        return f"the cited text gives the role to {other!r}"
    if unit.kind == "base":
        head = unique_head_rival(analyse(unit.object), analyse(unit.relation), analyse(window))
        if head:
            return f"the cited text names another thing: '{head}'"
    held = slot_holder(unit, window)
    if held:
        return f"the cited text puts '{held}' in the relation's slot, not the unit's object"
    denial = negated(unit, window)
    if denial:
        return f"the cited text negates it: '{denial}'"
    claimed = f"{unit.subject} {unit.relation} {unit.object}" if unit.kind == "base" else unit.value
    modifier = unstated(claimed or "", window)
    if modifier:
        return f"the cited text does not state the unit's modifier ({modifier})"
    label = disowned(window, quoted)
    if label:
        return f"the cited text disowns it under the label '{label}:'"
    tag = disowning_tag(window, quoted)
    if tag:
        return f"the cited text disowns it as '{tag}'"
    return None
