"""Restrictors: the small words that decide whether a fact holds ("once", "first", "only").

"Argentina has won the World Cup once" and "... three World Cups" share every content
word; what differs is how often. A restrictor is a frequency ("once", "five times"), an
ordinal ("first", "last", "debut"), an exclusive ("only", "sole"), a superlative ("the
largest", "the most successful") or a quantifier ("all", "every", "the majority"). A fact
keeps its restrictors (in its object, or as a qualifier labelled ``frequency``,
``ordinal`` or ``restriction``) and the verifier requires each one in the evidence window:
missing, the fact is not supported; stated with a rival value ("three" World Cups against
"once", "second" against "first" before the same noun), it is contradicted. The word lists
are data (``core/reading/data/restrictors.json``, read once by ``restrictors.words``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from triqua.core.reading.analysis import TextInfo, Token, analyse, stems_match
from triqua.core.reading.restrictors.words import WORDS

__all__ = [
    "WORDS",
    "Marker",
    "check",
    "markers",
    "named_unreported",
    "object_head",
    "reported_by",
]

_HEAD_REACH = 3  # words between a restrictor and the noun it restricts


_DIGITS = re.compile(r"^\d+$")


@dataclass(frozen=True)
class Marker:
    """One restrictor: its kind, its words, the value it compares by and the noun it restricts."""

    kind: str  # frequency | ordinal | exclusive | superlative | quantifier | count
    text: str
    value: str
    heads: tuple[str, ...] = ()


def _count(token: Token) -> int | None:
    """The count a word states ("three", "3"), if it is one."""
    low = token.text.lower()
    if _DIGITS.match(low) and len(low) < 4:  # years are no counts
        return int(low)
    return WORDS.count_words.get(low)


def _head_after(tokens: tuple[Token, ...], i: int) -> tuple[str, ...]:
    """Stems of the content words within reach after position ``i`` (the restricted noun)."""
    return tuple(
        t.stem
        for t in tokens[i + 1 : i + 1 + _HEAD_REACH]
        if not t.is_stop and t.text.lower() not in WORDS.ordinal
    )


def _superlative(tokens: tuple[Token, ...], i: int) -> bool:
    """True for "the largest", "its best", "the world's oldest", "fastest".

    A lower-case -est word is one unless it is a known noun or verb ("interest", "forest");
    an irregular one ("best", "most") only after a determiner ("the most cited").
    """
    token = tokens[i]
    low = token.text.lower()
    if low.endswith("est") and len(low) >= 6 and not token.is_capitalised:
        return low not in WORDS.superlative_not
    before = tokens[i - 1].text.lower() if i else ""
    return low in WORDS.superlative_irregular and (
        before in WORDS.superlative_determiners
        or before.endswith(("'s", "’s"))
        or before in WORDS.ordinal
    )


@lru_cache(maxsize=20_000)
def markers(text: str) -> tuple[Marker, ...]:
    """The restrictors a text states, in order; counts before a noun come as ``count``."""
    tokens = analyse(text).tokens
    out: list[Marker] = []
    for i, token in enumerate(tokens):
        low = token.text.lower()
        after = tokens[i + 1].text.lower() if i + 1 < len(tokens) else ""
        before = tokens[i - 1].text.lower() if i else ""
        if low in WORDS.frequency:
            out.append(Marker("frequency", low, str(WORDS.frequency[low])))
        elif low in WORDS.frequency_nouns and i and _count(tokens[i - 1]) is not None:
            n = _count(tokens[i - 1])
            out.append(Marker("frequency", f"{tokens[i - 1].text} {low}", str(n)))
        elif low in WORDS.ordinal and after not in WORDS.ordinal_not_before:
            out.append(Marker("ordinal", low, str(WORDS.ordinal[low]), _head_after(tokens, i)))
        elif low in WORDS.exclusive and before != "not":
            out.append(Marker("exclusive", low, "only", _head_after(tokens, i)))
        elif _superlative(tokens, i):
            word = f"{low} {after}" if low in {"most", "least"} and after else low
            # "the second tallest" is not "the tallest": a rank other than first stays in it.
            rank = WORDS.ordinal.get(before, 1)
            base = WORDS.superlative_synonyms.get(word, word)
            value = base if rank == 1 else f"{rank} {base}"
            out.append(Marker("superlative", word, value, _head_after(tokens, i)))
        elif low in WORDS.quantifier or (low == "most" and (after == "of" or i == 0)):
            out.append(Marker("quantifier", low, WORDS.quantifier.get(low, "most")))
        elif _count(token) is not None and after not in WORDS.frequency_nouns:
            heads = _head_after(tokens, i)
            if heads:
                out.append(Marker("count", low, str(_count(token)), heads))
    return tuple(out)


def _same_head(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """True when two restrictors restrict the same noun (a shared stem)."""
    return any(stems_match(x, y) for x in a for y in b)


def _restricts(claimed: Marker, stated: Marker, target: tuple[str, ...]) -> bool:
    """True when a stated ordinal restricts the claimed one's noun (other kinds: always).

    "The second is that Biden could do better" states no "second black president": an
    ordinal counts only before the same noun, when both sentences name one.
    """
    if claimed.kind != "ordinal" or not target or not stated.heads:
        return True
    return _same_head(stated.heads, target)


def _narrower(
    claimed: Marker, stated: Marker, target: tuple[str, ...], said: tuple[str, ...]
) -> bool:
    """True when the stated restrictor restricts a narrower noun than the claimed one.

    "The only legitimate child of Lord Byron" does not state "the only child of Lord
    Byron", nor "the first African-American president" "the first president": a word the
    window puts before the shared noun, and the claim writes nowhere (``said``: the stems
    of the claim's words; "the first IKEA store" is "IKEA's first store"), narrows what is
    only, first or largest. Counts and frequencies count, they do not restrict.
    """
    if claimed.kind not in ("exclusive", "ordinal", "superlative") or not target:
        return False
    written = (*target, *said)
    for at, stem in enumerate(stated.heads):
        if any(stems_match(stem, t) for t in target):
            return any(not any(stems_match(word, w) for w in written) for word in stated.heads[:at])
    return False


def _rivals(claimed: Marker, stated: Marker) -> bool:
    """True when two restrictors of one kind exclude each other.

    Ordinals always do ("second" / "first"); superlatives when they differ only in rank
    ("second largest" / "largest") or are opposites ("largest" / "smallest"), not when they
    measure different things ("largest" / "most populous").
    """
    if claimed.kind != "superlative":
        return True
    base_a, base_b = (re.sub(r"^\d+ ", "", m.value) for m in (claimed, stated))
    return base_a == base_b or frozenset({base_a, base_b}) in WORDS.superlative_antonyms


def check(
    claimed: tuple[Marker, ...],
    window: list[TextInfo],
    head: tuple[str, ...] = (),
    *,
    rivals: bool = True,
    said: tuple[str, ...] = (),
) -> tuple[str, Marker | None, Marker | None]:
    """Whether a window states every claimed restrictor.

    Args:
        claimed: the fact's restrictors (counts are values, compared elsewhere).
        window: the evidence sentences of the bound window.
        head: the noun a frequency restricts when the restrictor has none of its own
            (the object's head: "won the World Cup once" counts World Cups).
        rivals: False to report a rival restrictor as missing (the subject's: "your first
            finger" names a thing, so "second finger" there does not contradict it).
        said: the stems of the claim's words: a window's restrictor of a noun narrowed by
            a word the claim writes nowhere leaves the claim unstated.

    Returns:
        ("ok" | "missing" | "rival", the claimed marker at fault, the rival stated).
    """
    if not any(m.kind != "count" for m in claimed):
        return "ok", None, None
    stated = [m for info in window for m in markers(info.text)]
    for marker in claimed:
        if marker.kind == "count":
            continue
        target = marker.heads or head
        same = [m for m in stated if m.kind == marker.kind]
        if any(
            m.value == marker.value
            and _restricts(marker, m, target)
            and not _narrower(marker, m, target, said)
            for m in same
        ):
            continue
        if marker.kind == "frequency":
            counts = [m for m in stated if m.kind == "count" and _same_head(m.heads, target)]
            if any(m.value == marker.value for m in counts):
                continue
            rival = next((m for m in [*same, *counts]), None)
            if rival is not None and rivals:
                return "rival", marker, rival
        elif marker.kind in ("ordinal", "superlative"):
            # The same restrictor of a narrower noun is no rival: it leaves the claim unstated.
            rival = next(
                (
                    m
                    for m in same
                    if m.value != marker.value
                    and _rivals(marker, m)
                    and _same_head(m.heads, target)
                ),
                None,
            )
            if rival is not None and rivals:
                return "rival", marker, rival
        return "missing", marker, None
    return "ok", None, None


_REPORT_REACH = 5  # words between a source and its reporting verb ("the Court today held")


def reported_by(source: TextInfo, info: TextInfo) -> bool:
    """True when the sentence has the source report something: "the Court held", "X said".

    The reporting word must follow the source's head word closely, or "according (to)"
    precede it: a "found" or "state" elsewhere in the sentence is no frame.
    """
    if not source.content:
        return False
    head = source.content[-1].stem
    tokens = info.tokens
    for j, token in enumerate(tokens):
        if not stems_match(token.stem, head):
            continue
        after = tokens[j + 1 : j + 1 + _REPORT_REACH]
        if any(t.text.lower() in WORDS.reporting_verbs for t in after):
            return True
        if any(t.text.lower() == "according" for t in tokens[max(0, j - 4) : j]):
            return True
    return False


def named_unreported(source: TextInfo, text: str) -> bool:
    """True when ``text`` names the source, or another "according to", without its report.

    "The Supreme Court building opened in 1935, and the law is constitutional" names the
    Court in another part, and "…, according to the manufacturer" gives the statement to
    another source; a window that names no source ("It could destroy civilization, he
    said") is False: it is left to the judge, as any other unit.
    """
    info = analyse(text)
    head = source.content[-1].stem if source.content else ""
    named = any(stems_match(t.stem, head) for t in info.tokens) if head else False
    another = any(t.text.lower() == "according" for t in info.tokens)
    return (named or another) and not reported_by(source, info)


def object_head(obj: TextInfo) -> tuple[str, ...]:
    """The stems a verb's restrictor counts by: the object's content words ("cup" of the Cup)."""
    return tuple(t.stem for t in obj.content[-2:])
