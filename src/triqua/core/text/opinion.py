"""The opinion reader: which words and sentences state a view rather than a fact.

One reader, one word list (``data/opinion.json``, with examples run as tests), used in two
places: the offline decomposer asks of a parsed complement's words whether they only praise
or blame (``is_evaluative``: "one of the greatest footballers of all time" gives no fact), and
the check-worthiness rules ask of a whole sentence whether it states a view
(``opinion_reason``: "In my opinion, …", "Overall, a remarkable scientist", "her legacy lives
on"). Evaluative wording alone does not make a sentence an opinion: "a celebrated author who
won the Booker Prize" can be checked, and so can "the highest mountain" (a superlative of
measure, in no list).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from triqua.core.text.phrases import first, gate, phrase, starts

if TYPE_CHECKING:
    from triqua.nlp.tokens import Token

__all__ = [
    "is_evaluative",
    "is_evaluative_word",
    "is_praise_superlative",
    "is_ranking_verb",
    "opinion_examples",
    "opinion_reason",
]

_DATA = Path(__file__).parent / "data" / "opinion.json"


@dataclass(frozen=True)
class _Lexicon:
    evaluative: frozenset[str]
    """Evaluative alone: the list's ``evaluative`` and ``praise_superlatives``."""
    superlatives: frozenset[str]
    after_most: frozenset[str]
    ranking: frozenset[str]
    stance: tuple[re.Pattern[str], ...]
    summary: tuple[str, ...]
    summing_up: tuple[re.Pattern[str], ...]
    """The evaluative words of the four kinds that make a sentence summing up an opinion."""
    tributes: tuple[re.Pattern[str], ...]


@cache
def _data() -> dict[str, Any]:
    found: dict[str, Any] = json.loads(_DATA.read_text(encoding="utf-8"))
    return found


@cache
def _lexicon() -> _Lexicon:
    data = _data()
    superlatives = frozenset(data["praise_superlatives"])
    kinds = ("evaluative", "praise_superlatives", "praise_after_most", "praise_in_summing_up")
    describing = set(data["describing_in_summing_up"])
    words = dict.fromkeys(w for kind in kinds for w in data[kind] if w not in describing)
    return _Lexicon(
        evaluative=frozenset(data["evaluative"]) | superlatives,
        superlatives=superlatives,
        after_most=frozenset(data["praise_after_most"]),
        ranking=frozenset(data["ranking_verbs"]),
        stance=tuple(phrase(p) for p in data["stance_markers"]),
        summary=tuple(data["summary_starts"]),
        summing_up=tuple(phrase(w) for w in words),
        tributes=tuple(phrase(p) for p in data["tribute_predicates"]),
    )


def opinion_examples() -> dict[str, list[Any]]:
    """The sentences run as tests, by kind.

    ``no_fact`` and ``fact`` for the decomposer, ``opinion`` and ``checkworthy`` for the
    check-worthiness rules.
    """
    found: dict[str, list[Any]] = _data()["examples"]
    return found


def is_evaluative_word(word: str) -> bool:
    """True for a word evaluative on its own ("great", "best", "greatest")."""
    return word.lower() in _lexicon().evaluative


def is_evaluative(token: Token) -> bool:
    """True for an evaluative word, or a praise adjective made a superlative by "most"."""
    return token.lower_ in _lexicon().evaluative or is_praise_superlative(token)


def is_praise_superlative(token: Token) -> bool:
    """True for a superlative of praise: "greatest", or "most" before a praise adjective.

    It ranks by taste whatever the time it ranks within: "the most influential painter of
    the century" is as much an opinion as "of all time".
    """
    lex = _lexicon()
    if token.lower_ in lex.superlatives:
        return True
    if token.lower_ not in lex.after_most or token.i == 0:
        return False
    return token.doc[token.i - 1].lower_ == "most"


def is_ranking_verb(token: Token) -> bool:
    """True for a verb that reports a ranking someone made ("named", "voted", "ranked").

    Praise as its complement is that ranking, which can be checked: "was named one of the
    greatest players of all time by ESPN".
    """
    return token.lower_ in _lexicon().ranking


def opinion_reason(text: str) -> str | None:
    """Why the sentence ``text`` states an opinion (the rule and its words), or None.

    A personal stance ("I think", "in my opinion"), or, with no number in the sentence, a
    summing-up with an evaluative word ("Overall, … a talented … coach") or a tribute ("her
    legacy lives on"). ``text`` is one sentence on one line, apostrophes made straight.
    """
    lex = _lexicon()
    marker = first(lex.stance, text)
    if marker:
        return f"states a personal view ('{marker}')"
    if any(c.isdigit() for c in text):
        return None
    summary = starts(text, lex.summary)
    found = gate(lex.summing_up).search(text) if summary else None
    evaluative = found.group() if found else None  # the first written
    if summary and evaluative:
        return f"sums up with an evaluation ('{summary}', '{evaluative}')"
    tribute = first(lex.tributes, text)
    if tribute:
        return f"pays tribute rather than states a fact ('{tribute}')"
    return None
