"""LangGraph Studio: langgraph.json, the schemas it shows, interrupt-and-edit, the dev server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.errors import NodeError

import triqua
from triqua.context import Context
from triqua.graph.ingest import build_ingest_graph
from triqua.graph.main import build_graph
from triqua.graph.verification import build_verification_graph, node_failed
from triqua.runtime.resources.spec import SettingsChangedError
from triqua.schema import Status
from triqua.state import InputState

from .conftest import CURIE, FRANCE, PARIS
from .services import free_port, stop_group

ROOT = Path(__file__).resolve().parents[1]
DOCS = [
    "France had a population of 64.5 million in 2025, excluding overseas departments.",
    "Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie.",
]


def test_langgraph_json_registers_the_check_and_ingest_graphs() -> None:
    config = json.loads((ROOT / "langgraph.json").read_text())
    assert config["dependencies"] == ["."]
    assert set(config["graphs"]) == {"triqua", "triqua_ingest"}
    for spec in config["graphs"].values():
        path, _, variable = spec.partition(":")
        assert (ROOT / path).is_file() and variable == "graph"


def test_studio_inputs_are_valid_graph_inputs() -> None:
    inputs = ROOT / "studio" / "inputs"
    check_keys = set(InputState.__annotations__)
    for path in inputs.glob("check_*.json"):
        data = json.loads(path.read_text())
        keys = set(data)
        if path.name.endswith(".context.json"):
            Context.from_mapping(data)  # a valid set of Studio settings
        else:
            assert keys <= check_keys and "text" in keys, path.name
    ingest = json.loads((inputs / "ingest_corpus.json").read_text())
    assert (ROOT / ingest["paths"][0]).is_dir()


def test_context_schema_describes_every_setting() -> None:
    schema = build_graph().get_context_jsonschema()
    assert schema is not None
    properties = schema["properties"]
    assert {"model", "retriever", "collection", "chroma_url", "delta"} <= set(properties)
    assert all(prop.get("description") for prop in properties.values())


def test_check_graph_exposes_input_and_output_schemas() -> None:
    graph = build_graph()
    assert {"text", "question", "documents", "spec_overrides"} <= set(
        graph.get_input_jsonschema()["properties"]
    )
    assert set(graph.get_output_jsonschema()["properties"]) == {"report"}


def _interrupted_run(model: Any) -> tuple[Any, dict[str, Any]]:
    graph = build_graph(checkpointer=InMemorySaver(), interrupt_before=["verify_batch"])
    config = {"configurable": {"thread_id": "studio-edit"}}
    graph.invoke(
        {"text": f"{FRANCE} {CURIE}", "documents": DOCS},
        config=config,
        context=triqua.make_context(model=model),
    )
    return graph, config


@pytest.mark.slow
def test_interrupt_before_verification_then_edit_a_fact(scripted: Any) -> None:
    model = scripted()
    graph, config = _interrupted_run(model)
    state = graph.get_state(config)
    tasks = state.values["tasks"]
    assert state.next == ("verify_batch",)  # two one-fact sentences, judged as one batch
    assert len(tasks) == 2 and tasks[0]["batch"] == tasks[1]["batch"]
    france = tasks[0]["fact"]
    edited = france.model_copy(update={"qualifiers": [france.qualifiers[1]]})  # drop "2026"
    tasks[0] = {**tasks[0], "fact": edited}
    graph.update_state(config, {"tasks": tasks}, as_node="route")
    result = graph.invoke(None, config=config, context=triqua.make_context(model=model))
    records = {r.claim_id: r for r in result["report"].records}
    assert records["f1"].fact.qualifiers == edited.qualifiers
    assert records["f1"].verdict.status is Status.SUPPORTED  # the wrong year is gone
    assert result["report"].score == pytest.approx(1.0)


def test_a_paused_run_resumed_with_other_settings_is_refused(scripted: Any) -> None:
    model = scripted()
    # Resumed with another δ or element graph (a server's defaults, say): the verdicts would
    # not be what the run's spec says, so verification refuses to go on.
    for change in ({"delta": 5}, {"elements": "facts"}):
        graph, config = _interrupted_run(model)
        assert graph.get_state(config).next == ("verify_batch",)
        with pytest.raises(ValueError, match="started with other settings"):
            graph.invoke(None, config=config, context=triqua.make_context(model=model, **change))
    # Settings that decide nothing in the spec may change; the run then finishes.
    graph, config = _interrupted_run(model)
    same = triqua.make_context(model=model, max_concurrency=1)
    result = graph.invoke(None, config=config, context=same)
    assert result["report"].records and result["report"].spec.verdict_policy.delta == 3


def test_a_refused_resume_ends_at_the_first_step_and_is_never_recorded(scripted: Any) -> None:
    """The batch's first node refuses, and its error handler raises the refusal again.

    Recorded on the members instead, the batch would go on to judge (and refuse again)
    until a node without a handler let the refusal through.
    """
    model = scripted()
    graph, config = _interrupted_run(model)
    tasks = graph.get_state(config).values["tasks"]
    batch = {"run_id": tasks[0]["run_id"], "batch": tasks[0]["batch"], "route": "simple"}
    other = triqua.make_context(model=model, delta=5)
    with pytest.raises(SettingsChangedError, match="started with other settings") as refused:
        build_verification_graph().invoke({**batch, "members": tasks}, context=other)
    steps = {frame.name for frame in traceback.extract_tb(refused.tb)}
    assert "retrieve" in steps and not {"verify", "record"} & steps
    with pytest.raises(SettingsChangedError):  # the handler itself: raised, not turned into a step
        node_failed(
            {**batch, "members": tasks}, NodeError(node="verify", error=SettingsChangedError("x"))
        )
    failed = node_failed({**batch, "members": tasks}, NodeError("verify", RuntimeError("boom")))
    assert failed.goto == "record"  # any other failure is still recorded on the members


def test_edit_a_fact_sent_as_json_like_studio_does(scripted: Any) -> None:
    model = scripted()
    graph, config = _interrupted_run(model)
    tasks = graph.get_state(config).values["tasks"]
    as_json = [{**t, "fact": t["fact"].model_dump(mode="json")} for t in tasks]
    as_json[0]["fact"]["qualifiers"] = as_json[0]["fact"]["qualifiers"][1:]
    graph.update_state(config, {"tasks": as_json}, as_node="route")
    result = graph.invoke(None, config=config, context=triqua.make_context(model=model))
    assert result["report"].records[0].verdict.status is Status.SUPPORTED


def _replay_from_route(graph: Any, config: dict[str, Any], context: Context) -> Any:
    """Re-run a finished thread from the checkpoint whose next step is ``route``."""
    before_route = next(s for s in graph.get_state_history(config) if s.next == ("route",))
    return graph.invoke(None, config=before_route.config, context=context)


def test_a_second_check_on_a_used_thread_reports_only_its_own_facts(scripted: Any) -> None:
    """Studio, a LangGraph server or a caller's checkpointer reuse a thread for a new check."""
    context = triqua.make_context(model=scripted())
    graph = build_graph(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "two-checks"}}
    first = graph.invoke({"text": CURIE, "documents": DOCS}, config=config, context=context)
    second = graph.invoke({"text": FRANCE, "documents": DOCS}, config=config, context=context)
    first_report, report = first["report"], second["report"]
    assert [r.claim_text[:13] for r in first_report.records] == ["(Marie Curie,"]
    assert [r.claim_text[:8] for r in report.records] == ["(France,"]  # not Curie's again
    assert report.run_id != first_report.run_id  # a new check, not the first one's id
    assert report.score == pytest.approx(2 / 3)
    values = graph.get_state(config).values
    assert len(values["facts"]) == len(values["records"]) == len(values["tasks"]) == 1


@pytest.mark.slow
def test_replay_of_a_corpus_run_from_a_checkpoint(tmp_path: Path, scripted: Any) -> None:
    context = triqua.make_context(
        model=scripted(), retriever="chroma", collection="seed", chroma_path=str(tmp_path)
    )
    build_ingest_graph().invoke({"paths": [str(ROOT / "studio" / "corpus")]}, context=context)
    graph = build_graph(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "replay"}}
    first = graph.invoke({"text": PARIS}, config=config, context=context)["report"]
    again = _replay_from_route(graph, config, context)["report"]
    assert again.run_id == first.run_id  # the same run, re-verified from the checkpoint
    assert [r.verdict.status for r in again.records] == [r.verdict.status for r in first.records]
    assert again.records[0].evidence and again.spec.mode.value == "bounded_search"


def test_replay_of_a_supplied_documents_run_keeps_its_evidence(scripted: Any) -> None:
    context = triqua.make_context(model=scripted())
    graph = build_graph(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "replay-supplied"}}
    graph.invoke({"text": CURIE, "documents": DOCS}, config=config, context=context)
    try:
        again = _replay_from_route(graph, config, context)["report"]
    except ValueError as exc:  # refusing clearly is acceptable too
        assert "resources" in str(exc)
        return
    assert again.records[0].evidence and again.records[0].verdict.status is Status.SUPPORTED


def test_ingest_graph_seeds_a_collection_from_the_studio_corpus(tmp_path: Path) -> None:
    graph = build_ingest_graph()
    context = Context(chroma_path=str(tmp_path / "chroma"))
    out = graph.invoke(
        {"paths": [str(ROOT / "studio" / "corpus")], "collection": "seed"}, context=context
    )
    files = list((ROOT / "studio" / "corpus").glob("*.md"))
    assert out["summary"]["collection"] == "seed"
    assert [f["status"] for f in out["summary"]["files"]] == ["added"] * len(files)
    assert {"name": "seed", "chunks": out["summary"]["collection_count"]} in out["collections"]
    by_context = Context(chroma_path=context.chroma_path, collection="seed")
    again = graph.invoke({"paths": [str(ROOT / "studio" / "corpus")]}, context=by_context)
    assert again["summary"]["chunks_added"] == 0  # unchanged files are not re-written
    with pytest.raises(ValueError, match="give 'paths'"):
        graph.invoke({"paths": []}, context=context)


# --- the dev server (slow: it starts `langgraph dev` in a subprocess) -------------------


def _server_config(directory: Path) -> Path:
    """The repository's langgraph.json with graph paths made absolute (cwd is elsewhere)."""
    config = json.loads((ROOT / "langgraph.json").read_text())
    config["dependencies"] = [str(ROOT)]
    config["graphs"] = {
        name: str(ROOT / spec.split(":")[0]) + ":" + spec.split(":")[1]
        for name, spec in config["graphs"].items()
    }
    path = directory / "langgraph.json"
    path.write_text(json.dumps(config))
    return path


@pytest.fixture
def dev_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """`langgraph dev` on a free loopback port, run from a temp folder with its log there."""
    binary = Path(sys.executable).with_name("langgraph")
    if not binary.exists():
        pytest.skip("langgraph-cli is not installed: pip install 'langgraph-cli[inmem]'")
    work = tmp_path_factory.mktemp("langgraph-dev")
    port = free_port()
    config = str(_server_config(work))
    log = (work / "server.log").open("wb")
    process = subprocess.Popen(
        [
            str(binary),
            "dev",
            "--no-browser",
            "--no-reload",
            "--port",
            str(port),
            "--config",
            config,
        ],
        cwd=work,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={
            **os.environ,
            "TRIQUA_HOME": str(work / "home"),
            "LANGSMITH_TRACING": "false",
            "TRIQUA_INGEST_ROOTS": str(ROOT / "studio" / "corpus"),
        },
        start_new_session=True,
    )
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120)
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                pytest.fail("langgraph dev exited:\n" + (work / "server.log").read_text()[-3000:])
            try:
                if client.get("/ok", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("langgraph dev did not answer /ok within 120 s")
            time.sleep(0.5)
        yield client
    finally:
        client.close()
        stop_group(process)
        log.close()


@pytest.mark.slow
def test_dev_server_runs_checks_with_the_offline_engine(dev_server: httpx.Client) -> None:
    assistants = dev_server.post("/assistants/search", json={}).json()
    by_graph = {a["graph_id"]: a["assistant_id"] for a in assistants}
    assert set(by_graph) == {"triqua", "triqua_ingest"}

    schemas = dev_server.get(f"/assistants/{by_graph['triqua']}/schemas").json()
    settings = schemas["context_schema"]["properties"]
    assert settings["retriever"]["description"] and settings["model"]["description"]

    supplied = json.loads((ROOT / "studio" / "inputs" / "check_supplied.json").read_text())
    response = dev_server.post(
        "/runs/wait", json={"assistant_id": "triqua", "input": supplied}
    ).json()
    report = triqua.Report.model_validate(response["report"])
    assert report.engine == "offline"
    assert len(report.records) >= 2 and report.score is not None
    born = next(r for r in report.records if "born" in r.fact.relation)
    assert born.verdict.status is Status.SUPPORTED and born.evidence

    # Pause before verification on a thread, look at the pending facts, then resume.
    thread = dev_server.post("/threads", json={}).json()["thread_id"]
    dev_server.post(
        f"/threads/{thread}/runs/wait",
        json={"assistant_id": "triqua", "input": supplied, "interrupt_before": ["verify_batch"]},
    )
    paused = dev_server.get(f"/threads/{thread}/state").json()
    assert paused["next"] and set(paused["next"]) == {"verify_batch"}
    tasks = paused["values"]["tasks"]
    batches = {t.get("batch") or t["fact"]["id"] for t in tasks}
    assert len(batches) == len(paused["next"])  # one pending subgraph per batch of facts
    resumed = dev_server.post(
        f"/threads/{thread}/runs/wait", json={"assistant_id": "triqua", "input": None}
    ).json()
    assert len(resumed["report"]["records"]) == len(tasks)
    # A new check on the same thread reports its own facts only, under a new run id.
    again = dev_server.post(
        f"/threads/{thread}/runs/wait",
        json={"assistant_id": "triqua", "input": {**supplied, "text": "Ada Lovelace was a poet."}},
    ).json()
    assert len(again["report"]["records"]) == 1
    assert again["report"]["run_id"] != resumed["report"]["run_id"]

    # Seed the corpus through the ingest graph, then check against it with Chroma.
    ingest = dev_server.post(
        "/runs/wait",
        json={
            "assistant_id": "triqua_ingest",
            "input": {"paths": [str(ROOT / "studio" / "corpus")], "collection": "triqua-studio"},
        },
    ).json()
    assert ingest["summary"]["chunks_added"] > 0
    corpus = dev_server.post(
        "/runs/wait",
        json={
            "assistant_id": "triqua",
            "input": {"text": "The Eiffel Tower is 330 metres tall."},
            "context": {"retriever": "chroma", "collection": "triqua-studio"},
        },
    ).json()
    report = triqua.Report.model_validate(corpus["report"])
    assert report.spec.mode.value == "bounded_search" and report.spec.corpus == "triqua-studio"
    (record,) = report.records
    assert record.verdict.status is Status.SUPPORTED
    assert any("eiffel_tower.md" in (e.source or "") for e in record.evidence)

    # A caller's context may not send the server's key elsewhere, spend it on a model or a
    # web search of its choosing, nor ingest the server's files.
    for context, opener in (
        ({"base_url": "http://evil.example"}, "TRIQUA_CALLER_SETTINGS=base_url"),
        ({"model": "openai:gpt-4.1-mini"}, "TRIQUA_CALLER_SETTINGS=model"),
        ({"retriever": "tavily"}, "TRIQUA_CALLER_SETTINGS=retriever"),
    ):
        evil = dev_server.post(
            "/runs/wait", json={"assistant_id": "triqua", "input": supplied, "context": context}
        )
        assert "report" not in evil.json() and opener in evil.text
    secret = dev_server.post(
        "/runs/wait",
        json={"assistant_id": "triqua_ingest", "input": {"paths": [str(ROOT / "README.md")]}},
    )
    assert "summary" not in secret.json() and "TRIQUA_INGEST_ROOTS" in secret.text
    elsewhere = dev_server.post(  # nor write into a collection other callers search
        "/runs/wait",
        json={
            "assistant_id": "triqua_ingest",
            "input": {"paths": [str(ROOT / "studio" / "corpus")], "collection": "theirs"},
        },
    )
    assert "summary" not in elsewhere.json()
    assert "TRIQUA_CALLER_SETTINGS=collection" in elsewhere.text
