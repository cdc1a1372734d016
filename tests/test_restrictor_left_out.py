"""A window that leaves a fact's restrictor out is the judge's to read, at a stricter bar.

``core/reading/data/restrictors.json`` ("left_out") gives facts and windows that must and
must not be read as leaving the object's restrictor out (``part_match.restrictor_left_out``):
those that do pass the value gates for the judge to read at its ``entailed`` bar
(``reading.needed``); a rival restrictor, one of the same kind on a narrower noun, or a
subject's restrictor missing still fails them.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from triqua.core.reading.analysis import analyse
from triqua.core.reading.fact_parts import fact_parts
from triqua.core.reading.part_match import restrictor_left_out
from triqua.core.reading.restrictors.words import _PATH
from triqua.core.reading.rules_file import read_rules_file
from triqua.engines.offline.verify.entailed import Window
from triqua.engines.offline.verify.findings import Sentence
from triqua.engines.offline.verify.gates import values_present
from triqua.engines.offline.verify.reading import Reading, needed
from triqua.models.entailment import get_entailment

from .written_facts import written_fact

EXAMPLES = read_rules_file(_PATH, "restrictor word list")["left_out"]
CASES = [(f, w, True) for f, w in EXAMPLES["match"]] + [
    (f, w, False) for f, w in EXAMPLES["no_match"]
]


def _restricted(fact: str) -> bool:
    """Whether the fact writes a restrictor (of its subject or of its object)."""
    parts = fact_parts(written_fact(fact))
    return bool(parts.restrictors or parts.subject_restrictors)


def _sentence(window: str) -> Sentence:
    return Sentence("e", 0, 0, analyse(window), end=len(window), subject=1.0, passage_text=window)


@pytest.mark.parametrize(("fact", "window", "left_out"), CASES)
def test_a_window_leaving_the_restrictor_out_is_told_from_a_mismatch(
    fact: str, window: str, left_out: bool
) -> None:
    parsed = written_fact(fact)
    assert restrictor_left_out(fact_parts(parsed), analyse(window)) is left_out


@pytest.mark.parametrize(("fact", "window"), [(f, w) for f, w in EXAMPLES["match"]])
def test_the_value_gates_leave_a_left_out_restrictor_to_the_caller(fact: str, window: str) -> None:
    parsed = written_fact(fact)
    parts = fact_parts(parsed)
    assert values_present(parsed, parts, _sentence(window)) is False
    assert values_present(parsed, parts, _sentence(window), restrictors=False) is True


@pytest.mark.parametrize(
    ("fact", "window"),
    [(f, w) for f, w in EXAMPLES["no_match"] if _restricted(f)],
)
def test_the_value_gates_still_refuse_a_restrictor_mismatch(fact: str, window: str) -> None:
    parsed = written_fact(fact)
    sentence = _sentence(window)
    assert values_present(parsed, fact_parts(parsed), sentence, restrictors=False) is False


def test_a_window_leaving_the_restrictor_out_needs_the_entailed_bar() -> None:
    model = get_entailment()
    assert model is not None
    limits = model.thresholds
    sentence = _sentence("Noma was named best restaurant in the world.")
    window = Window(sentence, sentence, sentence, "Noma was named best restaurant in the world.")
    plain = Reading(window, entailed=limits.supports, contradicted=0.0, gated=True)
    assert needed(plain, model) == limits.supports
    left_out = replace(plain, restricted=False)
    assert needed(left_out, model) == max(limits.supports, limits.entailed)
    assert needed(left_out, model) > limits.supports
