"""The agent reader: who a passive or a participle gives the relation to ("… by X").

"The Godfather, directed by Francis Ford Coppola, …" holds "directed" and "The Godfather"
yet never states that Martin Scorsese, named later in the sentence, directed it; "Instagram
is owned by Meta, while Google owns YouTube" states no Google ownership of Instagram. The
reader finds, in spaCy's parse, each occurrence of the relation's word with a "by" agent and
reads its patient (the passive's subject, or the noun a participle describes) and its agent
(the names after "by", with their conjuncts, but not a clause that describes them). When a
patient is the fact's and its agent is another than the fact's, and no occurrence gives the
relation to the fact's own agent (passive or active), the window gives the relation to
someone else; so does a passive done to the fact's agent ("The Danube flows through Vienna.
It is joined by the Inn" for "The Danube joins the Inn"). For an active fact ("X directed
Y") the agent is the subject; for a passive one ("Y was directed by X") the object. An
active clause gives it to its own subject in the same way ("the telephone, which Alexander
Graham Bell had patented" for Thomas Edison), and a window whose only occurrence with the
fact's agent is done to another patient, while the fact's patient stands in another clause,
states a conjunction, not the fact ("Insulin was discovered in 1921. Alexander Fleming
discovered penicillin": :func:`other_patient`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import TYPE_CHECKING

from triqua.core.reading.words import stem

if TYPE_CHECKING:
    from triqua.nlp.tokens import Token as SpacyToken

__all__ = ["agent_of_fact", "other_agent", "other_patient", "patient_of_fact"]

#: Dependents that describe a name rather than name it ("Leonardo, whose rival …").
_ASIDES = frozenset({"relcl", "acl", "appos", "punct", "prep", "advcl", "cc", "det", "poss"})
#: Pronouns that may stand for the fact's patient ("it was founded by …").
_STANDS_IN = frozenset({"it", "which", "that", "they", "who", "this", "he", "she"})
_ACTIVE_SUBJECTS = frozenset({"nsubj"})
_BE = frozenset({"is", "was", "were", "are", "been", "be", "being"})
_OBJECTS = frozenset({"dobj", "attr", "oprd"})


def other_agent(
    text: str, relation: Iterable[str], agent: Iterable[str], patient: Iterable[str]
) -> str | None:
    """The other agent the window gives the fact's relation to, else None.

    Args:
        text: The window (1–3 sentences).
        relation: Stems of the relation's content words (with their synonyms).
        agent: Content stems of who does it in the fact (an active fact's subject, a
            passive fact's object).
        patient: Content stems of what it is done to (the other of the two).
    """
    return _other_agent(text, frozenset(relation), frozenset(agent), frozenset(patient))


def agent_of_fact(
    text: str,
    words: list[str],
    relation: Iterable[str],
    subject: Iterable[str],
    obj: Iterable[str],
) -> str | None:
    """Another "by" agent of the fact's relation in ``text`` (:func:`other_agent`), else None.

    An active fact's agent is its subject; a passive one's ("was directed by") its object;
    a passive without "by" ("was founded in") names no agent to check.

    Args:
        text: The window.
        words: The relation's words as written ("was directed by").
        relation: Stems of the relation's content words (with their synonyms).
        subject: Content stems of the fact's subject.
        obj: Content stems of the fact's object.
    """
    roles = _agent_and_patient(words, subject, obj)
    return other_agent(text, relation, *roles) if roles else None


def patient_of_fact(
    text: str,
    words: list[str],
    relation: Iterable[str],
    subject: Iterable[str],
    obj: Iterable[str],
) -> str | None:
    """Another patient of the fact's agent in ``text`` (:func:`other_patient`), else None.

    The fact's agent and patient are read as :func:`agent_of_fact` reads them; a passive
    without "by" names no agent.
    """
    roles = _agent_and_patient(words, subject, obj)
    return other_patient(text, relation, *roles) if roles else None


def _agent_and_patient(
    words: list[str], subject: Iterable[str], obj: Iterable[str]
) -> tuple[Iterable[str], Iterable[str]] | None:
    """The fact's agent and patient: its subject and object, swapped after "by".

    None for a passive without "by" ("was founded in"), which names no agent to check.
    """
    lowered = [w.lower() for w in words]
    if lowered and lowered[-1] == "by":
        return obj, subject
    if lowered and lowered[0] in _BE:
        return None
    return subject, obj


@functools.lru_cache(maxsize=4096)
def _other_agent(
    text: str, relation: frozenset[str], agent: frozenset[str], patient: frozenset[str]
) -> str | None:
    """:func:`other_agent`, remembered: one window is asked for each fact cut from a claim."""
    others: list[str] = []
    for verb in _relation_verbs(text, relation, agent, patient):
        by = [c for c in verb.children if c.dep_ == "agent"]
        if not by:
            if _active_own(verb, agent, patient):
                return None
            doer = _active_other(verb, agent, patient)
            if doer is not None:
                others.append(doer)
            continue
        names = [g for c in by for g in c.children if g.dep_ == "pobj"]
        if not names:
            continue
        if _reversed(verb, agent, patient, {stem(t.text) for n in names for t in _named(n)}):
            # "The Danube … It is joined by the Inn": the fact's agent is what it is done to.
            others.append(" ".join(t.text for t in _name(names[0])))
            continue
        if not _patient_is(verb, patient):
            continue
        words = {stem(t.text) for n in names for t in _named(n)}
        if words & agent or any(n.pos_ == "PRON" for n in names):
            return None
        others.append(" ".join(t.text for t in _name(names[0])))
    return others[0] if others else None


def _name(token: SpacyToken) -> list[SpacyToken]:
    """The words of the name ``token`` heads, its conjuncts included, asides left out."""
    words = [token]
    for child in token.children:
        if child.dep_ not in _ASIDES:
            words.extend(_name(child))
    return sorted(words, key=lambda t: t.i)


def _named(token: SpacyToken) -> list[SpacyToken]:
    """The words naming ``token``: its name, and the name a description puts beside it.

    "by the Scottish scientist Alexander Fleming" heads the agent with "scientist" and
    gives the name as its apposition: both stand for one agent, Fleming.
    """
    words = _name(token)
    if token.pos_ != "PROPN":
        for child in token.children:
            if child.dep_ == "appos" and child.pos_ == "PROPN":
                words += _name(child)
    return words


def _patient_is(verb: SpacyToken, patient: frozenset[str]) -> bool:
    """Whether what ``verb`` is done to is the fact's patient (or a pronoun for it)."""
    if verb.dep_ == "acl":
        heads = [verb.head]
    else:
        heads = [c for c in verb.children if c.dep_ == "nsubjpass"]
        if not heads and verb.dep_ == "conj":
            heads = [c for c in verb.head.children if c.dep_ == "nsubjpass"]
    for head in heads:
        if head.text.lower() in _STANDS_IN:
            if head.head.dep_ == "relcl":
                head = head.head.head
            else:
                return True
        if {stem(t.text) for t in _name(head)} & patient:
            return True
    return False


def _reversed(
    verb: SpacyToken, agent: frozenset[str], patient: frozenset[str], by: set[str]
) -> bool:
    """Whether the passive ``verb`` is done to the fact's agent, not its patient.

    A sentence-opening pronoun ("It is fed by …") stands for the subject of the sentence
    before it, as a reader takes it. A window that opens with the pronoun stands for the
    one it is cited for: its passive is done by ``by`` (the agent's words), so when they
    hold the patient's own name words ("… by the Blue Nile" for "The Nile feeds the Blue
    Nile") the roles are the other way round.
    """
    heads = [c for c in verb.children if c.dep_ == "nsubjpass"]
    if not heads:
        return False
    head = heads[0]
    sentence = head.sent
    if head.pos_ == "PRON" and head.i == sentence.start == 0:
        own = patient - agent
        return bool(own) and own <= by and not (agent - patient) & by
    if head.pos_ == "PRON" and head.i == sentence.start and sentence.start > 0:
        before = head.doc[sentence.start - 1].sent
        found = [t for t in before.root.children if t.dep_ in ("nsubj", "nsubjpass")]
        if not found or found[0].pos_ == "PRON":
            return False
        head = found[0]
    words = {stem(t.text) for t in _name(head)}
    if words == agent != patient:
        return True  # "The Nile … It is fed by the Blue Nile": the agent's name, whole
    return bool(words & (agent - patient)) and not words & (patient - agent)


def _active_other(verb: SpacyToken, agent: frozenset[str], patient: frozenset[str]) -> str | None:
    """The other name that does ``verb`` actively to the fact's patient, if any.

    "Ernest Rutherford discovered the atomic nucleus" for "… was discovered by J. J.
    Thomson"; "the telephone, which Alexander Graham Bell had patented" for "Thomas Edison
    patented the telephone" (a relative pronoun stands for the noun its clause describes).
    Only a proper name counts as another doer: a pronoun or a description may be the
    fact's agent.
    """
    objects = [c for c in verb.children if c.dep_ in _OBJECTS]
    if not any(_is_patient(o, verb, patient) for o in objects):
        return None
    for doer in (c for c in verb.children if c.dep_ in _ACTIVE_SUBJECTS):
        if doer.pos_ != "PROPN":
            continue
        words = _name(doer)
        if {stem(t.text) for t in words} & agent:
            return None
        return " ".join(t.text for t in words)
    return None


def _is_patient(token: SpacyToken, verb: SpacyToken, patient: frozenset[str]) -> bool:
    """Whether ``token``, an object of ``verb``, is the fact's patient (or a relative for it)."""
    if token.tag_ in _RELATIVE_TAGS and verb.dep_ == "relcl":
        token = verb.head
    return bool({stem(t.text) for t in _name(token)} & patient)


_RELATIVE_TAGS = frozenset({"WDT", "WP"})


def other_patient(
    text: str, relation: Iterable[str], agent: Iterable[str], patient: Iterable[str]
) -> str | None:
    """What the window says the fact's agent did instead, when its patient stands apart.

    "Insulin was discovered in 1921. Alexander Fleming discovered penicillin in 1928" holds
    "discovered", "Insulin" and "Alexander Fleming", yet Fleming's discovery is penicillin
    and no one is said to have discovered insulin: the conjunction is not "Insulin was
    discovered by Alexander Fleming". The reader finds an occurrence of the relation's verb
    whose agent (an active subject, a passive's "by" agent) is the fact's and whose patient
    (an active object, a passive subject) is another noun, while the fact's patient is the
    patient of another occurrence only. A pronoun patient may be the fact's and decides
    nothing, nor does a window that never writes the fact's patient so (a paraphrase is the
    judge's to read).

    Args:
        text: The window (1–3 sentences).
        relation: Stems of the relation's content words (with their synonyms).
        agent: Content stems of who does it in the fact.
        patient: Content stems of what it is done to.
    """
    return _other_patient(text, frozenset(relation), frozenset(agent), frozenset(patient))


@functools.lru_cache(maxsize=4096)
def _other_patient(
    text: str, relation: frozenset[str], agent: frozenset[str], patient: frozenset[str]
) -> str | None:
    """:func:`other_patient`, remembered."""
    other: str | None = None
    patient_apart = False
    for verb in _relation_verbs(text, relation, agent, patient):
        if not verb.tag_.startswith("VB"):
            continue
        doers = [g for c in verb.children if c.dep_ == "agent" for g in c.children]
        doers += [c for c in verb.children if c.dep_ in _ACTIVE_SUBJECTS] or _shared(verb)
        done = [c for c in verb.children if c.dep_ in _OBJECTS or c.dep_ == "nsubjpass"]
        if verb.dep_ == "acl":
            done.append(verb.head)
        ours = [d for d in done if _is_patient(d, verb, patient)]
        by_agent = any({stem(t.text) for t in _named(d)} & agent for d in doers)
        if by_agent and (ours or any(d.pos_ == "PRON" for d in done)):
            return None  # the agent does it to the patient (or to a pronoun that may be it)
        if ours and any(d.pos_ == "PRON" for d in doers):
            return None  # a pronoun ("by her") may be the agent
        if by_agent and done:
            other = other or " ".join(t.text for t in _name(done[0]))
        elif ours:
            patient_apart = True
    return other if patient_apart else None


def _relation_verbs(
    text: str, relation: frozenset[str], agent: frozenset[str], patient: frozenset[str]
) -> list[SpacyToken]:
    """The words of ``text``'s parse that write the relation; none when a part is empty."""
    if not relation or not agent or not patient or not text.strip():
        return []
    from triqua.nlp.clauses import window_parse  # spaCy, loaded when asked

    return [verb for verb in window_parse(text) if stem(verb.text) in relation]


def _active_own(verb: SpacyToken, agent: frozenset[str], patient: frozenset[str]) -> bool:
    """Whether ``verb`` states the fact actively: the fact's agent does it to its patient."""
    subjects = [c for c in verb.children if c.dep_ in _ACTIVE_SUBJECTS]
    objects = [c for c in verb.children if c.dep_ in _OBJECTS]
    does = any({stem(t.text) for t in _name(s)} & agent for s in subjects)
    return does and any({stem(t.text) for t in _name(o)} & patient for o in objects)


def _shared(verb: SpacyToken) -> list[SpacyToken]:
    """The subject an active verb without one shares with the verb it hangs on.

    "Brazil beat Germany 2-0 in the final to win the 2002 World Cup": "to win" has no
    subject of its own, and Brazil, the subject of "beat", is who won; so too a coordinated
    verb ("Brazil beat Germany and won the cup"). A passive verb shares no doer.
    """
    if verb.dep_ not in _SHARING or any(c.dep_ in _OWN_SUBJECTS for c in verb.children):
        return []
    return [c for c in verb.head.children if c.dep_ in _ACTIVE_SUBJECTS]


#: How a verb without a subject hangs on the verb whose subject it shares.
_SHARING = frozenset({"xcomp", "advcl", "conj"})
_OWN_SUBJECTS = frozenset({"nsubj", "nsubjpass", "csubj", "auxpass", "agent", "expl"})
