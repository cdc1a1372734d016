"""The judge's hard training pairs: each shape labelled as a reader takes it, no test rows."""

from __future__ import annotations

import random
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "training"))

from hard_pairs import CONTRADICTED, NEUTRAL, hard_pairs, true_statements

STATEMENTS = [
    ("Marie Curie was born in Warsaw.", "train"),
    ("Pierre Curie worked in Paris.", "train"),
    ("Alan Turing is a mathematician.", "train"),
    ("Grace Hopper was born in New York.", "train"),
    ("Ada Lovelace is known for her notes.", "test"),
]


def _by_kind() -> dict[str, list[dict[str, object]]]:
    found: dict[str, list[dict[str, object]]] = defaultdict(list)
    for row in hard_pairs(STATEMENTS, random.Random(3)):
        found[str(row["source"]).split(":")[1]].append(row)
    return found


def test_every_shape_is_built_with_its_label() -> None:
    found = _by_kind()
    assert set(found) == {"negation", "other_clause", "other_entity", "conjunction", "namesake"}
    assert all(r["label"] == CONTRADICTED for r in found["negation"])
    for kind in ("other_clause", "other_entity", "conjunction", "namesake"):
        assert all(r["label"] == NEUTRAL for r in found[kind]), kind


def test_a_negation_denies_the_statement_and_a_conjunction_splits_it() -> None:
    found = _by_kind()
    assert any(
        r["premise"] == "Alan Turing is not a mathematician."
        and r["hypothesis"] == "Alan Turing is a mathematician."
        for r in found["negation"]
    )
    for row in found["conjunction"]:
        first, second = str(row["premise"]).split(". ", 1)
        hypothesis = str(row["hypothesis"]).rstrip(".")
        assert hypothesis not in (first, second.rstrip("."))


def test_test_statements_never_become_training_pairs() -> None:
    rows = list(hard_pairs(STATEMENTS, random.Random(3)))
    assert rows and not any("Lovelace" in str(r["hypothesis"]) for r in rows)
    assert {r["split"] for r in rows} == {"train"}


def test_statements_come_from_entailed_pairs_and_supported_claims() -> None:
    nli = [
        {"hypothesis": "A dog runs.", "label": 0, "split": "train"},
        {"hypothesis": "A cat sleeps.", "label": 2, "split": "train"},
    ]
    claims = [("Paris is in France.", "dev"), ("Rome is in Spain.", "test")]
    assert true_statements(nli, claims) == [
        ("A dog runs.", "train"),
        ("Paris is in France.", "dev"),
    ]
