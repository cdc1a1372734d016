"""`triqua demo` runs on the core install alone; Chroma's commands name the extra they need."""

from __future__ import annotations

import json
import sys

import pytest
from typer.testing import CliRunner

from triqua.cli import app

runner = CliRunner()
CHROMA_MODULES = (
    "chromadb",
    "langchain_chroma",
    "triqua.tools.chroma",
    "triqua.tools.chroma_embedding",
    "triqua.tools.ingest",
)


@pytest.fixture
def without_chroma(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chroma as if the chroma extra were not installed: importing it fails."""
    for name in CHROMA_MODULES:
        monkeypatch.setitem(sys.modules, name, None)  # a fresh import raises ImportError


def test_the_demo_checks_its_example_without_chroma(without_chroma: None) -> None:
    result = runner.invoke(app, ["demo", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    statuses = [record["verdict"]["status"] for record in report["records"]]
    assert statuses.count("supported") == 6  # the demo's true sentences
    assert statuses.count("contradicted") == 2  # Ronaldo's club and birthplace
    assert statuses.count("insufficient_evidence") == 1  # the violin
    cited = {e["source"].rsplit("/", 1)[-1] for r in report["records"] for e in r["evidence"]}
    assert cited <= {"curie.md", "france.md", "ronaldo.md"}


def test_chroma_without_its_extra_is_one_line_naming_the_install(
    without_chroma: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("triqua.tools.chroma", "triqua.tools.chroma_embedding", "triqua.tools.ingest"):
        monkeypatch.delitem(sys.modules, name)  # imported afresh, so the guard runs
    monkeypatch.setitem(sys.modules, "langchain_chroma", None)
    check = runner.invoke(
        app, ["check", "Paris is the capital of France.", "--retriever", "chroma",
              "--collection", "notes", "--no-store", "--no-cache"],
    )  # fmt: skip
    ingest = runner.invoke(app, ["ingest", "README.md", "-c", "notes"])
    for result in (check, ingest):
        assert result.exit_code == 2, result.output
        assert "pip install 'triqua[chroma]'" in result.output
        assert "Traceback" not in result.output
