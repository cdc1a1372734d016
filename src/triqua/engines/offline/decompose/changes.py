"""Changes by an amount: "Revenue rose 62% from a year earlier".

A verb of change (rise, fall, grow, ...) with a bare amount states that amount: the parse
hangs "62%" on the verb as an adverbial noun, which would leave the fact with no object, so
the amount becomes the object of "rose by". A level the change reached ("fell 20 percent to
$1.2 billion") stays the object, with the amount as its ``quantity``. A "from <time>" phrase
of such a change names the base the amount is measured against ("from a year earlier",
"from the previous quarter"), not the time the rise started; it is kept whole, with its
preposition, under the neutral ``context`` label. A range ("from 2010 to 2015") still gives
start and end times.
"""

from __future__ import annotations

from triqua.engines.offline.decompose.phrases import is_quantity, is_time
from triqua.nlp.tokens import Token

_IRREGULAR = {
    "rise": ("rises", "rose", "risen", "rising"),
    "fall": ("falls", "fell", "fallen", "falling"),
    "grow": ("grows", "grew", "grown", "growing"),
    "shrink": ("shrinks", "shrank", "shrunk", "shrinking"),
    "sink": ("sinks", "sank", "sunk", "sinking"),
    "slide": ("slides", "slid", "sliding"),
}
_REGULAR = (
    "increase", "decrease", "decline", "drop", "climb", "jump", "surge", "soar", "plunge",
    "plummet", "slip", "dip", "gain", "tumble", "slump", "rebound", "expand",
    "contract",
)  # fmt: skip


def _regular_forms(verb: str) -> tuple[str, ...]:
    stem = verb[:-1] if verb.endswith("e") else verb
    if verb in {"drop", "slip", "dip"}:  # a doubled final consonant
        stem = verb + verb[-1]
    return (verb + "s", stem + "ed", stem + "ing")


CHANGE_VERBS = frozenset(
    [*(w for base, forms in _IRREGULAR.items() for w in (base, *forms))]
    + [w for base in _REGULAR for w in (base, *_regular_forms(base))]
)
"""Forms of the verbs whose bare amount ("fell 1%") is how much they changed.

The pipeline has no lemmatizer, so the table lists the forms."""

_AMOUNT_DEPS = {"npadvmod", "dobj"}
_RANGE_ENDS = {"to", "until", "till", "through", "thru"}


def is_change_verb(verb: Token) -> bool:
    """True for a verb of change: "rose", "fell", "grew", "increased"."""
    return verb.pos_ in {"VERB", "AUX"} and verb.lower_ in CHANGE_VERBS


def change_amount(verb: Token, used: set[int]) -> Token | None:
    """The bare amount a change verb changed by ("rose 62%": the head of "62%"), if any.

    ``None`` where the verb reached a level ("fell 20 percent to $1.2 billion"): the level
    is the fact's object then.
    """
    if any(_level(c) for c in verb.children):
        return None
    return _bare_amount(verb, used)


def _bare_amount(verb: Token, used: set[int]) -> Token | None:
    if not is_change_verb(verb):
        return None
    if any(c.dep_ == "dobj" and not is_quantity(c) for c in verb.children):
        return None  # "increased its revenue 20%": the revenue is what changed
    for child in verb.children:
        if child.i in used or child.i < verb.i or child.dep_ not in _AMOUNT_DEPS:
            continue
        if is_quantity(child) and not is_time(child):
            return child
    return None


def _level(prep: Token) -> bool:
    """True for "to <amount>": the level a change reached ("to $1.2 billion")."""
    return (
        prep.dep_ == "prep"
        and prep.lower_ == "to"
        and any(g.dep_ == "pobj" and is_quantity(g) and not is_time(g) for g in prep.children)
    )


def _changed_by(verb: Token) -> bool:
    """True when a change verb states its amount, bare ("rose 62%") or with "by"."""
    if _bare_amount(verb, set()) is not None:
        return True
    return is_change_verb(verb) and any(
        c.dep_ == "prep"
        and c.lower_ == "by"
        and any(g.dep_ == "pobj" and is_quantity(g) for g in c.children)
        for c in verb.children
    )


def is_comparison_base(prep: Token, obj: Token) -> bool:
    """True for "from <time>" giving the base of a change by an amount, not a range start.

    "Revenue rose 62% from a year earlier": the phrase says what the amount is measured
    against. A "to <time>" next to it or inside it makes a range ("from 2010 to 2015"); a
    "to <amount>" is the level reached ("rose 62% to $5 billion from a year earlier").
    """
    verb = prep.head
    if prep.lower_ != "from" or prep.dep_ != "prep" or not is_time(obj):
        return False
    if not _changed_by(verb):
        return False
    ends = [c for c in (*verb.children, *prep.children) if c.dep_ == "prep"]
    return not any(c.lower_ in _RANGE_ENDS and not _level(c) for c in ends)
