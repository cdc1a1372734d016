"""The offline engine supports nothing a passage says of another one, or denies over an aside.

A surname alone is the person of that name the passage named last, and a negation reaches
over an aside right after it; both hold end to end, through ``triqua check``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from triqua.cli import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        (
            "Sandra Day O'Connor was born in Cork in 1903.",
            "Sandra Day O'Connor was a justice. The writer Frank O'Connor was Irish. "
            "O'Connor was born in Cork in 1903.",
        ),
        (
            "Marie Curie won the Nobel Prize in Literature.",
            "Marie Curie was a chemist. She did not, as is often said, win the Nobel Prize "
            "in Literature.",
        ),
    ],
)
def test_the_offline_engine_does_not_support_what_the_passage_does_not_say_of_it(
    tmp_path: Path, claim: str, passage: str
) -> None:
    (tmp_path / "evidence.txt").write_text(passage + "\n", encoding="utf-8")
    result = runner.invoke(
        app, ["check", claim, "-e", str(tmp_path / "evidence.txt"), "--no-store", "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    statuses = [sentence["status"] for sentence in report["sentences"]]
    assert statuses and "supported" not in statuses, statuses
    assert report["scores"]["triqua_score"] == 0
