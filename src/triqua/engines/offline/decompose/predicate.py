"""Verb clauses for the offline decomposer: a clause's relation words, objects and subjects.

A clause's relation keeps auxiliaries, negation, particles and the preposition of a
prepositional object ("was born in"); an idiom's words give way to its meaning ("came into
the world" -> "was born"). Its subjects are its own or, for coordinated verbs and relative or
participle clauses, inherited from the verb or noun it hangs on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from triqua.core.reading.modifiers import relation_adverbs
from triqua.core.reading.restrictors.words import WORDS
from triqua.engines.offline.decompose.changes import change_amount
from triqua.engines.offline.decompose.hygiene import IDIOMS, POSSESSIVES
from triqua.engines.offline.decompose.phrases import (
    after_comma,
    is_quantity,
    render,
    substitute_relative,
)
from triqua.engines.offline.decompose.qualifiers import main_prep, marker_tokens, prep_object
from triqua.engines.offline.decompose.titles import one_title
from triqua.nlp.tokens import Token

_SUBJECT_DEPS = {"nsubj", "nsubjpass"}
_PREDICATE_DEPS = {"ROOT", "conj", "relcl", "advcl", "ccomp", "parataxis", "acl"}
_RELATIVE_SUBJECTS = {"who", "which", "that"}
#: A clausal subject with one of these dependents is a clause, not a misread noun phrase.
_CLAUSE_MARKS = {"nsubj", "nsubjpass", "mark", "aux", "auxpass", "neg", "expl"}
_CONJUNCT_POS = {"NOUN", "PROPN", "NUM", "PRON", "ADJ", "X"}


@dataclass
class Predicate:
    """One verb clause: its verbs (with xcomp chain), relation words and object heads."""

    verbs: list[Token]
    relation: list[Token]
    objects: list[Token] = field(default_factory=list)
    used: set[int] = field(default_factory=set)
    phrase_object: bool = False
    pulled: list[Token] = field(default_factory=list)
    idiom: str = ""
    marker: str = ""

    def relation_text(self) -> str:
        """The relation as written: an idiom's meaning replaces its verb words.

        ``marker`` is a preposition the sentence leaves out ("rose 62%": "rose by").
        """
        words = (self.idiom, render(self.relation, lower=True), self.marker)
        return " ".join(p for p in words if p)


def is_predicate(token: Token) -> bool:
    """True for a verb that heads a clause stating a fact (not a "to" modal or a bare acl)."""
    if token.pos_ not in {"VERB", "AUX"} or token.dep_ not in _PREDICATE_DEPS:
        return False
    if token.dep_ == "conj":
        return token.head.pos_ in {"VERB", "AUX"}
    if token.dep_ == "acl":
        return token.tag_ == "VBN" and after_comma(token)
    if token.dep_ == "relcl":  # "the first woman to win": a modal, not a stated fact
        return not any(c.dep_ == "aux" and c.tag_ == "TO" for c in token.children)
    return True


def conjuncts(token: Token) -> list[Token]:
    """``token`` and the nouns, numbers or adjectives coordinated with it ("A, B and C")."""
    out = [token]
    for child in token.children:
        if child.dep_ == "conj" and child.pos_ in _CONJUNCT_POS and not one_title(token, child):
            out += conjuncts(child)
    return out


def _verb_words(verb: Token) -> list[Token]:
    """The verb with its auxiliaries, negation, particles and claim-changing adverbs.

    A particle is "up" of "gave up"; an adverb that changes the claim is one of
    ``core.reading.modifiers`` ("has yet to win", "was positively reviewed").

    A bare participle coordinated with an auxiliated verb shares its auxiliaries: in "was
    designed and built", "built" reads "was built".
    """
    words = [c for c in verb.children if c.dep_ in {"aux", "auxpass"} and c.i < verb.i]
    if not words and verb.dep_ == "conj" and verb.tag_ in {"VBN", "VBG"}:
        words = [c for c in verb.head.children if c.dep_ in {"aux", "auxpass"}]
    words += [c for c in verb.children if c.dep_ in {"neg", "prt"}]
    # An adverb that changes the claim is the relation's ("has *yet* to win", "was
    # *positively* reviewed"): without it the fact says less than its sentence.
    words += [c for c in verb.children if c.dep_ == "advmod" and c.lower_ in relation_adverbs()]
    # A particle the parser reads as an adverb ("stepped *down* as CEO") is still the verb's.
    words += [
        c
        for c in verb.children
        if c.dep_ == "advmod" and c.i == verb.i + 1 and c.lower_ in _ADVERB_PARTICLES
    ]
    return [*words, verb]


#: Adverbs right after a verb that make a phrasal verb of it ("stepped down", "broke up").
_ADVERB_PARTICLES = frozenset({"down", "up", "out", "off", "away", "back"})


def _number_fold(dobj: Token) -> tuple[list[Token], Token] | None:
    """For "a population of 64.5 million": the words folded into the relation and the number."""
    if dobj.pos_ != "NOUN":
        return None
    for child in dobj.rights:
        if child.dep_ == "prep" and child.lower_ == "of":
            obj = next((c for c in child.children if c.dep_ == "pobj"), None)
            if obj is not None and is_quantity(obj):
                return [t for left in dobj.lefts for t in left.subtree] + [dobj, child], obj
    return None


def predicate(verb: Token, cache: dict[int, Predicate]) -> Predicate:
    """The relation words and object heads of a verb clause (memoised per sentence).

    The main complement is, in order: direct object, attribute, object predicate written as
    a title ("was elected President"), adjective complement (with its preposition: "is known for"),
    passive agent, the verb of an open clausal complement ("wanted to become", followed
    further), the object of a gerund after a preposition ("died before completing his
    Requiem"), or a prepositional object.
    """
    if verb.i in cache:
        return cache[verb.i]
    pred = Predicate(verbs=[verb], relation=_verb_words(verb))
    idiom_prep = _apply_idiom(pred, verb)
    if idiom_prep is not None:  # "gave birth to X": X is the object
        obj = prep_object(idiom_prep, [idiom_prep])
        pred.objects = conjuncts(obj) if obj is not None else []
        cache[verb.i] = pred
        return pred
    current = verb
    for _ in range(4):
        kids: dict[str, Token] = {}
        for child in current.children:
            if child.i not in pred.used:
                kids.setdefault(child.dep_, child)
        if "dobj" not in kids and current.pos_ == "NOUN" and "npadvmod" in kids:
            # A verb the tagger took for a plural noun ("Switzerland borders France") has
            # its object attached as an adverbial noun.
            kids["dobj"] = kids.pop("npadvmod")
        amount = change_amount(current, pred.used)
        if amount is not None:  # "rose 62%": (…, rose by, 62%)
            pred.used.add(amount.i)
            pred.marker = "by"
            pred.objects = [amount]
        elif "dobj" in kids:
            dobj = substitute_relative(kids["dobj"])
            pred.used.add(kids["dobj"].i)
            fold = _number_fold(dobj) if dobj is kids["dobj"] else None
            if fold is not None:
                pred.relation += fold[0]
            pred.objects = conjuncts(fold[1] if fold is not None else dobj)
        elif "attr" in kids:
            pred.used.add(kids["attr"].i)
            pred.objects = conjuncts(substitute_relative(kids["attr"]))
        elif "oprd" in kids and kids["oprd"].pos_ == "PROPN":
            # "was elected President of X": the office, written as a title, is the object
            pred.used.add(kids["oprd"].i)
            pred.objects = conjuncts(kids["oprd"])
        elif "acomp" in kids:
            _adjective_complement(pred, kids["acomp"])
        elif "agent" in kids:
            agent = kids["agent"]
            obj = prep_object(agent, [agent])
            pred.used.add(agent.i)
            pred.relation.append(agent)
            pred.objects = conjuncts(obj) if obj is not None else []
        elif (clausal := _clausal_object(current, kids)) is not None:
            pred.used.add(clausal.i)
            pred.phrase_object = clausal.dep_ == "ccomp"
            pred.objects = [clausal] if pred.phrase_object else conjuncts(clausal)
        elif "xcomp" in kids and kids["xcomp"].pos_ in {"VERB", "AUX"}:
            current = kids["xcomp"]
            pred.used.add(current.i)
            pred.relation += _verb_words(current)
            pred.verbs.append(current)
            continue
        elif main_prep(current, pred.used) is None and (
            gerund := _gerund_object(current, pred.used)
        ):
            _gerund_complement(pred, *gerund)
        else:
            _prepositional_complement(pred, current)
        break
    cache[verb.i] = pred
    return pred


def _clausal_object(verb: Token, kids: dict[str, Token]) -> Token | None:
    """A clausal complement of ``verb`` that is its object, if any.

    A noun the parser hangs on the verb as an open clausal complement ("invented printing
    in Strasbourg"), or a noun with a bare participle (:func:`_small_clause`: "saw the
    Analytical Engine built", the thing with its state); never a reporting verb's clause.
    """
    xcomp = kids.get("xcomp")
    if xcomp is not None and xcomp.pos_ == "NOUN" and verb.pos_ == "VERB":
        return xcomp
    ccomp = kids.get("ccomp")
    if ccomp is not None and verb.lower_ not in WORDS.reporting_verbs and _small_clause(ccomp):
        return ccomp
    return None


def _small_clause(verb: Token) -> bool:
    """True for a noun and a bare participle closing the clause: "the Analytical Engine built".

    No auxiliary, marker, negation or complement of its own: a clause that states its own
    fact ("that the engine was built", "the engine built cars") is none.
    """
    kids = {c.dep_ for c in verb.children}
    return (
        verb.pos_ == "VERB"
        and verb.tag_ in {"VBN", "VBD"}
        and "nsubj" in kids
        and not kids & _OWN_CLAUSE
        and max(t.i for t in verb.subtree) == verb.i
    )


#: What makes a complement clause state its own fact rather than a thing's state.
_OWN_CLAUSE = frozenset(
    {"aux", "auxpass", "mark", "neg", "dobj", "attr", "acomp", "prep", "advmod"}
)


def _apply_idiom(pred: Predicate, verb: Token) -> Token | None:
    """Replace an idiom's verb words by its meaning ("came into the world" -> "was born").

    Returns the idiom's closing preposition when it takes the object ("gave birth to").
    """
    doc = verb.doc
    for tail, meaning in IDIOMS.get(verb.lower_, []):
        end = verb.i + 1 + len(tail)
        if end > verb.sent.end:
            continue
        words = list(doc[verb.i + 1 : end])
        pairs = zip(tail, words, strict=True)
        if all(w == t.lower_ or (w == "*" and t.lower_ in POSSESSIVES) for w, t in pairs):
            if any(t.i not in {a.i for a in verb.subtree} for t in words):
                continue
            negation = [c for c in verb.children if c.dep_ == "neg"]
            pred.idiom = " ".join(["not", meaning] if negation else [meaning])
            pred.relation = []
            pred.used |= {t.i for t in words}
            for token in words:  # the phrase the idiom's words head is used up as well
                if token.dep_ in {"prep", "dobj", "prt", "pobj", "attr", "npadvmod"}:
                    pred.used.add(token.i)
            last = words[-1]
            return last if last.pos_ == "ADP" and last.dep_ in {"prep", "dative"} else None
    return None


def _gerund_object(verb: Token, used: set[int]) -> tuple[Token, Token, Token] | None:
    """A preposition, its gerund and the gerund's object, for a verb with no object of its own.

    "died before completing his Requiem": the act the preposition places beside the verb
    has the clause's only object, so the relation holds both verbs. Asked only when the
    verb has no prepositional object of its own ("focus on finding candidates" keeps its
    phrase object).
    """
    for prep in verb.children:
        if prep.dep_ != "prep" or prep.i in used or prep.i < verb.i:
            continue
        for gerund in prep.children:
            if gerund.dep_ == "pcomp" and gerund.tag_ == "VBG":
                obj = next((c for c in gerund.children if c.dep_ == "dobj"), None)
                if obj is not None:
                    return prep, gerund, obj
    return None


def _gerund_complement(pred: Predicate, prep: Token, gerund: Token, obj: Token) -> None:
    pred.used |= {prep.i, gerund.i, obj.i}
    pred.relation += [prep, *_verb_words(gerund)]
    pred.verbs.append(gerund)
    pred.objects = conjuncts(substitute_relative(obj))


def _adjective_complement(pred: Predicate, acomp: Token) -> None:
    pred.used.add(acomp.i)
    prep = next((c for c in acomp.rights if c.dep_ == "prep"), None)
    markers = marker_tokens(prep) if prep is not None else []
    obj = prep_object(prep, markers) if prep is not None else None
    if obj is not None and obj.dep_ != "pcomp":
        pred.relation += [acomp, *markers]
        pred.objects = conjuncts(obj)
    else:
        pred.objects, pred.phrase_object = [acomp], True


def _prepositional_complement(pred: Predicate, verb: Token) -> None:
    prep = main_prep(verb, pred.used)
    if prep is None:
        return
    markers = marker_tokens(prep)
    obj = prep_object(prep, markers)
    pred.used.add(prep.i)
    pred.relation += markers
    if obj is not None and obj.dep_ == "pcomp":
        pred.objects, pred.phrase_object = [obj], True
    elif obj is not None:
        pred.objects = conjuncts(obj)


def subject_heads(verb: Token, depth: int = 0) -> list[Token]:
    """Subject heads of a clause, inherited when the clause has none of its own.

    A coordinated verb inherits from the verb it joins; a relative or participle clause
    takes the noun it describes.
    """
    for child in verb.children:
        if child.dep_ in _SUBJECT_DEPS:
            if child.lower_ in _RELATIVE_SUBJECTS and verb.dep_ == "relcl":
                return _host_heads(verb.head)
            return conjuncts(child)
    phrase = next(
        (c for c in verb.children if c.dep_ in {"csubj", "csubjpass"} and _is_phrase(c)), None
    )
    if phrase is not None:
        return [phrase]
    if depth > 3:
        return []
    if verb.dep_ == "conj" and verb.head.pos_ in {"VERB", "AUX"}:
        return subject_heads(verb.head, depth + 1)
    if verb.dep_ in {"relcl", "acl"}:
        return _host_heads(verb.head)
    if (
        verb.dep_ == "advcl"
        and verb.i < verb.head.i
        and verb.tag_ in {"VBN", "VBG"}
        and not any(c.dep_ == "mark" for c in verb.children)
    ):
        return subject_heads(verb.head, depth + 1)
    return []


def _is_phrase(subject: Token) -> bool:
    """A clausal subject that is a noun phrase the parser took for a clause.

    "T2 Trainspotting is a film", "COLING 2020 was a conference", "Sinking sand is a
    phenomenon": the opening word read as a gerund heads a subject with no subject, marker
    or auxiliary of its own, so its words name the subject ("That he left surprised us"
    and "To err is human" are clauses and name none).
    """
    return subject.left_edge.i == subject.sent.start and not any(
        c.dep_ in _CLAUSE_MARKS for c in subject.children
    )


def _host_heads(noun: Token) -> list[Token]:
    """The entity a relative clause describes: its noun, or the subject of "X is a noun who".

    A comma clause after a noun inside a prepositional phrase ("a figure in Roman society,
    known for ...") describes the noun the phrase hangs on, not the phrase's object.
    """
    while noun.dep_ == "pobj" and after_comma_clause(noun) and noun.head.head.pos_ == "NOUN":
        noun = noun.head.head
    if noun.dep_ == "attr" and noun.head.pos_ in {"AUX", "VERB"}:
        return subject_heads(noun.head, 4)
    return [noun]


def after_comma_clause(noun: Token) -> bool:
    """True when ``noun`` carries a participle clause set off by a comma."""
    return any(c.dep_ == "acl" and after_comma(c) for c in noun.children)
