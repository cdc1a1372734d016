"""The clause-level fallback: a sentence the clause rules found nothing in, read by its root.

Misparses are read as what they mean: a plural noun the tagger took for the verb ("The
Danube empties into ..."), a verb swallowed into a noun compound, a quoted title as the
subject, a name attached to the verb as a modifier, and a reporting verb's clause.
"""

from __future__ import annotations

from dataclasses import replace

from triqua.core.reading.restrictors.words import WORDS
from triqua.engines.offline.decompose.arguments import (
    RawFact,
    argument_text,
    combine,
    is_opinion,
)
from triqua.engines.offline.decompose.phrases import Refer, render
from triqua.engines.offline.decompose.predicate import Predicate, predicate, subject_heads
from triqua.engines.offline.decompose.slots import clause_qualifiers, tidy
from triqua.engines.offline.labels import STATED_BY
from triqua.nlp.tokens import Span, Token

_OPEN_QUOTES = {'"', "“"}
_CLOSE_QUOTES = {'"', "”"}


def fallback_facts(sent: Span, refer: Refer, cache: dict[int, Predicate]) -> list[RawFact]:
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
        subjects = [argument_text(head, refer, None) for head in heads]
    else:
        left = quoted or _misparsed_subject(root)
        subjects = [render(left, refer)] if left else []
    if not subjects or not all(subjects):
        return []
    pred = predicate(root, cache)
    if quoted:  # the title's own words are no part of the relation
        inside = {t.i for t in quoted}
        pred = replace(pred, relation=[t for t in pred.relation if t.i not in inside])
    if is_opinion(pred):
        return []
    objects = [argument_text(head, refer, pred) for head in pred.objects]
    if not all(objects):
        return []
    slots = tidy(clause_qualifiers(pred, refer, cache), [o for o in objects if o])
    return combine(subjects, pred, objects, slots)


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
    sources = [argument_text(h, refer, None) for h in subject_heads(frame)]
    qualifiers = tuple((STATED_BY, source) for source in sources[:1] if source)
    return [RawFact(subject, relation, rest, qualifiers)]
