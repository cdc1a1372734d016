"""Models behind an OpenAI-compatible endpoint (vLLM, llama.cpp server), via a local stub."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

import triqua
from triqua.core.report.records import resolved_context
from triqua.prompts import shown_sentences
from triqua.schema import Status
from triqua.testing import shown_parts
from triqua.testing.endpoint import stub_endpoint

from .conftest import CURIE, FRANCE, make_responder

# About per-fact verification calls (counted, faulted or stalled one by one).
pytestmark = pytest.mark.usefixtures("per_fact_verification")

pytest.importorskip("langchain_openai", reason="pip install 'triqua[openai]'")

DOCS = [
    "France had a population of 64.5 million in 2025, excluding overseas departments.",
    "Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie.",
]


@pytest.fixture
def endpoint() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    with stub_endpoint(make_responder()) as stub:
        yield stub.base_url, stub.requests


@pytest.mark.slow
def test_check_through_an_openai_compatible_endpoint(
    endpoint: tuple[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    base_url, requests = endpoint
    monkeypatch.setenv("OPENAI_API_KEY", "sk-dummy")
    report = triqua.check(
        f"{FRANCE} {CURIE}", documents=DOCS, model="openai:stub-model", base_url=base_url
    )
    france, curie = report.records
    assert france.verdict.status is Status.CONTRADICTED
    assert france.verdict.wrong_components == ["(point in time, 2026)"]
    assert curie.verdict.status is Status.SUPPORTED
    assert report.engine == "ChatOpenAI:stub-model"
    assert report.spec.models["verify"] == "ChatOpenAI:stub-model"
    assert {r["path"] for r in requests} == {"/v1/chat/completions"}
    assert {r["auth"] for r in requests} == {"Bearer sk-dummy"}
    assert {r["body"]["model"] for r in requests} == {"stub-model"}
    asked = {r["body"]["response_format"]["json_schema"]["name"] for r in requests}
    assert asked == {"ExtractedFacts", "Judgement"}
    assert report.usage.model_calls == len(requests)
    assert report.usage.input_tokens == 100 * len(requests)  # the endpoint's own counts


def test_environment_settings_select_the_endpoint(
    endpoint: tuple[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    base_url, requests = endpoint
    monkeypatch.setenv("OPENAI_API_KEY", "sk-dummy")
    monkeypatch.setenv("TRIQUA_MODEL", "openai:stub-model")
    monkeypatch.setenv("TRIQUA_BASE_URL", base_url)
    report = triqua.check(CURIE, documents=DOCS)
    assert report.records[0].verdict.status is Status.SUPPORTED
    assert requests and report.engine == "ChatOpenAI:stub-model"


@pytest.mark.slow
def test_a_plausible_liar_behind_a_real_openai_client_gets_no_false_support(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """The user's way: `triqua check -m openai:…` with TRIQUA_BASE_URL, a judge that lies."""
    from typer.testing import CliRunner

    from triqua.cli import app
    from triqua.testing.liars import liar_responder, plausible_lies

    lies = plausible_lies(7)
    evidence = []
    for i, document in enumerate(lies.documents):
        (tmp_path / f"doc{i}.txt").write_text(document, "utf-8")
        evidence += ["-e", str(tmp_path / f"doc{i}.txt")]
    monkeypatch.setenv("OPENAI_API_KEY", "sk-dummy")
    with stub_endpoint(liar_responder(lies)) as stub:
        monkeypatch.setenv("TRIQUA_BASE_URL", stub.base_url)
        result = CliRunner().invoke(
            app, ["check", lies.text, "-m", "openai:stub-model", *evidence, "--json"]
        )
    requests = stub.requests
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    units = [u for r in report["records"] for u in r["verdict"]["unit_verdicts"]]
    assert len(report["records"]) == len(lies.facts) and requests
    false = [
        u["unit"] for u in units if u["status"] == "supported" and u["unit"] in lies.false_units
    ]
    assert false == []
    assert all(u["grounding"] for u in units if u["unit"] in lies.false_units)


_MOVE = re.compile(r"(Ada Lovelace) moved to (City\d+) in (\d{4})\.")


def _decompose_every_move(tool: str, prompt: str) -> dict[str, Any] | str:
    """Every "moved to" sentence of the prompt's TEXT blocks as one fact, by its number."""
    if tool != "ExtractedFacts":
        return make_responder()(tool, prompt)
    rows = [
        [number, m[1], "moved to", m[2], "point in time", m[3]]
        for number, sentence in enumerate(shown_sentences(prompt), 1)
        if (m := _MOVE.fullmatch(sentence))
    ]
    return {"f": rows}


@pytest.mark.slow
def test_a_bio_is_decomposed_in_triquas_chunks_each_after_its_previous(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A real OpenAI client against a local endpoint: the 1,300-character text goes in one
    # call, as ≥ 3 chunks of ≤ 450 characters, each after the first shown with its PREVIOUS;
    # every record's context is the PREVIOUS its chunk was shown with.
    bio = " ".join(f"Ada Lovelace moved to City{i} in {1820 + i}." for i in range(34))
    assert 1_250 <= len(bio) <= 1_400
    monkeypatch.setenv("OPENAI_API_KEY", "sk-dummy")
    with stub_endpoint(_decompose_every_move) as stub:
        report = triqua.check(
            bio, documents=[bio], model="openai:stub-model", base_url=stub.base_url, cache=False
        )
    requests = stub.requests
    asked = [
        r["body"]["messages"][-1]["content"]
        for r in requests
        if r["body"]["response_format"]["json_schema"]["name"] == "ExtractedFacts"
    ]
    assert len(asked) == 1
    parts = shown_parts(asked[0])
    assert len(parts) >= 3 and all(len(text) <= 450 for _, text in parts)
    assert parts[0][0] is None
    pairs = zip(parts[1:], parts[:-1], strict=True)
    assert all(previous == before for (previous, _), (_, before) in pairs)
    assert len(report.records) == 34
    shown = {text: previous for previous, text in parts}
    for record in report.records:
        (part,) = [text for text in shown if record.fact.source_text in text]
        context = resolved_context(None, shown[part])
        assert " ".join(record.context.split()) == " ".join(context.split())
