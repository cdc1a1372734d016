"""Smaller CLI edges: batch output to `report`, ingest of nothing, help, data, UTF-8, Tavily."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from triqua.cli import app
from triqua.engines.factory import register_model

from .conftest import CURIE, FRANCE

runner = CliRunner()
LATIN = "café au lait".encode("latin-1")
UTF8_ERROR = (
    "not valid UTF-8 (byte 0xe9 at offset 3); convert it first, e.g. "
    "iconv -f latin1 -t utf-8 FILE > FILE.utf8"
)


@pytest.fixture
def model_name(scripted: Any) -> str:
    return register_model("edges-test", scripted())


@pytest.fixture
def evidence(tmp_path: Path) -> Path:
    path = tmp_path / "sources" / "deep" / "folder" / "population-and-prizes.md"
    path.parent.mkdir(parents=True)
    path.write_text(
        "Marie Curie won the Nobel Prize in Physics in 1903.\n\n"
        "France had a population of 64.5 million in 2025, excluding overseas departments.\n",
        encoding="utf-8",
    )
    return path


def test_report_reads_batch_output_whatever_its_name(
    model_name: str, evidence: Path, tmp_path: Path
) -> None:
    answers = tmp_path / "answers.jsonl"
    lines = [
        {"id": i, "text": t, "evidence": [{"path": str(evidence)}]}
        for i, t in enumerate([FRANCE, CURIE])
    ]
    answers.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    out = tmp_path / "reports.json"  # batch output saved under a .json name
    args = ["batch", str(answers), "-o", str(out), "-m", model_name, "--quiet", "--no-store"]
    done = runner.invoke(app, args)
    assert done.exit_code == 0, done.output
    result = runner.invoke(app, ["report", str(out)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert result.stdout.count("tokens in") == 2  # both reports, each with its costs
    broken = tmp_path / "broken.json"
    broken.write_text('{"run_id": 1} trailing', encoding="utf-8")
    refused = runner.invoke(app, ["report", str(broken)])
    assert refused.exit_code == 2
    assert refused.stderr.strip().endswith(f"error: {broken}: no readable report")
    # Any other JSON is refused, not shown as an empty report: a settings file, the input.
    other = tmp_path / "other.json"
    other.write_text('{"a": 1}', encoding="utf-8")
    for path in (other, answers):
        wrong = runner.invoke(app, ["report", str(path)])
        assert wrong.exit_code == 2 and "not a triqua report (no run_id" in wrong.stderr


def test_ingest_of_a_missing_path_creates_no_collection(tmp_path: Path) -> None:
    store = tmp_path / "chroma"
    result = runner.invoke(
        app, ["ingest", "nothere", "-c", "newcomer-x", "--chroma-path", str(store)]
    )
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: nothere: no such file or folder; nothing ingested"
    listed = runner.invoke(app, ["collections", "--chroma-path", str(store)])
    assert listed.exit_code == 0, listed.output
    assert "newcomer-x" not in listed.stdout


@pytest.mark.parametrize(
    "command", [[], ["check"], ["batch"], ["runs"], ["show"], ["eval", "claims"], ["report"]]
)
def test_help_shows_no_bool_type_beside_flags(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "<bool>" not in result.stdout
    assert "--help" in result.stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["check", "x", "--top-k", "abc"], "Invalid value for '--top-k'"),
        (["check", "x", "--no-such-flag"], "No such option: --no-such-flag"),
        (["check", "x", "--fail-on", "wrong"], "Invalid value for '--fail-on'"),
        (["batch"], "Missing argument"),
        (["no-such-command"], "No such command 'no-such-command'"),
        (["--bogus"], "No such option: --bogus"),  # the group's own options too
        (["runs", "--bogus"], "No such option: --bogus"),
    ],
)
def test_usage_errors_are_one_error_line_with_exit_2(args: list[str], said: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: ") and said in line and line.endswith("--help')")


#: An option line of a help: its names, then the value it takes (none for a flag), then help.
OPTION_VALUE = re.compile(
    r"\s*(?:-\w, )?--[\w-]+(?: / --[\w-]+)?(?: (?P<value>[^\s<]+))?(?:\s{2,}|$)"
)


def _commands(group: Any, path: list[str]) -> list[list[str]]:
    """``path`` and every command under ``group`` (click's view of the app), as paths."""
    found = [path]
    for name, command in (getattr(group, "commands", None) or {}).items():
        found.extend(_commands(command, [*path, name]))
    return found


@pytest.mark.slow
def test_every_help_names_its_arguments_as_its_text_does_and_its_exit_codes() -> None:
    import typer

    commands = _commands(typer.main.get_command(app), [])
    assert ["runs", "delete"] in commands and ["collections", "delete"] in commands
    said_exit_codes = set()
    for command in commands:
        result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "100"})
        assert result.exit_code == 0, (command, result.output)
        usage = result.stdout.splitlines()[0]
        placeholders = re.findall(r"[{\[]([^\]}]+)[}\]]", usage.split("[OPTIONS]")[-1])
        for name in placeholders:  # TEXT, FACTS, RUN, FILE.jsonl: as the help's text says
            stem = name.split(".")[0]
            assert stem == stem.upper(), (command, usage)
        assert "...}" not in usage, (command, usage)
        options = [line for line in result.stdout.splitlines() if line.lstrip().startswith("-")]
        assert not any("<list[" in line for line in options), command
        assert "<" not in result.stdout.split("Arguments:")[-1].split("Options:")[0], command
        listed = result.stdout.split("\nOptions:")[-1].splitlines()
        starts = [line for line in listed if re.match(r" {2}-", line)]  # not wrapped help
        for line in starts:  # --md FILE, --top-k N, --chroma-path PATH: one style
            value = OPTION_VALUE.match(line)
            assert value, (command, line)
            shown = value.group("value")
            assert not shown or shown == shown.upper() or "|" in shown or "=" in shown, (
                command,
                line,
            )
        if "Exit codes: 0 " in " ".join(result.stdout.split()):
            said_exit_codes.add(" ".join(command))
    for command in ("check", "verify", "extract", "batch", "ingest", "regrade", "show", "serve"):
        assert command in said_exit_codes, command


def test_check_help_fits_80_columns_without_cut_flag_names() -> None:
    result = runner.invoke(app, ["check", "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert not re.search(r"--[\w-]+…", result.stdout)  # no flag name cut short
    assert "--decompose-batch-chars N" in result.stdout
    assert "--max-evidence-bytes" in result.stdout
    assert len(lines) < 160


def test_missing_eval_data_names_the_path_and_the_variable(tmp_path: Path) -> None:
    result = runner.invoke(app, ["eval", "claims"], env={"TRIQUA_DATA": str(tmp_path / "none")})
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"error: {tmp_path / 'none'}/factcheck_bench/")
    assert "no such file" in line and "TRIQUA_DATA" in line
    assert "Errno" not in line


def test_utf8_errors_are_worded_alike_with_a_fix(model_name: str, tmp_path: Path) -> None:
    text = tmp_path / "answer.txt"
    text.write_bytes(LATIN)
    evidence = tmp_path / "notes.txt"
    evidence.write_bytes(LATIN)
    from_file = runner.invoke(app, ["check", "-f", str(text), "-m", model_name])
    from_stdin = runner.invoke(app, ["check", "-", "-m", model_name], input=LATIN)
    from_evidence = runner.invoke(app, ["check", CURIE, "-e", str(evidence), "-m", model_name])
    for result, where in ((from_file, text), (from_stdin, "stdin"), (from_evidence, evidence)):
        assert result.exit_code == 2, result.output
        (line,) = result.stderr.strip().splitlines()
        assert line == f"error: {where}: {UTF8_ERROR}", line


def test_tavily_without_a_key_says_which_variable_to_set(model_name: str) -> None:
    result = runner.invoke(app, ["check", CURIE, "--retriever", "tavily", "-m", model_name])
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert "set the TAVILY_API_KEY environment variable" in line
    assert "api_key" not in line.replace("TAVILY_API_KEY", "")


def test_table_labels_wrong_apart_from_unverified_at_80_columns(
    scripted: Any, evidence: Path
) -> None:
    def judge(fact: str, prompt: str) -> dict[str, Any]:
        if "Curie" in fact:
            return {
                "status": "insufficient_evidence",
                "wrong_components": ["(Marie Curie, won, Nobel Prize in Physics)"],
            }
        from .conftest import default_judgement

        return default_judgement(fact, prompt)

    name = register_model("edges-labels", scripted(judge=judge))
    result = runner.invoke(
        app,
        ["check", f"{FRANCE} {CURIE}", "-e", str(evidence), "-m", name, "--no-store"],
        env={"COLUMNS": "80"},
    )
    assert result.exit_code == 0, result.output
    table = result.stdout.split("TriQuaScore")[0]
    header = table.split("┡")[0]
    assert "wrong /" in header and "unverified" in header and "…" not in header
    cells = "".join(line.split("│")[4] for line in table.splitlines() if line.count("│") == 6)
    assert "wrong(pointintime,2026)" in cells.replace(" ", "")
    assert "unverified(MarieCurie,won,NobelPrizeinPhysics)" in cells.replace(" ", "")
    paths = "".join(
        line.split("│")[5].strip() for line in table.splitlines() if line.count("│") == 6
    )
    assert "sources/deep/folder/population-and-prizes.md" in paths  # folded, never cut


@pytest.mark.slow
def test_batch_into_a_pipe_closed_early_ends_quietly(tmp_path: Path) -> None:
    """`triqua batch … | head`: the reader leaves; no "Broken pipe" error line."""
    import subprocess
    import sys

    answers = tmp_path / "answers.jsonl"
    line = {"text": "Paris is the capital of France.", "evidence": ["Paris is in France."]}
    answers.write_text(
        "".join(json.dumps({"id": i, **line}) + "\n" for i in range(6)), encoding="utf-8"
    )
    command = [sys.executable, "-m", "triqua", "batch", str(answers), "--quiet", "--no-store"]
    process = subprocess.Popen(
        [*command, "--concurrency", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "TRIQUA_HOME": str(tmp_path / "home")},
    )
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.read(20).startswith(b'{"id": ')
    process.stdout.close()  # as `head -c 20` does
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=120) in (0, 1)
    assert "Broken pipe" not in stderr and "Traceback" not in stderr


@pytest.mark.slow
def test_evidence_from_a_process_substitution_is_read(tmp_path: Path) -> None:
    """`-e <(cmd)`: the shell's pipe under /dev/fd is read; other /dev files stay refused."""
    import shlex
    import subprocess
    import sys

    triqua_cmd = f"{shlex.quote(sys.executable)} -m triqua check 'Paris is the capital of France.'"
    env = {**os.environ, "TRIQUA_HOME": str(tmp_path / "home")}
    piped = subprocess.run(
        ["bash", "-c", f"{triqua_cmd} -e <(echo 'Paris is the capital of France.') --summary"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert piped.returncode == 0, piped.stderr
    assert "1 supported" in piped.stdout
    device = subprocess.run(
        ["bash", "-c", f"{triqua_cmd} -e /dev/zero --summary"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert device.returncode == 2 and "never read as evidence" in device.stderr
