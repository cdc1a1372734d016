"""The restrictor rules' worked examples, run as tests.

Each rule of ``core/reading/data/restrictors.json`` that reads a claim against evidence
carries examples that must ("match") and must not ("no_match") be stated: ``markers`` (the
offline verifier's "once", "first", "the largest"), ``groups`` (the grounding rule's
"one of the largest", "the former CEO") and ``many`` (the offline gates' "multiple shows"
against "only in The Class"). Adding a word to a list means adding an example
beside it; this test runs every one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from triqua.core.grounding.gates import gate
from triqua.core.reading.analysis import analyse
from triqua.core.reading.restrictors.groups import restriction
from triqua.core.reading.restrictors.many import one_against_many
from triqua.core.reading.restrictors.markers import check, markers, object_head
from triqua.core.reading.restrictors.words import Example, _load, examples
from triqua.schema import FactUnit

EXAMPLES = examples()


def _stated(example: Example) -> bool:
    if example.rule == "markers":
        text, noun = example.claim
        head = object_head(analyse(noun)) if noun else ()
        return check(markers(text), [analyse(example.evidence)], head)[0] == "ok"
    if example.rule == "many":
        return one_against_many(analyse(example.claim[0]), analyse(example.evidence)) is None
    subject, relation, obj = example.claim
    unit = FactUnit(id="u", kind="base", subject=subject, relation=relation, object=obj)
    return restriction(unit, example.evidence) is None


def test_every_rule_has_examples_both_ways() -> None:
    for rule in ("markers", "groups", "many"):
        kinds = {e.matches for e in EXAMPLES if e.rule == rule}
        assert kinds == {True, False}, rule


@pytest.mark.parametrize(
    "example", EXAMPLES, ids=[f"{e.rule}-{'match' if e.matches else 'no'}-{i}" for i, e in
                              enumerate(EXAMPLES)]
)  # fmt: skip
def test_worked_example(example: Example) -> None:
    assert _stated(example) is example.matches, (example.claim, example.evidence)


def test_the_group_words_are_read_from_the_file(tmp_path: Path) -> None:
    source = Path(__file__).parents[1] / "src/triqua/core/reading/data/restrictors.json"
    broken = tmp_path / "restrictors.json"
    broken.write_text(source.read_text(encoding="utf-8").replace('"lapsed"', '"lapse"'))
    with pytest.raises(RuntimeError, match="unreadable"):
        _load(broken)


def test_the_grounding_gate_reads_many_against_one_as_the_offline_gates_do() -> None:
    window = "Lizzy Caplan also starred only in television show The Class."
    many = FactUnit(
        id="u",
        kind="base",
        subject="Lizzy Caplan",
        relation="appeared in",
        object="multiple television shows",
    )
    one = many.model_copy(update={"relation": "starred in", "object": "The Class"})
    assert gate(many, window, window, "") is not None
    assert gate(one, window, window, "") is None
