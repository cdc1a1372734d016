"""Every `triqua` command in README.md's bash blocks runs, offline, as written.

Commands are read from README.md when the tests are collected, so the README cannot drift
from the CLI. They run in a temporary folder holding what the examples name (the demo
corpus as `notes/` and `sources/`, an `answer.txt`, a saved `report.json`, a batch file)
with the demo collection `triqua-demo` ingested, and the facts `triqua extract` wrote as
`facts.jsonl`. Usage notation is expanded: `[a|b]` runs
without the group and with each choice; `RUN` is a stored run's id. Commands that name a
Chroma server run against the session's real one (its URL put in, the collection they search
ingested first). Commands that name a PostgreSQL store run against a database of the session's
throwaway server, where `RUN` is a run checked into it. Commands that need a key, the network
or another server are listed as skipped, with the reason.
"""

from __future__ import annotations

import glob
import itertools
import json
import re
import shlex
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest_chroma import chroma_server  # noqa: F401
from tests.conftest_postgres import drop_database, new_database, pg_server  # noqa: F401
from triqua.cli import app
from triqua.cli.demo import DEMO_COLLECTION, demo_files

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PROGRAMS = ("triqua", ".venv/bin/triqua")
#: The Chroma server the README's examples name; the session's server stands in for it.
README_CHROMA_URL = "http://127.0.0.1:8000"
#: The PostgreSQL store the README's examples name; a database of the session's server.
README_STORE_URL = "postgresql://triqua@localhost/triqua"
#: (what in a command, why it cannot run here); the first match wins.
SKIPS = (
    (re.compile(r"(^|\s)(-m|--model)(\s|=)"), "needs a chat model (an API key or a server)"),
    (re.compile(r"tavily"), "needs TAVILY_API_KEY and the network"),
    (re.compile(r"make studio"), "starts the LangGraph server"),
    (re.compile(r"triqua serve"), "starts the web page's server (tests/test_serve.py drives it)"),
    (re.compile(r"(^|\s)eval\s"), "a full evaluation over the shared data set (minutes)"),
    (
        re.compile(r"triqua store init"),
        "needs an owner and a run-as role on the server (tests/test_store_pg_roles.py)",
    ),
)
runner = CliRunner()


@dataclass(frozen=True)
class Example:
    """One runnable variant of a README command line."""

    line: str
    args: tuple[str, ...]
    stdin: str | None = None


def _bash_lines(text: str) -> Iterator[str]:
    for block in re.findall(r"^ *```(?:bash|sh|shell)\n(.*?)^ *```", text, flags=re.M | re.S):
        yield from (line.strip() for line in block.splitlines() if line.strip())


def _variants(tokens: list[str]) -> Iterator[list[str]]:
    """`[a|b]` groups expanded: without the group, then with each choice."""
    choices = []
    for token in tokens:
        group = re.fullmatch(r"\[(.+)\]", token)
        choices.append([None, *group.group(1).split("|")] if group else [token])
    for picked in itertools.product(*choices):
        yield [t for t in picked if t is not None]


def readme_examples() -> list[pytest.ParameterSet]:
    """Each triqua command of README.md's bash blocks as a test case (skips marked)."""
    cases = []
    for line in _bash_lines(README.read_text(encoding="utf-8")):
        tokens = shlex.split(line, comments=True)
        stdin = None
        if "|" in tokens:  # `echo TEXT | triqua …`
            cut = tokens.index("|")
            producer, tokens = tokens[:cut], tokens[cut + 1 :]
            assert producer[0] == "echo", f"README pipes {producer[0]!r} into triqua: {line}"
            stdin = " ".join(producer[1:]) + "\n"
        if not tokens or tokens[0] not in PROGRAMS:
            continue
        skip = next((why for pattern, why in SKIPS if pattern.search(line)), None)
        for variant in _variants(tokens[1:]):
            example = Example(line, tuple(variant), stdin)
            marks = [pytest.mark.skip(reason=skip)] if skip else []
            cases.append(pytest.param(example, marks=marks, id=" ".join(variant)[:80]))
    return cases


@dataclass(frozen=True)
class Workspace:
    folder: Path
    home: Path
    run_id: str


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    """A folder with the files the README's examples name, and the demo collection."""
    folder = tmp_path_factory.mktemp("readme")
    home = folder / ".triqua-home"
    corpus, example = demo_files()
    (folder / "notes").mkdir()
    (folder / "sources").mkdir()
    for path in corpus:
        shutil.copy(path, folder / "sources" / path.name)
    shutil.copy(folder / "sources" / "curie.md", folder / "notes" / "curie.md")
    (folder / "answer.txt").write_text(example, encoding="utf-8")
    (folder / "answers.jsonl").write_text(
        json.dumps({"id": "q1", "text": "Paris is the capital of France."})
        + "\n"
        + json.dumps(
            {
                "id": "q2",
                "text": "Marie Curie won the Nobel Prize in Physics in 1903.",
                "evidence": [{"path": "sources/curie.md"}],
            }
        )
        + "\n",
        encoding="utf-8",
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TRIQUA_HOME", str(home))
        patch.chdir(folder)
        from triqua.tools.ingest import ingest_paths

        ingest_paths(corpus, DEMO_COLLECTION)
        saved = runner.invoke(app, ["check", "-f", "answer.txt", "-e", "sources", "--json"])
        assert saved.exit_code == 0, saved.output
        (folder / "report.json").write_text(saved.stdout, encoding="utf-8")
        batch = runner.invoke(app, ["batch", "answers.jsonl", "-o", "reports.jsonl", "--quiet"])
        assert batch.exit_code == 0, batch.output
        facts = runner.invoke(app, ["extract", "-f", "answer.txt", "-o", "facts.jsonl"])
        assert facts.exit_code == 0, facts.output
        yield Workspace(folder, home, json.loads(saved.stdout)["run_id"])


@pytest.fixture(scope="module")
def readme_store(
    pg_server: str,  # noqa: F811
    workspace: Workspace,
) -> Iterator[tuple[str, str]]:
    """A PostgreSQL store for the README's examples, and the id of a run checked into it."""
    url = new_database(pg_server)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TRIQUA_HOME", str(workspace.home))
        patch.chdir(workspace.folder)
        saved = runner.invoke(
            app, ["check", "-f", "answer.txt", "-e", "sources", "--json", "--store-url", url]
        )
    assert saved.exit_code == 0, saved.output
    yield url, json.loads(saved.stdout)["run_id"]
    drop_database(url)


def _expand(args: tuple[str, ...], folder: Path, run_id: str) -> list[str]:
    """Placeholders filled and globs expanded as bash would (relative to ``folder``)."""
    out: list[str] = []
    for arg in args:
        arg = run_id if arg == "RUN" else arg
        if any(c in arg for c in "*?") and not arg.startswith("-"):
            found = sorted(glob.glob(arg, root_dir=folder))
            out.extend(found or [arg])
        else:
            out.append(arg)
    return out


def _on_the_session_server(args: list[str], url: str) -> list[str]:
    """``args`` against the session's Chroma server, whose collection holds the demo corpus."""
    assert README_CHROMA_URL in args, f"README names another Chroma server: {args}"
    args = [url if arg == README_CHROMA_URL else arg for arg in args]
    if args[0] != "ingest" and "--collection" in args:
        from triqua.tools.ingest import ingest_paths

        ingest_paths(demo_files()[0], args[args.index("--collection") + 1], url=url)
    return args


def test_readme_has_examples_to_run() -> None:
    runnable = [c for c in readme_examples() if not c.marks]
    assert len(runnable) >= 5, "README.md lost its runnable triqua examples"


@pytest.mark.slow
@pytest.mark.parametrize("example", readme_examples())
def test_readme_example_runs(
    example: Example,
    workspace: Workspace,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    monkeypatch.setenv("TRIQUA_HOME", str(workspace.home))
    monkeypatch.chdir(workspace.folder)
    run_id = workspace.run_id
    if example.args[:2] == ("runs", "delete"):  # delete a run of its own, not the shared one
        made = runner.invoke(app, ["check", "Paris is the capital of France.", "--json"])
        assert made.exit_code == 0, made.output
        run_id = json.loads(made.stdout)["run_id"]
    if README_STORE_URL in example.args:
        url, run_id = request.getfixturevalue("readme_store")
        example = Example(
            example.line,
            tuple(url if a == README_STORE_URL else a for a in example.args),
            example.stdin,
        )
    args = _expand(example.args, workspace.folder, run_id)
    if "--chroma-url" in args:
        args = _on_the_session_server(args, request.getfixturevalue("chroma_server"))
    result = runner.invoke(app, args, input=example.stdin, env={"COLUMNS": "120"})
    gated = any(a.startswith(("--fail-under", "--fail-on")) for a in args)
    if gated and result.exit_code == 1:  # a documented gate failure, said on stderr
        assert "gate failed:" in result.stderr, result.output
        return
    assert result.exit_code == 0, f"{example.line}\n{result.output}"
    if "--json" in args and args[0] in ("check", "show", "regrade", "verify"):
        assert json.loads(result.stdout)["schema_version"]
    elif args[0] in ("check", "verify") and "--summary" not in args:
        assert "TriQuaScore" in result.stdout
