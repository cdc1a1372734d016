"""Chat-model providers: each prefix names its extra, and a missing package says how to fix it."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from triqua.cli import app
from triqua.engines.factory import chat_model, register_model
from triqua.engines.providers import PROVIDERS, missing_provider_error

from .conftest import PARIS

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]


def test_every_extra_in_the_table_is_declared_with_its_package() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    for prefix, provider in PROVIDERS.items():
        if provider.extra is None:
            continue
        declared = [re.split(r"[<>=\[ ]", r)[0] for r in extras[provider.extra]]
        assert provider.package in declared, prefix
    for prefix in ("openai", "anthropic", "ollama"):
        assert PROVIDERS[prefix].extra == prefix


@pytest.mark.parametrize(
    ("prefix", "module"), [("anthropic", "langchain_anthropic"), ("ollama", "langchain_ollama")]
)
def test_a_missing_provider_names_its_own_extra(
    prefix: str, module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # as if the package were not installed
    result = runner.invoke(app, ["check", PARIS, "-m", f"{prefix}:some-model", "--no-store"])
    assert result.exit_code == 2
    assert f"pip install 'triqua[{prefix}]'" in result.stderr
    assert "triqua[openai]" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, result.stderr


def test_installed_providers_raise_no_install_error() -> None:
    assert missing_provider_error("openai:gpt-4o-mini") is None  # a dev dependency
    assert missing_provider_error("no-prefix-model") is None


def test_ollama_builds_chat_ollama() -> None:
    pytest.importorskip("langchain_ollama", reason="pip install 'triqua[ollama]'")
    model = chat_model("ollama:llama3.1")  # builds without contacting a server
    assert type(model).__name__ == "ChatOllama"
    assert type(model).__module__.startswith("langchain_ollama")


@pytest.mark.slow
def test_regrade_with_a_failing_model_does_not_ask_for_model(
    scripted: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "runs.sqlite"
    name = register_model("providers-regrade", scripted())
    done = runner.invoke(app, ["check", PARIS, "-m", name, "--store", str(store), "--json"])
    assert done.exit_code == 0, done.output
    run_id = done.stdout.split('"run_id": "')[1].split('"')[0]
    monkeypatch.setitem(sys.modules, "langchain_anthropic", None)
    result = runner.invoke(
        app, ["regrade", run_id, "-m", "anthropic:some-model", "--store", str(store)]
    )
    assert result.exit_code == 2
    assert "pip install 'triqua[anthropic]'" in result.stderr
    assert "--model" not in result.stderr
