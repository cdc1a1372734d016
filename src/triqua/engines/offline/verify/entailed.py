"""The learned entailment judge inside the offline verifier, behind the rule gates.

The rules decide what they are strong at: a rival number, date or name, a restrictor and
a negation contradict, and a value missing from the evidence never supports. When they
leave a unit open (its relation or object paraphrased), the judge reads the unit as a
sentence (``hypotheses``) against evidence windows of one to three sentences around the
aligned sentences and decides: entailed at or above the judge's calibrated threshold
supports the unit ("entailed by the judge 0.91"). Windows whose text fails the value gates
are never read for support, so the judge cannot support a year the evidence lacks; it
never contradicts (rival values are the rules' to find).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from triqua.engines.offline.verify.align import TextInfo, analyse, values_relation
from triqua.engines.offline.verify.fact_match import FactParts, sentence_relation_hit
from triqua.engines.offline.verify.findings import Finding, Sentence
from triqua.engines.offline.verify.gates import values_present
from triqua.engines.offline.verify.names import name_word_in
from triqua.models.entailment import ENTAILED, EntailmentModel
from triqua.models.hypotheses import source_hypothesis, unit_hypothesis
from triqua.schema import Fact, FactUnit, Status

__all__ = ["Window", "base_by_judge", "qualifier_by_judge", "windows"]

_ALIGNED = 3  # aligned sentences whose windows the judge reads


@dataclass(frozen=True)
class Window:
    """One to three consecutive evidence sentences, read as one premise."""

    first: Sentence
    last: Sentence
    anchor: Sentence  # the aligned sentence the window was built around
    text: str

    @property
    def size(self) -> int:
        """Sentences in the window."""
        return self.last.index - self.first.index + 1

    def as_sentence(self) -> Sentence:
        """The window as one sentence of its passage, for the value gates."""
        return Sentence(
            self.last.evidence_id,
            self.last.passage,
            self.last.index,
            analyse(self.text),
            self.first.start,
            self.last.end,
            cosine=self.anchor.cosine,
            score=self.anchor.score,
            subject=self.anchor.subject,
        )

    def finding(self, status: Status, reason: str, error_span: str | None = None) -> Finding:
        """A finding quoting this window."""
        return Finding(
            status,
            self.last,
            error_span,
            reason,
            self.anchor.score,
            window_start=self.first if self.first is not self.last else None,
        )


def _paragraph_between(passage: str, first: Sentence, second: Sentence) -> bool:
    """True when a blank line separates two sentences of a passage."""
    return "\n\n" in passage[first.end : second.start].replace("\r", "")


def windows(
    anchors: Sequence[Sentence],
    by_place: Mapping[tuple[int, int], Sentence],
    passages: Sequence[str],
    *,
    wide: bool = True,
) -> list[Window]:
    """Windows around each anchor: itself, and (``wide``) with the sentence before or after.

    No window reads across a blank line: a new paragraph neither continues the anchor's
    statement nor names what it refers to ("She moved to Paris in 1891." then, after a
    blank line, "Marie Curie won the Nobel Prize in 1903.").
    """
    out: dict[tuple[int, int, int], Window] = {}
    for anchor in anchors:
        spans: list[tuple[Sentence | None, Sentence | None]] = [(anchor, anchor)]
        if wide:
            before = by_place.get((anchor.passage, anchor.index - 1))
            after = by_place.get((anchor.passage, anchor.index + 1))
            spans += [(before, anchor), (anchor, after)]
        for first, last in spans:
            if first is None or last is None:
                continue
            if first is not last and _paragraph_between(passages[anchor.passage], first, last):
                continue  # a blank line ends a statement: no window reads across it
            key = (anchor.passage, first.index, last.index)
            if key not in out:
                text = passages[anchor.passage][first.start : last.end]
                out[key] = Window(first, last, anchor, text)
    return list(out.values())


def _entailment(
    model: EntailmentModel, found: Sequence[Window], hypotheses: Sequence[str]
) -> dict[int, float]:
    """Each window's best entailment probability over the hypotheses, in one judge call."""
    asked = [(w, h) for w in found for h in hypotheses]
    if not asked:
        return {}
    rows = model.predict([(w.text, h) for w, h in asked])
    best: dict[int, float] = {}
    for (w, _), row in zip(asked, rows, strict=True):
        best[id(w)] = max(best.get(id(w), 0.0), float(row[ENTAILED]))
    return best


def base_by_judge(
    fact: Fact,
    parts: FactParts,
    top: Sequence[Sentence],
    base: Finding,
    by_place: Mapping[tuple[int, int], Sentence],
    passages: Sequence[str],
    model: EntailmentModel,
) -> tuple[Finding, list[Sentence]]:
    """Decide a base the rules left open; returns the finding and the supporting sentences.

    Support needs a window that passes the value gates (``values_present``: the object's
    numbers, dates and names, polarity, antonyms, restrictors, roles) and that the judge
    finds entailing the base or the fact's source sentence. Single sentences are read
    first; only when none entails are the two-sentence windows around them read (a cascade:
    most facts cost one judge call). A relation the lexicon knows must be stated by one of
    its words: "was buried in Lisbon" never stands for "was born in Lisbon", however close.
    The judge never contradicts on its own: a different object is not a false one
    ("opened a Mexican restaurant" says nothing of a Japanese one), and rival values are
    the rules' to find.
    """
    anchors = [
        s for s in top[:_ALIGNED] if s.subject > 0 and not other_known_relation(parts, s.info)
    ]
    if not anchors:
        return base, []
    base_fact = _base_only(fact)
    hypothesis = unit_hypothesis(fact.units()[0])
    sentence = source_hypothesis(fact.source_text, hypothesis)
    hypotheses = [hypothesis, sentence] if sentence else [hypothesis]
    threshold = model.thresholds.entailed
    singles = windows(anchors, by_place, passages, wide=False)
    gated = [w for w in singles if values_present(base_fact, parts, w.as_sentence())]
    entailed = _entailment(model, gated, hypotheses)
    if not any(p >= threshold for p in entailed.values()):
        wide = [w for w in windows(anchors, by_place, passages) if w.size > 1]
        wide = [w for w in wide if values_present(base_fact, parts, w.as_sentence())]
        entailed |= _entailment(model, wide, hypotheses)
        gated += wide
    if entailed:
        base.similar = max(base.similar, max(entailed.values()))
    entailing = [(entailed[id(w)], w) for w in gated if entailed[id(w)] >= threshold]
    if entailing:
        # The narrowest entailing window is quoted: one sentence before two.
        p, window = min(entailing, key=lambda pair: (pair[1].size, -pair[0]))
        finding = window.finding(Status.SUPPORTED, f"entailed by the judge {p:.2f}")
        supporting = {id(w.anchor): w.anchor for _, w in entailing}
        return finding, list(supporting.values())
    return base, []


def qualifier_by_judge(
    fact: Fact,
    unit: FactUnit,
    bound: Sequence[Sentence],
    by_place: Mapping[tuple[int, int], Sentence],
    passages: Sequence[str],
    model: EntailmentModel,
) -> Finding | None:
    """Support a qualifier the rules left open, in the windows its base is bound to.

    Only a qualifier without numbers or dates (those are the rules' alone: a year is never
    inferred); the window must hold its capitalised names, and the judge must find the
    base with this qualifier (or the fact's source sentence) entailed.
    """
    value = analyse(unit.value or "")
    if value.dates or value.numbers:
        return None  # a date or number the rules did not find stated is never inferred
    found = [w for w in windows(bound[:_ALIGNED], by_place, passages) if _states_values(value, w)]
    if not found:
        return None
    hypothesis = unit_hypothesis(unit)
    sentence = source_hypothesis(fact.source_text, hypothesis)
    entailed = _entailment(model, found, [hypothesis, sentence] if sentence else [hypothesis])
    entailing = [
        (entailed[id(w)], w) for w in found if entailed[id(w)] >= model.thresholds.entailed
    ]
    if not entailing:
        return None
    p, window = min(entailing, key=lambda pair: (pair[1].size, -pair[0]))
    return window.finding(Status.SUPPORTED, f"entailed by the judge {p:.2f}")


def other_known_relation(parts: FactParts, sentence: TextInfo) -> bool:
    """True when the lexicon knows the fact's relation and the sentence uses none of its words."""
    known = any(len(group) > 1 for group in parts.relation_words)
    return known and sentence_relation_hit(parts, sentence) is None


def _base_only(fact: Fact) -> Fact:
    """The fact without its qualifiers, so the value gates read the base's values only."""
    return fact.model_copy(update={"qualifiers": []}) if fact.qualifiers else fact


def _states_values(value: TextInfo, window: Window) -> bool:
    """True when the window holds the value's dates, numbers and capitalised name words."""
    info = analyse(window.text)
    if values_relation(value, info, set(), set())[0] != "match":
        return False
    return all(name_word_in(t, info) for t in value.content if t.is_capitalised)
