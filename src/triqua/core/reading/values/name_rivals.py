"""Whether a text writes a name for the one it names, or for another one sharing a word.

"Marie Curie" writes "Curie" but is not "Pierre Curie"; "Pierre Curie's wife" is not Pierre
Curie; "Curie" after a passage naming only Marie Curie is Marie, and so is a "she" after it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from triqua.core.reading.acronyms import own_acronym, stands_for
from triqua.core.reading.described import legal_form, persons_aside
from triqua.core.reading.gender import PRONOUN_GENDER, may_be_person, may_stand_for, pronoun_gender
from triqua.core.reading.owned_things import owned_thing
from triqua.core.reading.quotes import normalise
from triqua.core.reading.reference import (
    another_person,
    coordinated_phrases,
    main_subject,
    named_other_subject,
    plural_subject,
    prepositional_persons,
    typed_core_names,
)
from triqua.core.reading.values.given_names import given_name_alone
from triqua.core.reading.values.leads import read_as_lead
from triqua.core.reading.values.named_after import named_after
from triqua.core.reading.values.names import (
    KIN,
    PLACE_MODIFIERS,
    TITLES,
    common_opening_lowered,
    name_in,
    name_of,
    name_runs,
    numeral,
    surname,
)
from triqua.core.reading.values.pronoun_persons import person_before_pronoun
from triqua.sentences import sentence_spans
from triqua.support.deferred import Deferred

__all__ = ["How", "beside_another", "may_be_person", "named", "reference_beside_another", "rival"]


@dataclass(frozen=True)
class How:
    """How a name of the unit may be carried.

    Attributes:
        by_reference: A pronoun of the quote may carry it when ``before`` names it (may be
            deferred: read only when the name is not written in the quote).
        common: It is the one word opening the fact's subject: it may be a common noun
            capitalised only to open its sentence ("Recruiters", or "Giant" of "Giant
            planets" written again in the object), carried in lower case.
        about: It names the one the unit is about (its subject, not written "X's" by the
            unit): a quote writing it only as another person's possessor ("Pierre Curie's
            wife") is about someone else; "Georgia's climate" still says Georgia has one.
    """

    by_reference: bool | Deferred = False
    common: bool = False
    about: bool = False


def named(name: str, quote: str, padded: str, before: str, how: How) -> bool:
    """True when the quote names ``name`` (or, ``how.by_reference``, a pronoun refers to it).

    A pronoun refers only to a name that ``before`` writes: an excerpt opening with "He"
    names no one, whatever it was retrieved for.
    """
    if _written(name, quote, padded, how):
        return not _shortened_for_another(name, quote, before)
    if how.about and (given_name_alone(name, quote, before) or read_as_lead(name, quote, before)):
        return True  # "Ada translated …" after "Ada Lovelace"; a titled page's lead
    if not how.by_reference:
        return False
    if how.about and _follows_another(name, before, quote):
        return False  # "Isaac Newton … Albert Einstein was a physicist. He was born in Ulm"
    if how.about and _pronoun_follows_another(name, quote, before):
        return False  # "Ann Smith hired a lawyer. [The lawyer defended her. She won.]"
    if how.about and person_before_pronoun(name, quote, _PERSONAL):
        return False  # "Einstein wrote that he was born in Ulm": he is Einstein
    if reference_beside_another(name, before, quote):
        return False  # "Apple bought Beats and Google bought Fitbit. Its price …": either
    opening = _OPENING_PRONOUN.match(quote)
    if how.about and opening and not may_be_person(name, PRONOUN_GENDER[opening[1].lower()]):
        return False  # "# Pierre Curie / She was born in Warsaw": "she" is no Pierre
    return _written(name, before, f" {normalise(before)} ", how, near=True)


def _pronoun_follows_another(name: str, quote: str, before: str) -> bool:
    """True when a later sentence of the quote has a pronoun after one about another person.

    The quote's own sentences before it count ("The lawyer defended her. She won …").
    """
    spans = sentence_spans(quote)
    return any(
        _PERSONAL.search(quote[a:b]) and _follows_another(name, f"{before} {quote[:a]}")
        for a, b in spans[1:]
    )


#: A "he" or "she" opening a quote: its subject, whose gender the name must allow.
_OPENING_PRONOUN = re.compile(r"\W*\b(he|she)\b", re.IGNORECASE)
#: Pronouns that stand for a person.
_PERSONAL = re.compile(r"\b(?:he|she|his|her|him|they|their|them)\b", re.IGNORECASE)
#: Pronouns that go on about one named before them ("In 1891 she moved to Paris").
_CHAINING = re.compile(r"\b(?:he|she|it|they|his|her|its|their)\b", re.IGNORECASE)
_SUBJECT_REACH = 4  # words of a sentence whose name may be its subject ("In 1905, Albert …")


def _follows_another(name: str, before: str, quote: str = "") -> bool:
    """True when the sentence right before a pronoun is about another one than ``name``.

    A name the pronoun's own sentence (``quote``) writes is no one the pronoun stands for
    ("… where she met Pierre Curie. She married Pierre Curie": she is not Pierre Curie).

    A pronoun refers back to the sentence before it: when that sentence names ``name``
    nowhere and its main clause's subject (read from the parse) is a name, the pronoun is
    about another one ("Albert Einstein was a physicist. He …", "The Seine is a river.
    It …"); a name only in an opening phrase ("Trained by Oskar Lindqvist, the chemist …") is
    not its subject. Where the parse finds no subject, or a pronoun as it, a name in the
    sentence's first few words is read as its subject, unless a pronoun before it goes on
    about someone named earlier.
    """
    spans = [(a, b) for a, b in sentence_spans(before) if any(c.isalpha() for c in before[a:b])]
    start, end = spans[-1] if spans else (0, 0)
    sentence = before[start:end]
    if read_as_lead(name, sentence, before[:start]):
        return False  # "William Henry Gates III (born 1955) is …" opening "Bill Gates"
    if (
        _written(name, sentence, f" {normalise(sentence)} ", How(about=True), near=True)
        or given_name_alone(name, sentence, before[:start])
        or stands_for(name, name, sentence, before[:start])  # "… using BPE on a string."
    ):
        # The sentence before names it ("Parasite is a film. The film …"), unless it gives
        # another name a core part in it too (:func:`beside_another`).
        return beside_another(name, sentence, quote)
    subject, gender = main_subject(sentence), pronoun_gender(quote)
    mine = frozenset(w for w, g in PRONOUN_GENDER.items() if g == gender)  # "his" of "he"
    if subject and any(
        t.dep_ in _NSUBJ and (t.lower_ in _CHAINING_WORDS or owned_thing(t, mine)) for t in subject
    ):
        # "Born in Smiljan, he …" (or "His debut album LP1 was …", ``owned_things``) goes
        # on about the one the sentence before it is about.
        chained = len(spans) > 1 and _follows_another(name, before[:start], quote)
        return chained or named_other_subject(sentence, _CHAINING_WORDS, mine)
    if subject is not None and not any(t.pos_ == "PRON" and t.dep_ in _NSUBJ for t in subject):
        # The parse names the subject: it is about another one when a name writes it
        # ("The Seine is a river"), not when a name only opens the sentence before it
        # ("Trained by Oskar Lindqvist, the chemist won …"); and when an unnamed person
        # other than the one named before is its subject ("The lawyer defended her"). A
        # "he" or "she" of the quote is no thing and no one of the other gender ("His
        # debut album LP1 was released in 2019. He …"): it goes on about one named before.
        named = " ".join(t.text for t in subject if t.pos_ == "PROPN")
        person = another_person(subject, KIN)  # "Her husband Diego Rivera": a person
        if named and gender is not None and not may_stand_for(named, sentence, gender, person):
            return len(spans) > 1 and _follows_another(name, before[:start], quote)
        if not named and gender is not None and plural_subject(subject):
            # "Her parents thought she had a tumour. She was …": one "she" is none of many;
            # the pronoun goes on about the one the sentence before was about.
            return len(spans) > 1 and _follows_another(name, before[:start], quote)
        return bool(named) or another_person(subject, KIN)
    sentence = common_opening_lowered(sentence)
    opening = " ".join(sentence.split()[:_SUBJECT_REACH])
    pronoun = _CHAINING.search(opening)
    if pronoun and not name_runs(opening[: pronoun.start()]):
        # "In 1891 she moved …" goes on about her; "Her sister Bronya studied …" is about
        # the sister, named inside the subject phrase the pronoun stands in.
        return named_other_subject(sentence, _CHAINING_WORDS)
    return bool(name_runs(opening))


_CHAINING_WORDS = frozenset(("he", "she", "it", "they", "his", "her", "its", "their"))
_NSUBJ = frozenset(("nsubj", "nsubjpass"))


_CAPITALISED = r"[A-Z][\w'’-]*"
#: Two capitalised runs joined as equals: "Parasite and Joker", "Marie or Pierre Curie".
_COORDINATED = re.compile(
    rf"(?=\b({_CAPITALISED}(?:\s+{_CAPITALISED})*)\s+(?:and|or|&)\s+"
    rf"(?:the\s+)?({_CAPITALISED}(?:\s+{_CAPITALISED})*))"
)


def beside_another(name: str, sentence: str, quote: str = "") -> bool:
    """True when ``sentence`` gives another name than ``name`` a core part beside it.

    A pronoun, a possessive or "the film" right after it may mean either one, and nothing
    says which: "Parasite and Joker are films. The film …", "Pierre Curie married Marie
    Curie. She …", "Apple bought Beats and Google bought Fitbit. Its price …". Both engines
    read it so: a reference after such a sentence refers to no one. A name the reference's
    own sentence (``quote``) writes is not one it stands for ("… met Pierre Curie. She
    married Pierre Curie"), nor is a person one that "the company" stands for, when the
    sentence names no other company (:func:`triqua.core.reading.described.persons_aside`).

    A "he" or "she" of ``quote`` may also mean a person named after a preposition ("Johannes
    Kepler corresponded with Galileo Galilei. He was born in Pisa."), of either gender when
    the name shows none; not one of the other gender ("Marie Curie worked with Pierre Curie.
    She …" is about Marie Curie), nor the place of a tenure, whatever the recogniser makes of
    it ("began his career with Shakhtar Donetsk": ``reference.tenure_place``).
    """
    pairs = coordinated_phrases(sentence)  # "The Bengal tiger and the Amur tiger"
    if any(_one_of(name, pair) for pair in pairs) or _coordinated_with_another(name, sentence):
        return True
    others = typed_core_names(sentence)
    gender = pronoun_gender(quote)
    if gender is not None:
        # "He" or "she" is a person of that gender: not "the University of Queensland", nor
        # "Andrew Frankel" for a "she" ("Moynahan married Andrew Frankel. She dated …").
        others = [(o, kind) for o, kind in others if may_be_person(o, gender)]
        chained = frozenset(w for w, g in PRONOUN_GENDER.items() if g == gender)
        others += [
            (person, "PERSON")
            for person in prepositional_persons(sentence, KIN, chained)
            if may_be_person(person, gender)
        ]
    kinds = [
        kind
        for other, kind in others
        if not set(normalise(other).split()) <= set(name.split())  # "Syracuse" of its name
        and not legal_form(other)  # "Inc." of "Tesla, Inc."
        and not own_acronym(other, name)  # "BPE" of "Byte Pair Encoding (BPE)"
        and not _written(name, other, f" {normalise(other)} ", How(about=True))
        and not name_of(normalise(other), name, normalise(sentence))
        and not (quote and _written(normalise(other), quote, f" {normalise(quote)} ", How()))
    ]
    if quote and "PERSON" in kinds and persons_aside(name, sentence, quote):
        # "… said Jensen Huang, CEO of NVIDIA. The company …": a person is no company.
        kinds = [kind for kind in kinds if kind != "PERSON"]
    return bool(kinds)


def _one_of(name: str, sides: Sequence[str]) -> bool:
    """True when some of ``sides`` write ``name`` and some do not."""
    writes = [_written(name, side, f" {normalise(side)} ", How(about=True)) for side in sides]
    return any(writes) and not all(writes)


def reference_beside_another(name: str, before: str, quote: str = "") -> bool:
    """True when the last sentence of ``before`` names ``name`` beside another name.

    The reading of :func:`beside_another` for the sentence a pronoun or description of the
    quote refers back to (a name ``quote`` writes is not one its pronoun stands for).
    """
    spans = [(a, b) for a, b in sentence_spans(before) if any(c.isalpha() for c in before[a:b])]
    if not spans:
        return False
    sentence = before[spans[-1][0] : spans[-1][1]]
    return _written(
        name, sentence, f" {normalise(sentence)} ", How(about=True), near=True
    ) and beside_another(name, sentence, quote)


def _coordinated_with_another(name: str, sentence: str) -> bool:
    """True when ``sentence`` joins ``name`` with another name by "and" or "or".

    A pronoun or "the film" after it may then be either of them: nothing says which.
    """
    for match in _COORDINATED.finditer(sentence):
        preceding = sentence[: match.start()].split()
        if preceding and preceding[-1][:1].isupper():
            continue  # inside a longer run: "Pierre Curie and …" is not "Curie and …"
        if _one_of(name, match.groups()):
            return True
    return False


def _shortened_for_another(name: str, quote: str, before: str) -> bool:
    """True when the quote writes only the last word of ``name`` and ``before`` gives it away.

    "Marie Curie was a physicist. Curie won the prize": the passage names Marie Curie in full
    and never Pierre Curie, so its "Curie" is Marie, not Pierre Curie.
    """
    words = name.split()
    if len(words) < 2 or not before:
        return False
    last = words[-1]
    holding = [run.name.split() for run in name_runs(quote) if run.name.split()[-1] == last]
    if not holding or not all(_surname_alone(run, words) for run in holding):
        return False  # not a surname alone ("Supreme Court" of "U.S. Supreme Court" is no alias)
    earlier = [
        run.name
        for run in name_runs(before)
        if run.name.split()[-1] == last and not _surname_alone(run.name.split(), words)
    ]
    if not earlier:
        return False
    # The nearest full name before decides whose short form it is: "Sandra Day O'Connor …
    # the writer Frank O'Connor … O'Connor was born in Cork" is Frank's.
    if set(words) <= set(earlier[-1].split()):
        return False  # the passage named this one last: the short form is theirs
    return rival(name, earlier[-1:])


def _surname_alone(run: Sequence[str], words: Sequence[str]) -> bool:
    """True when a run writes only the surname of ``words``, as a passage calls a person.

    "Curie" for "Marie Curie"; "O'Connor" (normalised "o connor": an apostrophe splits it)
    for "Sandra Day O'Connor".
    """
    # A title before it keeps it the surname alone: "Mrs. Reagan" is whichever Reagan the
    # passage named last ("… married Nancy Reagan. Mrs. Reagan …").
    titled = list(run)
    while len(titled) > 1 and titled[0] in TITLES and titled[0] not in words:
        titled = titled[1:]
    n = len(titled)
    return (
        0 < n < len(words) and titled == list(words[-n:]) and all(len(w) == 1 for w in titled[:-1])
    )


def _written(name: str, text: str, padded: str, how: How, near: bool = False) -> bool:
    """True when ``text`` writes the name as the one it is about, not another one's part.

    With ``near`` (a passage before the quote) only the runs writing the name's last word
    are read: the passage's other names are about other things.
    """
    return _writes(name, text, padded, how.common, how.about, near)


@functools.lru_cache(maxsize=4096)  # a name is looked for in the same quotes again and again
def _writes(name: str, text: str, padded: str, common: bool, about: bool, near: bool) -> bool:
    """:func:`_written` for the parts of ``How`` it reads (``common``, ``about``)."""
    if not name_in(name, padded, text, common) and not (about and _shortened(name, text)):
        return False
    last = name.split()[-1]
    runs = [run for run in name_runs(text) if not near or last in run.name.split()]
    holding = [run for run in runs if last in run.name.split()]
    if about and holding and all(run.possessed in KIN for run in holding):
        return False  # "Pierre Curie's wife Marie won": Pierre Curie did not
    if about and named_after(name, runs, padded):
        return False  # "Trump Tower opened in 1983": Donald Trump did not
    # "Curie, Pierre's wife Marie": the Pierre of this text is another person's possessor.
    others = {w for run in runs if run.possessed in KIN for w in run.name.split()}
    return not rival(name, [run.name for run in runs], others)


def _shortened(name: str, text: str) -> bool:
    """True when ``text`` writes a name run that only shortens ``name`` to its last words.

    A passage calls "Sandra Day O'Connor" "O'Connor" once it has named her, though that is
    less than half of her name's words; the run must end with the name's surname and add
    no word of its own (titles aside): "Harriet Beecher Stowe" is not "Henry Ward Beecher".
    """
    words = name.split()
    if len(words) < 3:
        return False  # a shorter name is found by ``name_in`` already
    last = surname(words)
    return any(
        surname(run.name.split()) == last and set(run.name.split()) - TITLES <= set(words)
        for run in name_runs(text)
    )


def rival(name: str, runs: Sequence[str], others: set[str] | None = None) -> bool:
    """True when every name run writing the name's last word names someone else.

    "Marie Curie" writes "Curie" but is not "Pierre Curie": a run that adds a word of its
    own (titles aside) while lacking one of the name's is another person. A run that only
    shortens or lengthens the name ("Curie", "Marie Skłodowska Curie") is the same one,
    unless it lengthens it into another place ("South Sudan" for "Sudan"), writes other
    initials ("George W. Bush" for "George H. W. Bush") or another numeral ("Elizabeth II"
    for "Elizabeth I"), or shortens it while the text
    writes the missing words apart, for someone else (in ``others``: "Curie, Pierre's wife
    Marie" for "Pierre Curie").
    """
    words = {w for w in name.split() if len(w) > 1}
    initials = {w for w in name.split() if len(w) == 1}
    others = others or set()
    last = surname(name.split())
    # Runs that end with the surname name people; "Novak Instruments" or "Newton's
    # Principia" name things after them and decide nothing.
    holding = [run for run in runs if surname(run.split()) == last]
    if not holding:
        return False
    for run in holding:
        written = run.split()
        extra = {w for w in written if len(w) > 1} - words - TITLES
        lacking = words - set(written)
        other_initials = {w for w in written if len(w) == 1}
        if extra & PLACE_MODIFIERS or lacking & others:
            continue
        if initials and other_initials and initials != other_initials:
            continue
        if numeral(name.split()) != numeral(written):
            continue  # "Elizabeth II" is not "Elizabeth I", nor "Henry VII" "Henry VIII"
        titles, other_titles = words & TITLES, set(written) & TITLES
        if titles and other_titles and not titles & other_titles:
            continue  # "Senator Clinton" is not "President Clinton"
        if not extra or not lacking:
            return False
    return True
