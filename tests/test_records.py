"""Record identity and context: the caller's case id and the previous chunk used."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import triqua

from .conftest import CURIE, PARIS


@pytest.mark.slow
def test_case_id_from_the_api_and_previous_chunk_in_context(scripted: Any) -> None:
    text = f"{PARIS}\n\n{CURIE}"
    report = triqua.check(
        text, model=scripted(), question="Tell me facts.", chunk_size=55, case_id="case-7"
    )
    assert [r.case_id for r in report.records] == ["case-7", "case-7"]
    paris, curie = sorted(report.records, key=lambda r: r.fact.chunk_index)
    assert paris.context == "Question: Tell me facts."
    assert curie.context == f"Question: Tell me facts.\nPrevious chunk: {PARIS}"
    assert triqua.check(PARIS, model=scripted()).records[0].case_id == ""


def test_batch_ids_become_case_ids(scripted: Any, tmp_path: Path) -> None:
    from triqua.batch import run_batch

    source = tmp_path / "in.jsonl"
    lines = [{"id": "bio-1", "text": PARIS}, {"id": 2, "text": CURIE}]
    source.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    run_batch(source, out, quiet=True, model=scripted())
    reports = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    by_id = {r["id"]: r for r in reports}
    assert [rec["case_id"] for rec in by_id["bio-1"]["records"]] == ["bio-1"]
    assert [rec["case_id"] for rec in by_id[2]["records"]] == ["2"]
