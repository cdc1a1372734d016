"""A qualifier's label cues: another name after one of them rivals the qualifier's value.

``core/reading/data/label_cues.json`` lists, for a label word, the words a sentence writes
before the qualifier's value ("alongside" for "with", "at" for "venue"), with facts,
qualifiers and sentences in which a rival must and must not be found. Each example is run
through the shared reader (``slot_rivals.qualifier_rival``), as the offline verifier asks it
of the sentence a qualifier's base is bound to.
"""

from __future__ import annotations

from typing import Any

import pytest

from triqua.core.reading.analysis import analyse
from triqua.core.reading.fact_parts import fact_parts
from triqua.core.reading.slot_rivals import LABEL_CUES, label_cue_rules, qualifier_rival
from triqua.schema import Fact

EXAMPLES = label_cue_rules()["examples"]


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["sentence"][:40] for e in EXAMPLES])
def test_a_name_after_a_label_cue_rivals_the_qualifier(example: dict[str, Any]) -> None:
    subject, relation, obj = example["fact"]
    parts = fact_parts(Fact(subject=subject, relation=relation, object=obj))
    found = qualifier_rival(parts, example["label"], example["value"], analyse(example["sentence"]))
    assert found == example["rival"]


def test_the_examples_find_a_rival_and_none() -> None:
    rivals = [e["rival"] for e in EXAMPLES]
    assert any(r is None for r in rivals) and any(r is not None for r in rivals)


def test_a_label_word_brings_its_cues_by_its_stem() -> None:
    assert LABEL_CUES["locat"] == {"in", "at", "near"}  # "location", "located"
    assert LABEL_CUES["venu"] == {"at", "in"}
    assert "alongside" in LABEL_CUES["with"]
