"""One request per check: its settings, documents and chunks are made once, at the API.

Counted on the real functions, wherever a module imported them: a check from the command
line builds its settings once, converts its documents once and cuts its text once; a
check with a chat model loads no local model it does not use; a resume with other settings
is refused once, at resume, before any step of the graph.
"""

from __future__ import annotations

import inspect
import json
import sys
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import triqua
import triqua.api
import triqua.core.text.chunking
import triqua.core.text.inputs
import triqua.core.text.language
import triqua.core.text.long_sentences
import triqua.models.embeddings
import triqua.models.entailment
import triqua.models.vectors
import triqua.sentences
import triqua.tools.documents
from triqua.cli import app
from triqua.context import Context
from triqua.engines.factory import register_model
from triqua.runtime.resources.spec import SettingsChangedError

from .conftest import CURIE, FRANCE, PARIS

runner = CliRunner()
LONG = f"{CURIE}\n\n{FRANCE}\n\n{PARIS}"  # three chunks at chunk_size=90


def spy(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, calls: Counter[str]) -> None:
    """Count the calls of ``owner.name``: on ``owner`` and in every module that imported it."""
    real = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[name] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    for module in list(sys.modules.values()):
        if not getattr(module, "__name__", "").startswith("triqua"):
            continue
        for attribute, value in list(vars(module).items()):
            if value is real:
                monkeypatch.setattr(module, attribute, counted)


def sentence_parses(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often each text is cut into sentences from now on (the sentencizer's calls)."""
    parsed: Counter[str] = Counter()
    nlp = triqua.sentences.blank_sentencizer()

    def parse(text: str) -> Any:
        parsed[text] += 1
        return nlp(text)

    monkeypatch.setattr(triqua.sentences, "blank_sentencizer", lambda: parse)
    triqua.sentences._sentence_spans.cache_clear()
    return parsed


@pytest.mark.parametrize(
    ("blocking", "coroutine"),
    [
        (triqua.api.check, triqua.api.acheck),
        (triqua.api.verify_facts, triqua.api.averify_facts),
        (triqua.api.extract_facts, triqua.api.aextract_facts),
    ],
)
def test_check_is_a_plain_function_with_its_coroutines_signature(
    blocking: Any, coroutine: Any
) -> None:
    assert inspect.isfunction(blocking) and not hasattr(blocking, "__wrapped__")
    assert blocking.__code__.co_name == blocking.__name__  # defined as itself, not wrapped
    assert inspect.signature(blocking).parameters == inspect.signature(coroutine).parameters


@pytest.mark.parametrize("terminal", [False, True], ids=["piped", "progress-bar"])
def test_a_cli_check_builds_settings_converts_documents_and_splits_the_text_once(
    scripted: Any, evidence: Path, monkeypatch: pytest.MonkeyPatch, terminal: bool
) -> None:
    if terminal:  # the progress bar's path, which once cut the text twice more
        monkeypatch.setattr(Console, "is_terminal", property(lambda self: True))
    calls: Counter[str] = Counter()
    spy(monkeypatch, triqua.api, "make_context", calls)
    spy(monkeypatch, Context, "validate", calls)
    spy(monkeypatch, triqua.tools.documents, "load_documents", calls)
    spy(monkeypatch, triqua.core.text.inputs, "coerce_documents", calls)
    spy(monkeypatch, triqua.core.text.inputs, "validate_text", calls)
    spy(monkeypatch, triqua.core.text.inputs, "check_evidence_size", calls)
    spy(monkeypatch, triqua.core.text.language, "language_problem", calls)
    spy(monkeypatch, triqua.core.text.long_sentences, "chunks_to_check", calls)
    spy(monkeypatch, triqua.core.text.chunking, "split_text", calls)
    parsed = sentence_parses(monkeypatch)
    model = register_model("request-once", scripted())

    result = runner.invoke(
        app, ["check", LONG, "-e", str(evidence), "-m", model, "--json", "--chunk-size", "90"]
    )

    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)["records"]) == 3
    assert ("decompose" in result.stderr) is terminal  # the bar was drawn, fed by events
    assert calls["make_context"] == 1 and calls["validate"] == 1  # settings: built once
    assert calls["load_documents"] == 1 and calls["coerce_documents"] == 1  # converted once
    assert calls["check_evidence_size"] == 1
    assert calls["validate_text"] == 1 and calls["language_problem"] == 1  # validated once
    assert calls["chunks_to_check"] == 1 and calls["split_text"] == 1  # the text cut once
    assert parsed and max(parsed.values()) == 1  # no text is cut into sentences twice


def model_loads(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Counts of every way a check loads a local model: ONNX sessions, spaCy, their getters."""
    import onnxruntime
    import spacy

    import triqua.nlp.pipeline

    calls: Counter[str] = Counter()
    spy(monkeypatch, onnxruntime, "InferenceSession", calls)
    spy(monkeypatch, spacy, "load", calls)
    spy(monkeypatch, triqua.models.embeddings, "get_embedder", calls)
    spy(monkeypatch, triqua.models.vectors, "cosines", calls)
    spy(monkeypatch, triqua.models.entailment, "get_entailment", calls)
    spy(monkeypatch, triqua.nlp.pipeline, "load_nlp", calls)
    return calls


def test_a_check_with_a_chat_model_creates_no_onnx_session(
    scripted: Any, evidence: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The embedder and the second opinion load when they read, and here nothing needs them.

    Each fact's evidence sheet has one candidate sentence (no ranking by embeddings), and
    the judge's quotes state their units (the entailment judge is not asked).
    """
    loads = model_loads(monkeypatch)
    model = register_model("no-onnx", scripted())

    result = runner.invoke(
        app, ["check", f"{FRANCE} {CURIE}", "-e", str(evidence), "-m", model, "--json"]
    )

    assert result.exit_code == 0, result.output
    statuses = [r["verdict"]["status"] for r in json.loads(result.stdout)["records"]]
    assert statuses == ["contradicted", "supported"]
    assert loads["InferenceSession"] == 0
    assert loads["cosines"] == 0 and loads["get_embedder"] == 0 and loads["get_entailment"] == 0


def test_an_llm_only_check_loads_no_local_model(
    scripted: Any, evidence: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No second opinion (``--verifier rules``), element graphs from the facts: no spaCy."""
    loads = model_loads(monkeypatch)
    monkeypatch.setenv("TRIQUA_ELEMENTS", "facts")
    model = register_model("llm-only", scripted())

    result = runner.invoke(
        app,
        ["check", f"{FRANCE} {CURIE}", "-e", str(evidence), "-m", model, "--verifier", "rules"],
    )

    assert result.exit_code == 0, result.output
    assert loads["InferenceSession"] == 0 and loads["load"] == 0
    assert loads["load_nlp"] == 0 and loads["get_embedder"] == 0


@pytest.mark.usefixtures("per_fact_verification")
def test_a_resume_with_other_settings_is_refused_at_resume_before_any_step(
    scripted: Any,
) -> None:
    model = scripted()
    text = f"{FRANCE} {CURIE} {PARIS}"

    def stop(event: dict[str, Any]) -> None:
        if event.get("event") == "fact_verified":
            raise RuntimeError("stopped after one fact")

    with pytest.raises(RuntimeError, match="stopped after one fact"):
        triqua.check(
            text, documents=[FRANCE, CURIE, PARIS], model=model, durable=True, run_id="changed",
            on_event=stop, cache=False, chunk_size=0,
        )  # fmt: skip
    with pytest.raises(SettingsChangedError, match="started with other settings") as refused:
        triqua.check(resume="changed", model=model, delta=5)
    steps = {frame.name for frame in traceback.extract_tb(refused.tb)}
    assert "resume_run" in steps  # refused by the resume itself, before any step ran
    assert not {"retrieve", "verify", "batch_resources", "node_failed"} & steps
    name = register_model("resumed", model)
    cli = runner.invoke(app, ["check", "--resume", "changed", "-m", name, "--delta", "5"])
    assert cli.exit_code == 2
    assert cli.stderr.startswith("error: run changed was started with other settings")
    assert len(cli.stderr.strip().splitlines()) == 1
    # The refusal changed nothing: resumed with its own settings, the run finishes.
    report = triqua.check(resume="changed", model=model)
    assert [r.claim_id for r in report.records] == ["f1", "f2", "f3"]
