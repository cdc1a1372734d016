"""Secrets never stored: keys a provider echoes reach no report, store, checkpoint or HTML."""

from __future__ import annotations

import os
import secrets
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr
from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.engines.factory import register_model
from triqua.schema import ChunkFailure, Report, Status, Verdict
from triqua.schema.redaction import (
    MASK,
    error_text,
    redact,
    register_secret,
    register_secrets_of,
    register_url_secrets,
)
from triqua.testing import ScriptedChatModel, fenced, shown_text

from .conftest import CURIE, FRANCE, PARIS, decompose_by_table


def _key(prefix: str) -> str:
    return prefix + secrets.token_hex(20)


# --- key shapes and sources ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "key",
    [
        "sk-" + "a1B2" * 10,  # OpenAI (legacy)
        "sk-proj-" + "Zz9_-x" * 8,  # OpenAI project key
        "sk-ant-api03-" + "q" * 40,  # Anthropic
        "tvly-" + "dev-" + "k" * 24,  # Tavily
        "hf_" + "A" * 34,  # Hugging Face
        "ghp_" + "b" * 36,  # GitHub
        "AIza" + "c" * 35,  # Google
    ],
)
def test_key_shapes_are_masked(key: str) -> None:
    text = f"Error code: 401 - Incorrect API key provided: {key}. See the docs."
    out = redact(text)
    assert key not in out and MASK in out
    assert out.startswith("Error code: 401 - Incorrect API key provided: ")


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Authorization: Bearer abc.def-ghi_jkl", "Authorization: Bearer "),
        ("GET /search?api_key=9f8e7d6c5b4a&q=x", "GET /search?api_key="),
        ('{"x-api-key": "zzzzzzzzzzzz"}', '{"x-api-key": "'),
        ("access_token=opaque-value-123", "access_token="),
        ("password: hunter2hunter2", "password: "),
    ],
)
def test_assignments_keep_the_name_and_mask_the_value(text: str, kept: str) -> None:
    out = redact(text)
    assert out.startswith(kept) and MASK in out
    assert text[len(kept) :].strip("\"'}") not in out


@pytest.mark.parametrize(
    "text",
    [
        "Authorization: Bearer abc.def-ghi_jkl",
        "GET /v1?api_key=9f8e7d6c5b4a&q=x",
        "password: hunter2hunter2",
        "auth_token=opaque-value-123; secret: s3cr3t-value",
    ],
)
def test_redacting_twice_changes_nothing(text: str) -> None:
    once = redact(text)
    assert redact(once) == once
    assert "]]" not in redact(redact(redact(once)))


def test_a_stored_error_keeps_one_mask_however_often_it_is_saved_and_read() -> None:
    verdict = Verdict(status=Status.INSUFFICIENT, error="401: Bearer abcdefgh12345678 refused")
    for _ in range(3):  # each store round trip validates (redacts) and dumps (redacts) it
        verdict = Verdict.model_validate_json(verdict.model_dump_json())
    assert verdict.error == f"401: Bearer {MASK} refused"


def test_environment_secrets_are_masked_whatever_their_shape(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MYCORP_API_KEY", "plain-looking-value-1")
    monkeypatch.setenv("SERVICE_TOKEN", "another.plain.value")
    monkeypatch.setenv("APP_SECRET", "third-plain-value")
    monkeypatch.setenv("SHORT_TOKEN", "abc")  # under 4 characters: not a secret
    monkeypatch.setenv("SEVEN_API_KEY", "k7Xy9Qp")  # 4-7 characters: masked as a whole word
    monkeypatch.setenv("DEMO_PASSWORD", "test")
    monkeypatch.setenv("TRIQUA_MODEL", "plain-looking-value-1-model")  # not a secret's name
    out = redact("a plain-looking-value-1, another.plain.value, third-plain-value, abc")
    assert out == f"a {MASK}, {MASK}, {MASK}, abc"
    assert redact("key=k7Xy9Qp; the latest test") == f"key={MASK}; the latest {MASK}"


def test_registered_settings_and_client_secrets_are_masked() -> None:
    register_secret("registered-secret-value")
    register_url_secrets("http://user:url-password-99@llm.local/v1?token=query-token-77")
    model = ScriptedChatModel(responder=lambda tool, prompt: {})
    model.__dict__["api_key"] = SecretStr("model-field-secret")  # not a field: not found
    register_secrets_of(model)
    out = redact("registered-secret-value url-password-99 query-token-77 model-field-secret")
    assert out == f"{MASK} {MASK} {MASK} model-field-secret"
    register_secret("short")  # ignored: too short to be safe to mask
    assert redact("a short text") == "a short text"


def test_ordinary_text_is_left_alone() -> None:
    text = "The task-force asked: risk-averse desk-bound skeptics tokens: 5, keys are rare."
    assert redact(text) == text
    assert redact("") == ""


def test_error_text_is_type_and_redacted_message(monkeypatch: pytest.MonkeyPatch) -> None:
    key = _key("sk-")
    monkeypatch.setenv("OPENAI_API_KEY", key)
    assert error_text(PermissionError(f"bad key {key}")) == f"PermissionError: bad key {MASK}"
    assert error_text(TimeoutError()) == "TimeoutError"


def test_schema_fields_are_redacted_when_set_and_when_dumped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    key = _key("plain")
    monkeypatch.setenv("VENDOR_API_KEY", key)
    verdict = Verdict(status=Status.INSUFFICIENT, error=f"401 {key}", raw_output=key)
    assert key not in (verdict.error or "") and key not in (verdict.raw_output or "")
    copied = Verdict(status=Status.INSUFFICIENT).model_copy(update={"error": key})
    assert key not in copied.model_dump_json() and key not in str(copied.model_dump())
    report = Report(
        errors=[key],
        failed_chunks=[
            ChunkFailure.model_validate(
                {"chunk_index": 0, "span": {"start": 0, "end": 1}, "text": "x", "error": key}
            )
        ],
    )
    assert key not in report.model_dump_json()


# --- a provider that echoes the key, through the CLI ------------------------------------------


def _leaky_model(key: str, token: str) -> ScriptedChatModel:
    """A provider answering 401 with the key in the body, and echoing it in raw output."""
    body = (
        f"Error code: 401 - {{'error': {{'message': 'Incorrect API key provided: {key}. "
        f"(header X-Org-Token: {token})', 'type': 'invalid_request_error', "
        "'code': 'invalid_api_key'}}"
    )

    def respond(tool: str, prompt: str) -> dict[str, Any] | str:
        if tool == "ExtractedFacts":
            text = shown_text(prompt)
            if CURIE in text:
                raise PermissionError(body)  # decomposition fails: a failed chunk
            return decompose_by_table(text)
        if FRANCE.split(",")[0] in prompt and "France has population" in fenced(prompt, "FACT"):
            raise PermissionError(body)  # verification fails: an error on the verdict
        # Raw output that quotes the key (a model repeating its prompt or headers).
        return {"status": "insufficient_evidence", "rationale": f"saw key {key} and {token}"}

    return ScriptedChatModel(responder=respond)


def _files_under(*roots: Path) -> list[Path]:
    return [p for root in roots for p in root.rglob("*") if p.is_file()]


@pytest.mark.slow
def test_keys_echoed_by_a_provider_are_written_nowhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = _key("sk-proj-")
    token = _key("opaque")  # no known shape: found only as an environment secret
    monkeypatch.setenv("OPENAI_API_KEY", key)
    monkeypatch.setenv("ORG_TOKEN", token)
    name = register_model("leaky-provider", _leaky_model(key, token))
    evidence = tmp_path / "evidence.txt"
    evidence.write_text(f"{PARIS} {FRANCE}", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    store = out / "runs.sqlite"
    html = out / "report.html"
    result = CliRunner().invoke(
        app,
        [
            "check",
            f"{PARIS} {FRANCE} {CURIE}",
            "-m",
            name,
            "-e",
            str(evidence),
            "--chunk-size",
            "90",
            "--json",
            "--html",
            str(html),
            "--store",
            str(store),
            "--no-cache",
        ],
    )
    assert result.exit_code in (0, 3), result.output
    assert '"failed_chunks"' in result.stdout and MASK in result.stdout  # the errors are there
    written = _files_under(out, Path(os.environ["TRIQUA_HOME"]))
    assert html in written and store in written
    # The provider's error did reach what the run wrote; only its key is masked.
    assert b"Incorrect API key provided" in store.read_bytes()
    assert b"Incorrect API key provided" in html.read_bytes()
    for secret in (key, token):
        needle = secret.encode()
        hits = [str(p) for p in written if needle in p.read_bytes()]
        assert hits == []
        assert secret not in result.stdout and secret not in result.stderr


@pytest.mark.slow
def test_an_interrupted_run_keeps_no_key_in_its_checkpoints(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A run stopped mid-way keeps its checkpoints (to resume): they hold the errors, no key."""
    key = _key("sk-ant-api03-")
    monkeypatch.setenv("ANTHROPIC_API_KEY", key)
    judged_france = threading.Event()

    def respond(tool: str, prompt: str) -> dict[str, Any] | str:
        if tool == "ExtractedFacts":
            text = shown_text(prompt)
            if CURIE in text:
                raise PermissionError(f"401 invalid x-api-key {key}")
            return decompose_by_table(text)
        fact = fenced(prompt, "FACT")
        if "France has population" in fact:
            judged_france.set()
            raise PermissionError(f"401 invalid x-api-key {key}")
        judged_france.wait(10)
        time.sleep(0.3)  # the failed fact's writes reach the checkpoint first
        raise KeyboardInterrupt  # Ctrl-C while the last fact is judged

    home = Path(os.environ["TRIQUA_HOME"])
    with pytest.raises(KeyboardInterrupt):
        triqua.check(
            f"{PARIS} {FRANCE} {CURIE}",
            model=ScriptedChatModel(responder=respond),
            documents=[PARIS, FRANCE],
            durable=True,
            store=True,
            chunk_size=90,
            max_output_retries=0,
            retry_wait=0.0,
            cache=False,
        )
    written = _files_under(home)
    checkpoints = b"".join(p.read_bytes() for p in written if p.name.startswith("checkpoints"))
    assert b"401 invalid x-api-key" in checkpoints  # the errors were checkpointed
    assert [str(p) for p in written if key.encode() in p.read_bytes()] == []
