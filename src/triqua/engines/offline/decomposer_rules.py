"""Dependency-parse rules that turn one parsed English sentence into TriQua facts.

The rules read spaCy's dependency labels (ClearNLP style, as produced by ``en_core_web_sm``):
each verb clause gives a base triple ``(subject, relation, object)``, its adverbial
prepositional phrases and subordinate clauses become qualifiers, conjunctions split into
separate facts, and appositives and relative clauses become facts of their own. Pronouns are
replaced through a caller-supplied lookup, so this module holds no cross-sentence state.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from spacy.tokens import Doc, Span, Token

Refer = Callable[[Token], str | None]
"""Returns the referent text of a pronoun token, or ``None`` when it has none."""

MAX_SENTENCE_TOKENS = 120
"""Longer sentences are skipped: their parses are unreliable and their facts unusable."""

POINT_IN_TIME = "point in time"
START_TIME = "start time"
END_TIME = "end time"
LOCATION = "location"
QUANTITY = "quantity"
CAUSE = "cause"

# Multi-word prepositions and the qualifier label each one introduces.
_MARKER_LABELS = {
    "as of": POINT_IN_TIME,
    "since": START_TIME,
    "until": END_TIME,
    "till": END_TIME,
    "after": "after",
    "following": "after",
    "before": "before",
    "prior to": "before",
    "because": CAUSE,
    "because of": CAUSE,
    "due to": CAUSE,
    "owing to": CAUSE,
    "thanks to": CAUSE,
    "excluding": "excluding",
    "including": "including",
    "except": "except",
    "except for": "except",
    "according to": "according to",
}
# Subordinating conjunctions of adverbial clauses and the qualifier label each introduces.
_MARK_LABELS = {
    "because": CAUSE,
    "since": START_TIME,
    "until": END_TIME,
    "till": END_TIME,
    "after": "after",
    "before": "before",
}
_TIME_PREPS = {"in", "on", "at", "during", "around", "circa", "by", "throughout"}
_PLACE_PREPS = {"in", "at", "on", "near", "inside", "outside", "across", "throughout", "within"}
_RANGE_END_PREPS = {"to", "until", "till", "through", "thru"}
_TIME_ENTS = {"DATE", "TIME"}
_PLACE_ENTS = {"GPE", "LOC", "FAC"}
_QUANTITY_ENTS = {"CARDINAL", "QUANTITY", "MONEY", "PERCENT"}
_MONTHS = {
    "january", "february", "march", "april", "may", "june", "july", "august",
    "september", "october", "november", "december",
}  # fmt: skip
_YEAR = re.compile(r"^(1[0-9]{3}|20[0-9]{2})s?$")
_SUBJECT_DEPS = {"nsubj", "nsubjpass"}
_PREDICATE_DEPS = {"ROOT", "conj", "relcl", "advcl", "ccomp", "parataxis", "acl"}
_RELATIVE_PRONOUNS = {"who", "whom", "which", "that"}
_NONRESTRICTIVE_WORDS = {"who", "whom", "which", "where", "when", "whose"}
_SPEAKER_WORDS = {"i", "me", "my", "we", "us", "our", "you", "your", "yourself"}
_DEICTIC_WORDS = {"this", "that", "these", "those", "what", "which", "who", "whom", "there"}
_NP_CUT_PUNCT = {",", ";", ":", "(", ")", "[", "]", "—", "–"}
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
_NAME_PARTICLES = {
    "al", "bin", "da", "das", "de", "del", "della", "den", "der", "des", "di", "do", "dos",
    "du", "el", "ibn", "la", "le", "ter", "van", "von",
}  # fmt: skip


@dataclass(frozen=True)
class RawFact:
    """A fact as plain strings, before it is tied to a span and a chunk."""

    subject: str
    relation: str
    object: str
    qualifiers: tuple[tuple[str, str], ...] = ()


@dataclass
class _Predicate:
    """One verb clause: its relation words, object heads and the children they used."""

    verbs: list[Token]
    relation: list[Token]
    objects: list[Token]
    used: set[int] = field(default_factory=set)
    phrase_object: bool = False
    pulled: list[Token] = field(default_factory=list)


# --------------------------------------------------------------------------- names


def repair_names(doc: Doc) -> None:
    """Merge names joined by a lowercase particle ("Copa do Brasil") into one proper noun.

    The small parser often reads such particles as verbs or prepositions and breaks the name
    apart, so the name is merged into one token that keeps the attachment of its first part.
    """
    spans: list[tuple[int, int, int]] = []
    n = len(doc)
    i = 1
    while i < n - 1:
        prev = doc[i - 1]
        if doc[i].lower_ in _NAME_PARTICLES and doc[i].is_lower and _is_name(prev):
            j = i
            while j < n and doc[j].lower_ in _NAME_PARTICLES and doc[j].is_lower:
                j += 1
            if j < n and doc[j].is_title and not any(doc[k].is_sent_start for k in range(i, j + 1)):
                end = j + 1
                while end < n and _is_name(doc[end]) and not doc[end].is_sent_start:
                    end += 1
                start = i - 1
                while start > 0 and _is_name(doc[start - 1]) and not doc[start].is_sent_start:
                    start -= 1
                spans.append((start, end, i - 1))
                i = end
                continue
        i += 1
    for start, end, anchor in reversed(spans):
        head_i, dep = doc[anchor].head.i, doc[anchor].dep_
        with doc.retokenize() as retokenizer:
            retokenizer.merge(doc[start:end], attrs={"POS": "PROPN", "TAG": "NNP"})
        if start <= head_i < end:
            continue
        if head_i >= end:
            head_i -= end - start - 1
        merged, head = doc[start], doc[head_i]
        if head.i != merged.i and not any(a.i == merged.i for a in head.ancestors):
            merged.head = head
            merged.dep_ = dep


def _is_name(token: Token) -> bool:
    return token.pos_ == "PROPN" and token.is_title


# --------------------------------------------------------------------------- rendering


def render(tokens: Iterable[Token], refer: Refer | None = None, *, lower: bool = False) -> str:
    """Write tokens back as text in document order, substituting resolved pronouns."""
    toks = sorted(
        {t.i: t for t in tokens if not t.is_space and not _is_pictograph(t.text)}.values(),
        key=lambda t: t.i,
    )
    while toks and toks[0].is_punct and toks[0].text not in {"$", "€", "£", '"'}:
        toks.pop(0)
    while toks and toks[-1].is_punct and toks[-1].text not in {"%", ")", '"'}:
        toks.pop()
    parts: list[str] = []
    for k, tok in enumerate(toks):
        text = tok.text
        referent = refer(tok) if refer is not None and _is_pronoun(tok) else None
        if referent:
            text = referent + "'s" if tok.dep_ == "poss" or tok.tag_ == "PRP$" else referent
        elif lower and tok.pos_ != "PROPN" and tok.text != "I":
            text = text.lower()
        parts.append(text)
        if k + 1 < len(toks):
            parts.append(tok.whitespace_ if toks[k + 1].i == tok.i + 1 else " ")
    return re.sub(r"\s+", " ", "".join(parts)).strip()


def _is_pictograph(text: str) -> bool:
    """True for emoji and other symbol-only tokens, which carry no checkable content."""
    return all(unicodedata.category(c) in {"So", "Sk", "Mn", "Me", "Cf"} for c in text)


def noun_phrase(head: Token, pulled: list[Token] | None = None) -> list[Token]:
    """The tokens of ``head``'s noun phrase without conjuncts, appositives and side clauses.

    When ``pulled`` is given, prepositional phrases that are qualifiers (time, "excluding",
    "according to", ...) are left out of the phrase and appended to it instead.
    """
    cut: list[Token] = []
    for child in head.children:
        if child.dep_ in {"cc", "conj", "preconj"} or _is_side_part(child):
            cut.append(child)
        elif child.dep_ == "prep" and pulled is not None and _is_qualifier_prep(child):
            cut.append(child)
            pulled.append(child)
    removed = {t.i for c in cut for t in c.subtree}
    return [t for t in head.subtree if t.i not in removed]


def _is_side_part(child: Token) -> bool:
    """True for a child that adds a side remark to a noun: appositive, comma clause, comma."""
    dep = child.dep_
    return (
        dep in {"appos", "advcl", "parataxis"}
        or (dep == "relcl" and _nonrestrictive(child))
        or (dep == "acl" and _after_comma(child))
        or (dep == "punct" and child.text in _NP_CUT_PUNCT)
    )


def _nonrestrictive(clause: Token) -> bool:
    if _after_comma(clause):
        return True
    first = clause.doc[clause.left_edge.i]
    return first.lower_ in _NONRESTRICTIVE_WORDS


def _after_comma(token: Token) -> bool:
    i = token.left_edge.i
    return i > 0 and token.doc[i - 1].text == ","


def _is_pronoun(token: Token) -> bool:
    return token.pos_ == "PRON" or token.tag_ in {"PRP", "PRP$"}


# --------------------------------------------------------------------------- value kinds


def _is_time(head: Token) -> bool:
    """True when a noun phrase head denotes a date or time (entity, year or month)."""
    for tok in [head, *head.lefts]:
        if tok.ent_type_ in _TIME_ENTS or _YEAR.match(tok.text) or tok.lower_ in _MONTHS:
            return True
    return False


def _is_place(head: Token) -> bool:
    return head.ent_type_ in _PLACE_ENTS


def _is_quantity(head: Token) -> bool:
    if head.ent_type_ in _QUANTITY_ENTS or head.like_num:
        return True
    return any(t.dep_ == "nummod" and t.ent_type_ in _QUANTITY_ENTS for t in head.lefts)


# --------------------------------------------------------------------------- prepositions


def _marker_tokens(prep: Token) -> list[Token]:
    """The preposition and the adjacent words that complete it ("as of", "due to")."""
    tokens = [prep]
    current = prep
    while True:
        nxt = next(
            (
                c
                for c in current.children
                if c.dep_ in {"prep", "pcomp"} and c.i == current.i + 1 and c.pos_ in {"ADP", "SCONJ"}
            ),
            None,
        )
        if nxt is None or len(tokens) >= 3:
            return tokens
        tokens.append(nxt)
        current = nxt


def _prep_object(prep: Token, markers: Sequence[Token]) -> Token | None:
    """The object of a (possibly multi-word) preposition: its pobj, else its pcomp."""
    for tok in reversed(markers):
        for child in tok.children:
            if child.dep_ == "pobj":
                return _substitute(child)
    for tok in reversed(markers):
        for child in tok.children:
            if child.dep_ == "pcomp" and child not in markers:
                return child
    return None


def _marker(prep: Token) -> str:
    return " ".join(t.lower_ for t in _marker_tokens(prep))


def _is_qualifier_prep(prep: Token) -> bool:
    """True for a prepositional phrase inside a noun phrase that is really a qualifier."""
    markers = _marker_tokens(prep)
    marker = " ".join(t.lower_ for t in markers)
    if marker in _MARKER_LABELS:
        return True
    obj = _prep_object(prep, markers)
    return obj is not None and marker in _TIME_PREPS and _is_time(obj)


def _prep_qualifiers(prep: Token, refer: Refer, *, range_open: bool) -> list[tuple[str, str]]:
    """Qualifiers from one prepositional phrase: a label from its kind and the phrase value."""
    markers = _marker_tokens(prep)
    marker = " ".join(t.lower_ for t in markers)
    obj = _prep_object(prep, markers)
    if obj is None:
        return []
    nested = (
        [c for c in prep.children if c.dep_ == "prep" and c.lower_ in _RANGE_END_PREPS]
        if marker == "from"
        else []
    )
    skip = {t.i for t in markers} | {t.i for c in nested for t in c.subtree}
    skip |= {t.i for c in obj.children if _is_side_part(c) for t in c.subtree}
    value = render((t for t in prep.subtree if t.i not in skip), refer)
    if not value:
        return []
    if marker in _MARKER_LABELS:
        return [(_MARKER_LABELS[marker], value)]
    if _is_time(obj):
        if marker == "from":
            out = [(START_TIME, value)]
            for end in nested:
                end_value = render((t for t in end.subtree if t.i != end.i), refer)
                if end_value:
                    out.append((END_TIME, end_value))
            return out
        if marker in _RANGE_END_PREPS and range_open:
            return [(END_TIME, value)]
        if marker in _TIME_PREPS:
            return [(POINT_IN_TIME, value)]
    if marker in _PLACE_PREPS and _is_place(obj):
        return [(LOCATION, value)]
    if _is_quantity(obj):
        return [(QUANTITY, value)]
    return [(marker, value)]


def _main_prep(verb: Token) -> Token | None:
    """The prepositional complement that completes the relation ("born in", "played for")."""
    candidates: list[tuple[Token, Token]] = []
    for child in verb.children:
        if child.dep_ not in {"prep", "dative"} or child.i < verb.i or child.pos_ not in {"ADP"}:
            continue
        markers = _marker_tokens(child)
        marker = " ".join(t.lower_ for t in markers)
        obj = _prep_object(child, markers)
        if obj is None or marker in _MARKER_LABELS:
            continue
        if marker in _RANGE_END_PREPS and _is_time(obj):
            continue
        candidates.append((child, obj))
    plain = [p for p, obj in candidates if not _is_time(obj) and _marker(p) != "from"]
    if plain:
        return plain[0]
    timed = [p for p, _ in candidates if _marker(p) != "from"]
    return timed[0] if timed else None


# --------------------------------------------------------------------------- clauses


def _substitute(token: Token) -> Token:
    """A relative pronoun stands for the noun its clause modifies."""
    if token.lower_ in _RELATIVE_PRONOUNS and token.tag_ in {"WDT", "WP"}:
        clause = token.head
        while clause.dep_ not in {"relcl", "ROOT"} and clause.head.i != clause.i:
            clause = clause.head
        if clause.dep_ == "relcl":
            return clause.head
    return token


def _conjuncts(token: Token) -> list[Token]:
    out = [token]
    for child in token.children:
        if child.dep_ == "conj" and child.pos_ in {"NOUN", "PROPN", "NUM", "PRON", "ADJ", "X"}:
            out.extend(_conjuncts(child))
    return out


def _verb_words(verb: Token) -> list[Token]:
    words = [c for c in verb.children if c.dep_ in {"aux", "auxpass"} and c.i < verb.i]
    words += [c for c in verb.children if c.dep_ in {"neg", "prt"}]
    return [*words, verb]


def _number_fold(dobj: Token) -> tuple[list[Token], Token] | None:
    """For "a population of 64.5 million": the words folded into the relation and the number."""
    if dobj.pos_ != "NOUN":
        return None
    for child in dobj.children:
        if child.dep_ == "prep" and child.lower_ == "of" and child.i > dobj.i:
            obj = next((c for c in child.children if c.dep_ == "pobj"), None)
            if obj is not None and _is_quantity(obj):
                words = [t for left in dobj.lefts for t in left.subtree] + [dobj, child]
                return words, obj
    return None


def _predicate(verb: Token, cache: dict[int, _Predicate]) -> _Predicate:
    """Find the relation words and object heads of a verb clause (memoised per sentence)."""
    if verb.i in cache:
        return cache[verb.i]
    pred = _Predicate(verbs=[verb], relation=_verb_words(verb), objects=[])
    current = verb
    for _ in range(4):
        kids = {}
        for child in current.children:
            kids.setdefault(child.dep_, child)
        if "dobj" in kids:
            dobj = _substitute(kids["dobj"])
            pred.used.add(kids["dobj"].i)
            fold = _number_fold(dobj) if dobj is kids["dobj"] else None
            if fold is not None:
                pred.relation += fold[0]
                pred.objects = _conjuncts(fold[1])
            else:
                pred.objects = _conjuncts(dobj)
        elif "attr" in kids:
            pred.used.add(kids["attr"].i)
            pred.objects = _conjuncts(_substitute(kids["attr"]))
        elif "acomp" in kids:
            acomp = kids["acomp"]
            pred.used.add(acomp.i)
            prep = next((c for c in acomp.rights if c.dep_ == "prep"), None)
            obj = _prep_object(prep, _marker_tokens(prep)) if prep is not None else None
            if prep is not None and obj is not None:
                pred.relation += [acomp, *_marker_tokens(prep)]
                pred.objects = _conjuncts(obj)
            else:
                pred.objects = [acomp]
                pred.phrase_object = True
        elif "agent" in kids:
            agent = kids["agent"]
            obj = _prep_object(agent, [agent])
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
            prep = _main_prep(current)
            if prep is not None:
                markers = _marker_tokens(prep)
                obj = _prep_object(prep, markers)
                pred.used.add(prep.i)
                pred.relation += markers
                if obj is not None and obj.dep_ == "pcomp":
                    pred.objects, pred.phrase_object = [obj], True
                elif obj is not None:
                    pred.objects = _conjuncts(obj)
        break
    cache[verb.i] = pred
    return pred


def _subject_heads(verb: Token, depth: int = 0) -> list[Token]:
    for child in verb.children:
        if child.dep_ in _SUBJECT_DEPS:
            if child.lower_ in _RELATIVE_PRONOUNS and verb.dep_ == "relcl":
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
    """The entity a relative clause describes: its noun, or the subject of "X is a noun who"."""
    if noun.dep_ == "attr" and noun.head.pos_ in {"AUX", "VERB"}:
        return _subject_heads(noun.head, 4)
    return [noun]


def _is_predicate(token: Token) -> bool:
    if token.pos_ not in {"VERB", "AUX"} or token.dep_ not in _PREDICATE_DEPS:
        return False
    if token.dep_ == "conj":
        return token.head.pos_ in {"VERB", "AUX"}
    if token.dep_ == "acl":
        return token.tag_ == "VBN" and _after_comma(token)
    return True


# --------------------------------------------------------------------------- qualifiers


def _clause_qualifiers(
    pred: _Predicate, refer: Refer, cache: dict[int, _Predicate]
) -> list[tuple[int, str, str]]:
    """Qualifiers of a clause, each with the position of the words it came from."""
    out: list[tuple[int, str, str]] = []
    for verb in pred.verbs:
        children = [c for c in verb.children if c.i not in pred.used]
        range_open = any(
            c.dep_ == "prep" and c.lower_ == "from" and _is_time_prep(c) for c in children
        )
        for child in children:
            out += [(child.i, lab, val) for lab, val in _child_qualifiers(child, refer, range_open)]
    for prep in pred.pulled:
        out += [(prep.i, lab, val) for lab, val in _prep_qualifiers(prep, refer, range_open=False)]
    first = pred.verbs[0]
    if first.dep_ == "relcl":
        out += _host_qualifier(first, refer, cache)
    return out


def _is_time_prep(prep: Token) -> bool:
    obj = _prep_object(prep, _marker_tokens(prep))
    return obj is not None and _is_time(obj)


def _child_qualifiers(child: Token, refer: Refer, range_open: bool) -> list[tuple[str, str]]:
    dep = child.dep_
    if dep == "prep":
        return _prep_qualifiers(child, refer, range_open=range_open)
    if dep in {"npadvmod", "tmod"}:
        value = render(noun_phrase(child), refer)
        if _is_time(child):
            return [(POINT_IN_TIME, value)]
        if child.ent_type_ in _QUANTITY_ENTS:
            return [(QUANTITY, value)]
    if dep == "advcl":
        mark = next((c for c in child.children if c.dep_ == "mark"), None)
        if mark is not None and mark.lower_ in _MARK_LABELS:
            value = render((t for t in child.subtree if t.i != mark.i), refer)
            if value:
                return [(_MARK_LABELS[mark.lower_], value)]
    return []


def _host_qualifier(
    clause: Token, refer: Refer, cache: dict[int, _Predicate]
) -> list[tuple[int, str, str]]:
    """For "X, where he won Y": the qualifier that ties the clause to the fact about X."""
    word = next(
        (c for c in clause.children if c.dep_ == "advmod" and c.lower_ in {"where", "when"}), None
    )
    if word is None:
        return []
    host = clause.head
    value = render(noun_phrase(host), refer)
    if word.lower_ == "when" or _is_time(host):
        return [(host.i, POINT_IN_TIME, value)]
    governor = host.head.head if host.dep_ == "pobj" else host.head
    if governor.pos_ in {"VERB", "AUX"} and governor.i != host.i:
        pred = _predicate(governor, cache)
        if host in pred.objects:
            return [(host.i, render(pred.relation, lower=True), value)]
    return [(host.i, LOCATION, value)]


# --------------------------------------------------------------------------- facts


def extract_facts(sent: Span, refer: Refer) -> list[RawFact]:
    """Facts stated by one sentence; [] for questions, opinions and over-long sentences."""
    if len(sent) > MAX_SENTENCE_TOKENS or sent.text.rstrip().endswith("?"):
        return []
    cache: dict[int, _Predicate] = {}
    facts: list[RawFact] = []
    fronted: dict[int, list[tuple[int, str, str]]] = {}
    for token in sent:
        if _is_predicate(token):
            facts += _clause_facts(token, refer, cache, fronted)
        for child in token.children:
            if child.dep_ == "appos" and token.pos_ in {"NOUN", "PROPN", "PRON"}:
                facts += _appositive_fact(token, child, refer)
    seen: set[RawFact] = set()
    return [f for f in facts if not (f in seen or seen.add(f))]  # type: ignore[func-returns-value]


def _clause_facts(
    verb: Token,
    refer: Refer,
    cache: dict[int, _Predicate],
    fronted: dict[int, list[tuple[int, str, str]]],
) -> list[RawFact]:
    if any(c.dep_ == "expl" for c in verb.children):
        return _existential_facts(verb, refer)
    heads = _subject_heads(verb)
    if not heads:
        return []
    pred = _predicate(verb, cache)
    subjects: list[str] = []
    for head in heads:
        text = _argument_text(head, refer, pred.pulled)
        if text is None:
            return []
        subjects.append(text)
    objects: list[str] = []
    for head in pred.objects:
        tokens = list(head.subtree) if pred.phrase_object else noun_phrase(head, pred.pulled)
        if _is_pronoun(head) and tokens == [head]:
            text = _argument_text(head, refer, None)
            if text is None:
                return []
        else:
            text = render(tokens, refer)
        objects.append(text)
    qualifiers = _clause_qualifiers(pred, refer, cache)
    fronted[verb.i] = [q for q in qualifiers if q[0] < verb.i]
    if verb.dep_ == "conj":
        qualifiers += fronted.get(verb.head.i, [])
    quals = _tidy_qualifiers(qualifiers, objects)
    if not objects and not quals:
        return []
    if _is_opinion(pred, objects):
        return []
    relation = render(pred.relation, lower=True)
    return [
        RawFact(subject, relation, obj, quals)
        for subject in subjects
        for obj in objects or [""]
        if subject and relation
    ]


def _argument_text(head: Token, refer: Refer, pulled: list[Token] | None) -> str | None:
    """Text of a subject or object, or ``None`` when it names no checkable entity."""
    if head.lower_ in _SPEAKER_WORDS:
        return None
    if (_is_pronoun(head) or head.lower_ in _DEICTIC_WORDS) and refer(head) is None:
        return None
    text = render(noun_phrase(head, pulled), refer)
    return text or None


def _tidy_qualifiers(
    qualifiers: list[tuple[int, str, str]], objects: list[str]
) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for _, label, value in sorted(qualifiers, key=lambda q: q[0]):
        if value and value not in objects and (label, value) not in out:
            out.append((label, value))
    return tuple(out)


def _is_opinion(pred: _Predicate, objects: list[str]) -> bool:
    """True when the only complement is an evaluative word with no named or numeric content."""
    words = list(pred.relation)
    for head in pred.objects:
        words += list(head.subtree)
    if not any(t.lower_ in _SUBJECTIVE for t in words):
        return False
    return not any(_is_concrete(t) for head in pred.objects for t in head.subtree)


def _is_concrete(token: Token) -> bool:
    """True for a name, an entity or a number other than "one" (as in "one of the best")."""
    if token.lower_ == "one":
        return False
    return token.pos_ in {"PROPN", "NUM"} or bool(token.ent_type_)


def _appositive_fact(noun: Token, appos: Token, refer: Refer) -> list[RawFact]:
    subject = _argument_text(noun, refer, None)
    obj = render(noun_phrase(appos), refer)
    if subject is None or not obj or any(t.lower_ in _SUBJECTIVE for t in appos.subtree):
        return []
    return [RawFact(subject, "is", obj)]


def _existential_facts(verb: Token, refer: Refer) -> list[RawFact]:
    """ "There are 20 regions in Italy" becomes (Italy, has, 20 regions)."""
    attr = next((c for c in verb.children if c.dep_ in {"attr", "dobj"}), None)
    if attr is None:
        return []
    for owner in (attr, verb):
        for prep in owner.children:
            if prep.dep_ == "prep" and prep.lower_ in {"in", "on", "at"}:
                place = _prep_object(prep, [prep])
                if place is not None and not _is_time(place):
                    cut = {t.i for t in prep.subtree}
                    obj = render(t for t in noun_phrase(attr) if t.i not in cut)
                    subject = render(noun_phrase(place), refer)
                    if obj and subject:
                        return [RawFact(subject, "has", obj)]
    return []
