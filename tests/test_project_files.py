"""The files a maintained project carries: licence, notice, changelog, version, hooks."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

import triqua

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_licence_is_the_apache_text_pyproject_names() -> None:
    project = PYPROJECT["project"]
    assert project["license"] == "Apache-2.0"
    assert set(project["license-files"]) == {"LICENSE", "NOTICE"}  # both ship in wheel and sdist
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License\n                           Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text  # the full text, not a pointer to it
    # license-files needs setuptools 77 or later to be read at all
    requires = PYPROJECT["build-system"]["requires"]
    floors = [int(m[1]) for r in requires if (m := re.fullmatch(r"setuptools>=(\d+)", r))]
    assert floors and floors[0] >= 77


def test_the_notice_names_every_source_and_licence_of_the_shipped_judge() -> None:
    card = (ROOT / "training" / "MODEL_CARD.md").read_text(encoding="utf-8")
    notice = (ROOT / "NOTICE").read_text(encoding="utf-8")
    table = card.split("## Data", 1)[1].split("\n\n", 2)[2].split("\n\n", 1)[0]
    rows = [line.split("|")[1:-1] for line in table.splitlines()[2:]]
    assert len(rows) >= 6
    for source, _version, licence, _use in rows:
        name = source.split()[0]  # Factcheck-Bench, FActScore, SNLI, …, all-MiniLM-L6-v2
        assert name in notice, name
        for cc in re.findall(r"CC BY(?:-SA)? \d\.\d", licence):
            assert cc in notice, (name, cc)
        if "MIT" in licence:
            assert "MIT" in notice
        if "Apache" in licence:
            assert "Apache License 2.0" in notice
    assert "models/data/entailment.onnx" in notice
    assert "models/data/minilm_tokenizer.json" in notice


def test_the_version_lives_in_one_place_and_the_changelog_names_it() -> None:
    project = PYPROJECT["project"]
    assert "version" not in project
    assert "version" in project["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "triqua.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", triqua.__version__)
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in changelog
    released = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", changelog, re.M)
    assert released[0] == triqua.__version__  # the newest entry is the version that runs


def test_the_commit_hooks_run_what_make_lint_and_typecheck_run() -> None:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hooks = [hook for repo in config["repos"] for hook in repo["hooks"]]
    assert {repo["repo"] for repo in config["repos"]} == {"local"}  # no download at hook time
    entries = {hook["entry"].split()[0] + " " + hook["entry"].split()[1] for hook in hooks[:2]}
    assert entries == {"ruff check", "ruff format"}
    assert [hook["entry"] for hook in hooks[2:]] == ["mypy", "lint-imports"]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for tool in ("ruff check", "ruff format", "mypy", "lint-imports"):
        assert f"$(BIN)/{tool}" in makefile, tool


def test_make_demo_installs_triqua_alone() -> None:
    """The demo's install is the core package: no dev tools, servers' drivers or Chroma."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    demo = re.search(r"^demo:([^#\n]*)", makefile, re.M)
    assert demo is not None and demo[1].split() == ["$(CORE)"]
    core = re.search(r"^\$\(CORE\):.*\n((?:\t.*\n)+)", makefile, re.M)
    assert core is not None and [line.strip() for line in core[1].splitlines()] == [
        "$(BIN)/pip install --quiet -e .",
        "@touch $@",
    ]
    names = {re.split(r"[<>=\[ ;]", d, maxsplit=1)[0] for d in PYPROJECT["project"]["dependencies"]}
    optional = PYPROJECT["project"]["optional-dependencies"]
    for extra in ("chroma", "ray", "postgres", "aegra"):
        for requirement in optional[extra]:
            assert re.split(r"[<>=\[ ;]", requirement, maxsplit=1)[0] not in names, requirement
    assert not names & {"scipy", "pytest", "ruff", "mypy", "langgraph-cli"}
    assert "test-fast:" in makefile and '-m "not slow"' in makefile
