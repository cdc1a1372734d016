"""The LangGraph serving path: ``langgraph.json`` on Aegra, PostgreSQL behind it, the SDK in front.

A session fixture starts the command of docs/scaling.md, ``uvicorn
triqua.integrations.aegra:app``, on a free loopback port against a database of its own on
the session's throwaway PostgreSQL (``tests/conftest_postgres.py``), and stops it at the end.
The tests talk to it only through ``langgraph_sdk``, with the offline engine (no key, no
network): concurrent runs, a run paused before verification, edited and resumed by a second
server process on the same database, and the rows that prove the state lives in Postgres.
Without Aegra or the Postgres binaries they are skipped, except under ``CI``, where they fail.
"""

from __future__ import annotations

import asyncio
import importlib.util
import itertools
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_client, get_sync_client

import triqua
from triqua.schema import Report, Status

from .conftest import CURIE, FRANCE, PARIS
from .conftest_chroma import chroma_server  # noqa: F401  (fixture)
from .conftest_postgres import drop_database, new_database, pg_server  # noqa: F401  (fixture)
from .services import free_port, stop_group, unavailable

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
_STARTUP_SECONDS = 60
DOCS = [
    "Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie.",
    "France had a population of 64.5 million in 2025, excluding overseas departments.",
]
#: Four texts checked at once, each with its own verdicts and score.
CONCURRENT = {
    "curie": (CURIE, [Status.SUPPORTED]),
    "france": (FRANCE, [Status.CONTRADICTED]),  # the documents say 2025, not 2026
    "both": (f"{FRANCE} {CURIE}", [Status.CONTRADICTED, Status.SUPPORTED]),
    "paris": (PARIS, [Status.INSUFFICIENT]),  # neither document speaks of Paris
}
CORPUS_TEXT = (
    "The Eiffel Tower was opened in 1889 for the Exposition Universelle. "
    "It is 330 metres tall. The Danube flows into the Baltic Sea."
)


def _healthy(url: str) -> bool:
    try:
        return httpx.get(f"{url}/health", timeout=2).status_code == 200
    except httpx.TransportError:
        return False


@contextmanager
def aegra(database: str, work: Path) -> Iterator[str]:
    """``uvicorn triqua.integrations.aegra:app`` on ``database``; yields its base URL."""
    if importlib.util.find_spec("aegra_api") is None:
        unavailable(
            "Aegra is not installed",
            ci="CI must run the LangGraph server tests (make install installs it)",
            hint="pip install 'triqua[aegra]' to run them",
        )
    work.mkdir(parents=True, exist_ok=True)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRIQUA_")}
    env.update(
        DATABASE_URL=database,
        AEGRA_CONFIG=str(ROOT / "langgraph.json"),
        TRIQUA_HOME=str(work / "home"),
        LANGSMITH_TRACING="false",
        LOG_LEVEL="WARNING",
        # The operator lets callers name the Chroma server and ingest the Studio corpus into
        # collections of their own.
        TRIQUA_CALLER_SETTINGS="chroma_url,collection",
        TRIQUA_INGEST_ROOTS=str(ROOT / "studio" / "corpus"),
    )
    log_path = work / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                *(sys.executable, "-m", "uvicorn", "triqua.integrations.aegra:app"),
                *("--host", "127.0.0.1", "--port", str(port)),
            ],
            cwd=work,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + _STARTUP_SECONDS
        while not _healthy(url):
            if process.poll() is not None or time.monotonic() > deadline:
                tail = log_path.read_text(errors="replace")[-3000:]
                pytest.fail(f"the Aegra server did not answer /health at {url}:\n{tail}")
            time.sleep(0.2)
        yield url
    finally:
        stop_group(process)


@pytest.fixture(scope="session")
def aegra_database(pg_server: str) -> Iterator[str]:  # noqa: F811
    """The servers' database on the session's PostgreSQL (Aegra creates its tables)."""
    url = new_database(pg_server)
    yield url
    drop_database(url)


@pytest.fixture(scope="session")
def aegra_server(aegra_database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of the session's Aegra server."""
    with aegra(aegra_database, tmp_path_factory.mktemp("aegra")) as url:
        yield url


def _rows(database: str, query: str, *params: Any) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(database) as conn:
        return conn.execute(query, params).fetchall()


def _verdicts(report: Report) -> list[tuple[str, str, str, Status]]:
    return [
        (r.fact.subject, r.fact.relation, r.fact.object, r.verdict.status) for r in report.records
    ]


def test_concurrent_runs_each_get_their_own_report(aegra_server: str, aegra_database: str) -> None:
    async def submit_all() -> tuple[list[dict[str, Any]], list[Any], list[dict[str, Any]]]:
        client = get_client(url=aegra_server)
        threads = await asyncio.gather(*(client.threads.create() for _ in CONCURRENT))
        runs = await asyncio.gather(
            *(
                client.runs.create(
                    thread["thread_id"], "triqua", input={"text": text, "documents": DOCS}
                )
                for thread, (text, _) in zip(threads, CONCURRENT.values(), strict=True)
            )
        )
        outputs = await asyncio.gather(
            *(client.runs.join(run["thread_id"], run["run_id"]) for run in runs)
        )
        finished = [await client.runs.get(run["thread_id"], run["run_id"]) for run in runs]
        return runs, outputs, finished

    runs, outputs, finished = asyncio.run(submit_all())
    assert [run["status"] for run in finished] == ["success"] * len(CONCURRENT)
    reports = [Report.model_validate(output["report"]) for output in outputs]
    for report, (text, statuses) in zip(reports, CONCURRENT.values(), strict=True):
        assert report.engine == "offline" and report.spec.mode.value == "supplied_context"
        assert [r.verdict.status for r in report.records] == statuses, text
        local = triqua.check(text, documents=DOCS, store=False)  # the same check in process
        assert _verdicts(report) == _verdicts(local)
        assert report.score == pytest.approx(local.score)
    assert len({report.run_id for report in reports}) == len(CONCURRENT)
    assert len({report.score for report in reports}) == len(CONCURRENT)

    threads = [run["thread_id"] for run in runs]
    with get_sync_client(url=aegra_server) as client:  # each thread keeps its own final state
        for thread, report in zip(threads, reports, strict=True):
            state = client.threads.get_state(thread)
            assert state["next"] == [] and state["values"]["report"]["run_id"] == report.run_id
    stored = _rows(
        aegra_database,
        "SELECT thread_id, count(*) FROM checkpoints WHERE thread_id = ANY(%s) GROUP BY 1",
        threads,
    )
    assert {thread for thread, count in stored if count > 1} == set(threads)
    spans = sorted(
        _rows(
            aegra_database,
            "SELECT created_at, updated_at FROM runs WHERE run_id = ANY(%s)",
            [run["run_id"] for run in runs],
        )
    )
    assert any(later[0] < earlier[1] for earlier, later in itertools.pairwise(spans))  # at once


def test_a_run_paused_before_verification_is_edited_and_resumed_by_another_server(
    aegra_server: str,
    aegra_database: str,
    chroma_server: str,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    collection = f"served-{uuid.uuid4().hex[:8]}"
    context = {"retriever": "chroma", "collection": collection, "chroma_url": chroma_server}
    with get_sync_client(url=aegra_server) as client:
        seeding = client.threads.create()["thread_id"]
        ingested = client.runs.wait(
            seeding,
            "triqua_ingest",
            input={"paths": [str(ROOT / "studio" / "corpus")], "collection": collection},
            context={"chroma_url": chroma_server},
        )
        assert ingested["summary"]["chunks_added"] > 0

        thread = client.threads.create()["thread_id"]
        client.runs.wait(
            thread,
            "triqua",
            input={"text": CORPUS_TEXT},
            context=context,
            interrupt_before=["verify_batch"],
        )
        assert client.threads.get(thread)["status"] == "interrupted"
        paused = client.threads.get_state(thread)
        assert paused["next"] == ["verify_batch"] and "report" not in paused["values"]
        tasks = paused["values"]["tasks"]
        assert [t["fact"]["object"] for t in tasks] == [
            "the Exposition Universelle",
            "330 metres tall",
            "the Baltic Sea",
        ]
        tasks[2]["fact"]["object"] = "the Black Sea"  # a reviewer corrects the fact
        client.threads.update_state(thread, {"tasks": tasks}, as_node="route")

    # A second server process on the same database: all it knows of the run is in Postgres.
    with (
        aegra(aegra_database, tmp_path_factory.mktemp("aegra-second")) as second,
        get_sync_client(url=second) as other,
    ):
        resumed = other.runs.wait(thread, "triqua", command={"resume": True}, context=context)
        report = Report.model_validate(resumed["report"])
        assert [r.fact.object for r in report.records][2] == "the Black Sea"
        assert [r.verdict.status for r in report.records] == [Status.SUPPORTED] * 3
        assert all(r.evidence for r in report.records) and report.score == pytest.approx(1.0)
        assert report.spec.corpus == collection
        assert other.threads.get(thread)["status"] == "idle"
        assert other.threads.get_state(thread)["next"] == []

    with get_sync_client(url=aegra_server) as client:  # the first server reads the result
        final = client.threads.get_state(thread)["values"]["report"]
        assert final["run_id"] == report.run_id and final["scores"]["triqua_score"] == 1.0
    runs = _rows(
        aegra_database, "SELECT status FROM runs WHERE thread_id = %s ORDER BY created_at", thread
    )
    assert [status for (status,) in runs] == ["interrupted", "success"]
    checkpoints = _rows(
        aegra_database,
        "SELECT metadata->>'source', count(*) FROM checkpoints WHERE thread_id = %s GROUP BY 1",
        thread,
    )
    assert {"input", "loop", "update"} <= {source for source, _ in checkpoints}
    (writes,) = _rows(
        aegra_database, "SELECT count(*) FROM checkpoint_writes WHERE thread_id = %s", thread
    )
    assert writes[0] > 0
