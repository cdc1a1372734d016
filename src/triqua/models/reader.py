"""The entailment judge as the grounding rule's reader of meaning, with the value gates.

The reader answers the grounding rule's two questions of a cited window: does the judge
find it entailing the unit, and does it pass the statement gates (``core.reading.statements``) that
no judge may overrule. The offline engine reads its own verdicts with it, and LLM judges
carry it through ``engines.second_opinion``.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from typing import Any

from triqua.core.grounding.meaning_reader import MeaningReader
from triqua.core.reading.datelines import dateline_end
from triqua.models.entailment import CONTRADICTED, ENTAILED, EntailmentModel, get_entailment
from triqua.models.hypotheses import source_hypothesis, unit_hypothesis
from triqua.schema import FactUnit

__all__ = ["EntailmentReader", "LazyReader", "reader_for", "statement_refusal"]

_NEVER = 1.01  # a threshold no probability reaches


@functools.lru_cache(maxsize=4096)  # a unit is settled again after re-verification
def statement_refusal(unit: FactUnit, window: str) -> str | None:
    """Why ``window`` cannot state the base triple ``unit``, whatever a judge reads.

    The statement gates both engines share (``core.reading.statements.unit_refusal``): a
    keyword list, the other polarity, an antonym, another name in the relation's slot, and
    the clause gates. A qualifier unit's values are read by the grounding rule itself; its
    window must not deny its base triple nor hold it only inside a frame ("It is false
    that X won it in 1903" grounds no 1903), nor give its value to another clause ("After
    graduating in 1940, he served in the Navy" grounds no service in 1940). No entailment
    model is needed for them. A news dateline opening the window ("FRANKFURT — The bank …")
    is no part of its statement (``core.reading.datelines``), as the offline verifier
    reads it. Remembered: the answer is a function of the unit and the window alone.
    """
    # The gates read spaCy's parse: imported here, so an LLM check whose reader is never
    # asked (``--verifier rules``) loads no spaCy.
    from triqua.core.reading.statements import unit_refusal

    window = window[dateline_end(window) :]
    if unit.kind != "base":
        return _base_held_back(unit, window)
    return unit_refusal(unit, window)


def _base_held_back(unit: FactUnit, window: str) -> str | None:
    """Why ``window`` cannot ground the qualifier ``unit``: it denies or frames its base."""
    from triqua.core.reading.analysis import analyse
    from triqua.core.reading.clause_values import value_clause_refusal
    from triqua.core.reading.fact_parts import fact_parts, polarity_differs
    from triqua.core.reading.frames import frame_of
    from triqua.schema import Fact

    parts = fact_parts(Fact(subject=unit.subject, relation=unit.relation, object=unit.object))
    if not parts.negated and polarity_differs(parts, analyse(window)):
        return "the cited text negates the fact the qualifier belongs to"
    relation = frozenset().union(*parts.relation_words)
    subject = frozenset(t.stem for t in parts.subject.content)
    objects = frozenset(t.stem for t in parts.object.content)
    frame = frame_of(window, relation, objects, relation | subject | objects)
    if frame is not None:
        return f"the cited text states the qualifier's fact only inside a frame ({frame!r})"
    return value_clause_refusal(unit, window)  # "After graduating in 1940, he served …"


class EntailmentReader:
    """Reads whether cited text entails a unit, with an entailment model."""

    def __init__(self, model: EntailmentModel, *, paraphrase: float | None = None) -> None:
        """Read with ``model`` at its calibrated thresholds.

        Under the default "judged" rule a cited window that writes none of the unit's
        words needs the card's ``judged``, one writing some of them ``judged_some``; under
        the "judge" rule a cited window needs ``grounding``; under the strict rule ``veto``
        applies when the cited text states some of the unit's words, ``paraphrase`` (the
        card's ``entailed`` unless given) when it states none. A given ``paraphrase`` (the
        offline verifier reading its own verdicts, supported at that bar) caps the
        "judged" thresholds too, so its own supports are not read again at a higher one.
        """
        self.model = model
        self.revision = model.revision
        self.threshold = model.thresholds.veto
        self.paraphrase_threshold = model.thresholds.entailed if paraphrase is None else paraphrase
        self.grounding_threshold = model.thresholds.grounding
        cap = 1.0 if paraphrase is None else paraphrase
        self.judged_threshold = min(model.thresholds.judged, cap)
        self.judged_some_threshold = min(model.thresholds.judged_some, cap)
        # The contradiction that confirms a rival value in another passage of the run
        # (``core.grounding.disputes``); the offline verifier reads its own disputes among
        # its aligned sentences, so its own verdicts are never read for one again.
        self.rival_threshold = model.thresholds.rival if paraphrase is None else _NEVER

    def refusal(self, unit: FactUnit, window: str) -> str | None:
        """Why ``window`` cannot state the base triple ``unit`` (:func:`statement_refusal`)."""
        return statement_refusal(unit, window)

    def contradiction(self, premises: Sequence[str], unit: FactUnit) -> list[float]:
        """The judge's contradiction of the unit by each of ``premises``, in order."""
        if not premises:
            return []
        hypothesis = unit_hypothesis(unit)
        rows = self.model.predict([(premise, hypothesis) for premise in premises])
        return [float(row[CONTRADICTED]) for row in rows]

    def entailment(self, premises: Sequence[str], unit: FactUnit, source: str) -> float:
        """The best entailed probability of the unit (or ``source``) over ``premises``."""
        rendered = unit_hypothesis(unit)
        sentence = source_hypothesis(source, rendered)
        hypotheses = [rendered, sentence] if sentence else [rendered]
        pairs = [(premise, h) for premise in premises for h in hypotheses]
        if not pairs:
            return 0.0
        return max(float(row[ENTAILED]) for row in self.model.predict(pairs))


def reader_for(verifier: str, *, own: bool = False) -> MeaningReader | None:
    """The reader a verifier setting names; None for "rules" (words must then be stated).

    ``own``: the offline verifier's own verdicts are read, whose paraphrases the judge
    supported at its ``supports`` threshold: the strict rule reads them at that same one,
    so the grounding check enforces the evidence contract without reading the same window
    again at another threshold.
    """
    model = get_entailment(verifier)
    if model is None:
        return None
    return EntailmentReader(model, paraphrase=model.thresholds.supports if own else None)


def _forwarded(name: str) -> Any:
    """A property of :class:`LazyReader` that loads the model and reads its reader's ``name``."""
    return property(
        lambda self: getattr(self._loaded(), name), doc=f"See :class:`EntailmentReader`: {name}."
    )


class LazyReader:
    """The reader a verifier setting names, its entailment model loaded on first read.

    An LLM judge carries one (``engines.second_opinion``): a check whose verdicts never
    need reading (nothing judged supported, or no quote to read) loads no model. Its
    statement gates need no model at all.
    """

    def __init__(self, verifier: str) -> None:
        """Read with the entailment judge ``verifier`` names (not "rules")."""
        self.verifier = verifier
        self._reader: EntailmentReader | None = None
        self._lock = threading.Lock()

    def _loaded(self) -> EntailmentReader:
        with self._lock:
            if self._reader is None:
                model = get_entailment(self.verifier)
                if model is None:
                    raise ValueError(f"verifier {self.verifier!r} names no entailment judge")
                self._reader = EntailmentReader(model)
            return self._reader

    revision = _forwarded("revision")
    threshold = _forwarded("threshold")
    paraphrase_threshold = _forwarded("paraphrase_threshold")
    grounding_threshold = _forwarded("grounding_threshold")
    judged_threshold = _forwarded("judged_threshold")
    judged_some_threshold = _forwarded("judged_some_threshold")
    rival_threshold = _forwarded("rival_threshold")

    def refusal(self, unit: FactUnit, window: str) -> str | None:
        """Why ``window`` cannot state the base triple ``unit`` (no model loaded for it)."""
        return statement_refusal(unit, window)

    def contradiction(self, premises: Sequence[str], unit: FactUnit) -> list[float]:
        """The judge's contradiction of the unit by each of ``premises`` (loads the model)."""
        return self._loaded().contradiction(premises, unit)

    def entailment(self, premises: Sequence[str], unit: FactUnit, source: str) -> float:
        """The best entailed probability of the unit over ``premises`` (loads the model)."""
        return self._loaded().entailment(premises, unit, source)
