"""The relations of a parsed sentence between its elements: the element graph's edges.

A relation joins two elements. A verb joins each of its subjects to each of its objects
and prepositional arguments (labelled by the verb, and the preposition when there is one);
a verb without a subject of its own takes the subject it shares ("born in Frankfurt, he
moved": "he"), the noun a relative or participial clause describes ("an inventor who
founded", "an actor born in"), or, when the sentence gives none, joins its arguments to its
first one. A preposition on a noun phrase joins it to its object ("the prize —for—
research"); an apposition and a possessive join the phrases they relate. A listed element
("X, Y and Z") takes the relation of the first in its list.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from triqua.nlp.tokens import Doc, Token

__all__ = ["SAME", "sentence_relations"]

#: The label of a relation saying two elements are one (a copula's complement, an
#: apposition): the element graph merges a description into the name it describes.
SAME = "="
_COPULAS = frozenset({"is", "was", "are", "were", "be", "been", "being", "'s", "’s", "am"})

_SUBJECTS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass"})
_OBJECTS = frozenset({"dobj", "attr", "oprd", "dative", "obj", "npadvmod"})
_PREPOSITIONS = frozenset({"prep", "agent"})
_PREP_OBJECTS = frozenset({"pobj"})
_LINK_TAGS = frozenset({"WDT", "WP", "WP$", "WRB"})
_DESCRIBING = frozenset({"relcl", "acl"})
_MAX_CLIMB = 8  # parse depth searched for a subject a clause shares

Relation = tuple[str, str, str]


def sentence_relations(doc: Doc, owner: dict[int, str]) -> list[Relation]:
    """Every relation of the sentence as ``(element, element, label)``, in parse order.

    Args:
        doc: the parsed sentence.
        owner: token index to the node of the element holding that token.
    """
    reader = _Reader(doc, owner)
    return reader.relations()


class _Reader:
    """Reads one parsed sentence's relations between the elements ``owner`` names."""

    def __init__(self, doc: Doc, owner: dict[int, str]) -> None:
        self.doc = doc
        self.owner = owner

    def node(self, token: Token) -> str | None:
        """The element holding ``token``, if any."""
        return self.owner.get(token.i)

    def predicate(self, token: Token) -> bool:
        """A verb (or a copula) outside every element: the word of a relation."""
        return (
            token.pos_ in ("VERB", "AUX")
            and token.i not in self.owner
            and token.dep_ not in _PREPOSITIONS
            and token.dep_ not in ("aux", "auxpass")
        )

    def listed(self, token: Token) -> list[str]:
        """The elements of ``token`` and of the words listed with it ("X, Y and Z")."""
        nodes = [self.node(t) for t in (token, *token.conjuncts)]
        return list(dict.fromkeys(n for n in nodes if n is not None))

    def attachment(self, token: Token) -> Token | None:
        """The nearest element or predicate at or above ``token`` in the parse."""
        for _ in range(_MAX_CLIMB):
            if self.node(token) is not None or self.predicate(token):
                return token
            if token.head.i == token.i:
                return None
            token = token.head
        return None

    def described(self, relative: Token, verb: Token) -> list[str]:
        """What a relative word ("who", "which") stands for: the noun its clause describes.

        When the parse hangs the clause on a verb instead (", which began in 1970" after a
        whole clause), the relative word stands for the element right before it.
        """
        if verb.dep_ in _DESCRIBING:
            described = self.attachment(verb.head)
            if described is not None and self.node(described) is not None:
                return [self.node(described) or ""]
        for token in reversed(self.doc[: relative.i]):
            if self.node(token) is not None:
                return [self.node(token) or ""]
            if not (token.is_punct or token.is_space):
                break
        return []

    def subjects(self, verb: Token, depth: int = 0) -> list[str]:
        """The elements a verb's relation starts from: its own subjects or a shared one."""
        own = [c for c in verb.children if c.dep_ in _SUBJECTS]
        if own:
            nodes: list[str] = []
            for subject in own:
                if subject.tag_ in _LINK_TAGS:
                    nodes.extend(self.described(subject, verb))
                    continue
                nodes.extend(self.listed(subject))
            return [n for n in nodes if n]
        if verb.head.i == verb.i or depth >= _MAX_CLIMB:
            return []
        above = self.attachment(verb.head)
        if above is None:
            return []
        found = self.node(above)
        if found is not None:
            return [found]  # the noun a clause describes, or an element it hangs from
        return self.subjects(above, depth + 1)

    def relations(self) -> list[Relation]:
        """Verb relations, then noun-phrase relations (prepositions, appositions, possessors)."""
        arguments: dict[int, list[tuple[str, str]]] = defaultdict(list)
        found: list[Relation] = []
        for token in self.doc:
            listed_on_verb = token.dep_ == "conj" and self.node(token) is not None
            if (token.dep_ in _OBJECTS or listed_on_verb) and self.predicate(token.head):
                # (a noun listed on a verb is one the parse failed to list with its siblings)
                same = token.dep_ == "attr" and token.head.lower_ in _COPULAS
                label = SAME if same else token.head.lower_
                for node in self.listed(token):
                    arguments[token.head.i].append((node, label))
            elif token.dep_ in ("ccomp", "xcomp") and self.predicate(token.head):
                # "helped Verona gain promotion": the verb relates its subject to the
                # subject of the clause it governs.
                for child in token.children:
                    if child.dep_ in _SUBJECTS and child.tag_ not in _LINK_TAGS:
                        for node in self.listed(child):
                            arguments[token.head.i].append((node, token.head.lower_))
            elif token.dep_ in _PREPOSITIONS or (token.dep_ == "conj" and token.pos_ == "ADP"):
                self._preposition(token, arguments, found)
            elif token.dep_ == "poss" and token.tag_ == "WP$":
                self._whose(token, found)
            elif token.dep_ in ("appos", "poss") and self.node(token) is not None:
                above = self.attachment(token.head)
                if above is not None and self.node(above) is not None:
                    label = SAME if token.dep_ == "appos" else "of"
                    found.append((self.node(above) or "", self.node(token) or "", label))
        for token in self.doc:
            if not self.predicate(token):
                continue
            args = arguments.get(token.i, [])
            subjects = self.subjects(token)
            if subjects:
                found.extend((s, node, label) for s in subjects for node, label in args)
                found.extend((subjects[0], other, "and") for other in subjects[1:] if not args)
            elif args:
                first, _ = args[0]
                found.extend((first, node, label) for node, label in args[1:])
        return found + self._listed_alone(found)

    def _listed_alone(self, found: list[Relation]) -> list[Relation]:
        """Relations for a listed element the parse left out of its list's relation.

        The parse sometimes heads the last of a list on an apposition ("including "Sweet
        Baby James", "JT" and "Hourglass"") rather than on the list's first member: such an
        element takes the relations of the element it is listed with.
        """
        related = {n for a, b, _ in found for n in (a, b)}
        extra: list[Relation] = []
        for token in self.doc:
            mine, head = self.node(token), self.node(token.head)
            if token.dep_ != "conj" or mine is None or head is None or mine in related:
                continue
            for a, b, label in found:
                if head in (a, b) and mine not in (a, b):
                    extra.append((b if a == head else a, mine, label))
            related.add(mine)
        return extra

    def _whose(self, token: Token, found: list[Relation]) -> None:
        """'X, whose real name is Y': the possessed phrase is X's."""
        clause = token
        while clause.dep_ not in _DESCRIBING and clause.head.i != clause.i:
            clause = clause.head
        described = self.attachment(clause.head) if clause.dep_ in _DESCRIBING else None
        owned = self.node(token.head)
        if described is not None and self.node(described) and owned is not None:
            found.append((self.node(described) or "", owned, "of"))

    def _preposition(
        self,
        prep: Token,
        arguments: dict[int, list[tuple[str, str]]],
        found: list[Relation],
    ) -> None:
        """File a preposition's objects under the verb or noun phrase it modifies."""
        objects = [n for c in prep.children if c.dep_ in _PREP_OBJECTS for n in self.listed(c)]
        if not objects:
            return
        above = self.attachment(prep.head)
        if above is None:
            return
        phrase = self.node(above)
        if phrase is not None:
            found.extend((phrase, obj, prep.lower_) for obj in objects)
        else:
            label = f"{above.lower_} {prep.lower_}"
            arguments[above.i].extend((obj, label) for obj in objects)
