"""Clause rules of the offline decomposer: one parsed English sentence in, TriQua facts out.

The rules read spaCy's dependency labels (ClearNLP style, as produced by ``en_core_web_sm``):
each verb clause gives a base triple ``(subject, relation, object)`` whose relation keeps
auxiliaries, negation, particles and the preposition of a prepositional object ("was born
in"); its adverbials become qualifiers (``qualifiers``); coordinated subjects,
verbs and objects split into separate facts that share those qualifiers; appositives and
relative clauses become facts of their own. Pronouns are replaced through a caller-supplied
lookup, so this module keeps no state between sentences. Clauses are read by
``predicate``, their qualifier slots by ``slots``; this module turns
them and existentials into facts, ``appositives`` and ``fallback`` the rest.
"""

from __future__ import annotations

from collections.abc import Mapping

from triqua.core.reading.restrictors.words import WORDS
from triqua.engines.offline.decompose.appositives import (
    appositive_facts,
    aside_facts,
    life_date_facts,
)
from triqua.engines.offline.decompose.arguments import (
    RawFact,
    argument_text,
    combine,
    is_opinion,
)
from triqua.engines.offline.decompose.counts import counted_agent
from triqua.engines.offline.decompose.fallback import fallback_facts
from triqua.engines.offline.decompose.hygiene import is_junk_argument
from triqua.engines.offline.decompose.phrases import (
    Refer,
    is_time,
    noun_phrase,
    render,
    restrictive_name,
)
from triqua.engines.offline.decompose.predicate import (
    Predicate,
    is_predicate,
    predicate,
    subject_heads,
)
from triqua.engines.offline.decompose.properties import owned_property
from triqua.engines.offline.decompose.qualifiers import prep_object
from triqua.engines.offline.decompose.ranges import with_elliptical_range
from triqua.engines.offline.decompose.slots import Positioned, clause_qualifiers, tidy
from triqua.engines.offline.decompose.titles import is_title_subject
from triqua.engines.offline.labels import STATED_BY
from triqua.nlp.tokens import Span, Token

MAX_SENTENCE_TOKENS = 120
"""Longer sentences are skipped: their parses are unreliable and their facts unusable."""


def extract_facts(sent: Span, refer: Refer, asides: Mapping[int, str] = {}) -> list[RawFact]:
    """Facts stated by one sentence (see ``read_sentence``, which also names the asides used)."""
    return read_sentence(sent, refer, asides)[0]


def read_sentence(
    sent: Span, refer: Refer, asides: Mapping[int, str] = {}
) -> tuple[list[RawFact], set[int]]:
    """Facts stated by one sentence; [] for questions, opinions and over-long sentences.

    ``asides`` are the parenthesised asides cut from the sentence before it was parsed, by
    the character offset (in its doc) where each was cut; one right after a noun that
    defines it ("Copper (Cu)") gives the fact an appositive would: (Copper, is, Cu), and
    life dates after a name ("Isaac Newton (1643–1727)") give when they were born and died.
    Returns the facts and the offsets of the asides that gave one.

    When the clause rules find nothing in a declarative sentence, a clause-level fallback
    reads its main verb: (subject, verb phrase, rest of the predicate), where an intransitive
    verb gives an empty object ("Tilda Swinton acts." -> (Tilda Swinton, acts, "")).
    """
    if len(sent) > MAX_SENTENCE_TOKENS or sent.text.rstrip().endswith("?"):
        return [], set()
    cache: dict[int, Predicate] = {}
    fronted: dict[int, list[Positioned]] = {}
    facts: list[RawFact] = []
    for token in sent:
        if is_predicate(token):
            facts += _clause_facts(token, refer, cache, fronted)
        if token.pos_ in {"NOUN", "PROPN", "PRON"}:
            for child in token.children:
                if child.dep_ == "appos" and not restrictive_name(child):
                    facts += appositive_facts(token, child, refer)
    facts = [owned_property(f) for f in facts if _is_clean(f, sent)]
    if not facts:
        facts = [f for f in fallback_facts(sent, refer, cache) if _is_clean(f, sent)]
    used: set[int] = set()
    if asides:
        for token in sent:
            at = token.idx + len(token.text)
            aside = asides.get(at)
            if aside is not None:
                found = aside_facts(token, aside, refer) + life_date_facts(token, aside, refer)
                found = [f for f in found if _is_clean(f, sent)]
                if found:
                    used.add(at)
                facts += found
    return list(dict.fromkeys(facts)), used


def _is_clean(fact: RawFact, sent: Span) -> bool:
    """False for a fact built on a bare number, unit or determiner phrase.

    A subject that is one proper noun is a name even where its word is a determiner's: the
    song "More" (``titles``).
    """
    junk_subject = is_junk_argument(fact.subject, "subject")
    if junk_subject and is_title_subject(fact.subject, sent):
        junk_subject = False
    return not (junk_subject or is_junk_argument(fact.object, "object"))


def _clause_facts(
    verb: Token, refer: Refer, cache: dict[int, Predicate], fronted: dict[int, list[Positioned]]
) -> list[RawFact]:
    if any(c.dep_ == "expl" for c in verb.children):
        return _existential_facts(verb, refer)
    heads = subject_heads(verb)
    if not heads:
        return []
    pred = predicate(verb, cache)
    subjects = [argument_text(head, refer, pred) for head in heads]
    objects = [argument_text(head, refer, pred) for head in pred.objects]
    if not all(subjects) or not all(objects):
        return []
    objects = with_elliptical_range(pred.verbs, pred.used, objects, refer)
    qualifiers = clause_qualifiers(pred, refer, cache) + _frame(verb, refer)
    fronted[verb.i] = [q for q in qualifiers if q[0] < verb.i]
    if verb.dep_ == "conj":
        qualifiers += fronted.get(verb.head.i, [])
    slots = tidy(qualifiers, [o for o in objects if o])
    if (not objects and not slots) or is_opinion(pred):
        return []
    return [counted_agent(f, pred) for f in combine(subjects, pred, objects, slots)]


def _frame(verb: Token, refer: Refer) -> list[Positioned]:
    """Who states a reported clause: "The court held that the law was constitutional".

    The clause's fact keeps its frame as a ``stated by`` qualifier (the reporting verb's
    subject), so it is supported only where that source is said to state it.
    """
    head = verb.head
    if verb.dep_ != "ccomp" or head.i == verb.i or head.lower_ not in WORDS.reporting_verbs:
        return []
    sources = [argument_text(h, refer, None) for h in subject_heads(head)]
    return [(head.i, ((STATED_BY, source),)) for source in sources[:1] if source]


#: Participles that give what an existential says there is a name ("a river called Thames").
_NAMING = frozenset({"called", "named", "titled", "entitled"})


def _existential_facts(verb: Token, refer: Refer) -> list[RawFact]:
    """An existential states a possession or names a thing.

    "There are 20 regions in Italy" gives (Italy, has, 20 regions); "There is a river
    called Thames" gives (Thames, is, a river), though "There are two rivers called Avon"
    says no river is two.
    """
    attr = next((c for c in verb.children if c.dep_ in {"attr", "dobj"}), None)
    if attr is None:
        return []
    for clause in attr.children if attr.tag_ in {"NN", "NNP"} else ():  # one thing named
        name = next((c for c in clause.children if c.dep_ in {"oprd", "attr", "dobj"}), None)
        if clause.dep_ == "acl" and clause.lower_ in _NAMING and name is not None:
            cut = {t.i for t in clause.subtree}
            kind = render(t for t in noun_phrase(attr) if t.i not in cut)
            named = render(name.subtree, refer)
            return [RawFact(named, "is", kind)] if kind and named else []
    for owner in (attr, verb):
        for prep in owner.children:
            if prep.dep_ == "prep" and prep.lower_ in {"in", "on", "at"}:
                place = prep_object(prep, [prep])
                if place is not None and not is_time(place):
                    cut = {t.i for t in prep.subtree}
                    obj = render(t for t in noun_phrase(attr) if t.i not in cut)
                    subject = render(noun_phrase(place), refer)
                    if obj and subject:
                        return [RawFact(subject, "has", obj)]
    return []
