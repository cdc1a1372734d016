"""The frame reader: a statement held inside a belief, a rumour or a work of fiction.

"Many tourists believe that Norway uses the euro." holds every word of "Norway uses the
euro" and asserts none of it; nor do "A tabloid claimed that …", "Rumours that … spread",
"It is a myth that …", "According to legend, …", "In the 2031 disaster novel, …", a
condition ("If … , the committee would have said so."), reported speech that does not
assert it ("The spokesman denied that …", "Critics doubt that …", "Visitors ask whether
…"), an instruction ("According to the instructions, …", "Per the prompt, …"), a denied
evidence noun ("There is no evidence that …"), a counterfactual modal perfect ("… would
have been short had he …") or, denying it, "It is false that …". The reader finds the words
that state a fact (its relation's word, or for a copula its object's) in spaCy's parse and
reads what governs their clause: a belief verb ("believe", "claim"), a saying verb whose
speaker is no one named ("Some tourists say …", "People say …", "It is said that …":
hearsay, where "The ministry said …" asserts) or a reporting verb that does not assert
("deny", "ask"; negated, "No one doubts that …", it asserts), a report or instruction noun
("rumour", "myth", "the instructions") heading the clause or owning the verb that governs
it, a denial word said of the clause ("It is false / a lie that …"), or a fronted "in the
novel", "according to legend" or "per the prompt". A fact is framed when every clause that
states it is. Verbs that assert ("showed", "found", "said") frame nothing, and a frame the
fact itself names ("In the film Casablanca, Bogart plays Rick" for "… plays Rick in
Casablanca") is part of the fact. The word lists and their worked examples are data
(``data/frames.json``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from triqua.core.reading.rules_file import read_rules_file
from triqua.core.reading.words import stem

if TYPE_CHECKING:
    from triqua.nlp.tokens import Token as SpacyToken

__all__ = ["FRAMES", "Frames", "frame_of"]

_PATH = Path(__file__).parent / "data" / "frames.json"
#: Dependency labels of a clause that a verb or noun governs ("believe *that X*").
_COMPLEMENTS = frozenset({"ccomp", "acl", "relcl"})
_MARKS = frozenset({"that", "whether"})


@dataclass(frozen=True)
class Frames:
    """The frame words (stems) and their worked examples."""

    belief_verbs: frozenset[str]
    reporting_verbs: frozenset[str]
    report_nouns: frozenset[str]
    instruction_nouns: frozenset[str]
    fiction_nouns: frozenset[str]
    fiction_prepositions: frozenset[str]
    source_prepositions: frozenset[str]
    denial_words: frozenset[str]
    denial_forms: frozenset[str]  # the denial words as written ("mistaken", not "mistake")
    condition_marks: frozenset[str]
    evidence_nouns: frozenset[str]
    counterfactual_modals: frozenset[str]
    disowning_subjects: frozenset[str]
    disowning_determiners: frozenset[str]
    disowning_copulas: frozenset[str]
    disowning_nouns: frozenset[str]
    disowning_openers: tuple[str, ...]
    hearsay_verbs: frozenset[str]  # "Some tourists say that …": said by no one named
    hearsay_subjects: frozenset[str]
    tag_nouns: frozenset[str]  # "…, a popular myth": a closing tag that disowns its sentence
    tag_error_nouns: frozenset[str]  # "… — a common mistake": only with a prevalence word
    tag_prevalence_words: frozenset[str]
    examples: tuple[dict[str, Any], ...]
    echo_examples: tuple[dict[str, Any], ...]
    disowning_examples: tuple[dict[str, Any], ...]


def _stems(words: Iterable[str]) -> frozenset[str]:
    return frozenset(stem(w.split()[-1]) for w in words)


def _phrases(words: Iterable[str]) -> frozenset[str]:
    """Each entry's stems, space-joined ("task description" -> "task descript")."""
    return frozenset(" ".join(stem(w) for w in entry.split()) for entry in words)


def _load(path: Path = _PATH) -> Frames:
    """Read the frame words.

    Raises:
        RuntimeError: when the file is missing or lacks a list.
    """
    raw = read_rules_file(path, "frame word list")
    try:
        return Frames(
            belief_verbs=_stems(raw["belief_verbs"]),
            reporting_verbs=_stems(raw["reporting_verbs"]),
            report_nouns=_stems(raw["report_nouns"]),
            instruction_nouns=_phrases(raw["instruction_nouns"]),
            fiction_nouns=_stems(raw["fiction_nouns"]),
            fiction_prepositions=frozenset(w.lower() for w in raw["fiction_prepositions"]),
            source_prepositions=frozenset(w.lower() for w in raw["source_prepositions"]),
            denial_words=_stems(raw["denial_words"]),
            denial_forms=frozenset(w.lower() for w in raw["denial_words"]),
            condition_marks=frozenset(w.lower() for w in raw["condition_marks"]),
            evidence_nouns=_stems(raw["evidence_nouns"]),
            counterfactual_modals=frozenset(w.lower() for w in raw["counterfactual_modals"]),
            disowning_subjects=frozenset(w.lower() for w in raw["disowning_subjects"]),
            disowning_determiners=frozenset(w.lower() for w in raw["disowning_determiners"]),
            disowning_copulas=frozenset(w.lower() for w in raw["disowning_copulas"]),
            disowning_nouns=frozenset(w.lower() for w in raw["disowning_nouns"]),
            disowning_openers=tuple(w.lower() for w in raw["disowning_openers"]),
            hearsay_verbs=_stems(raw["hearsay_verbs"]),
            hearsay_subjects=frozenset(w.lower() for w in raw["hearsay_subjects"]),
            tag_nouns=frozenset(w.lower() for w in raw["tag_nouns"]),
            tag_error_nouns=frozenset(w.lower() for w in raw["tag_error_nouns"]),
            tag_prevalence_words=frozenset(w.lower() for w in raw["tag_prevalence_words"]),
            examples=tuple(raw["examples"]),
            echo_examples=tuple(raw["echo_examples"]),
            disowning_examples=tuple(raw["disowning_examples"]),
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise RuntimeError(f"the frame word list {path} is unreadable: {exc}") from exc


FRAMES = _load()


def frame_of(
    text: str,
    relation: Iterable[str],
    obj: Iterable[str],
    fact: Iterable[str] = (),
) -> str | None:
    """The frame word that holds every clause of ``text`` stating the fact, else None.

    Args:
        text: The window (1–3 sentences).
        relation: The stems of the relation's content words (with their synonyms).
        obj: The stems of the object's content words; for a relation without content words
            ("is", "has") they mark where the fact is stated.
        fact: The stems of all the fact's words: a frame phrase that holds one of them is
            part of the fact, not a frame around it.
    """
    return _frame_of(text, frozenset(relation), frozenset(obj), frozenset(fact))


@functools.lru_cache(maxsize=4096)
def _frame_of(
    text: str, relation: frozenset[str], obj: frozenset[str], fact: frozenset[str]
) -> str | None:
    """:func:`frame_of`, remembered: one window is asked for each fact cut from a claim."""
    wanted = relation or obj
    if not wanted or not text.strip():
        return None
    from triqua.nlp.clauses import clause_head, window_parse  # spaCy, loaded when asked

    doc = window_parse(text)
    anchors = [t for t in doc if stem(t.text) in wanted]
    if not anchors:
        return None
    whole = [t for t in anchors if obj <= {stem(x.text) for x in doc[clause_head(t)].subtree}]
    frames = [_frame(t, fact) for t in (whole or anchors)]
    if all(frames):
        return frames[0]
    return None


def _frame(token: SpacyToken, fact: frozenset[str]) -> str | None:
    """The frame word that governs ``token``'s clause, if any."""
    for node in (token, *token.ancestors):
        head = node.head
        modal = _counterfactual(node)  # "would have been short (had he …)": not so
        if modal:
            return modal
        if node.dep_ == "advcl":  # "If X won it in 1903, …": a condition asserts nothing
            marks = [c for c in node.children if c.dep_ == "mark" and c.i < node.i]
            if any(c.text.lower() in FRAMES.condition_marks for c in marks):
                return next(c.text for c in marks if c.text.lower() in FRAMES.condition_marks)
        if node.i != head.i and node.dep_ in _COMPLEMENTS:
            found = _governor(node, head, fact)
            if found:
                return found
        found = _fronted(node, fact)
        if found:
            return found
    return None


def _governor(clause: SpacyToken, head: SpacyToken, fact: frozenset[str]) -> str | None:
    """The belief verb or report noun that governs ``clause``, if it frames it."""
    word = stem(head.text)
    if word in fact:
        return None
    if clause.dep_ == "ccomp" and word in FRAMES.belief_verbs:
        return head.text
    if clause.dep_ == "ccomp" and word in FRAMES.reporting_verbs and not _negated(head):
        return head.text  # "denied that X", "ask whether X"; "No one doubts that X" asserts X
    if clause.dep_ == "ccomp" and word in FRAMES.hearsay_verbs and _unnamed_speaker(head):
        return head.text  # "Some tourists say X", "It is said that X": hearsay, not a source
    # "the myth that X …" (a small parser may take its "that" for a relative pronoun).
    marked = any(c.text.lower() in _MARKS for c in clause.children if c.i < clause.i)
    nouns = FRAMES.report_nouns | FRAMES.denial_words  # "the myth that …", "a lie that …"
    if clause.dep_ in ("acl", "relcl") and marked and word in nouns:
        return head.text
    # "There is no evidence that X", "No one has found proof that X": X is not asserted.
    if marked and word in FRAMES.evidence_nouns and _denied_noun(head):
        return head.text
    if clause.dep_ == "ccomp":
        for child in head.children:  # "A theory holds that …", "Legend has it that …"
            if child.dep_ in ("nsubj", "nsubjpass") and _reports(child):
                return child.text
            # "It is false that …", "It is a lie that …": the copula's complement denies it.
            if child.dep_ in ("acomp", "attr") and stem(child.text) in FRAMES.denial_words:
                return child.text
    return None


def _fronted(verb: SpacyToken, fact: frozenset[str]) -> str | None:
    """A fronted "in the novel" or "according to legend" on ``verb``, if it frames it."""
    for child in verb.children:
        if child.dep_ != "prep" or child.i > verb.i:
            continue
        word = child.text.lower()
        if word in FRAMES.fiction_prepositions:
            nouns = FRAMES.fiction_nouns
            heads = [g for g in child.children if g.dep_ == "pobj"]
        elif word in FRAMES.source_prepositions:
            # "according to X" (X under "to") or "per X" (X under the preposition itself)
            heads = [g for c in child.children for g in (c, *c.children) if g.dep_ == "pobj"]
            phrase = {stem(t.text) for t in child.subtree}
            if not phrase & fact:
                found = next((noun.text for noun in heads if _reports(noun)), None)
                if found:
                    return found
            continue
        else:
            continue
        phrase = {stem(t.text) for t in child.subtree}
        if phrase & fact:
            continue
        for noun in heads:
            if stem(noun.text) in nouns:
                return noun.text
    return None


def _counterfactual(verb: SpacyToken) -> str | None:
    """The modal of a modal perfect on ``verb`` ("would have been"), a counterfactual."""
    auxes = [c for c in verb.children if c.dep_ == "aux" and c.i < verb.i]
    if not any(c.lower_ == "have" for c in auxes):
        return None
    return next((c.text for c in auxes if c.lower_ in FRAMES.counterfactual_modals), None)


def _denied_noun(noun: SpacyToken) -> bool:
    """True when ``noun`` is denied ("no evidence") or the verb holding it is ("found no")."""
    if any(c.lower_ in _NEGATORS for c in noun.children if c.dep_ in ("det", "neg")):
        return True
    return noun.dep_ in ("attr", "dobj", "nsubj") and _negated(noun.head)


def _unnamed_speaker(verb: SpacyToken) -> bool:
    """True when ``verb``'s speaker is no one named: "Some (tourists)", "People", "It is said"."""
    for child in verb.children:
        if child.dep_ == "nsubjpass" and child.lower_ == "it":
            return True  # "It is said that …"
        if child.dep_ != "nsubj":
            continue
        words = {child.lower_} | {c.lower_ for c in child.children if c.dep_ in ("det", "amod")}
        return bool(words & FRAMES.hearsay_subjects)
    return False


def _reports(noun: SpacyToken) -> bool:
    """True when ``noun`` is a report noun ("legend") or an instruction's ("the prompt")."""
    word = stem(noun.text)
    if word in FRAMES.report_nouns or word in FRAMES.instruction_nouns:
        return True
    compounds = [stem(c.text) for c in noun.children if c.dep_ == "compound"]
    return bool(compounds) and " ".join((*compounds, word)) in FRAMES.instruction_nouns


#: Words that negate a reporting verb or its subject ("did not deny", "No one doubts").
_NEGATORS = frozenset(("not", "n't", "never", "no", "nobody", "none", "neither", "nor"))


def _negated(verb: SpacyToken) -> bool:
    """True when ``verb`` is negated, or its subject is ("No one doubts that …")."""
    for child in verb.children:
        if child.dep_ == "neg" or child.lower_ in _NEGATORS:
            return True
        if child.dep_ in ("nsubj", "nsubjpass") and any(
            t.lower_ in _NEGATORS for t in child.subtree
        ):
            return True
    return False
