"""The role gate: whose clause holds the fact's object, read from spaCy's dependency parse.

A sentence may hold every word of a fact and another meaning: "Sydney is the largest city
of Australia, but Canberra is the capital of Australia" holds "Sydney" and "the capital of
Australia", yet the capital is Canberra's. The gate finds the clause that holds the object's
head word (its nearest governing word with a nominal subject) and reads that subject: when
it names someone else — a proper name that is not the fact's subject, nor a pronoun that
may refer back to it — the sentence gives the relation to another, and it never supports.
The same parse answers two more questions of a window: whether one clause states the whole
object (``object_split``: "The Wright brothers ran a bicycle shop in Dayton. They made the
first powered flight at Kitty Hawk" states no flight in Dayton), and whether the subject's
own copular clause names another value (``other_value``: "… but the official language of
Brazil is Portuguese" for "… is Spanish"). The owner of a clause is someone else when it is
a proper name or a bare noun ("nitrogen is the most abundant gas") that is not the subject,
or a namesake: a person's full name with the subject's surname that lacks one of the
subject's name words ("Charlotte Brontë" for "Emily Brontë").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from triqua.core.reading.analysis import TextInfo
from triqua.core.reading.holders import (
    compared_after,
    counts_in,
    echoed,
    inverted_holder,
    named_by,
    of_another,
    subject_in_clause,
)
from triqua.core.reading.other_names import namesake, other_named
from triqua.core.reading.respective import respective_holder
from triqua.core.reading.value_slot import bare_values
from triqua.core.reading.words import stem
from triqua.nlp.clauses import SUBJECTS, clause_head, clause_owner, predicate_head, window_parse
from triqua.nlp.pipeline import MAX_TEXT_CHARS

if TYPE_CHECKING:
    from triqua.nlp.tokens import Token as SpacyToken

__all__ = ["held_by_another", "object_split", "other_value"]


def held_by_another(
    subject: TextInfo, obj: TextInfo, text: str, relation: Iterable[str] = ()
) -> str | None:
    """The other name whose clause holds the object, if it is not the subject's.

    The clause that holds most of the object's words and the relation's (``relation``: its
    word stems) is the one that states it ("Canberra is the capital of Australia" over
    "Sydney is the largest city of Australia" for "Sydney is the capital of Australia").
    None when that clause is the subject's (or a pronoun's that may be its, or the object's
    own, as in a passive), when its owner is a definite description ("the team won the
    cup" leaves the judge to read), or when no clause holds the object.
    """
    return _held_by_another(subject, obj, text, frozenset(relation))


@functools.lru_cache(maxsize=4096)
def _held_by_another(
    subject: TextInfo, obj: TextInfo, text: str, relation: frozenset[str]
) -> str | None:
    """:func:`held_by_another`, remembered: the gates ask it of one window for many facts.

    The answer is a function of its arguments (the parse of a text is the same each time),
    so a remembered one is the one a fresh reading gives.
    """
    counts = counts_in(obj)
    values = _value_words(obj)
    if not (obj.content or counts or values) or not text.strip():
        return None
    subject_stems = {t.stem for t in subject.content}
    # The object's count is one of its words: "insects, which have six legs" holds "six legs"
    # in the insects' clause, "spiders have eight legs" only "legs". A quantity ("six legs")
    # has no content words of its own: its words are all it writes.
    words = obj.content if obj.content else obj.tokens
    object_stems = (values or {t.stem for t in words} | counts) - subject_stems
    if not object_stems:
        return None
    wanted = object_stems | (set(relation) - subject_stems)
    doc = window_parse(text[:MAX_TEXT_CHARS])
    paired = respective_holder(subject_stems, object_stems, doc)
    if paired is not None:
        return paired or None  # "A and B lie on X and Y, respectively": Y is B's
    held: dict[int, set[str]] = {}
    owners: dict[int, SpacyToken | None] = {}
    found: dict[int, list[SpacyToken]] = {}
    for token in doc:
        word = stem(token.text)
        if values and token.text.replace(",", "") in values:
            word = token.text.replace(",", "")
        if word in wanted:
            owner = clause_owner(token)
            key = owner.i if owner is not None else -1
            held.setdefault(key, set()).add(word)
            found.setdefault(key, []).append(token)
            owners[key] = owner
    if not any(words & object_stems for words in held.values()):
        return None
    if counts and any(counts <= words for words in held.values()):
        # A quantity is stated where its number is: "… five times. Germany has won it four times."
        held = {k: words for k, words in held.items() if counts <= words}
    most = max(len(words) for words in held.values())
    # An owner that is the relation's own noun ("Advertising builds …" for "advertise")
    # states the relation, like the object's own words in a passive.
    own = object_stems | (set(relation) - subject_stems)
    verdicts = [
        None
        if _acts_on_subject(found[k], subject_stems, set(relation))
        or subject_in_clause(owners[k], found[k], subject_stems)
        or echoed(owners[k], subject_stems)  # "…, as did George Harrison"
        else _other_name(owners[k], subject, own)
        for k, w in held.items()
        if len(w) == most
    ]
    return None if None in verdicts else verdicts[0]


def _value_words(obj: TextInfo) -> set[str]:
    """The words of an object that is a bare value or a date ("1969", "5 September 1977").

    Such a value is held by the clause that writes it: "Apollo 11 launched in 1969, but
    Apollo 13 launched in 1970" gives 1969 to Apollo 11. Numbers are written plain.
    """
    if obj.content:
        return set()
    numbers = bare_values(obj.text)
    if numbers or not obj.dates:
        return set(numbers)
    # A date's words, not those leading it ("on 5 May"): they are its slot, not the value.
    return {t.stem for t in obj.tokens if not t.is_stop}


def _other_name(owner: SpacyToken | None, subject: TextInfo, own_stems: set[str]) -> str | None:
    """The owner's words when it names someone other than the subject (else None).

    ``own_stems``: the object's and the relation's words; an owner holding one is no other.
    """
    if owner is None or owner.pos_ == "PRON":
        return None
    if any(t.text == ":" for t in owner.subtree):
        return None  # a label before a colon owns no clause
    # A participial clause in brackets describes the owner and names no part of it:
    # "Brasília (designed by Oscar Niemeyer)" is Brasília.
    described = {
        t.i
        for c in owner.children
        if c.dep_ == "acl" and c.left_edge.i > 0 and c.doc[c.left_edge.i - 1].text in "(["
        for t in c.subtree
    }
    words = [t for t in named_by(owner) if t.i not in described]
    stems = {stem(t.text) for t in words}
    subject_stems = {t.stem for t in subject.content}
    # A name right after the owner is its apposition, even where the parse takes it for a
    # second subject ("His distant cousin Theodore Roosevelt won …").
    appositions = [c for c in owner.children if c.dep_ == "appos"] + [
        c for c in owner.head.children if c.dep_ in SUBJECTS and c.left_edge.i == owner.i + 1
    ]
    for phrase in appositions:
        if {stem(t.text) for t in _own_words(phrase)} & subject_stems:
            # An apposition names the subject, and the owner is the subject's, unless the
            # name is a namesake's ("His daughter Jane Fonda" for Henry Fonda).
            if phrase.pos_ != "PROPN":
                return None
            return other_named(phrase, named_by(phrase), subject) or namesake(phrase, subject)
    if of_another(owner, subject_stems):
        return " ".join(t.text for t in words)  # "the wife of the playwright who wrote …"
    if stems & own_stems:
        return inverted_holder(owner, subject_stems, own_stems)
    if stems & subject_stems:
        return other_named(owner, words, subject) or namesake(owner, subject)
    # "her husband Diego Rivera" is Rivera; a name that is the object's own ("whose friend
    # Lord Byron lived nearby" for Lord Byron) is the object, no other holder of it.
    named = [
        named_by(c)
        for c in appositions
        if c.pos_ == "PROPN" and not {stem(t.text) for t in named_by(c)} & own_stems
    ]
    if owner.pos_ == "NOUN" and named:
        return " ".join(t.text for t in named[0])
    if owner.text.isupper() and owner.text.replace(".", "").lower() in subject.acronyms:
        return None  # the subject's acronym ("CTA" for "Construction Time Again")
    bare = (
        owner.pos_ == "NOUN"
        and (owner.is_lower or owner.is_sent_start)  # a capitalised noun inside is a title's
        and not any(c.dep_ in _DETERMINERS for c in owner.children)
    )
    if not bare and not any(t.pos_ == "PROPN" for t in words):
        return " ".join(t.text for t in words) if compared_after(owner, subject) else None
    return " ".join(t.text for t in words)


_DETERMINERS = frozenset({"det", "poss", "predet", "nummod"})


def _own_words(phrase: SpacyToken) -> list[SpacyToken]:
    """The words of ``phrase`` outside its prepositional modifiers and its possessor.

    An apposition that names the subject ("Mao, the chairman Mao Zedong") writes it in its own
    words; one that names it after a preposition ("Elizabeth I, the daughter of Henry VIII")
    or as its possessor ("Ira Gershwin, George Gershwin's brother") describes the owner by
    the subject and is no name of it.
    """
    words = []
    for token in phrase.subtree:
        head, inside = token, True
        while head.i != phrase.i and head.head.i != head.i:
            if head.dep_ in ("prep", "poss"):
                inside = False
                break
            head = head.head
        if inside:
            words.append(token)
    return words


def _acts_on_subject(
    tokens: Iterable[SpacyToken], subject_stems: set[str], relation: set[str]
) -> bool:
    """True when the relation's verb that governs the object takes the subject as its object.

    "The United States … opened the canal in 1914" states that the canal opened in 1914:
    the clause's owner is the agent of the subject's own event, not another holder of the
    value; so is "Jimmy Wales and Larry Sanger launched it on …", whose pronoun may be the
    subject. Another verb ("Marie Sklodowska married Pierre Curie") is no event of the
    relation's, and a pronoun stands for the object a relation writes with its verb, not for
    the subject ("Germany has won it four times" for "Brazil has won the World Cup …").
    """
    for token in tokens:
        verb = next((t for t in token.ancestors if t.pos_ in ("VERB", "AUX")), None)
        if verb is None or stem(verb.text) not in relation:
            continue
        # A relation that writes a noun the window names ("won the World Cup") gives "it" that.
        bare = not any(t.pos_ in _NOUNS and stem(t.text) in relation for t in verb.doc)
        for child in verb.children:
            words = {stem(t.text) for t in child.subtree}
            if child.dep_ in _PATIENTS and (
                (child.pos_ == "PRON" and bare) or words & subject_stems
            ):
                return True
    return False


_PATIENTS = frozenset({"dobj", "obj"})
_NOUNS = frozenset({"NOUN", "PROPN"})


@functools.lru_cache(maxsize=512)
def _clause_stems(text: str) -> tuple[tuple[str, int], ...]:
    """Each token's stem with the clause that states it (``clause_head``), in order.

    Cached by text: a window is split by clause once, then asked about every fact's object.
    """
    return tuple((stem(token.text), clause_head(token)) for token in window_parse(text))


@functools.lru_cache(maxsize=512)
def _predicate_heads(text: str) -> tuple[int, ...]:
    """Each token's predicate head (``predicate_head``), in the order of :func:`_clause_stems`."""
    return tuple(predicate_head(token) for token in window_parse(text))


def object_split(
    obj: TextInfo,
    relation: Iterable[str],
    text: str,
    subject: frozenset[str] = frozenset(),
    *,
    predicates: bool = True,
) -> bool:
    """True when no one clause of ``text`` holds the whole object with the relation's word.

    Each content word of the object, and a word of the relation (``relation``: its stems)
    when the text holds one, must stand in one clause: "The Wright brothers ran a bicycle
    shop in Dayton. They made the first powered flight at Kitty Hawk" holds "first powered
    flight in Dayton" in two clauses, and the conjunction of the two is not the fact. The
    subject's words (``subject``: their stems) and a possessor in the object ("Sheehan's roles"
    for "his roles") refer back to the subject and may stand anywhere. Two predicates
    conjoined under one subject are two statements when the object stands whole in one and
    the relation's word only in the other ("was provost of Stanford and served … under
    George W. Bush": ``nlp.clauses.predicate_head``; ``predicates=False`` reads clauses
    only). False when the text lacks an object word (other gates read that).
    """
    object_stems = {t.stem for t in obj.content} - _possessors(obj.text) - subject
    if not object_stems or not text.strip():
        return False
    relation_stems = set(relation) - object_stems
    by_clause: dict[int, set[str]] = {}
    by_predicate: dict[int, set[str]] = {}
    window = text[:MAX_TEXT_CHARS]
    for (word, clause), predicate in zip(
        _clause_stems(window), _predicate_heads(window), strict=True
    ):
        if word in object_stems or word in relation_stems:
            by_clause.setdefault(clause, set()).add(word)
            by_predicate.setdefault(predicate, set()).add(word)
    found = set().union(*by_clause.values()) if by_clause else set()
    named = found & relation_stems
    if not object_stems <= found or len(object_stems) + bool(named) < 2:
        return False
    if _written_whole(obj.text, text):
        # An object written whole is one phrase, whatever the parse makes of a word inside
        # it ("Copa do Brasil", where "do" reads as a verb): the relation must meet it.
        split = bool(named) and not any(
            words & named and words & object_stems for words in by_clause.values()
        )
    else:
        split = not any(
            object_stems <= words and (not named or words & named) for words in by_clause.values()
        )
    if split or not named or not predicates:
        return split
    holders = [words for words in by_predicate.values() if object_stems <= words]
    return bool(holders) and not any(words & named for words in holders)


_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)


def _written_whole(obj: str, text: str) -> bool:
    """True when ``text`` writes the object's words as one phrase (its article aside)."""
    phrase = " ".join(_ARTICLE.sub("", obj.strip()).casefold().split())
    return len(phrase.split()) > 1 and phrase in " ".join(text.casefold().split())


_POSSESSOR = re.compile(r"((?:[A-Z][\w.-]*\s+)*[\w.-]+)['’]s\b")


def _possessors(text: str) -> set[str]:
    """The stems of the possessors' words in ``text`` ("Doug Sheehan's roles": doug, sheehan)."""
    return {stem(word) for found in _POSSESSOR.findall(text) for word in found.split()}


_COPULAS = frozenset({"is", "was", "are", "were", "be", "been", "being", "'s", "’s"})
_COMPLEMENTS = frozenset({"attr", "acomp"})


def other_value(subject: TextInfo, obj: TextInfo, text: str) -> str | None:
    """Another name the subject's own copular clause gives as its value, if any.

    For a fact "X is N" whose object N is a name: a clause "X is M" (or "M is X"), whose one
    side is the subject and nothing more and whose other side is a name with none of N's
    words, gives the subject another value ("…, but the official language of Brazil is
    Portuguese" for "The official language of Brazil is Spanish").
    """
    if not obj.is_name or not subject.content:
        return None
    subject_stems = {t.stem for t in subject.content}
    object_stems = {t.stem for t in obj.content}
    doc = window_parse(text[:MAX_TEXT_CHARS])
    for verb in doc:
        if verb.text.lower() not in _COPULAS or verb.dep_ in ("aux", "auxpass"):
            continue
        subjects = [c for c in verb.children if c.dep_ in SUBJECTS]
        complements = [c for c in verb.children if c.dep_ in _COMPLEMENTS]
        for one, other in ((s, c) for s in subjects for c in complements):
            for side, value in ((one, other), (other, one)):
                if _content(side) != subject_stems:
                    continue
                named = _content(value)
                words = [t for t in value.subtree if t.is_alpha and not t.is_stop]
                if (
                    named
                    and not named & (object_stems | subject_stems)
                    and all(t.text[:1].isupper() for t in words)
                ):
                    return " ".join(t.text for t in value.subtree)
    return None


def _content(token: SpacyToken) -> set[str]:
    """The stems of the content words of ``token``'s phrase."""
    return {stem(t.text) for t in token.subtree if t.is_alpha and not t.is_stop}
