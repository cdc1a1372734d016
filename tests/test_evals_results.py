"""Results folders: stamping, round trip, comparison; and the SVG figures they hold."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path

import pytest

from triqua.evals.data import DataStamp
from triqua.evals.plots import confusion_svg, scatter_svg
from triqua.evals.results import EvalRun, compare_runs, load_run, stamp_markdown, write_run
from triqua.schema import FactualitySpec

WHEN = datetime(2025, 3, 4, 5, 6, 7, tzinfo=UTC)


def _run(headline: dict[str, float | int | None], **fields: object) -> EvalRun:
    spec = FactualitySpec(models={"decompose": "offline-rules/1", "verify": "offline-align/1"})
    return EvalRun.stamped(
        "claims",
        spec,
        "offline",
        created_at=WHEN,
        data=[DataStamp(path="/d/claims.jsonl", sha256="ab" * 32, rows=3)],
        headline=headline,
        **fields,
    )


def test_stamped_run_carries_spec_hash_and_models() -> None:
    run = _run({"macro_f1": 0.5})
    assert run.spec is not None and run.spec_hash == run.spec.hash
    assert run.models == {"decompose": "offline-rules/1", "verify": "offline-align/1"}
    assert run.folder_name == f"claims-20250304T050607Z-{run.spec_hash[:8]}"


def test_write_and_load_a_results_folder(tmp_path: Path) -> None:
    run = _run({"macro_f1": 0.5})
    folder = write_run(run, tmp_path, stamp_markdown(run), {"plot.svg": "<svg/>"})
    assert folder == tmp_path / run.folder_name
    assert sorted(p.name for p in folder.iterdir()) == ["plot.svg", "result.json", "result.md"]
    stored = json.loads((folder / "result.json").read_text())
    assert stored["spec_hash"] == run.spec_hash
    assert stored["data"][0]["sha256"] == "ab" * 32
    markdown = (folder / "result.md").read_text()
    assert run.spec_hash in markdown and "offline-align/1" in markdown
    assert load_run(folder) == run
    assert load_run(folder / "result.json") == run
    again = write_run(run, tmp_path, "", {})
    assert again.name == f"{run.folder_name}-2"


def test_result_files_may_not_escape_the_folder(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="may not contain folders"):
        write_run(_run({}), tmp_path, "", {"../x.svg": ""})


def test_load_run_rejects_other_files(tmp_path: Path) -> None:
    bad = tmp_path / "result.json"
    bad.write_text('{"headline": 3}', encoding="utf-8")
    with pytest.raises(ValueError, match="not a triqua eval result"):
        load_run(tmp_path)
    with pytest.raises(ValueError, match="missing"):
        load_run(tmp_path / "missing")


def test_compare_same_stamp_gives_differences_only() -> None:
    a = _run({"macro_f1": 0.5, "rows": 10, "only_a": 1.0})
    b = _run({"macro_f1": 0.75, "rows": 10, "only_b": None})
    comparison = compare_runs(a, b)
    assert comparison.warnings == []
    assert comparison.rows == [
        ("macro_f1", 0.5, 0.75, 0.25),
        ("rows", 10, 10, 0.0),
        ("only_a", 1.0, None, None),
        ("only_b", None, None, None),
    ]


def test_compare_warns_when_runs_are_not_comparable() -> None:
    a = _run({"macro_f1": 0.5}, options={"limit": 10})
    spec = FactualitySpec(models={"decompose": "llm", "verify": "offline-align/1"})
    b = EvalRun.stamped(
        "factscore-bio",
        spec,
        "x",
        data=[DataStamp(path="/d/other.jsonl", sha256="cd" * 32)],
        headline={"macro_f1": 0.4},
        options={"limit": 20},
    )
    warnings = " | ".join(compare_runs(a, b).warnings)
    assert "different evaluations" in warnings
    assert "different specs" in warnings
    assert "decompose: offline-rules/1 vs llm" in warnings
    assert "sha256 differs" in warnings
    assert "different options: limit" in warnings


def test_scatter_svg_is_valid_and_places_points() -> None:
    svg = scatter_svg([(0.0, 0.0), (1.0, 0.5)], title="t & u", x_label="gold", y_label="pred")
    root = ET.fromstring(svg)
    circles = [e for e in root.iter() if e.tag.endswith("circle")]
    assert len(circles) == 2
    # The plot spans x 56..404 and y 32..380 (no subtitle): (1, 0.5) sits at (404, 206).
    assert (circles[1].get("cx"), circles[1].get("cy")) == ("404", "206")
    with pytest.raises(ValueError, match="outside the unit square"):
        scatter_svg([(1.2, 0.0)], title="t", x_label="x", y_label="y")


def test_confusion_svg_shows_every_count() -> None:
    svg = confusion_svg([[3, 1], [0, 2]], ["supported", "insufficient_evidence"], title="m")
    root = ET.fromstring(svg)
    texts = [e.text for e in root.iter() if e.tag.endswith("text")]
    assert {"3", "1", "0", "2", "insufficient"} <= set(texts)
    with pytest.raises(ValueError, match="one row and one column"):
        confusion_svg([[1]], ["a", "b"], title="m")
