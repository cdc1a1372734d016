"""The runnable examples run offline and show what they claim to show."""

from __future__ import annotations

import ast
import asyncio
import importlib.util
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from langchain_core.messages import AIMessage, ToolMessage

import triqua
from triqua.schema import Status

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
#: The runnable examples (``_fake.py`` is their shared scripted model).
SCRIPTS = sorted(p for p in EXAMPLES.glob("*.py") if not p.name.startswith("_"))
EXPECTED = {"f1": Status.SUPPORTED, "f2": Status.SUPPORTED, "f3": Status.CONTRADICTED}


@pytest.fixture
def load(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """Import an example by file name, with ``examples/`` importable as it is when run."""
    monkeypatch.syspath_prepend(str(EXAMPLES))

    def importer(name: str) -> ModuleType:
        spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, spec.name, module)  # type hints resolve through it
        spec.loader.exec_module(module)
        return module

    yield importer
    sys.modules.pop("_fake", None)  # the examples' shared module, imported from examples/


def _statuses(report: triqua.Report) -> dict[str, Status]:
    return {r.claim_id: r.verdict.status for r in report.records}


@pytest.mark.slow
def test_as_node_example(load: object, capsys: pytest.CaptureFixture[str]) -> None:
    result = load("as_node").main()  # type: ignore[operator]
    assert _statuses(result["chat"]["report"]) == EXPECTED
    assert _statuses(result["pipeline"]["report"]) == EXPECTED
    assert result["pipeline"]["decision"] == "revise"  # 75% is below the bar
    assert "wrong: (Eiffel Tower, is located in, Berlin)" in capsys.readouterr().out


def test_as_tool_example(load: object) -> None:
    result = load("as_tool").main()  # type: ignore[operator]
    messages = result["messages"]
    call = next(m for m in messages if isinstance(m, AIMessage) and m.tool_calls)
    assert call.tool_calls[0]["name"] == "triqua_check"
    tool_message = next(m for m in messages if isinstance(m, ToolMessage))
    assert _statuses(tool_message.artifact) == EXPECTED
    final = messages[-1]
    assert isinstance(final, AIMessage) and not final.tool_calls
    assert "TriQuaScore 75.0%" in final.text and "f3 contradicted" in final.text


@pytest.mark.slow
def test_async_stream_example(load: object, capsys: pytest.CaptureFixture[str]) -> None:
    result = asyncio.run(load("async_stream").main())  # type: ignore[operator]
    assert _statuses(result["report"]) == EXPECTED
    assert result["called"]["fact_verified"] == 3 and result["called"]["scored"] == 1
    names = [e["event"] for e in result["events"]]
    assert names.count("fact_verified") == 3 and names[-1] == "scored"
    assert result["score"] == pytest.approx(0.75)
    out = capsys.readouterr().out
    assert "f3 contradicted · score so far 75.0%" in out


def test_offline_example_gives_real_verdicts_without_a_model(
    load: object, capsys: pytest.CaptureFixture[str]
) -> None:
    report = load("offline_check").main()  # type: ignore[operator]
    assert report.engine == "offline"
    statuses = _statuses(report)
    assert statuses["f1"] is Status.SUPPORTED and statuses["f2"] is Status.SUPPORTED
    assert statuses["f3"] is not Status.SUPPORTED  # Berlin is nowhere in the evidence
    out = capsys.readouterr().out
    assert "evidence: 'It is 330 metres tall'" in out
    assert "unverified: (The Eiffel Tower, is located in, Berlin)" in out


def test_examples_use_only_triquas_public_api() -> None:
    """No example imports or reaches a private triqua module or name (one starting with _)."""
    for path in sorted(EXAMPLES.glob("*.py")):  # _fake.py too
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("triqua"):
                parts = [*(node.module or "").split("."), *(a.name for a in node.names)]
            elif isinstance(node, ast.Import):
                parts = [
                    p for a in node.names if a.name.startswith("triqua") for p in a.name.split(".")
                ]
            elif isinstance(node, ast.Attribute) and _dotted(node).startswith("triqua."):
                parts = _dotted(node).split(".")
            else:
                continue
            private = [p for p in parts if p.startswith("_")]
            assert not private, f"{path.name}:{node.lineno} uses private {private}"


def _dotted(node: ast.expr) -> str:
    """``a.b.c`` for an attribute chain on a name, else ""."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else ""
    return ""


@pytest.mark.slow
def test_examples_run_as_scripts() -> None:
    """Every example runs as a script with no provider key and no model download."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env |= {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    assert {p.stem for p in SCRIPTS} >= {"as_node", "as_tool", "async_stream", "offline_check"}
    for path in SCRIPTS:
        run = subprocess.run(
            [sys.executable, str(path)],
            capture_output=True,
            text=True,
            timeout=240,
            check=False,
            env=env,
        )
        assert run.returncode == 0, f"{path.name}: {run.stderr[-2000:]}"
        assert "75.0%" in run.stdout, path.name
