"""The statement gates: what no reading of meaning may overrule in a window, on either engine.

A window may hold every word of a fact and state nothing, or another meaning. Whatever a judge
reads in it, a window never states a fact's base triple when it is a list of keywords ("Tags:
Eiffel Tower, Rome, is in, Italy": ``core.reading.keyword_lists``), denies what the fact
affirms ("Bats are not blind"), holds an antonym of the object or the opposite of the
relation's word, gives the subject another class or one without a word of the object's,
writes the object's words only as another name's role ("the muralist Diego Rivera"), puts
another name of the object's type in the relation's slot ("… in Seattle, but the company is
headquartered in Cupertino"), lists the slot's members and leaves the object out ("tasks,
including drafting documents and filing": ``core.reading.list_members``), writes the
relation and the object in different sentences, or fails the clause gates
(:func:`clause_refusal`: the object's author another ("an article by …"), the object's
clause another's, a namesake's, split over two clauses, inside a belief frame, its year
governed by another verb, its agent another "by" agent). The grounding rule asks
:func:`unit_refusal` of every window an LLM judge cites; the offline verifier asks
:func:`statement` and :func:`clause_refusal` of every window its judge reads for support, and
:func:`unit_refusal` of every support (its rules' own-words ones too) when a run settles it.
"""

from __future__ import annotations

import functools
import re

from triqua.core.reading.agents import agent_of_fact, patient_of_fact
from triqua.core.reading.analysis import TextInfo, Token, analyse, has_stem
from triqua.core.reading.antonyms import opposite_in
from triqua.core.reading.apposition import IN_ONE_PHRASE
from triqua.core.reading.class_nouns import class_rival, general_head_unwritten
from triqua.core.reading.clause_owners import held_by_another, object_split, other_value
from triqua.core.reading.clause_values import value_clause
from triqua.core.reading.fact_parts import (
    NAME_KINDS,
    FactParts,
    antonym_in,
    fact_parts,
    object_kind,
    polarity_differs,
    relation_hits,
    sentence_relation_hit,
    takes_many,
)
from triqua.core.reading.frames import frame_of
from triqua.core.reading.keyword_lists import is_list
from triqua.core.reading.list_members import left_out_of_list
from triqua.core.reading.name_match import name_match
from triqua.core.reading.part_match import said_object
from triqua.core.reading.quotes import normalise
from triqua.core.reading.role_words import role_held_by_another
from triqua.core.reading.unasserted import unasserted
from triqua.core.reading.value_slot import (
    bare_values,
    conjoined_object,
    coordinated_slot,
    counted_slot,
    measured_values,
    noun_slot,
    own_slot,
    slot_value,
)
from triqua.nlp.passages import entities
from triqua.schema import Fact, FactUnit
from triqua.sentences import sentence_spans

__all__ = ["clause_refusal", "refusal", "split_relation", "statement", "unit_refusal"]


def unit_refusal(unit: FactUnit, window: str) -> str | None:
    """Why ``window`` cannot state the base triple ``unit``, whatever a judge reads.

    :func:`refusal` of its base triple; a qualifier passes (the grounding rule reads it).
    """
    if unit.kind != "base":
        return None
    return refusal(Fact(subject=unit.subject, relation=unit.relation, object=unit.object), window)


def statement(parts: FactParts, info: TextInfo) -> bool:
    """A statement, not a keyword list, with no other name in the relation's slot."""
    if is_list(info.text):
        return False
    # A rival in one occurrence's slot is another's when the relation is written again ("X
    # is based in A, and Y in B": the clause gates read it); one after every occurrence is.
    hits = relation_hits(parts, info)
    return not (hits and all(_slot_rival(parts, info, hit) for hit in hits))


def refusal(fact: Fact, text: str) -> str | None:
    """Why ``text`` cannot state ``fact``'s base triple, whatever a judge reads in it; else None.

    The gates a cited window passes on either engine: a statement, not a keyword list, nor an
    exception nor a quoted title (``core.reading.unasserted``); the fact's polarity ("Bats are
    not blind" never states "Bats are blind"); no antonym of the object, nor the opposite of the
    relation's word ("decreases" for "increases": ``core.reading.antonyms``); no other class of
    the subject ("is an American band" for "is a website": ``core.reading.class_nouns``), nor a
    class that leaves out a word of the object's ("one of the oldest methods of sending
    messages" for "a method of sending secret messages"); no object word written only as another
    name's role ("married the muralist Diego Rivera": ``core.reading.role_words``); no other
    name in the relation's slot; no list of the slot's members that leaves the object out
    ("responsible for a variety of tasks, including …" for "responsible for hiring":
    ``core.reading.list_members``); the relation's word and the object in one sentence; the
    clause gates (:func:`clause_refusal`: "…, but Canberra is the capital").
    """
    if is_list(text):
        return "the cited text is a list of keywords, not a statement"
    parts = fact_parts(fact)
    info = analyse(text)
    if not parts.negated and polarity_differs(parts, info):
        # A denied fact is often stated in other words ("arrived in the 16th century" for
        # "could not have existed in 1490"): only the denial of an affirmed one is crisp.
        return "the cited text negates it"
    if antonym_in(parts.object, info):
        return "the cited text states the opposite of its object"
    opposite = opposite_in(parts.relation, parts.object, info)
    if opposite is not None:
        return f"the cited text writes {opposite.text!r}, the opposite of the fact's word"
    other_class = class_rival(fact.subject, fact.relation, fact.object, info)
    if other_class is not None:
        return f"the cited text gives the subject another class, {other_class!r}"
    left_out = general_head_unwritten(fact.relation, fact.object, info)
    if left_out is not None:  # "one of the … methods of sending messages": no "secret"
        return f"the cited text leaves out {left_out!r}, a word of the object's class"
    if role_held_by_another(parts, info):  # "married the muralist Diego Rivera"
        return "the cited text writes the object's words only as another name's role"
    if not statement(parts, info):
        return "the cited text puts another name in the relation's slot"
    listed = left_out_of_list(parts, said_object(fact, parts), text)
    if listed is not None:  # "tasks, including A, B and C" for "responsible for D"
        return f"the cited text lists the slot's members, {listed!r}, and leaves the object out"
    if split_relation(parts, text):
        return "the cited text states the relation and the object in different sentences"
    if why := unasserted(fact, text):  # "every … except Smith", a title in quotes
        return why
    return clause_refusal(parts, text)


def split_relation(parts: FactParts, text: str) -> bool:
    """True when the relation's word and the object stand in different sentences of ``text``.

    "Einstein was born in 1879. He died in Princeton in 1955." holds "born" and "Princeton"
    but states no birthplace: a conjunction of two sentences is not the fact.
    """
    # A bare year is the object's own word: "… was released from prison in 1990. He became
    # president four years later." states no presidency from 1990; so are the digits of a
    # date with an era ("in 49 BC").
    words = (
        [t.stem for t in parts.object.content]
        or sorted(bare_values(parts.object.text))
        or [t.stem for t in parts.object.tokens if t.stem.isdigit()]
    )
    spans = sentence_spans(text)
    if len(spans) < 2 or not words:
        return False
    sentences = [analyse(text[a:b]) for a, b in spans]
    # A name the relation's verb takes as its object is part of it: "joined Barcelona in
    # 2023" is not stated by "… joined Barcelona at 13. He joined Inter Miami in 2023." A
    # name after a preposition ("moved from Ulm to") may be the sentence before's.
    names = []
    for token in parts.relation.tokens:
        if token.text.lower() in _PREPOSITIONS:
            break
        if token.is_capitalised:
            names.append(token.stem)
    hits = [
        isinstance(sentence_relation_hit(parts, s), Token)
        and all(has_stem(s.stems, name) for name in names)
        for s in sentences
    ]
    if not any(hits):
        return False
    holds = [all(has_stem(s.stems, word) for word in words) for s in sentences]
    return any(holds) and not any(h and o for h, o in zip(hits, holds, strict=True))


_PREPOSITIONS = frozenset(
    "about after as at before by for from in into of on over since through to under with".split()  # noqa: SIM905
)


def clause_refusal(parts: FactParts, text: str) -> str | None:
    """Why the clauses of ``text`` do not state the fact, read from its parse; else None.

    The whole object (with the relation's word) must stand in one clause; that clause must
    not be another's ("…, whereas nitrogen is the most abundant gas"), nor a namesake's
    ("John Adams was …" for John Quincy Adams); the subject's own copular clause must
    not name another value ("the official language of Brazil is Portuguese"); and the
    clause must not stand only inside a belief, rumour or fiction frame ("Many tourists
    believe that …": :func:`triqua.core.reading.frames.frame_of`), nor give the relation
    to another "by" agent ("The Godfather, directed by Francis Ford Coppola" for Martin
    Scorsese: :func:`triqua.core.reading.agents.other_agent`); a bare year or number must
    be the one the relation's verb governs ("started in 1959, and … opened in 1973" for
    "opened in 1959": :func:`triqua.core.reading.value_slot.slot_value`), and an object
    another coordinated verb governs must not be one the relation's verb fills with another
    ("nominated for X and won it for Y": :func:`~triqua.core.reading.value_slot.coordinated_slot`),
    nor one only other verbs govern while the relation's verb fills its own slot with another
    value ("born in 1564 and died near Florence": :func:`~triqua.core.reading.value_slot.own_slot`),
    nor a value only a clause of another verb governs, asides included ("Born in 1867, she
    moved to Paris in 1891": :func:`~triqua.core.reading.clause_values.value_clause`).
    """
    return _clause_refusal(
        parts.subject, parts.relation, parts.object, tuple(parts.relation_words), text
    )


@functools.lru_cache(maxsize=4096)  # a fact's windows are gated again for each unit and round
def _clause_refusal(
    subject_info: TextInfo,
    relation_info: TextInfo,
    obj: TextInfo,
    relation_words: tuple[frozenset[str], ...],
    text: str,
) -> str | None:
    """:func:`clause_refusal` on the parts of the fact it reads."""
    relation = frozenset().union(*relation_words) if relation_words else frozenset()
    subject = frozenset(t.stem for t in subject_info.content)
    whole, text = text, _without_asides(obj, text)
    author = _other_author(obj.text, text)
    if author is not None:
        return f"the cited text's {obj.text!r} is by {author!r}"
    if object_split(obj, relation, text, subject, predicates=False):
        return "the cited text states the object across clauses, not in one"
    own = any(read(subject_info.text, relation_info.text, obj.text, text) for read in IN_ONE_PHRASE)
    other = None if own else held_by_another(subject_info, obj, text, relation)
    if other is not None:
        return f"the cited text gives the object to {other!r}"
    if not relation_info.content:
        value = other_value(subject_info, obj, text)
        if value is not None:
            return f"the cited text gives the subject another value, {value!r}"
    objects = frozenset(t.stem for t in obj.content)
    frame = frame_of(text, relation, objects, relation | subject | objects)
    if frame is not None:
        return f"the cited text states it only inside a frame ({frame!r})"
    value = slot_value(text, relation, bare_values(obj.text) or measured_values(obj.text))
    if value is not None:
        return f"the cited text's {relation_info.text!r} governs {value}, not the object"
    value = counted_slot(text, obj.text)
    if value is not None:
        return f"the cited text writes {value!r}, not {obj.text!r}"
    value = noun_slot(text, relation, obj.text)
    if value is not None:
        return f"the cited text's {relation_info.text!r} takes {value!r}, not the object"
    last = obj.content[-1:]  # the object's head word ("relay" of "4x100 metres relay")
    value = coordinated_slot(text, relation, frozenset(t.stem for t in last))
    if value is None and relation_info.tokens:
        closing = relation_info.tokens[-1].text  # "in" of "was born in": the verb's own slot
        # A bare year is its own head word ("born in Coyoacán. She died there in 1954").
        heads = frozenset(t.stem for t in last) or bare_values(obj.text)
        value = own_slot(text, relation, closing, heads)
    if value is not None:
        return f"the cited text's {relation_info.text!r} governs {value!r}, not the object"
    if object_split(obj, relation, text, subject):  # after the slots, which name the value
        return "the cited text states the object across clauses, not in one"
    relation_text = [t.text for t in relation_info.tokens]
    agent = agent_of_fact(text, relation_text, relation, subject, objects)
    if agent is not None:
        return f"the cited text gives the relation to {agent!r} (by {agent})"
    done = patient_of_fact(text, relation_text, relation, subject, objects)
    if done is not None:
        return f"the cited text gives the relation's agent another patient, {done!r}"
    value = value_clause(relation_info.text, obj.text, whole)  # an aside is a clause too
    if value is not None:
        return f"the cited text gives the object to another clause ({value})"
    return None


_BY_NAME = r"by ((?:[A-Z][\w.'’-]*\s?)+)"


def _other_author(obj: str, text: str) -> str | None:
    """Another name the text writes after the object's "<noun> by", for an object with one.

    "an article by Charles Babbage" is not stated by "an article by Luigi Menabrea about the
    Analytical Engine, which Charles Babbage had designed": the article's author is another.
    None when the object names no author, or the text writes the object's one there.
    """
    own = re.search(r"(\w+) " + _BY_NAME, obj)
    if own is None:
        return None
    noun, name = own.group(1), analyse(own.group(2).strip())
    others = []
    for found in re.finditer(rf"\b(?i:{re.escape(noun)}) " + _BY_NAME, text):
        # The author may follow a description in the phrase ("by South Korean girl group
        # Blackpink"): the phrase runs to the first punctuation.
        phrase = analyse(re.split(r"[,;.()]", text[found.start(1) :], maxsplit=1)[0])
        if name_match(name, phrase) > 0:
            return None
        others.append(found.group(1).strip())
    return others[0] if others else None


_ASIDE = re.compile(r"\s*(\([^()]*\)|\[[^\[\]]*\])")


def _without_asides(obj: TextInfo, text: str) -> str:
    """``text`` with its bracketed asides left out, when the object ``obj`` stands outside them.

    A pronunciation, a translation or an alias in brackets ("The Colosseum ([kɒləˈsiːəm];
    Italian: Colosseo) is … in Rome, Italy") is no clause of the sentence, but its
    parse may take the object for its own. When the object is written only inside the
    brackets, the text is read whole.
    """
    bare = text
    for _ in range(2):  # brackets nested one deep
        bare = _ASIDE.sub("", bare)
    if bare == text:
        return text
    stems = analyse(bare).stems
    return bare if all(has_stem(stems, t.stem) for t in obj.content) else text


_SLOT_WORDS = frozenset({"in", "at", "to", "from", "by", "on", "of", "the", "a", "an", "as"})
_PLACES = frozenset({"in", "at", "from", "near"})
_JOINERS = frozenset({"and", "or", "the", "a", "an", "as", "well", ",", "&"})


def _slot_rival(parts: FactParts, info: TextInfo, hit: Token) -> bool:
    """True when another name of the object's type fills the slot right after the relation.

    "headquartered in Cupertino" rivals "headquartered in Seattle"; "belongs to the European
    Economic Area and the Schengen Area" names the object beside another one, no rival.
    """
    if not parts.object.is_name:
        return False
    if takes_many(parts):
        return False  # "lived in London and then in Paris": each is a place she lived in
    kind = object_kind(parts)
    if kind is None:
        return False
    text = info.text
    place = bool(parts.relation.tokens) and parts.relation.tokens[-1].text.lower() in _PLACES
    for start, end, e_kind in entities(text):
        if start < hit.end or (e_kind != kind and not (place and {kind, e_kind} <= NAME_KINDS)):
            continue  # NER may type a place as a person; only a place slot forgives it
        gap = [t for t in info.tokens if hit.end <= t.start and t.end <= start]
        if len(gap) > 2 or any(t.text.lower() not in _SLOT_WORDS for t in gap):
            return False  # the first name after the relation is not in its slot
        named = analyse(text[start:end])
        if name_match(parts.object, named) or name_match(parts.subject, named):
            return False
        written = parts.object.text.lower().removeprefix("the ")
        at = text.lower().find(written)
        if 0 <= at <= start < at + len(written):
            return False  # a name inside the object's own words ("Swiss" of "Swiss Alps")
        if f" {normalise(text[start:end]).removeprefix('the ')} " in f" {normalise(written)} ":
            return False  # "won the FA Cup twice with Arsenal": the object's own name
        if _modifies_noun(info, end):
            return False  # "served on Royal Italian Navy gunboats in China": no slot's name
        if conjoined_object(text, start, written):
            return False  # "won the Pulitzer Prize in 1988 and the Nobel Prize in 1993"
        return not _object_follows(text[end:], written)
    return False


def _modifies_noun(info: TextInfo, end: int) -> bool:
    """True when a plural common noun follows the name ending at ``end``: it names its kind.

    "Royal Italian Navy gunboats", "Arsenal players": the name modifies the noun, which
    fills the slot, so it is no rival of the object.
    """
    after = next((t for t in info.tokens if t.start >= end), None)
    if after is None or info.text[end : after.start].strip():
        return False
    word = after.text
    return word.isalpha() and word.islower() and len(word) > 3 and word.endswith("s")


_CHAIN = 3  # containing places written after a place ("Chicago, Illinois, United States")


def _object_follows(rest: str, written: str) -> bool:
    """True when the object is named right after the slot's name, or as a place containing it.

    "the Economic Area and the Schengen Area" or "the Louvre in Paris" name it after another;
    "Chicago, Illinois, United States" writes each containing place after a comma, so a
    place later in that chain is where the first one lies, not a rival of it.
    """
    after = [w.strip(",;").lower() for w in rest.split()[:6]]
    if " ".join(w for w in after if w and w not in _JOINERS | {"in"}).startswith(written):
        return True
    segments = rest.split(",")[1 : _CHAIN + 1]
    for segment in segments:
        words = segment.split()
        named = " ".join(w.lower() for w in words if w.lower() not in _JOINERS | {"in"})
        if named.startswith(written):
            return True
        if not words or not all(w[0].isupper() for w in words):
            return False  # the chain of containing places ends at the first non-name
    return False
