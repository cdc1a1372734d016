"""The runnable examples run offline and show what they claim to show."""

from __future__ import annotations

import asyncio
import importlib.util
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
def test_async_stream_example(load: object) -> None:
    result = asyncio.run(load("async_stream").main())  # type: ignore[operator]
    assert _statuses(result["report"]) == EXPECTED
    names = [e["event"] for e in result["events"]]
    assert names.count("fact_verified") == 3 and names[-1] == "scored"
    assert result["tracker"].score == pytest.approx(0.75)


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


@pytest.mark.slow
def test_examples_run_as_scripts() -> None:
    for name in ("as_node", "as_tool", "async_stream"):
        run = subprocess.run(
            [sys.executable, str(EXAMPLES / f"{name}.py")],
            capture_output=True,
            text=True,
            timeout=240,
            check=False,
        )
        assert run.returncode == 0, run.stderr[-2000:]
        assert "75.0%" in run.stdout
