"""Every command sends its model requests to the endpoint the user configured, and nowhere else.

Two real OpenAI-compatible HTTP servers listen on loopback: the configured one
(``TRIQUA_BASE_URL``) and a decoy set as the OpenAI client's own default (``OPENAI_BASE_URL``,
``OPENAI_API_BASE``), which stands for the public API. Every socket the process opens is
recorded too, so a request to any third place is caught as well.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from triqua.cli import app
from triqua.testing.endpoint import StubEndpoint, stub_endpoint

from .conftest import CURIE, FRANCE, make_responder

pytest.importorskip("langchain_openai", reason="pip install 'triqua[openai]'")

MODEL = "openai:stub-model"
EVIDENCE = (
    "Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie.\n\n"
    "France had a population of 64.5 million in 2025, excluding overseas departments.\n"
)
runner = CliRunner()


@dataclass
class Endpoints:
    """The configured endpoint, the decoy default and every address connected to."""

    configured: StubEndpoint
    decoy: StubEndpoint
    connected: list[Any]

    def address(self, stub: StubEndpoint) -> tuple[str, int]:
        host, port = stub.base_url.removeprefix("http://").removesuffix("/v1").split(":")
        return host, int(port)

    def assert_only_configured(self) -> None:
        """Requests reached the configured endpoint, none the decoy, no socket elsewhere."""
        assert self.configured.requests, "no request reached the configured endpoint"
        assert self.decoy.requests == []
        assert {tuple(a) for a in self.connected} == {self.address(self.configured)}


@pytest.fixture
def endpoints(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Endpoints]:
    """A configured endpoint in ``TRIQUA_BASE_URL``, a decoy as the client's default."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-dummy")
    connected: list[Any] = []
    original = socket.socket.connect

    def connect(self: socket.socket, address: Any) -> None:
        if self.family in (socket.AF_INET, socket.AF_INET6):
            connected.append(address[:2])
        original(self, address)

    with stub_endpoint(make_responder()) as configured, stub_endpoint(make_responder()) as decoy:
        monkeypatch.setenv("TRIQUA_BASE_URL", configured.base_url)
        monkeypatch.setenv("OPENAI_BASE_URL", decoy.base_url)
        monkeypatch.setenv("OPENAI_API_BASE", decoy.base_url)
        monkeypatch.setattr(socket.socket, "connect", connect)
        yield Endpoints(configured, decoy, connected)


@pytest.fixture
def evidence_file(tmp_path: Path) -> Path:
    path = tmp_path / "evidence.md"
    path.write_text(EVIDENCE, encoding="utf-8")
    return path


def _offline_run(evidence_file: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A run stored by the offline engine (no endpoint in its settings); its id."""
    with monkeypatch.context() as scoped:
        scoped.delenv("TRIQUA_BASE_URL")
        result = runner.invoke(app, ["check", CURIE, "-e", str(evidence_file), "--json"])
    assert result.exit_code == 0, result.output
    return str(json.loads(result.stdout)["run_id"])


@pytest.mark.slow
def test_check_asks_the_configured_endpoint_only(endpoints: Endpoints, evidence_file: Path) -> None:
    result = runner.invoke(app, ["check", CURIE, "-m", MODEL, "-e", str(evidence_file)])
    assert result.exit_code == 0, result.output
    endpoints.assert_only_configured()


def test_extract_asks_the_configured_endpoint_only(endpoints: Endpoints, tmp_path: Path) -> None:
    result = runner.invoke(app, ["extract", CURIE, "-m", MODEL, "-o", "facts.jsonl"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "facts.jsonl").read_text().count("Marie Curie") >= 1
    endpoints.assert_only_configured()


@pytest.mark.slow
def test_batch_asks_the_configured_endpoint_only(endpoints: Endpoints, tmp_path: Path) -> None:
    lines = [{"id": "a", "text": CURIE, "evidence": [EVIDENCE]}, {"id": "b", "text": FRANCE}]
    source = tmp_path / "answers.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    result = runner.invoke(app, ["batch", str(source), "-m", MODEL, "-o", "out.jsonl", "--quiet"])
    assert result.exit_code == 0, result.output
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 2
    endpoints.assert_only_configured()


def test_verify_asks_the_configured_endpoint_only(
    endpoints: Endpoints, evidence_file: Path, tmp_path: Path
) -> None:
    fact = {"subject": "Marie Curie", "relation": "won", "object": "Nobel Prize in Physics"}
    facts = tmp_path / "facts.jsonl"
    facts.write_text(json.dumps(fact) + "\n", encoding="utf-8")
    result = runner.invoke(
        app, ["verify", str(facts), CURIE, "-m", MODEL, "-e", str(evidence_file), "--summary"]
    )
    assert result.exit_code == 0, result.output
    endpoints.assert_only_configured()


@pytest.mark.slow
def test_regrade_of_an_offline_run_asks_the_configured_endpoint_only(
    endpoints: Endpoints, evidence_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_id = _offline_run(evidence_file, monkeypatch)
    assert endpoints.connected == []  # the offline check asked no one
    result = runner.invoke(app, ["regrade", run_id, "-m", MODEL, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["engine"] == "ChatOpenAI:stub-model"
    endpoints.assert_only_configured()


@pytest.mark.slow
def test_regrade_follows_the_endpoint_configured_now(
    endpoints: Endpoints, evidence_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run made against one endpoint is regraded against the one configured now."""
    with stub_endpoint(make_responder()) as earlier:
        with monkeypatch.context() as scoped:
            scoped.setenv("TRIQUA_BASE_URL", earlier.base_url)
            made = runner.invoke(
                app, ["check", CURIE, "-m", MODEL, "-e", str(evidence_file), "--json"]
            )
        assert made.exit_code == 0, made.output
        asked_before = len(earlier.requests)
        endpoints.connected.clear()
        result = runner.invoke(app, ["regrade", json.loads(made.stdout)["run_id"]])
    assert result.exit_code == 0, result.output
    assert len(earlier.requests) == asked_before
    endpoints.assert_only_configured()


def test_serve_checks_ask_the_configured_endpoint_only(
    endpoints: Endpoints, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page's checks run with ``serve``'s settings: one is run where the page would."""
    from triqua.web.server import CheckServer

    served: list[Any] = []

    def one_check(server: CheckServer, *args: Any, **kwargs: Any) -> None:
        fields = {"text": CURIE, "evidence": EVIDENCE}
        served.append(server.run_check(fields, lambda event: None))

    monkeypatch.setattr(CheckServer, "serve_forever", one_check)
    result = runner.invoke(app, ["serve", "--port", "0", "-m", MODEL, "--no-store"])
    assert result.exit_code == 0, result.output
    assert [report.engine for report in served] == ["ChatOpenAI:stub-model"]
    endpoints.assert_only_configured()


def test_a_stored_runs_settings_take_the_endpoint_configured_now(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What regrade and ``--resume`` rebuild a run's settings with."""
    from triqua.api import context_from_settings

    stored = {"model": MODEL, "base_url": "http://127.0.0.1:9/v1", "max_facts": 7}
    monkeypatch.setenv("TRIQUA_BASE_URL", "http://127.0.0.1:8000/v1")
    now = context_from_settings(stored)
    assert (now.base_url, now.model, now.max_facts) == ("http://127.0.0.1:8000/v1", MODEL, 7)
    monkeypatch.setenv("TRIQUA_BASE_URL", "")
    assert context_from_settings(stored).base_url == "http://127.0.0.1:9/v1"
    monkeypatch.delenv("TRIQUA_BASE_URL")
    assert context_from_settings({"model": MODEL}).base_url is None
