"""Who a clause's subject names, and whom an inverted copula gives a role to.

Two readings of spaCy's parse the clause gates share. A clause's owner is named by its
subject's own words, not by a clause that describes it: "Unlike Venus, which is the hottest
planet, Mercury …" gives "the hottest planet" to Venus, whose name is "Venus" alone (the
relative clause, an apposition or a participle phrase after it is about it, not part of
its name). And a copula may put the role first: "The first President of the United States
was George Washington" gives the role its subject writes to the name after the copula, so
a clause whose subject holds the fact's object and whose complement names another than
the fact's subject gives the object to that other. A clause that writes the fact's subject
in one phrase with the object ("born in Bastia, Corsica") says it of that subject, whoever
owns the clause (``subject_in_clause``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from triqua.core.reading.analysis import TextInfo
from triqua.core.reading.respective import ECHOES
from triqua.core.reading.restrictors.words import WORDS
from triqua.core.reading.words import stem
from triqua.nlp.clauses import clause_head, clause_owner

if TYPE_CHECKING:
    from triqua.nlp.tokens import Token as SpacyToken

__all__ = [
    "compared_after",
    "counts_in",
    "echoed",
    "inverted_holder",
    "named_by",
    "of_another",
    "subject_in_clause",
]

#: Dependents that describe a noun rather than name it.
_DESCRIBING = frozenset({"relcl", "appos"})
#: Forms of the copula an inverted role is written with.
_BE = frozenset({"is", "was", "are", "were", "remains", "remained", "'s"})
#: Dependents of a name that are part of it ("Burj *Khalifa*", "Neil *Armstrong*").
_NAME_PARTS = frozenset({"compound", "flat", "nmod", "det", "amod"})


def named_by(token: SpacyToken) -> list[SpacyToken]:
    """The words of the noun phrase ``token`` heads, leaving out clauses that describe it."""
    words = [token]
    for child in token.children:
        if child.dep_ in _DESCRIBING or (child.dep_ == "punct" and child.i > token.i):
            continue
        words.extend(named_by(child))
    return sorted(words, key=lambda t: t.i)


def inverted_holder(
    owner: SpacyToken, subject: Iterable[str], obj: Iterable[str] = ()
) -> str | None:
    """The name an inverted copula gives the role to, when it is not the fact's subject.

    A role the subject's own words write ("Frida Kahlo's birthplace was Coyoacán") and a
    complement that is the fact's object are the fact's own.

    Args:
        owner: The clause's subject, which writes the role ("The first man to walk on the
            Moon").
        subject: Content stems of the fact's subject.
        obj: Content stems of the fact's object.
    """
    verb = owner.head
    if owner.dep_ != "nsubj" or verb.text.lower() not in _BE:
        return None
    wanted = set(subject)
    if wanted & {stem(t.text) for t in owner.subtree}:
        return None
    for attr in (c for c in verb.children if c.dep_ == "attr" and c.i > verb.i):
        if attr.pos_ != "PROPN":
            continue
        name = [attr, *(c for c in attr.children if c.dep_ in _NAME_PARTS and c.i < attr.i)]
        name = [t for t in name if t.pos_ == "PROPN"]
        if {stem(t.text) for t in name} & (wanted | set(obj)):
            return None
        return " ".join(t.text for t in sorted(name, key=lambda t: t.i))
    return None


def counts_in(obj: TextInfo) -> set[str]:
    """The stems of the count words and numerals a counted object writes ("six" of "six legs").

    A bare value ("1914", "in 1914") or a date ("February 19, 1784") counts nothing: it is
    read by the value gates (``value_slot``, the dates reader), not a thing whose clause
    holds it.
    """
    if obj.dates:
        return set()
    counts = {
        stem(t.text)
        for t in obj.tokens
        if t.text.lower() in WORDS.count_words or t.text.replace(",", "").isdigit()
    }
    counted = [t for t in obj.tokens if stem(t.text) not in counts and t.text.isalpha()]
    return counts if any(t.text.lower() not in _BARE for t in counted) else set()


#: Words a bare value is written with ("in 1914", "about 300").
_BARE = frozenset({"in", "on", "at", "of", "by", "the", "year", "about", "around", "circa"})


_COMPARED = frozenset({"than", "unlike"})  # a phrase naming what the holder is compared to
_NAME_WORDS = frozenset({"compound", "flat"})  # dependents that write a word of a name


def subject_in_clause(
    owner: SpacyToken | None, tokens: list[SpacyToken], subject_stems: set[str]
) -> bool:
    """True when the clause stating the object names the subject too, beside its owner.

    "Adil Rami is a footballer who was born in Bastia, Corsica" and "Cha Seung-won appeared
    in several films, including Kick the Moon": the clause is Rami's or Cha's, but it also
    writes the subject (Bastia, Kick the Moon) in one phrase with the object, which is said
    of it there.
    The object in the owner's own phrase ("Greenland, the largest island, lies west of
    Iceland") is the owner's, and a subject in another sentence, which a pronoun's owner
    was read from ("Marie married Pierre Curie. She was born in Warsaw"), is no part of it;
    nor is a subject the clause compares its owner to ("The blue whale can weigh 150 tonnes,
    far more than the African elephant").
    """
    if owner is None or not subject_stems:
        return False
    inside = {t.i for t in owner.subtree}
    if any(t.i in inside for t in tokens):
        return False
    heads = {clause_head(t) for t in tokens}
    written = set()
    for token in owner.doc:
        if token.i in inside or stem(token.text) not in subject_stems:
            continue
        if any(a.lower_ in _COMPARED and a.dep_ == "prep" for a in token.ancestors):
            continue  # "far more than the African elephant": the standard, not the holder
        # A name's words are read at its head word: "Blue" of "the series Blue Bloods"; not
        # at another name's ("Trump" of "Trump Tower" is no tower).
        name = token
        while (
            name.dep_ in _NAME_WORDS
            and name.head.i != name.i
            and stem(name.head.text) in subject_stems
        ):
            name = name.head
        # A name (or a list of them) in apposition to the object's noun names that very
        # thing: 'the television series "Sex and the City"'.
        listed = name
        while listed.dep_ == "conj" and listed.head.i != listed.i:
            listed = listed.head
        if listed.dep_ == "appos" and any(listed.head.i == t.i for t in tokens):
            written.add(stem(token.text))
            continue
        said = clause_owner(name)
        if (
            said is not None
            and said.i == owner.i
            and clause_head(name) in heads
            and any(_one_phrase(name, t) or _one_phrase(t, name) for t in tokens)
        ):
            written.add(stem(token.text))
    return written >= subject_stems


def _one_phrase(token: SpacyToken, other: SpacyToken) -> bool:
    """True when ``other`` governs ``token`` within a phrase (no verb between them).

    A verb read as a preposition ("films, including Kick the Moon") keeps the phrase; a
    participle ("Canberra, chosen as a compromise between Sydney and …") does not.
    """
    for head in token.ancestors:
        if head.i == other.i:
            return True
        if head.pos_ in ("VERB", "AUX") and head.dep_ not in ("prep", "pcomp"):
            return False
    return False


def compared_after(owner: SpacyToken, subject: TextInfo) -> bool:
    """True when the owner's sentence compares the owner to the subject, written after it.

    A description refers back, never forward to a subject its sentence names later as the
    standard of a comparison: "The blue whale can weigh 150 tonnes, far more than the African
    elephant" is the whale's.
    """
    wanted = {t.stem for t in subject.content}
    inside = {t.i for t in owner.subtree}
    later = {
        stem(t.text)
        for t in owner.sent
        if t.i > max(inside)
        and any(a.lower_ in _COMPARED and a.dep_ == "prep" for a in t.ancestors)
    }
    return bool(wanted) and wanted <= later


def of_another(owner: SpacyToken, subject: Iterable[str]) -> bool:
    """True when ``owner`` is what a noun said of the subject is "of": another, not the subject.

    "Anne Hathaway was the wife of the playwright who wrote Hamlet": the relative clause is
    the playwright's, and the playwright, whom the subject is the wife of, is someone else;
    so is "Cosima, the daughter of the composer who …". A bare noun after "of" ("a period of
    change that began …") names no one and is read with the noun before it
    (``nlp.clauses.clause_owner``).
    """
    if owner.dep_ != "pobj" or owner.head.lower_ != "of" or owner.pos_ != "NOUN":
        return False
    noun = owner.head.head
    if noun.pos_ != "NOUN":
        return False
    if noun.dep_ == "attr":
        sides = [c for c in noun.head.children if c.dep_ in ("nsubj", "nsubjpass")]
    elif noun.dep_ == "appos":
        sides = [noun.head]
    else:
        return False
    wanted = set(subject)
    return bool(wanted) and any(wanted & {stem(t.text) for t in named_by(s)} for s in sides)


def echoed(owner: SpacyToken | None, subject: Iterable[str]) -> bool:
    """True when an elliptical clause gives the owner's predicate to the subject too.

    "Paul McCartney studied at the Liverpool Institute, as did George Harrison" and "Austria
    joined in 1995, and so did Finland" state it of Harrison and Finland as well; "neither did
    Norway" denies it (the negation gates read that). The words are data
    (``data/paired_owners.json``).
    """
    wanted = set(subject)
    if owner is None or not wanted:
        return False
    verb = owner.head
    for clause in verb.children:
        if clause.lemma_ not in ECHOES["verbs"] or clause.dep_ not in ("advcl", "conj"):
            continue
        words = {c.lower_ for c in clause.children}
        if not words & ECHOES["words"] or words & ECHOES["denials"]:
            continue
        named = [c for c in clause.children if c.dep_ in ("nsubj", "dobj", "attr", "expl")]
        if any(wanted <= {stem(t.text) for t in named_by(n)} for n in named):
            return True
    return False
