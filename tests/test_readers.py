"""The shared JSON Lines reader and the readers built on it: a bad line never sinks the file.

Deeply nested JSON (``[[[[…]]]]``) exhausts ``json``'s recursion; it, malformed lines,
over-long lines and bytes that are not UTF-8 become ``file:line: reason`` messages, and the
other lines are still read, through every reader (report, eval data, evidence, ingest).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.evals.claims_data import load_claims
from triqua.evals.factscore import load_bios
from triqua.support.jsonl import loads, read_jsonl
from triqua.tools.documents import load_documents, parse_jsonl

DEEP = "[" * 100_000 + "]" * 100_000


def lines(*items: str | bytes) -> bytes:
    return b"\n".join(i if isinstance(i, bytes) else i.encode() for i in items) + b"\n"


def test_loads_turns_deep_nesting_into_a_value_error() -> None:
    with pytest.raises(ValueError, match="nested too deeply"):
        loads(DEEP)
    with pytest.raises(ValueError, match="invalid JSON"):
        loads("{oops")
    assert loads('{"a": [1]}') == {"a": [1]}


def test_loads_names_the_column_once_after_a_message_ending_in_at() -> None:
    with pytest.raises(ValueError) as info:
        loads('{"text": "Ada')
    assert str(info.value) == "invalid JSON (Unterminated string starting at column 10)"


def test_read_jsonl_reports_each_bad_line_and_reads_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(
        lines(
            '{"n": 1}',
            DEEP,
            "{oops",
            b'{"n": "\xff"}',
            "",
            '{"n": "' + "x" * 400_000 + '"}',
            '{"n": 7}',
        )
    )
    problems: list[str] = []
    got = list(read_jsonl(path, problems.append, max_line_bytes=300_000))
    assert got == [(1, {"n": 1}), (7, {"n": 7})]
    assert [p.split(": ", 1)[0] for p in problems] == [f"{path}:{n}" for n in (2, 3, 4, 6)]
    assert "nested too deeply" in problems[0]
    assert "invalid JSON" in problems[1]
    assert "not valid UTF-8" in problems[2]
    assert "longer than 300,000 bytes" in problems[3]


def test_a_parse_error_or_deep_value_in_the_callers_parser_is_a_line_problem() -> None:
    def parse(value: object) -> int:
        if not isinstance(value, int):
            raise ValueError("expected a number")
        return value

    problems: list[str] = []
    got = list(read_jsonl(lines("1", '"a"', "3"), problems.append, parse=parse, where="nums"))
    assert got == [(1, 1), (3, 3)]
    assert problems == ["nums:2: expected a number"]


def test_evidence_jsonl_keeps_good_lines_around_a_deep_one(tmp_path: Path) -> None:
    data = lines('{"text": "Paris is in France."}', DEEP, '{"text": "Rome is in Italy."}')
    records, problems = parse_jsonl(data, tmp_path / "e.jsonl", "text")
    assert [r.line for r in records] == [1, 3]
    assert len(problems) == 1 and problems[0].startswith(f"{tmp_path / 'e.jsonl'}:2: ")
    path = tmp_path / "e.jsonl"
    path.write_bytes(data)
    skipped: list[str] = []
    documents = load_documents([path], problems=skipped)
    assert [d.source for d in documents] == [f"{path}#1", f"{path}#3"]
    assert skipped == problems
    with pytest.raises(ValueError, match=r"e\.jsonl:2: JSON nested too deeply"):
        load_documents([path])  # without a problems list, the first bad line is raised


def test_eval_readers_skip_bad_lines_when_asked_and_fail_on_them_otherwise(
    tmp_path: Path,
) -> None:
    claims = tmp_path / "claims.jsonl"
    row = {"claim": "c", "evidence": "e", "stance": "completely-support"}
    claims.write_bytes(lines(json.dumps(row), DEEP, json.dumps(row)))
    problems: list[str] = []
    rows, skipped = load_claims(claims, problems=problems)
    assert [r.index for r in rows] == [1, 3] and skipped == 0
    assert problems == [f"{claims}:2: JSON nested too deeply"]
    with pytest.raises(ValueError, match=r"claims\.jsonl:2: JSON nested too deeply"):
        load_claims(claims)
    bios = tmp_path / "bios.jsonl"
    bio = {"topic": "Ada", "output": "Ada was a mathematician.", "annotations": None}
    bios.write_bytes(lines(DEEP, json.dumps(bio), '{"no": "topic"}'))
    bad: list[str] = []
    assert [b.topic for b in load_bios(bios, bad)] == ["Ada"]
    assert [m.split(": ", 1)[0] for m in bad] == [f"{bios}:1", f"{bios}:3"]


@pytest.mark.slow
def test_report_command_reads_a_batch_file_around_a_bad_line(tmp_path: Path, scripted: Any) -> None:
    paris = "Paris is the capital of France."
    good = triqua.check(paris, documents=[paris], model=scripted(), cache=False).model_dump_json()
    path = tmp_path / "out.jsonl"
    path.write_text(f'{{"id": 1, {good[1:]}\n{DEEP}\n[1, 2]\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["report", str(path)])
    assert result.exit_code == 1, result.output  # the good line shown, the bad ones named
    assert result.stdout.count("tokens in") == 1  # one report printed, with its costs
    assert "Paris" in result.stdout
    assert f"warning: {path}:2: JSON nested too deeply" in result.stderr
    assert f"warning: {path}:3: not a triqua report" in result.stderr


def test_report_command_on_deep_json_is_a_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text(DEEP, encoding="utf-8")
    result = CliRunner().invoke(app, ["report", str(path)])
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"error: {path}: not a triqua report")


@pytest.mark.slow
def test_deep_batch_line_in_a_real_process_leaves_no_traceback(tmp_path: Path) -> None:
    """The real command, as a user runs it: a deep line is one problem, not a crash."""
    source = tmp_path / "in.jsonl"
    source.write_bytes(lines(DEEP, '{"id": "x"}'))
    done = subprocess.run(
        [sys.executable, "-m", "triqua", "batch", str(source), "--quiet"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr
    assert f"{source}:1: JSON nested too deeply" in done.stderr
    assert f"{source}:2: missing 'text'" in done.stderr
