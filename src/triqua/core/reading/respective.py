"""Lists paired in order ("respectively"): whose value a conjunct of the object is.

"Hamburg and Cologne lie on the Elbe and the Rhine, respectively" gives the Rhine to Cologne,
not to Hamburg, though Hamburg is the clause's first subject; "Faulkner and Hemingway won in
1949 and 1954, respectively" gives 1949 to Faulkner. The clause gates
(``core.reading.clause_owners.held_by_another``) ask this reader first: it pairs the i-th
conjunct of the clause's subject with the i-th conjunct of the object, and names the other
subject whose value the fact's object is.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from triqua.core.reading.rules_file import read_rules_file
from triqua.core.reading.words import stem
from triqua.nlp.clauses import SUBJECTS

if TYPE_CHECKING:
    from triqua.nlp.tokens import Doc
    from triqua.nlp.tokens import Token as SpacyToken

__all__ = ["ECHOES", "PAIRED_RULES", "PAIRING_WORDS", "respective_holder"]

#: The word lists and worked examples of paired sentences (``data/paired_owners.json``).
PAIRED_RULES = read_rules_file(Path(__file__).parent / "data" / "paired_owners.json", "paired")
#: Adverbs that pair two lists in order.
PAIRING_WORDS = frozenset(PAIRED_RULES["pairing"])
#: What makes an elliptical clause repeat another's predicate: its verbs, the words that
#: share the predicate ("as", "so") and those that deny it.
ECHOES = {
    "verbs": frozenset(PAIRED_RULES["echo_verbs"]),
    "words": frozenset(PAIRED_RULES["echo_words"]),
    "denials": frozenset(PAIRED_RULES["denials"]),
}


def respective_holder(subject: Iterable[str], obj: Iterable[str], doc: Doc) -> str | None:
    """The other subject a "respectively" clause pairs the object with; "" for the subject's own.

    A list of numbers or years pairs in order without the adverb, and "they" opening a
    sentence stands for the list the sentence before opens with. None when no clause of
    ``doc`` pairs lists in order, or when the subject or the object is not one of its
    conjuncts (the other gates read it then).

    Args:
        subject: Content stems of the fact's subject.
        obj: Stems (or plain digits) of the object's words.
        doc: The window's parse.
    """
    wanted, values = set(subject), set(obj)
    if not wanted or not values:
        return None
    # Without "respectively", lists of numbers or years pair in order too: "They were born
    # in 1889 and 1902" gives each one year, never both.
    counted = all(v.isdigit() for v in values)
    for verb in doc:
        if not (counted or any(c.lower_ in PAIRING_WORDS for c in verb.children)):
            continue
        first = next((c for c in verb.children if c.dep_ in SUBJECTS), None)
        if first is None:
            continue
        subjects = _conjuncts(_antecedent(first))
        mine = _named(subjects, wanted)
        if len(subjects) < 2 or mine is None:
            continue
        inside = {t.i for s in subjects for t in s.subtree}
        for token in verb.subtree:
            word = stem(token.text)
            if token.i in inside or not ({word, token.text.replace(",", "")} & values):
                continue
            paired = _pair(token, len(subjects))
            if paired is None:
                continue
            if paired == mine:
                return ""
            return " ".join(t.text for t in _own(subjects[paired]))
    return None


def _antecedent(subject: SpacyToken) -> SpacyToken:
    """The subject of the sentence before, for "they" opening a sentence; else ``subject``."""
    sentence = subject.sent
    if subject.lower_ != "they" or subject.i != sentence.start or sentence.start == 0:
        return subject
    before = subject.doc[sentence.start - 1].sent.root
    return next((c for c in before.children if c.dep_ in SUBJECTS), subject)


def _conjuncts(token: SpacyToken) -> list[SpacyToken]:
    """``token`` and the phrases conjoined to it, in order ("A, B and C")."""
    found = [token]
    for child in token.children:
        if child.dep_ == "conj":
            found.extend(_conjuncts(child))
    return sorted(found, key=lambda t: t.i)


def _own(token: SpacyToken) -> list[SpacyToken]:
    """The words of one conjunct, without those conjoined to it."""
    words = [token]
    for child in token.children:
        if child.dep_ not in ("conj", "cc", "punct"):
            words.extend(_own(child))
    return sorted(words, key=lambda t: t.i)


def _named(conjuncts: list[SpacyToken], wanted: set[str]) -> int | None:
    """The index of the one conjunct that names the subject best (None: none or a tie)."""
    shared = [len(wanted & {stem(t.text) for t in _own(c)}) for c in conjuncts]
    best = max(shared)
    return shared.index(best) if best and shared.count(best) == 1 else None


def _pair(token: SpacyToken, size: int) -> int | None:
    """The place of the conjunct holding ``token`` in a list of ``size`` conjuncts, or None."""
    for head in (token, *token.ancestors):
        listed = head
        while listed.dep_ == "conj" and listed.head.i != listed.i:
            listed = listed.head
        conjuncts = _conjuncts(listed)
        if len(conjuncts) == size:
            for place, conjunct in enumerate(conjuncts):
                if head.i in {t.i for t in _own(conjunct)}:
                    return place
        if head.pos_ in ("VERB", "AUX"):
            return None
    return None
