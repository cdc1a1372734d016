"""Runs never hang: model calls and searches end within their timeouts, recorded as timed out."""

from __future__ import annotations

import importlib.util
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.context import DEFAULT_MODEL_TIMEOUT, DEFAULT_SEARCH_TIMEOUT, Context
from triqua.core.budget.deadline import CallTimeoutError, call_with_deadline
from triqua.runtime.resources import register_retriever
from triqua.schema import Status
from triqua.testing import ScriptedChatModel, fenced, shown_text
from triqua.tools.base import Retriever, SearchBudget, SearchResult
from triqua.tools.bounded import BoundedRetriever
from triqua.tools.factory import build_retriever

from .conftest import CURIE, PARIS, decompose_by_table, default_judgement, make_responder

# About per-fact verification calls (counted, faulted or stalled one by one).
pytestmark = pytest.mark.usefixtures("per_fact_verification")

# Slack for thread start-up, graph overhead and a loaded machine, on top of the bound itself.
SLACK = 5.0


@pytest.fixture(scope="module")
def warm() -> None:
    """Run one check first, so the bounds below time the calls, not imports and start-up."""
    triqua.check(PARIS, model=ScriptedChatModel(responder=make_responder()), cache=False)
    if importlib.util.find_spec("langchain_openai") is not None:
        import langchain_openai  # noqa: F401 - imported here, outside the timed run


@pytest.fixture
def release() -> Iterator[threading.Event]:
    """An event that stalled calls wait on; set at teardown so no thread outlives the test."""
    event = threading.Event()
    yield event
    event.set()


# --- call_with_deadline ----------------------------------------------------------------------


def test_deadline_returns_the_result_and_raises_the_calls_own_error() -> None:
    assert call_with_deadline(lambda: 41 + 1, 5, "sum") == 42

    def boom() -> None:
        raise KeyError("inner")

    with pytest.raises(KeyError, match="inner"):
        call_with_deadline(boom, 5, "boom")


def test_deadline_raises_in_time_from_a_daemon_thread(release: threading.Event) -> None:
    started = time.perf_counter()
    with pytest.raises(CallTimeoutError, match=r"stuck call timed out after 0\.2 s") as caught:
        call_with_deadline(lambda: release.wait(30), 0.2, "stuck call")
    assert time.perf_counter() - started < 0.2 + 1.0
    assert caught.value.seconds == 0.2 and caught.value.what == "stuck call"
    stuck = [t for t in threading.enumerate() if t.name == "triqua-deadline:stuck call"]
    assert stuck and all(t.daemon for t in stuck)


def test_deadline_workers_are_reused_and_a_stuck_one_is_not(release: threading.Event) -> None:
    def workers() -> set[threading.Thread]:
        return {t for t in threading.enumerate() if t.name.startswith("triqua-deadline")}

    first = call_with_deadline(threading.current_thread, 5, "first")
    assert first is not threading.current_thread() and first.daemon
    pool = workers()
    used = {call_with_deadline(threading.current_thread, 5, "again") for _ in range(10)}
    assert used <= pool and workers() <= pool  # ten calls in turn start no thread
    held: list[threading.Thread] = []

    def hold() -> None:
        held.append(threading.current_thread())
        release.wait(30)

    with pytest.raises(CallTimeoutError):
        call_with_deadline(hold, 0.2, "held call")
    assert held[0].name == "triqua-deadline:held call"  # a stuck worker shows its call
    # The held worker is busy: later calls run, in time, on another one.
    later = [call_with_deadline(threading.current_thread, 5, "after") for _ in range(3)]
    assert held[0] not in later


def test_no_deadline_runs_inline() -> None:
    assert call_with_deadline(threading.current_thread, None, "x") is threading.current_thread()
    assert call_with_deadline(threading.current_thread, 0, "x") is threading.current_thread()
    with pytest.raises(ValueError, match=">= 0"):
        call_with_deadline(lambda: 1, -1, "x")


# --- settings ----------------------------------------------------------------------------------


def test_timeouts_have_defaults_env_and_validation(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Context().model_timeout == DEFAULT_MODEL_TIMEOUT == 60
    assert Context().search_timeout == DEFAULT_SEARCH_TIMEOUT == 20
    monkeypatch.setenv("TRIQUA_MODEL_TIMEOUT", "7.5")
    monkeypatch.setenv("TRIQUA_SEARCH_TIMEOUT", "3")
    assert (Context().model_timeout, Context().search_timeout) == (7.5, 3.0)
    with pytest.raises(ValueError, match="model_timeout must be >= 0"):
        Context(model_timeout=-1).validate()
    monkeypatch.setenv("TRIQUA_SEARCH_TIMEOUT", "soon")
    with pytest.raises(ValueError, match="TRIQUA_SEARCH_TIMEOUT must be a number"):
        Context()


def test_cli_flags_are_documented_and_checked() -> None:
    runner = CliRunner()
    for command in ("check", "batch"):
        shown = runner.invoke(app, [command, "--help"], terminal_width=200).output
        assert "--model-timeout" in shown and "--search-timeout" in shown
    bad = runner.invoke(app, ["check", "x", "--model-timeout", "-1"])
    assert bad.exit_code == 2


@pytest.mark.skipif(
    importlib.util.find_spec("langchain_openai") is None, reason="langchain-openai not installed"
)
def test_provider_client_gets_the_timeout_and_no_retries_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from triqua.engines.factory import chat_model

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key-0000")
    model: Any = chat_model("openai:gpt-4o-mini", timeout=7)
    assert model.request_timeout == 7 and model.max_retries == 0
    untimed: Any = chat_model("openai:gpt-4o-mini")
    assert untimed.request_timeout is None


# --- a model that stalls -----------------------------------------------------------------------


def _stalling_model(release: threading.Event, stall: str) -> ScriptedChatModel:
    """Answers every role, except that calls for the schema ``stall`` never return."""

    def respond(tool: str, prompt: str) -> dict[str, Any] | str:
        if tool == stall:
            release.wait(60)
            raise AssertionError("a stalled call was let go")
        if tool == "ExtractedFacts":
            return decompose_by_table(shown_text(prompt))
        return default_judgement(fenced(prompt, "FACT"), prompt)

    return ScriptedChatModel(responder=respond)


@pytest.mark.slow
def test_a_stalled_judge_ends_insufficient_and_timed_out_within_the_bound(
    warm: None, release: threading.Event
) -> None:
    timeout, retries = 0.4, 1

    def run(model: ScriptedChatModel) -> tuple[float, triqua.Report]:
        started = time.perf_counter()
        report = triqua.check(
            PARIS,
            model=model,
            documents=[PARIS],
            model_timeout=timeout,
            max_output_retries=retries,
            retry_wait=0.01,
            cache=False,
        )
        return time.perf_counter() - started, report

    model = _stalling_model(release, "Judgement")
    wall, report = run(model)
    assert wall < (retries + 1) * timeout + SLACK
    [record] = report.records
    assert record.verdict.status is Status.INSUFFICIENT
    assert "verify model call timed out after 0.4 s" in (record.verdict.error or "")
    judged = [tool for tool, _ in model.calls if tool == "Judgement"]
    assert len(judged) == retries + 1  # the timed-out call was retried within the policy
    assert report.failures == 1


def test_a_stalled_decomposition_is_a_failed_chunk_on_the_record(
    warm: None, release: threading.Event
) -> None:
    model = _stalling_model(release, "ExtractedFacts")
    started = time.perf_counter()
    report = triqua.check(
        CURIE, model=model, model_timeout=0.3, max_output_retries=0, retry_wait=0.0, cache=False
    )
    assert time.perf_counter() - started < 0.3 + SLACK
    [failed] = report.failed_chunks
    assert failed.cause == "error"
    assert "decompose model call timed out after 0.3 s" in failed.error
    assert report.failures == 1 and report.outcome == "failed"


# --- a retriever that hangs --------------------------------------------------------------------


class HangingRetriever(Retriever):
    """A search backend that accepts every query and never answers."""

    name = "hanging"
    revision = "hanging-1"
    uses_budget = True

    def __init__(self, release: threading.Event) -> None:
        super().__init__()
        self.release = release

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        self._count_call()
        self.release.wait(60)
        return SearchResult()


def test_a_hanging_retriever_is_recorded_timed_out_within_the_bound(
    warm: None, release: threading.Event
) -> None:
    hanging = HangingRetriever(release)
    name = register_retriever("hanging-test", hanging)
    started = time.perf_counter()
    model = ScriptedChatModel(responder=make_responder())
    report = triqua.check(
        PARIS + " " + CURIE, model=model, retriever=name, search_timeout=0.3, cache=False
    )
    wall = time.perf_counter() - started
    assert hanging.calls >= 2
    # Facts are searched concurrently; even one after another they fit in calls x timeout.
    assert wall < hanging.calls * 0.3 + SLACK
    assert report.records
    for record in report.records:
        assert record.verdict.status is not Status.SUPPORTED
        assert "hanging search timed out after 0.3 s" in (record.verdict.error or "")


def test_every_retriever_kind_is_bounded() -> None:
    for kind in ("supplied", "closed_book"):
        built = build_retriever(kind, documents=[triqua.Document(text=PARIS)], search_timeout=4)
        assert isinstance(built, BoundedRetriever) and built.seconds == 4
    web: Any = build_retriever("tavily", tavily_api_key="tvly-x" * 4, search_timeout=3)
    assert isinstance(web, BoundedRetriever) and web.timeout == 3  # Tavily's HTTP timeout too


def test_bounded_retriever_keeps_fast_results_and_errors(release: threading.Event) -> None:
    supplied = build_retriever("supplied", documents=[triqua.Document(text=PARIS)])
    found = supplied.search("capital of France", k=1)
    assert found.error is None and "Paris" in found.evidence[0].text
    slow = BoundedRetriever(HangingRetriever(release), 0.2)
    result = slow.search("anything", k=3)
    assert result.error == "hanging search timed out after 0.2 s" and slow.timeouts == 1


# --- an endpoint that accepts and never answers -------------------------------------------------


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A TCP server on localhost that accepts connections and never sends a byte."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    server.settimeout(0.2)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except (TimeoutError, OSError):
                continue
            held.append(conn)  # read nothing, answer nothing

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}/v1"
    stop.set()
    thread.join(2)
    for conn in held:
        conn.close()
    server.close()


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("langchain_openai") is None, reason="langchain-openai not installed"
)
def test_check_against_a_silent_endpoint_finishes_within_the_bound(
    warm: None, silent_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRIQUA_BASE_URL", silent_server)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-dummy-key-for-a-silent-server")
    timeout = 0.5
    started = time.perf_counter()
    result = CliRunner().invoke(
        app,
        [
            "check",
            PARIS,
            "-m",
            "openai:gpt-4o-mini",
            "--model-timeout",
            str(timeout),
            "--json",
            "--no-store",
            "--no-cache",
        ],
    )
    wall = time.perf_counter() - started
    # Decomposition: 3 attempts (max_output_retries=2) of at most 0.5 s, plus back-off waits of
    # at most 1+1 s and 2+1 s between them.
    assert wall < 3 * timeout + 5.0 + SLACK, wall
    assert result.exit_code == 3  # nothing could be checked: one clear line, distinct code
    report = json.loads(result.stdout)
    [failed] = report["failed_chunks"]
    assert "timed out" in failed["error"].lower()
    assert "sk-dummy" not in result.output


def test_in_process_searches_run_in_the_calling_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """BM25 over supplied documents and the packaged reranker cannot stall: no watcher thread."""
    import triqua.tools.bounded as bounded_module
    import triqua.tools.rerank as rerank_module

    def no_watcher(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("an in-process search was handed to a watcher thread")

    monkeypatch.setattr(bounded_module, "call_with_deadline", no_watcher)
    monkeypatch.setattr(rerank_module, "call_with_deadline", no_watcher)
    supplied = build_retriever("supplied", documents=[triqua.Document(text=PARIS)])
    reranked = rerank_module.reranking(supplied, candidates=5, model=None, seconds=1.0)
    assert supplied.in_process and reranked.in_process
    found = reranked.search("capital of France", k=1)
    assert found.evidence and found.error is None
    hanging = BoundedRetriever(HangingRetriever(threading.Event()), 0.2)
    assert not hanging.in_process  # a custom retriever keeps its watcher
