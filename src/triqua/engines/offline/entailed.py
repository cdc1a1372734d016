"""The learned entailment judge inside the offline verifier, behind the rule gates.

The rules decide what they are strong at: a rival number, date or name, a restrictor and
a negation contradict, and a value missing from the evidence never supports. When they
leave a unit open (its relation or object paraphrased), the judge reads the unit as a
sentence (``hypotheses``) against evidence windows of one to three sentences around the
aligned sentences and decides: entailed at or above the judge's calibrated threshold
supports the unit ("entailed by the judge 0.91"); a confident contradiction by a sentence
that names the subject contradicts the base. Windows whose text fails the value gates
are never read for support, so the judge cannot support a year the evidence lacks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from triqua.engines.offline.align import TextInfo, analyse, values_relation
from triqua.engines.offline.entailment import CONTRADICTED, ENTAILED, EntailmentModel
from triqua.engines.offline.fact_match import FactParts
from triqua.engines.offline.findings import Finding, Sentence
from triqua.engines.offline.hypotheses import unit_hypothesis
from triqua.engines.offline.names import name_word_in
from triqua.engines.offline.scorer import values_present
from triqua.schema import Fact, FactUnit, Status

__all__ = ["Window", "base_by_judge", "qualifier_by_judge", "windows"]

_ALIGNED = 3  # aligned sentences whose windows the judge reads
_NAMES_SUBJECT = 0.6  # subject score of a sentence that names the subject (not "she")
_MAX_SOURCE = 300  # characters of a source sentence read as a hypothesis


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


def windows(
    anchors: Sequence[Sentence],
    by_place: Mapping[tuple[int, int], Sentence],
    passages: Sequence[str],
) -> list[Window]:
    """Windows around each anchor: itself, with the sentence before, with the one after."""
    out: dict[tuple[int, int, int], Window] = {}
    for anchor in anchors:
        before = by_place.get((anchor.passage, anchor.index - 1))
        after = by_place.get((anchor.passage, anchor.index + 1))
        for first, last in ((anchor, anchor), (before, anchor), (anchor, after)):
            if first is None or last is None:
                continue
            key = (anchor.passage, first.index, last.index)
            if key not in out:
                text = passages[anchor.passage][first.start : last.end]
                out[key] = Window(first, last, anchor, text)
    return list(out.values())


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
    finds entailing. Contradiction needs a window around a sentence that names the
    subject, judged contradicting with the judge's high contradiction threshold.
    """
    anchors = [s for s in top[:_ALIGNED] if s.subject > 0]
    found = windows(anchors, by_place, passages)
    base_fact = _base_only(fact)
    gated = [w for w in found if values_present(base_fact, parts, w.as_sentence())]
    # A contradiction is read in a single sentence that names the subject itself.
    rivals = [w for w in found if w.size == 1 and w.anchor.subject >= _NAMES_SUBJECT]
    asked = list({id(w): w for w in [*gated, *rivals]}.values())
    if not asked:
        return base, []
    hypothesis = unit_hypothesis(fact.units()[0])
    scores = {
        id(w): row
        for w, row in zip(asked, model.predict([(w.text, hypothesis) for w in asked]), strict=True)
    }
    entailed = {key: float(row[ENTAILED]) for key, row in scores.items()}
    sentence = source_hypothesis(fact, hypothesis)
    if sentence and gated:
        # The fact's own source sentence, when a window entails it, entails the fact too;
        # it is the judge's natural input ("Obama served two terms from 2009 to 2017").
        rows = model.predict([(w.text, sentence) for w in gated])
        for w, row in zip(gated, rows, strict=True):
            entailed[id(w)] = max(entailed[id(w)], float(row[ENTAILED]))
    base.similar = max(base.similar, max(entailed.values()))
    threshold = model.thresholds.entailed
    entailing = [(entailed[id(w)], w) for w in gated]
    entailing = [(p, w) for p, w in entailing if p >= threshold]
    if entailing:
        # The narrowest entailing window is quoted: one sentence before two, two before three.
        p, window = min(entailing, key=lambda pair: (pair[1].size, -pair[0]))
        finding = window.finding(Status.SUPPORTED, f"entailed by the judge {p:.2f}")
        supporting = {id(w.anchor): w.anchor for _, w in entailing}
        return finding, list(supporting.values())
    if rivals:
        p, window = max(
            ((float(scores[id(w)][CONTRADICTED]), w) for w in rivals), key=lambda pair: pair[0]
        )
        if p >= model.thresholds.contradicted:
            reason = f"contradicted per the judge {p:.2f}"
            span = fact.object or fact.relation
            return window.finding(Status.CONTRADICTED, reason, span), []
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

    The window must state the qualifier's numbers, dates and names (a year is never
    inferred) and the judge must find the base with this qualifier entailed.
    """
    value = analyse(unit.value or "")
    found = [w for w in windows(bound[:_ALIGNED], by_place, passages) if _states_values(value, w)]
    if not found:
        return None
    hypothesis = unit_hypothesis(unit)
    scores = model.predict([(w.text, hypothesis) for w in found])
    threshold = model.thresholds.entailed
    judged = [(float(row[ENTAILED]), w) for w, row in zip(found, scores, strict=True)]
    sentence = source_hypothesis(fact, hypothesis)
    if sentence and all(p < threshold for p, _ in judged):
        rows = model.predict([(w.text, sentence) for w in found])
        judged += [(float(row[ENTAILED]), w) for w, row in zip(found, rows, strict=True)]
    entailing = [(p, w) for p, w in judged if p >= threshold]
    if not entailing:
        return None
    p, window = min(entailing, key=lambda pair: (pair[1].size, -pair[0]))
    return window.finding(Status.SUPPORTED, f"entailed by the judge {p:.2f}")


def source_hypothesis(fact: Fact, rendered: str) -> str | None:
    """The sentence the fact came from, as a second hypothesis; None when it adds nothing.

    Only a single sentence of ordinary length counts (a long span would let one entailed
    clause stand for others), and only when it differs from the rendered fact.
    """
    text = " ".join(fact.source_text.split())
    if not text or len(text) > _MAX_SOURCE or text.rstrip(".") == rendered.rstrip("."):
        return None
    if any(mark in text[:-1] for mark in (". ", "? ", "! ")) or text.endswith("?"):
        return None
    return text


def _base_only(fact: Fact) -> Fact:
    """The fact without its qualifiers, so the value gates read the base's values only."""
    return fact.model_copy(update={"qualifiers": []}) if fact.qualifiers else fact


def _states_values(value: TextInfo, window: Window) -> bool:
    """True when the window holds the value's dates, numbers and capitalised name words."""
    info = analyse(window.text)
    if values_relation(value, info, set(), set())[0] != "match":
        return False
    return all(name_word_in(t, info) for t in value.content if t.is_capitalised)
