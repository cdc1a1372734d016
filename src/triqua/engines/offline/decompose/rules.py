"""Clause rules of the offline decomposer: one parsed English sentence in, TriQua facts out.

The rules read spaCy's dependency labels (ClearNLP style, as produced by ``en_core_web_sm``):
each verb clause gives a base triple ``(subject, relation, object)`` whose relation keeps
auxiliaries, negation, particles and the preposition of a prepositional object ("was born
in"); its adverbials become qualifiers (``qualifiers``); coordinated subjects,
verbs and objects split into separate facts that share those qualifiers; appositives and
relative clauses become facts of their own. Pronouns are replaced through a caller-supplied
lookup, so this module keeps no state between sentences. Clauses are read by
``predicate``, their qualifier slots by ``slots``; this module turns
them, appositives and existentials into facts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from spacy.tokens import Span, Token

from triqua.engines.offline.decompose.hygiene import is_junk_argument
from triqua.engines.offline.decompose.phrases import (
    Refer,
    is_concrete,
    is_place,
    is_pronoun,
    is_quantity,
    is_time,
    noun_phrase,
    render,
)
from triqua.engines.offline.decompose.predicate import (
    Predicate,
    is_predicate,
    predicate,
    subject_heads,
)
from triqua.engines.offline.decompose.qualifiers import (
    Alternatives,
    is_qualifier_prep,
    prep_object,
)
from triqua.engines.offline.decompose.slots import Positioned, clause_qualifiers, tidy, variants
from triqua.engines.offline.labels import STATED_BY
from triqua.engines.offline.verify.restrictors import WORDS

MAX_SENTENCE_TOKENS = 120
"""Longer sentences are skipped: their parses are unreliable and their facts unusable."""

_SPEAKER_WORDS = {"i", "me", "my", "we", "us", "our", "you", "your", "yourself"}
_DEICTIC_WORDS = {"this", "that", "these", "those", "what", "which", "who", "whom", "there"}
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


_OPEN_QUOTES = {'"', "“"}
_CLOSE_QUOTES = {'"', "”"}
_MAX_ASIDE_WORDS = 4
_NAME_DEPS = {"det", "amod", "compound", "poss", "nmod", "nummod", "punct"}
# Words opening a parenthesised remark rather than another name for the noun before it.
_ASIDE_MARKERS = {
    "also", "and", "approx", "around", "as", "at", "b", "born", "but", "by", "c",
    "ca", "cf", "d", "died", "e.g", "eg", "for", "formerly", "from", "i.e", "ie", "in",
    "including", "incl", "later", "n", "nee", "née", "not", "now", "of", "on", "or", "pictured",
    "r", "see", "sic", "since", "then", "to", "until", "was", "with",
}  # fmt: skip


@dataclass(frozen=True)
class RawFact:
    """A fact as plain strings, before it is tied to a span and a chunk."""

    subject: str
    relation: str
    object: str
    qualifiers: tuple[tuple[str, str], ...] = ()


def extract_facts(sent: Span, refer: Refer, asides: Mapping[int, str] = {}) -> list[RawFact]:
    """Facts stated by one sentence; [] for questions, opinions and over-long sentences.

    ``asides`` are the parenthesised asides cut from the sentence before it was parsed, by
    the character offset (in its doc) where each was cut; one right after a noun that
    defines it ("Copper (Cu)") gives the fact an appositive would: (Copper, is, Cu).

    When the clause rules find nothing in a declarative sentence, a clause-level fallback
    reads its main verb: (subject, verb phrase, rest of the predicate), where an intransitive
    verb gives an empty object ("Tilda Swinton acts." -> (Tilda Swinton, acts, "")).
    """
    if len(sent) > MAX_SENTENCE_TOKENS or sent.text.rstrip().endswith("?"):
        return []
    cache: dict[int, Predicate] = {}
    fronted: dict[int, list[Positioned]] = {}
    facts: list[RawFact] = []
    for token in sent:
        if is_predicate(token):
            facts += _clause_facts(token, refer, cache, fronted)
        if token.pos_ in {"NOUN", "PROPN", "PRON"}:
            for child in token.children:
                if child.dep_ == "appos":
                    facts += _appositive_facts(token, child, refer)
    facts = [f for f in facts if _is_clean(f)]
    if not facts:
        facts = [f for f in _fallback_facts(sent, refer, cache) if _is_clean(f)]
    if asides:
        for token in sent:
            aside = asides.get(token.idx + len(token.text))
            if aside is not None:
                facts += [f for f in _aside_facts(token, aside, refer) if _is_clean(f)]
    return list(dict.fromkeys(facts))


def _is_clean(fact: RawFact) -> bool:
    """False for a fact built on a bare number, unit or determiner phrase."""
    return not (
        is_junk_argument(fact.subject, "subject") or is_junk_argument(fact.object, "object")
    )


def _fallback_facts(sent: Span, refer: Refer, cache: dict[int, Predicate]) -> list[RawFact]:
    """The clause-level triple of a sentence the rules found nothing in.

    Reads the root verb (or a plural noun the tagger took for the verb, as in "The Danube
    empties into ..."), its subject (or the name left of it when the parser attached that
    name to the verb as a compound), its verb phrase with particles and negation, and the
    rest of the predicate. Opinions and unresolved pronouns still give nothing.
    """
    root = sent.root
    if not _is_finite_root(root):
        return _compound_verb_facts(sent, refer)
    reported = [c for c in root.children if c.dep_ == "ccomp"]
    if reported and root.lower_ in WORDS.reporting_verbs:
        # "Evidence suggests that ironworking began ...": what is checkable is the reported
        # clause; the frame alone, (evidence, suggests, ""), states nothing.
        return _reported_clause(root, reported[0], refer)
    heads = subject_heads(root)
    quoted = [] if heads else _quoted_subject(root)
    if heads:
        subjects = [_argument_text(head, refer, None) for head in heads]
    else:
        left = quoted or _misparsed_subject(root)
        subjects = [render(left, refer)] if left else []
    if not subjects or not all(subjects):
        return []
    pred = predicate(root, cache)
    if quoted:  # the title's own words are no part of the relation
        inside = {t.i for t in quoted}
        pred = replace(pred, relation=[t for t in pred.relation if t.i not in inside])
    if _is_opinion(pred):
        return []
    objects = [_argument_text(head, refer, pred) for head in pred.objects]
    if not all(objects):
        return []
    slots = tidy(clause_qualifiers(pred, refer, cache), [o for o in objects if o])
    return _combine(subjects, pred, objects, slots)


def _is_finite_root(root: Token) -> bool:
    """True for a verb root, or a verbless sentence's plural-noun root after a noun (a mistag).

    "The Danube empties into the Black Sea" is tagged with "empties" as a noun headed by
    "Danube"; the noun reads as the verb when a prepositional phrase or object follows it.
    The name before it may itself be mistagged as an adjective ("The Rhine empties ..."),
    and the object as an adverbial noun ("Switzerland borders France, ...").
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
        and _names_before(root.doc[root.i - 1])
        and root.doc[root.i - 1].dep_ in {"compound", "amod", "nmod"}
        and root.doc[root.i - 1].head.i == root.i
        and not any(t.pos_ in {"VERB", "AUX"} for t in root.sent)
        and any(c.dep_ in {"prep", "dobj", "npadvmod"} and c.i > root.i for c in root.children)
    )


def _names_before(token: Token) -> bool:
    """True for a noun or name, or a capitalised word the tagger took for an adjective."""
    return token.pos_ in {"PROPN", "NOUN"} or (
        token.pos_ == "ADJ" and token.text[:1].isupper() and token.i > token.sent.start
    )


def _compound_verb_facts(sent: Span, refer: Refer) -> list[RawFact]:
    """A verbless parse that swallowed a verb into a noun compound, read as a clause.

    "Copper displaces iron from its compounds" is tagged as one noun phrase with the plural
    noun "displaces" as a modifier of "iron"; such a lowercase plural between two nouns reads
    as the verb: (Copper, displaces, iron). Prepositional phrases after the object are left
    out rather than guessed at.
    """
    root = sent.root
    if root.pos_ not in {"NOUN", "PROPN"} or any(t.pos_ in {"VERB", "AUX"} for t in sent):
        return []
    doc = sent.doc
    for verb in root.lefts:
        if not (
            verb.tag_ == "NNS"
            and verb.is_lower
            and verb.dep_ in {"compound", "nmod"}
            and verb.i > sent.start
            and doc[verb.i - 1].pos_ in {"NOUN", "PROPN"}
            and doc[verb.i - 1].head.i == verb.i
        ):
            continue
        subject = render((t for t in verb.subtree if t.i < verb.i), refer)
        cut = {t.i for c in root.rights for t in c.subtree}
        obj = render(t for t in root.subtree if t.i > verb.i and t.i not in cut)
        if subject and obj:
            return [RawFact(subject, verb.text, obj)]
    return []


def _quoted_subject(root: Token) -> list[Token]:
    """A quoted title opening the sentence as the subject of a subjectless root.

    The parser reads a title with a verb in it ("Attention Is All You Need" was published
    in 2017) as a clause of its own; the quoted words, up to the root's auxiliaries, are
    the subject.
    """
    sent = root.sent
    first = sent[0]
    if first.text not in _OPEN_QUOTES:
        return []
    close = next((t for t in sent[1:] if t.text in _CLOSE_QUOTES and t.i < root.i), None)
    if close is None or close.i - first.i < 2:
        return []
    between = root.doc[close.i + 1 : root.i]
    if any(t.dep_ not in {"aux", "auxpass", "neg", "advmod"} for t in between):
        return []
    return list(root.doc[first.i : close.i + 1])


def _misparsed_subject(root: Token) -> list[Token]:
    """The noun phrase left of a subjectless root that the parser attached to it as a modifier."""
    if any(c.dep_ in {"nsubj", "nsubjpass", "expl", "csubj"} for c in root.children):
        return []
    left = [c for c in root.lefts if c.dep_ in {"compound", "det", "amod", "nmod", "npadvmod"}]
    if not left or not any(_names_before(t) for c in left for t in c.subtree):
        return []
    return [t for c in left for t in c.subtree]


def _clause_facts(
    verb: Token, refer: Refer, cache: dict[int, Predicate], fronted: dict[int, list[Positioned]]
) -> list[RawFact]:
    if any(c.dep_ == "expl" for c in verb.children):
        return _existential_facts(verb, refer)
    heads = subject_heads(verb)
    if not heads:
        return []
    pred = predicate(verb, cache)
    subjects = [_argument_text(head, refer, pred) for head in heads]
    objects = [_argument_text(head, refer, pred) for head in pred.objects]
    if not all(subjects) or not all(objects):
        return []
    qualifiers = clause_qualifiers(pred, refer, cache) + _frame(verb, refer)
    fronted[verb.i] = [q for q in qualifiers if q[0] < verb.i]
    if verb.dep_ == "conj":
        qualifiers += fronted.get(verb.head.i, [])
    slots = tidy(qualifiers, [o for o in objects if o])
    if (not objects and not slots) or _is_opinion(pred):
        return []
    return _combine(subjects, pred, objects, slots)


def _reported_clause(frame: Token, verb: Token, refer: Refer) -> list[RawFact]:
    """The clause a reporting verb reports, read by word order when the rules read nothing.

    (words before the clause's verb, its auxiliaries and verb, the rest of the clause), with
    the frame's subject as its ``stated by`` source; nothing when a part is missing.
    """
    words = [t for t in verb.subtree if t.dep_ != "mark" and not t.is_punct]
    first = min([t.i for t in verb.children if t.dep_ in ("aux", "auxpass", "neg")] + [verb.i])
    subject = render([t for t in words if t.i < first], refer)
    relation = render([t for t in words if first <= t.i <= verb.i], refer)
    rest = render([t for t in words if t.i > verb.i], refer)
    if not subject or not relation or not rest:
        return []
    sources = [_argument_text(h, refer, None) for h in subject_heads(frame)]
    qualifiers = tuple((STATED_BY, source) for source in sources[:1] if source)
    return [RawFact(subject, relation, rest, qualifiers)]


def _frame(verb: Token, refer: Refer) -> list[Positioned]:
    """Who states a reported clause: "The court held that the law was constitutional".

    The clause's fact keeps its frame as a ``stated by`` qualifier (the reporting verb's
    subject), so it is supported only where that source is said to state it.
    """
    head = verb.head
    if verb.dep_ != "ccomp" or head.i == verb.i or head.lower_ not in WORDS.reporting_verbs:
        return []
    sources = [_argument_text(h, refer, None) for h in subject_heads(head)]
    return [(head.i, ((STATED_BY, source),)) for source in sources[:1] if source]


def _combine(
    subjects: list[str | None],
    pred: Predicate,
    objects: list[str | None],
    slots: list[Alternatives],
) -> list[RawFact]:
    """One fact per subject, object and combination of qualifier values (no object: "")."""
    relation = pred.relation_text()
    return [
        RawFact(subject, relation, obj or "", quals)
        for subject in subjects
        if subject
        for obj in objects or [""]
        for quals in variants(slots)
    ]


def _argument_text(head: Token, refer: Refer, pred: Predicate | None) -> str | None:
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


def _is_opinion(pred: Predicate) -> bool:
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


def _aside_facts(noun: Token, aside: str, refer: Refer) -> list[RawFact]:
    """A short parenthesised name or gloss right after a noun defines it, like an appositive.

    Only a few words without digits, commas or a leading marker ("born", "see", "or") count:
    dates, measures, lists and remarks in parentheses state no identity. A noun inside a
    prepositional phrase is left out, as the appositive rule leaves out its listed names.
    """
    words = aside.split()
    if not words or len(words) > _MAX_ASIDE_WORDS or noun.pos_ not in {"NOUN", "PROPN"}:
        return []
    if any(ch.isdigit() or ch in ",;:=/" for ch in aside) or not aside[0].isalpha():
        return []
    if words[0].lower().rstrip(".") in _ASIDE_MARKERS or any(
        w.lower() in _SUBJECTIVE for w in words
    ):
        return []
    if is_quantity(noun) or is_place(noun) or is_time(noun) or _in_prep_phrase(noun):
        return []
    if (is_pronoun(noun) or noun.lower_ in _DEICTIC_WORDS) and refer(noun) is None:
        return []
    subject = render(_name_before(noun), refer)
    return [RawFact(subject, "is", aside)] if subject else []


def _in_prep_phrase(noun: Token) -> bool:
    """True when ``noun`` sits in a prepositional phrase of its clause ("of the ACL").

    Like a listed appositive, an aside there is left out: the name it defines ("the
    Association for Computational Linguistics (ACL)") cannot be told from the phrase around it.
    """
    for token in [noun, *noun.ancestors]:
        if token.pos_ in {"VERB", "AUX"}:
            return False
        if token.dep_ == "pobj":
            return True
    return False


def _name_before(noun: Token) -> list[Token]:
    """The words of ``noun``'s phrase up to it that name it ("Sodium chloride" of chloride).

    Stops at a lowercase plural modifier, which in a verbless parse is a swallowed verb
    ("Copper displaces iron (Fe)" names iron, not "Copper displaces iron").
    """
    tokens = [noun]
    for child in reversed(list(noun.lefts)):
        if child.dep_ not in _NAME_DEPS or (child.tag_ == "NNS" and child.is_lower):
            break
        tokens += list(child.subtree)
    return tokens


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
