"""Clause rules of the offline decomposer: one parsed English sentence in, TriQua facts out.

The rules read spaCy's dependency labels (ClearNLP style, as produced by ``en_core_web_sm``):
each verb clause gives a base triple ``(subject, relation, object)`` whose relation keeps
auxiliaries, negation, particles and the preposition of a prepositional object ("was born
in"); its adverbials become qualifiers (``decomposer_qualifiers``); coordinated subjects,
verbs and objects split into separate facts that share those qualifiers; appositives and
relative clauses become facts of their own. Pronouns are replaced through a caller-supplied
lookup, so this module keeps no state between sentences.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from spacy.tokens import Span, Token

from triqua.engines.offline.decomposer_hygiene import IDIOMS, POSSESSIVES, is_junk_argument
from triqua.engines.offline.decomposer_labels import LOCATION, POINT_IN_TIME
from triqua.engines.offline.decomposer_phrases import (
    Refer,
    after_comma,
    is_concrete,
    is_place,
    is_pronoun,
    is_quantity,
    is_time,
    noun_phrase,
    render,
    substitute_relative,
)
from triqua.engines.offline.decomposer_qualifiers import (
    Alternatives,
    child_qualifiers,
    is_qualifier_prep,
    main_prep,
    marker_tokens,
    opens_range,
    prep_object,
    prep_qualifiers,
)

MAX_SENTENCE_TOKENS = 120
"""Longer sentences are skipped: their parses are unreliable and their facts unusable."""
MAX_VARIANTS = 8
"""Most facts one clause splits into over its coordinated qualifier values."""

_SUBJECT_DEPS = {"nsubj", "nsubjpass"}
_PREDICATE_DEPS = {"ROOT", "conj", "relcl", "advcl", "ccomp", "parataxis", "acl"}
_RELATIVE_SUBJECTS = {"who", "which", "that"}
_SPEAKER_WORDS = {"i", "me", "my", "we", "us", "our", "you", "your", "yourself"}
_DEICTIC_WORDS = {"this", "that", "these", "those", "what", "which", "who", "whom", "there"}
_CONJUNCT_POS = {"NOUN", "PROPN", "NUM", "PRON", "ADJ", "X"}
# Evaluative adjectives: a complement built only from these states an opinion, not a fact.
_SUBJECTIVE = {
    "amazing", "awesome", "awful", "bad", "beautiful", "best", "boring", "brilliant",
    "charming", "cool", "delightful", "enjoyable", "excellent", "exciting", "fabulous",
    "fantastic", "fascinating", "favorite", "favourite", "fine", "fun", "glad", "good",
    "gorgeous", "great", "happy", "helpful", "horrible", "impressive", "incredible",
    "interesting", "lovely", "magnificent", "marvelous", "marvellous", "nice", "perfect",
    "pleasant", "remarkable", "sad", "sorry", "splendid", "stunning", "superb", "terrible",
    "unfortunate", "wonderful", "worst",
}  # fmt: skip

Positioned = tuple[int, Alternatives]
"""A qualifier slot (its alternatives) with the index of the token it came from."""


@dataclass(frozen=True)
class RawFact:
    """A fact as plain strings, before it is tied to a span and a chunk."""

    subject: str
    relation: str
    object: str
    qualifiers: tuple[tuple[str, str], ...] = ()


@dataclass
class _Predicate:
    """One verb clause: its verbs (with xcomp chain), relation words and object heads."""

    verbs: list[Token]
    relation: list[Token]
    objects: list[Token] = field(default_factory=list)
    used: set[int] = field(default_factory=set)
    phrase_object: bool = False
    pulled: list[Token] = field(default_factory=list)
    idiom: str = ""

    def relation_text(self) -> str:
        """The relation as written: an idiom's meaning replaces its verb words."""
        return " ".join(p for p in (self.idiom, render(self.relation, lower=True)) if p)


def extract_facts(sent: Span, refer: Refer) -> list[RawFact]:
    """Facts stated by one sentence; [] for questions, opinions and over-long sentences.

    When the clause rules find nothing in a declarative sentence, a clause-level fallback
    reads its main verb: (subject, verb phrase, rest of the predicate), where an intransitive
    verb gives an empty object ("Tilda Swinton acts." -> (Tilda Swinton, acts, "")).
    """
    if len(sent) > MAX_SENTENCE_TOKENS or sent.text.rstrip().endswith("?"):
        return []
    cache: dict[int, _Predicate] = {}
    fronted: dict[int, list[Positioned]] = {}
    facts: list[RawFact] = []
    for token in sent:
        if _is_predicate(token):
            facts += _clause_facts(token, refer, cache, fronted)
        if token.pos_ in {"NOUN", "PROPN", "PRON"}:
            for child in token.children:
                if child.dep_ == "appos":
                    facts += _appositive_facts(token, child, refer)
    facts = [f for f in facts if _is_clean(f)]
    if not facts:
        facts = [f for f in _fallback_facts(sent, refer, cache) if _is_clean(f)]
    return list(dict.fromkeys(facts))


def _is_clean(fact: RawFact) -> bool:
    """False for a fact built on a bare number, unit or determiner phrase."""
    return not (
        is_junk_argument(fact.subject, "subject") or is_junk_argument(fact.object, "object")
    )


def _fallback_facts(sent: Span, refer: Refer, cache: dict[int, _Predicate]) -> list[RawFact]:
    """The clause-level triple of a sentence the rules found nothing in.

    Reads the root verb (or a plural noun the tagger took for the verb, as in "The Danube
    empties into ..."), its subject (or the name left of it when the parser attached that
    name to the verb as a compound), its verb phrase with particles and negation, and the
    rest of the predicate. Opinions and unresolved pronouns still give nothing.
    """
    root = sent.root
    if not _is_finite_root(root):
        return []
    heads = _subject_heads(root)
    if heads:
        subjects = [_argument_text(head, refer, None) for head in heads]
    else:
        left = _misparsed_subject(root)
        subjects = [render(left, refer)] if left else []
    if not subjects or not all(subjects):
        return []
    pred = _predicate(root, cache)
    if _is_opinion(pred):
        return []
    objects = [_argument_text(head, refer, pred) for head in pred.objects]
    if not all(objects):
        return []
    slots = _tidy(_clause_qualifiers(pred, refer, cache), [o for o in objects if o])
    relation = pred.relation_text()
    return [
        RawFact(subject, relation, obj or "", quals)
        for subject in subjects
        if subject
        for obj in objects or [""]
        for quals in _variants(slots)
    ]


def _is_finite_root(root: Token) -> bool:
    """True for a verb root, or a verbless sentence's plural-noun root after a noun (a mistag).

    "The Danube empties into the Black Sea" is tagged with "empties" as a noun headed by
    "Danube"; the noun reads as the verb when a prepositional phrase or object follows it.
    """
    if root.pos_ in {"VERB", "AUX"}:
        return root.tag_ not in {"VBG", "TO"} or any(
            c.dep_ in {"aux", "auxpass"} for c in root.children
        )
    return (
        root.pos_ == "NOUN"
        and root.tag_ == "NNS"
        and root.is_lower
        and root.i > root.sent.start
        and root.doc[root.i - 1].pos_ in {"PROPN", "NOUN"}
        and root.doc[root.i - 1].dep_ in {"compound", "amod", "nmod"}
        and root.doc[root.i - 1].head.i == root.i
        and not any(t.pos_ in {"VERB", "AUX"} for t in root.sent)
        and any(c.dep_ in {"prep", "dobj"} and c.i > root.i for c in root.children)
    )


def _misparsed_subject(root: Token) -> list[Token]:
    """The noun phrase left of a subjectless root that the parser attached to it as a modifier."""
    if any(c.dep_ in {"nsubj", "nsubjpass", "expl", "csubj"} for c in root.children):
        return []
    left = [c for c in root.lefts if c.dep_ in {"compound", "det", "amod", "nmod", "npadvmod"}]
    if not left or not any(t.pos_ in {"PROPN", "NOUN"} for c in left for t in c.subtree):
        return []
    return [t for c in left for t in c.subtree]


def _variants(slots: list[Alternatives]) -> list[tuple[tuple[str, str], ...]]:
    """One qualifier tuple per combination of coordinated values (at most ``MAX_VARIANTS``)."""
    return list(itertools.islice(itertools.product(*slots), MAX_VARIANTS)) if slots else [()]


# --------------------------------------------------------------------------- clauses


def _is_predicate(token: Token) -> bool:
    if token.pos_ not in {"VERB", "AUX"} or token.dep_ not in _PREDICATE_DEPS:
        return False
    if token.dep_ == "conj":
        return token.head.pos_ in {"VERB", "AUX"}
    if token.dep_ == "acl":
        return token.tag_ == "VBN" and after_comma(token)
    if token.dep_ == "relcl":  # "the first woman to win": a modal, not a stated fact
        return not any(c.dep_ == "aux" and c.tag_ == "TO" for c in token.children)
    return True


def _conjuncts(token: Token) -> list[Token]:
    out = [token]
    for child in token.children:
        if child.dep_ == "conj" and child.pos_ in _CONJUNCT_POS:
            out += _conjuncts(child)
    return out


def _verb_words(verb: Token) -> list[Token]:
    """The verb with its auxiliaries, negation and particles.

    A bare participle coordinated with an auxiliated verb shares its auxiliaries: in "was
    designed and built", "built" reads "was built".
    """
    words = [c for c in verb.children if c.dep_ in {"aux", "auxpass"} and c.i < verb.i]
    if not words and verb.dep_ == "conj" and verb.tag_ in {"VBN", "VBG"}:
        words = [c for c in verb.head.children if c.dep_ in {"aux", "auxpass"}]
    words += [c for c in verb.children if c.dep_ in {"neg", "prt"}]
    return [*words, verb]


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


def _predicate(verb: Token, cache: dict[int, _Predicate]) -> _Predicate:
    """The relation words and object heads of a verb clause (memoised per sentence).

    The main complement is, in order: direct object, attribute, adjective complement
    (with its preposition: "is known for"), passive agent, the verb of an open clausal
    complement ("wanted to become", followed further), or a prepositional object.
    """
    if verb.i in cache:
        return cache[verb.i]
    pred = _Predicate(verbs=[verb], relation=_verb_words(verb))
    idiom_prep = _apply_idiom(pred, verb)
    if idiom_prep is not None:  # "gave birth to X": X is the object
        obj = prep_object(idiom_prep, [idiom_prep])
        pred.objects = _conjuncts(obj) if obj is not None else []
        cache[verb.i] = pred
        return pred
    current = verb
    for _ in range(4):
        kids: dict[str, Token] = {}
        for child in current.children:
            if child.i not in pred.used:
                kids.setdefault(child.dep_, child)
        if "dobj" in kids:
            dobj = substitute_relative(kids["dobj"])
            pred.used.add(kids["dobj"].i)
            fold = _number_fold(dobj) if dobj is kids["dobj"] else None
            if fold is not None:
                pred.relation += fold[0]
            pred.objects = _conjuncts(fold[1] if fold is not None else dobj)
        elif "attr" in kids:
            pred.used.add(kids["attr"].i)
            pred.objects = _conjuncts(substitute_relative(kids["attr"]))
        elif "acomp" in kids:
            _adjective_complement(pred, kids["acomp"])
        elif "agent" in kids:
            agent = kids["agent"]
            obj = prep_object(agent, [agent])
            pred.used.add(agent.i)
            pred.relation.append(agent)
            pred.objects = _conjuncts(obj) if obj is not None else []
        elif "xcomp" in kids and kids["xcomp"].pos_ in {"VERB", "AUX"}:
            current = kids["xcomp"]
            pred.used.add(current.i)
            pred.relation += _verb_words(current)
            pred.verbs.append(current)
            continue
        else:
            _prepositional_complement(pred, current)
        break
    cache[verb.i] = pred
    return pred


def _apply_idiom(pred: _Predicate, verb: Token) -> Token | None:
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


def _adjective_complement(pred: _Predicate, acomp: Token) -> None:
    pred.used.add(acomp.i)
    prep = next((c for c in acomp.rights if c.dep_ == "prep"), None)
    markers = marker_tokens(prep) if prep is not None else []
    obj = prep_object(prep, markers) if prep is not None else None
    if obj is not None and obj.dep_ != "pcomp":
        pred.relation += [acomp, *markers]
        pred.objects = _conjuncts(obj)
    else:
        pred.objects, pred.phrase_object = [acomp], True


def _prepositional_complement(pred: _Predicate, verb: Token) -> None:
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
        pred.objects = _conjuncts(obj)


def _subject_heads(verb: Token, depth: int = 0) -> list[Token]:
    """Subject heads of a clause, inherited when the clause has none of its own.

    A coordinated verb inherits from the verb it joins; a relative or participle clause
    takes the noun it describes.
    """
    for child in verb.children:
        if child.dep_ in _SUBJECT_DEPS:
            if child.lower_ in _RELATIVE_SUBJECTS and verb.dep_ == "relcl":
                return _host_heads(verb.head)
            return _conjuncts(child)
    if depth > 3:
        return []
    if verb.dep_ == "conj" and verb.head.pos_ in {"VERB", "AUX"}:
        return _subject_heads(verb.head, depth + 1)
    if verb.dep_ in {"relcl", "acl"}:
        return _host_heads(verb.head)
    if (
        verb.dep_ == "advcl"
        and verb.i < verb.head.i
        and verb.tag_ in {"VBN", "VBG"}
        and not any(c.dep_ == "mark" for c in verb.children)
    ):
        return _subject_heads(verb.head, depth + 1)
    return []


def _host_heads(noun: Token) -> list[Token]:
    """The entity a relative clause describes: its noun, or the subject of "X is a noun who".

    A comma clause after a noun inside a prepositional phrase ("a figure in Roman society,
    known for ...") describes the noun the phrase hangs on, not the phrase's object.
    """
    while noun.dep_ == "pobj" and after_comma_clause(noun) and noun.head.head.pos_ == "NOUN":
        noun = noun.head.head
    if noun.dep_ == "attr" and noun.head.pos_ in {"AUX", "VERB"}:
        return _subject_heads(noun.head, 4)
    return [noun]


def after_comma_clause(noun: Token) -> bool:
    """True when ``noun`` carries a participle clause set off by a comma."""
    return any(c.dep_ == "acl" and after_comma(c) for c in noun.children)


# --------------------------------------------------------------------------- qualifiers


def _clause_qualifiers(
    pred: _Predicate, refer: Refer, cache: dict[int, _Predicate]
) -> list[Positioned]:
    out: list[Positioned] = []
    for verb in pred.verbs:
        children = [c for c in verb.children if c.i not in pred.used]
        range_open = opens_range(children)
        for child in children:
            found = child_qualifiers(child, refer, range_open=range_open)
            out += [(child.i, alts) for alts in found]
    for prep in pred.pulled:
        out += [(prep.i, alts) for alts in prep_qualifiers(prep, refer, range_open=False)]
    if pred.verbs[0].dep_ == "relcl":
        out += _host_qualifier(pred.verbs[0], refer, cache)
    return out


def _host_qualifier(clause: Token, refer: Refer, cache: dict[int, _Predicate]) -> list[Positioned]:
    """For "X, where he won Y": the qualifier that ties the clause to the fact about X."""
    word = next(
        (c for c in clause.children if c.dep_ == "advmod" and c.lower_ in {"where", "when"}), None
    )
    if word is None:
        return []
    host = clause.head
    value = render(noun_phrase(host), refer)
    if word.lower_ == "when" or is_time(host):
        return [(host.i, ((POINT_IN_TIME, value),))]
    governor = host.head.head if host.dep_ == "pobj" else host.head
    if governor.pos_ in {"VERB", "AUX"} and governor.i != host.i:
        pred = _predicate(governor, cache)
        if host in pred.objects:
            return [(host.i, ((pred.relation_text(), value),))]
    return [(host.i, ((LOCATION, value),))]


def _tidy(qualifiers: list[Positioned], objects: list[str]) -> list[Alternatives]:
    """Qualifier slots in text order, without repeats, copies of the object or junk values."""
    out: list[Alternatives] = []
    seen: set[tuple[str, str]] = set()
    for _, alternatives in sorted(qualifiers, key=lambda q: q[0]):
        kept = tuple(
            (label, value)
            for label, value in alternatives
            if value
            and value not in objects
            and (label, value) not in seen
            and not is_junk_argument(value, "object")
        )
        seen.update(kept)
        if kept:
            out.append(kept)
    return out


# --------------------------------------------------------------------------- facts


def _clause_facts(
    verb: Token, refer: Refer, cache: dict[int, _Predicate], fronted: dict[int, list[Positioned]]
) -> list[RawFact]:
    if any(c.dep_ == "expl" for c in verb.children):
        return _existential_facts(verb, refer)
    heads = _subject_heads(verb)
    if not heads:
        return []
    pred = _predicate(verb, cache)
    subjects = [_argument_text(head, refer, pred) for head in heads]
    objects = [_argument_text(head, refer, pred) for head in pred.objects]
    if not all(subjects) or not all(objects):
        return []
    qualifiers = _clause_qualifiers(pred, refer, cache)
    fronted[verb.i] = [q for q in qualifiers if q[0] < verb.i]
    if verb.dep_ == "conj":
        qualifiers += fronted.get(verb.head.i, [])
    slots = _tidy(qualifiers, [o for o in objects if o])
    if (not objects and not slots) or _is_opinion(pred):
        return []
    relation = pred.relation_text()
    return [
        RawFact(subject, relation, obj or "", quals)
        for subject in subjects
        if subject
        for obj in objects or [""]
        for quals in _variants(slots)
    ]


def _argument_text(head: Token, refer: Refer, pred: _Predicate | None) -> str | None:
    """Text of a subject or object, or ``None`` when it names nothing checkable."""
    if pred is not None and pred.phrase_object and head in pred.objects:
        return render(head.subtree, refer) or None
    if head.lower_ in _SPEAKER_WORDS:
        return None
    if (is_pronoun(head) or head.lower_ in _DEICTIC_WORDS) and refer(head) is None:
        return None
    drop = [c for c in head.children if c.dep_ == "prep" and is_qualifier_prep(c)]
    if pred is not None:
        pred.pulled += drop
    text = render(noun_phrase(head, drop), refer)
    if head.pos_ == "PROPN" and text == head.text:  # "Curie" alone: the text's "Marie Curie"
        text = refer(head) or text
    return text or None


def _is_opinion(pred: _Predicate) -> bool:
    """True when the complement is evaluative and carries no named or numeric content."""
    words = list(pred.relation) + [t for head in pred.objects for t in head.subtree]
    if not any(t.lower_ in _SUBJECTIVE for t in words):
        return False
    return not any(is_concrete(t) for head in pred.objects for t in head.subtree)


def _appositive_facts(noun: Token, appos: Token, refer: Refer) -> list[RawFact]:
    """An appositive states a property: "Marie Curie, a physicist" is a physicist."""
    subject = _argument_text(noun, refer, None)
    obj = render(noun_phrase(appos), refer)
    if subject is None or not obj or any(t.lower_ in _SUBJECTIVE for t in appos.subtree):
        return []
    if is_quantity(noun) or is_quantity(appos):  # "100 degrees Celsius": one measure
        return []
    if is_place(noun) or is_place(appos):  # "Pensacola, Florida": a place in a larger one
        return []
    if noun.dep_ == "pobj" and appos.pos_ == "PROPN":  # "in films such as A, B": a list
        return []
    return [RawFact(subject, "is", obj)]


def _existential_facts(verb: Token, refer: Refer) -> list[RawFact]:
    """An existential states a possession: "There are 20 regions in Italy" (Italy, has, ...)."""
    attr = next((c for c in verb.children if c.dep_ in {"attr", "dobj"}), None)
    if attr is None:
        return []
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
