"""docs/fidelity.md stays true: every file and test it cites exists, every status is known."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "fidelity.md"
STATUSES = ("faithful", "deviates", "missing")
#: A backticked repository path, optionally with ``::test_name``.
_CITED = re.compile(r"`((?:src|tests|benchmarks|docs|training)/[^`:\s]+)(?:::(\w+))?`")


def rows(text: str) -> list[dict[str, str]]:
    """The table's rows as dicts keyed by its header cells."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    out = []
    for line in lines[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        out.append(dict(zip(header, cells, strict=True)))
    return out


def cited(cell: str) -> list[tuple[str, str | None]]:
    """The ``(path, test name or None)`` pairs a cell cites."""
    return [(path, name or None) for path, name in _CITED.findall(cell)]


def test_the_table_parses_and_every_row_has_a_known_status() -> None:
    table = rows(DOC.read_text("utf-8"))
    assert len(table) >= 40
    assert {row["method"] for row in table} == {"TriQua", "ElementCheck", "contract"}
    for row in table:
        assert row["status"].split(":")[0] in STATUSES, row
        if row["status"].startswith("deviates"):
            assert ":" in row["status"], f"a deviation says why: {row['element']}"
        assert cited(row["code"]), f"no code cited: {row['element']}"
        assert cited(row["shown by"]), f"nothing shows it: {row['element']}"


def test_no_method_element_is_missing() -> None:
    table = rows(DOC.read_text("utf-8"))
    assert [row["element"] for row in table if row["status"].startswith("missing")] == []


@pytest.mark.parametrize("column", ["code", "shown by"])
def test_every_cited_file_and_test_exists(column: str) -> None:
    absent = []
    for row in rows(DOC.read_text("utf-8")):
        for path, name in cited(row[column]):
            file = ROOT / path
            if not file.is_file():
                absent.append(path)
            elif name and not re.search(rf"^def {name}\(", file.read_text("utf-8"), re.M):
                absent.append(f"{path}::{name}")
    assert absent == []


def test_a_vanished_test_is_caught() -> None:
    ((path, name),) = cited("`tests/test_route.py::test_gone`")
    assert (path, name) == ("tests/test_route.py", "test_gone")
    assert not re.search(rf"^def {name}\(", (ROOT / path).read_text("utf-8"), re.M)
