"""The judge's NLI training pairs: held out by premise group, labels and binary rows kept."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "training"))

from nli import nli_pairs


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_rows_sharing_a_premise_or_a_claim_fall_in_one_split(tmp_path: Path) -> None:
    rows: list[dict[str, object]] = []
    for i in range(60):
        # FEVER-symmetric's shape: one claim against two pieces of evidence, and the second
        # piece of evidence against another claim: all four rows are one group.
        claim, other = f"Claim {i} is true.", f"Claim {i} is false."
        first, second = f"Evidence {i} one.", f"Evidence {i} two."
        for premise, hypothesis, label in (
            (first, claim, 0),
            (second, claim, 2),
            (second, other, 0),
            (f"Evidence {i} three.", other, 2),
        ):
            rows.append(
                {"premise": premise, "hypothesis": hypothesis, "label": label,
                 "binary": False, "source": "fever-sym"}
            )  # fmt: skip
    pairs = list(nli_pairs(_write(tmp_path / "pairs.jsonl", rows)))
    by_group: dict[int, set[object]] = {}
    for n, pair in enumerate(pairs):
        by_group.setdefault(n // 4, set()).add(pair["split"])
    assert all(len(splits) == 1 for splits in by_group.values())
    assert {s for splits in by_group.values() for s in splits} == {"train", "dev", "test"}
    assert {p["source"] for p in pairs} == {"nli-fever:fever-sym"}
    assert [p["label"] for p in pairs] == [r["label"] for r in rows]


def test_binary_rows_are_marked_and_three_way_rows_are_not(tmp_path: Path) -> None:
    rows = [
        {"premise": "A dog runs.", "hypothesis": "An animal runs.", "label": 0,
         "binary": False, "source": "snli-dev"},
        {"premise": "A cat sleeps.", "hypothesis": "A cat is awake.", "label": 1,
         "binary": True, "source": "rte-dev"},
    ]  # fmt: skip
    first, second = nli_pairs(_write(tmp_path / "pairs.jsonl", rows))
    assert "binary" not in first and first["source"] == "nli-snli:snli-dev"
    assert second["binary"] is True and second["source"] == "nli-rte:rte-dev"


def test_split_does_not_move_between_runs(tmp_path: Path) -> None:
    rows = [
        {"premise": f"Premise {i}.", "hypothesis": f"Hypothesis {i}.", "label": i % 3,
         "binary": False, "source": "mnli-dev-m"}
        for i in range(40)
    ]  # fmt: skip
    path = _write(tmp_path / "pairs.jsonl", rows)
    assert [p["split"] for p in nli_pairs(path)] == [p["split"] for p in nli_pairs(path)]
