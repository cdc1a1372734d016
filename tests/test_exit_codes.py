"""Exit codes that say what happened: the README's table, and a case of each for each command."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import triqua
from triqua import RegradeError
from triqua.cli import app
from triqua.core.report.exit_codes import ExitCode
from triqua.engines.factory import register_model
from triqua.store import RunStore
from triqua.testing import ScriptedChatModel
from triqua.testing.faults import ServerError

from .conftest import CURIE, FRANCE, PARIS, make_responder

README = Path(__file__).resolve().parents[1] / "README.md"
DOCS = [
    "France had a population of 64.5 million in 2025, excluding overseas departments.",
    "Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie.",
    PARIS,
]
runner = CliRunner()


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Retries without waiting: a failing provider fails at once."""
    monkeypatch.setattr(
        "triqua.engines.llm.engine.backoff", lambda wait: {"initial": 0.0, "jitter": 0.0}
    )


def failing_on(word: str) -> ScriptedChatModel:
    """A model whose provider answers 500 to every call about ``word``, else answers."""
    answer = make_responder()

    def respond(tool: str, prompt: str) -> dict[str, Any] | str:
        if word in prompt:
            raise ServerError("Error code: 500 - the provider is down")
        return answer(tool, prompt)

    return ScriptedChatModel(responder=respond)


def readme_exit_codes() -> dict[int, dict[str, str]]:
    """The README's exit-code table: code → {column: cell}."""
    text = README.read_text(encoding="utf-8")
    header = next(line for line in text.splitlines() if line.startswith("| exit | name |"))
    columns = [c.strip() for c in header.strip("|").split("|")]
    start = text.index(header)
    rows: dict[int, dict[str, str]] = {}
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows[int(cells[0])] = dict(zip(columns, cells, strict=True))
    return rows


def batch_file(tmp_path: Path, rows: list[Any]) -> Path:
    path = tmp_path / "answers.jsonl"
    lines = [row if isinstance(row, str) else json.dumps(row) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def batch(source: Path, model: str, *args: str) -> Any:
    out = source.with_name("reports.jsonl")
    return runner.invoke(
        app, ["batch", str(source), "-o", str(out), "-m", model, "--quiet", "--no-store", *args]
    )


# --- the table -----------------------------------------------------------------------------


def test_the_readme_table_lists_exactly_the_exit_codes() -> None:
    table = readme_exit_codes()
    assert sorted(table) == sorted(code.value for code in ExitCode)
    for code in ExitCode:
        assert table[code.value]["name"] == f"`{code.name}`"
        assert {"`check`, `verify`", "`batch`", "`regrade`"} <= table[code.value].keys()
    assert "provider error" in table[ExitCode.FAILED_RUN]["`regrade`"]
    assert "their check failed" in table[ExitCode.GATE_FAILED]["`batch`"]


def test_the_code_constants_are_the_tables() -> None:
    from triqua.cli._gates import GATE_FAILED
    from triqua.core.report.accounting import FAILED_RUN

    assert GATE_FAILED == ExitCode.GATE_FAILED == 1
    assert FAILED_RUN == ExitCode.FAILED_RUN == 3


# --- a case of each documented code, for each command ----------------------------------------

FACTS = {
    CURIE: {"subject": "Marie Curie", "relation": "won", "object": "Nobel Prize in Physics"},
    FRANCE: {
        "subject": "France",
        "relation": "has population",
        "object": "64.5 million",
        "qualifiers": [{"label": "point in time", "value": "2026"}],
    },
}


def interrupt(*args: Any, **kwargs: Any) -> Any:
    raise KeyboardInterrupt


def checking(command: str, tmp_path: Path, model: str, *args: str, text: str = CURIE) -> Any:
    """``check`` of ``text``, or ``verify`` of its fact, against DOCS as evidence files."""
    evidence = []
    for i, doc in enumerate(DOCS):
        (tmp_path / f"doc{i}.txt").write_text(doc, encoding="utf-8")
        evidence += ["-e", str(tmp_path / f"doc{i}.txt")]
    given = [text]
    if command == "verify":
        facts = tmp_path / "facts.jsonl"
        facts.write_text(json.dumps(FACTS[text]) + "\n", encoding="utf-8")
        given = [str(facts), text]
    return runner.invoke(app, [command, *given, "-m", model, "--no-store", *evidence, *args])


def check_case(code: ExitCode, command: str, tmp_path: Path, mp: pytest.MonkeyPatch) -> Any:
    good = register_model("exit-good", ScriptedChatModel(responder=make_responder()))
    if code == ExitCode.OK:
        return checking(command, tmp_path, good, "--fail-under", "0.9")
    if code == ExitCode.GATE_FAILED:
        return checking(command, tmp_path, good, "--fail-on", "contradicted", text=FRANCE)
    if code == ExitCode.USAGE:
        return checking(command, tmp_path, good, "--fail-under", "90")
    if code == ExitCode.FAILED_RUN:
        down = register_model("exit-down", failing_on(""))
        return checking(command, tmp_path, down)
    mp.setattr("triqua.cli._progress.run_with_progress", interrupt)
    return checking(command, tmp_path, good)


def batch_case(code: ExitCode, tmp_path: Path, mp: pytest.MonkeyPatch) -> Any:
    good = register_model("exit-good", ScriptedChatModel(responder=make_responder()))
    line = {"id": 1, "text": CURIE, "evidence": DOCS}
    if code == ExitCode.OK:
        return batch(batch_file(tmp_path, [line]), good, "--fail-under", "0.9")
    if code == ExitCode.GATE_FAILED:
        return batch(batch_file(tmp_path, [line, "{oops"]), good)
    if code == ExitCode.USAGE:
        return batch(tmp_path / "missing.jsonl", good)
    if code == ExitCode.FAILED_RUN:
        return batch(batch_file(tmp_path, [line]), register_model("exit-down", failing_on("")))
    mp.setattr("triqua.batch.run_batch", interrupt)
    return batch(batch_file(tmp_path, [line]), good)


def regrade_case(code: ExitCode, tmp_path: Path, mp: pytest.MonkeyPatch) -> Any:
    store = RunStore(tmp_path / "runs.sqlite")
    model = ScriptedChatModel(responder=make_responder())
    run_id = triqua.check(CURIE, documents=DOCS, model=model, store=store).run_id
    judge = register_model("exit-good", model)
    if code == ExitCode.USAGE:
        run_id = "no-such-run"
    elif code == ExitCode.FAILED_RUN:
        judge = register_model("exit-down", failing_on(""))
    elif code == ExitCode.INTERRUPTED:
        mp.setattr(sys.modules["triqua.regrade"], "regrade", interrupt)
    result = runner.invoke(app, ["regrade", run_id, "-m", judge, "--store", str(store.path)])
    if code != ExitCode.USAGE:  # only a good regrade appends a revision
        assert store.latest_revision(run_id) == (1 if code == ExitCode.OK else 0)
    return result


DOCUMENTED = [
    (column, ExitCode(code))
    for code, row in readme_exit_codes().items()
    for column in ("`check`, `verify`", "`batch`", "`regrade`")
    if row[column] != "—"
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("column", "code"), DOCUMENTED, ids=lambda v: str(v).replace("`", "").replace(", ", "+")
)
def test_each_documented_exit_code_has_a_case(
    column: str, code: ExitCode, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if column == "`batch`":
        results = [batch_case(code, tmp_path, monkeypatch)]
    elif column == "`regrade`":
        results = [regrade_case(code, tmp_path, monkeypatch)]
    else:
        results = [check_case(code, c, tmp_path, monkeypatch) for c in ("check", "verify")]
    for result in results:
        assert result.exit_code == code, result.output
        if code not in (ExitCode.OK, ExitCode.GATE_FAILED):  # said in one error line
            assert result.stderr.strip().splitlines()[-1].startswith("error: "), result.stderr


# --- batch ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_batch_whose_lines_failed_at_the_provider_exits_1(tmp_path: Path) -> None:
    name = register_model("exit-some-fail", failing_on("Paris"))
    rows = [{"id": i, "text": CURIE, "evidence": DOCS} for i in range(4)]
    rows += [{"id": f"p{i}", "text": PARIS, "evidence": DOCS} for i in range(2)]
    result = batch(batch_file(tmp_path, rows), name)
    assert result.exit_code == ExitCode.GATE_FAILED, result.output
    *failed, said = result.stderr.strip().splitlines()
    assert len(failed) == 2 and all("id 'p" in line and "500" in line for line in failed)
    assert said == "error: 2 of 6 lines not checked or failed (each is listed above)"


@pytest.mark.slow
def test_a_batch_whose_every_line_failed_exits_3(tmp_path: Path) -> None:
    name = register_model("exit-all-fail", failing_on("Paris"))
    rows = [{"id": f"p{i}", "text": PARIS, "evidence": DOCS} for i in range(2)]
    result = batch(batch_file(tmp_path, rows), name)
    assert result.exit_code == ExitCode.FAILED_RUN, result.output


def test_a_finished_batch_run_again_keeps_its_scores_for_the_gates(
    tmp_path: Path, scripted: Any
) -> None:
    name = register_model("exit-rerun", scripted())
    source = batch_file(tmp_path, [{"id": 1, "text": CURIE, "evidence": DOCS}])
    first = batch(source, name, "--fail-under", "0.9")
    assert first.exit_code == ExitCode.OK, first.output
    out = str(source.with_name("reports.jsonl"))
    gates = ["--fail-under", "0.9", "--fail-on", "contradicted"]
    again = runner.invoke(app, ["batch", str(source), "-o", out, "-m", name, "--no-store", *gates])
    assert again.exit_code == ExitCode.OK, again.output
    assert "gate failed" not in again.stderr
    assert re.search(r"already in output\s*│\s*1", again.stderr)
    assert re.search(r"mean TriQuaScore\s*│\s*100\.0%", again.stderr)
    # The finished lines' verdicts still count: a gate they fail still fails on a rerun.
    with_france = batch_file(
        tmp_path,
        [{"id": 1, "text": CURIE, "evidence": DOCS}, {"id": 2, "text": FRANCE, "evidence": DOCS}],
    )
    batch(with_france, name)
    rerun = batch(with_france, name, "--fail-on", "contradicted", "--fail-under", "0.9")
    assert rerun.exit_code == ExitCode.GATE_FAILED, rerun.output
    assert "1 fact contradicted (ids 2)" in rerun.stderr
    assert "TriQuaScore 83.3% is below --fail-under 90.0%" in rerun.stderr


def test_a_malformed_line_does_not_hide_the_failed_gates_of_the_others(
    tmp_path: Path, scripted: Any
) -> None:
    name = register_model("exit-malformed", scripted())
    rows: list[Any] = [
        {"id": "curie", "text": CURIE, "evidence": DOCS},
        "{not json",
        {"id": "france", "text": FRANCE, "evidence": DOCS},
    ]
    result = batch(batch_file(tmp_path, rows), name, "--fail-on", "contradicted")
    assert result.exit_code == ExitCode.GATE_FAILED, result.output
    assert "answers.jsonl:2: invalid JSON" in result.stderr
    assert "gate failed: 1 fact contradicted (ids france)" in result.stderr


# --- regrade -------------------------------------------------------------------------------


@pytest.fixture
def stored(scripted: Any, tmp_path: Path) -> tuple[RunStore, triqua.Report]:
    store = RunStore(tmp_path / "runs.sqlite")
    return store, triqua.check(CURIE, documents=DOCS, model=scripted(), store=store)


@pytest.mark.slow
def test_a_regrade_against_a_failing_provider_exits_3_and_appends_nothing(
    stored: tuple[RunStore, triqua.Report],
) -> None:
    store, original = stored
    assert original.score == 1.0
    name = register_model("exit-regrade-down", failing_on("Curie"))
    result = runner.invoke(
        app, ["regrade", original.run_id, "-m", name, "--store", str(store.path)]
    )
    assert result.exit_code == ExitCode.FAILED_RUN, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "could not be judged again" in lines[0], result.stderr
    assert "keeps revision 0" in lines[0] and "500" in lines[0]
    assert store.latest_revision(original.run_id) == 0
    shown = runner.invoke(app, ["show", original.run_id, "--store", str(store.path), "--json"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["scores"]["triqua_score"] == 1.0


@pytest.mark.slow
def test_a_failed_regrade_raises_and_a_good_one_appends(
    scripted: Any, stored: tuple[RunStore, triqua.Report]
) -> None:
    store, original = stored
    with pytest.raises(RegradeError, match="1 of 1 fact could not be judged again"):
        triqua.regrade(original.run_id, model=failing_on("Curie"), store=store)
    assert store.report(original.run_id) == original
    regraded = triqua.regrade(original.run_id, model=scripted(), store=store)
    assert store.latest_revision(original.run_id) == 1 and regraded.score == 1.0
