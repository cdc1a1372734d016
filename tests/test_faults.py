"""Runs under injected faults: bad model output, provider errors, time-outs, search outages."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from langchain_core.exceptions import OutputParserException
from langchain_core.messages import HumanMessage
from langchain_core.runnables import RunnableLambda
from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.core.report.accounting import checked_coverage
from triqua.core.text.chunking import split_text
from triqua.engines.llm.engine import Judgement, LLMJudge, LLMRefiner, StructuredCaller
from triqua.runtime.resources import register_retriever
from triqua.schema import Document, Report, Status
from triqua.testing import ScriptedChatModel, fenced, shown_text
from triqua.testing.faults import (
    FaultyChatModel,
    FaultyRetriever,
    ProviderError,
    RateLimitError,
    ServerError,
    draw,
)
from triqua.tools.supplied import SuppliedRetriever

pytestmark = [
    pytest.mark.usefixtures("per_fact_verification"),  # per-fact calls counted or faulted
    pytest.mark.timeout(120),
    # Short back-offs pass LangChain's ``initial``, which tenacity 9.2 renamed.
    pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated"),
]

SENTENCE = re.compile(r"(Person\d+) was born in (City\d+)( in (\d{4}))?\.")
N_FACTS = 50


def corpus_text(n: int = N_FACTS) -> str:
    """``n`` sentences, one fact each; every fifth carries a year (a qualifier)."""
    return " ".join(
        f"Person{i} was born in City{i} in {1900 + i}."
        if i % 5 == 0
        else f"Person{i} was born in City{i}."
        for i in range(n)
    )


DOCS = [f"Person{i} was born in City{i} in {1900 + i}." for i in range(N_FACTS)]


def responder(tool: str, prompt: str) -> dict[str, Any] | str:
    """Decompose by pattern, judge by looking for the fact's words, refine per unit."""
    if tool == "ExtractedFacts":
        facts = []
        for match in SENTENCE.finditer(shown_text(prompt)):
            qualifiers = [{"label": "point in time", "value": match[4]}] if match[4] else []
            facts.append(
                {
                    "subject": match[1],
                    "relation": "was born in",
                    "object": match[2],
                    "qualifiers": qualifiers,
                    "source_sentence": match[0],
                }
            )
        return {"facts": facts}
    if tool == "Judgement":
        subject = fenced(prompt, "FACT")[1:].split(",")[0]
        found = [(i, body) for i, body in passages(prompt) if subject + " " in body]
        units = re.findall(r"^- (\(.*\))$", prompt, flags=re.M)
        status = "supported" if found else "insufficient_evidence"
        quote = found[0][1].split("]\n", 1)[-1] if found else None  # the passage, verbatim
        return {
            "status": status,
            "unit_verdicts": [{"unit": u, "status": status, "quote": quote} for u in units],
            "evidence_ids": [i for i, _ in found[:1]],
            "quote": quote,
        }
    if tool == "RefinedQueries":
        units = re.findall(r"^- (\(.*\))$", prompt, flags=re.M)
        return {"queries": [f"refined {u}" for u in units]}
    raise AssertionError(f"unexpected schema {tool!r}")


def passages(prompt: str) -> list[tuple[str, str]]:
    """(evidence id, text) of every fenced passage."""
    return re.findall(r"<<<EVIDENCE id=(ev-[0-9a-f]+)>>>\n(.*?)\n<<<END EVIDENCE>>>", prompt, re.S)


def faulty(**rates: Any) -> FaultyChatModel:
    return FaultyChatModel(inner=ScriptedChatModel(responder=responder), **rates)


def run(model: Any, text: str = "", **settings: Any) -> Report:
    settings = {"cache": False, "retry_wait": 0.001, "chunk_size": 400, **settings}
    return triqua.check(text or corpus_text(), documents=DOCS, model=model, **settings)


# --- the fault draws ---------------------------------------------------------------------


def test_draws_depend_on_input_and_attempt_only() -> None:
    assert draw(0, "prompt", 1) == draw(0, "prompt", 1)
    assert draw(0, "prompt", 1) != draw(0, "prompt", 2)
    assert draw(0, "prompt", 1) != draw(1, "prompt", 1)
    values = [draw(7, f"prompt {i}", 1) for i in range(4000)]
    assert all(0.0 <= v < 1.0 for v in values)
    assert abs(sum(v < 0.3 for v in values) / len(values) - 0.3) < 0.03


def test_fault_rates_are_met_per_kind() -> None:
    model = faulty(malformed_rate=0.3, error_rate=0.2)
    bound = model.bind_tools([Judgement])
    kinds = [bound.decide(f"prompt {i}", 1) for i in range(3000)]  # type: ignore[attr-defined]
    share = {k: kinds.count(k) / len(kinds) for k in set(kinds)}
    assert abs(share["malformed"] + share["schema"] - 0.3) < 0.03
    assert abs(share["rate_limit"] + share["server_error"] + share["timeout"] - 0.2) < 0.03
    assert min(share[k] for k in ("rate_limit", "server_error", "timeout")) > 0.04


def test_faults_follow_the_prompt_not_the_call_order() -> None:
    prompts = [f"Judge fact number {i}" for i in range(40)]

    def outcomes(order: list[str], workers: int) -> dict[str, str]:
        model = faulty(malformed_rate=0.3, error_rate=0.2)
        caller = StructuredCaller(model, Judgement, max_retries=0, retry_wait=0.0)

        def one(prompt: str) -> tuple[str, str]:
            try:
                caller.invoke([HumanMessage(prompt)])
            except Exception as exc:  # the injected fault, by type
                return prompt, type(exc).__name__
            return prompt, "ok"

        with ThreadPoolExecutor(workers) as pool:
            return dict(pool.map(one, order))

    forward = outcomes(prompts, 1)
    assert set(forward.values()) - {"ok"}, "some calls must fail at these rates"
    assert outcomes(list(reversed(prompts)), 8) == forward


def test_provider_errors_carry_status_codes() -> None:
    assert RateLimitError("x").status_code == 429
    assert ServerError("x").status_code == 500
    assert ProviderError("x", status_code=503).status_code == 503


# --- whole runs under model faults --------------------------------------------------------


def assert_failures_recorded(report: Report) -> None:
    """Every failed fact has an error, none of them counts as supported, the report counts them."""
    failed = [r for r in report.records if r.verdict.error and "failed" in r.verdict.error]
    errored = sum(1 for r in report.records if r.verdict.error)
    assert report.failures == errored + len(report.failed_chunks)
    for record in failed:
        assert record.verdict.status is not Status.SUPPORTED
        assert all(u.status is not Status.SUPPORTED for u in record.verdict.unit_verdicts)
    supported_units = sum(
        1 for r in report.records if r.verdict.status is Status.SUPPORTED for _ in r.fact.units()
    )
    assert report.scores.units_supported <= supported_units


@pytest.mark.slow
def test_fifty_facts_under_faults_lose_nothing() -> None:
    model = faulty(malformed_rate=0.3, error_rate=0.2, schemas=frozenset({"Judgement"}))
    # A fact whose judge call failed keeps its error: no re-verification round rescues it.
    report = run(model, routing="always_element")
    assert len(report.records) == N_FACTS
    assert [r.claim_id for r in report.records] == [f"f{i}" for i in range(1, N_FACTS + 1)]
    assert_failures_recorded(report)
    assert report.failures > 0, "at 50% faults per attempt some facts must exhaust retries"
    assert report.failures < N_FACTS
    assert set(model.faults) >= {"malformed", "schema", "rate_limit", "server_error", "timeout"}
    # Failed calls are retried at most max_output_retries (2) times; one prompt can be judged
    # once per re-verification round (2) on top of the first verification.
    assert 3 <= model.most_attempts <= 3 * (1 + 2)


#: Fault settings of the suite: (malformed rate, error rate) per call.
FAULT_SETTINGS = {"faults": (0.3, 0.2), "stress": (0.5, 0.3)}


def assert_every_chunk_and_fact_accounted_for(report: Report, text: str, size: int) -> None:
    """Each chunk was decomposed (each of its facts has a record) or is a failed-chunk record."""
    chunks = split_text(text, size)
    assert report.chunks == len(chunks)
    failed = {c.chunk_index: c for c in report.failed_chunks}
    assert len(failed) == len(report.failed_chunks), "one record per failed chunk"
    facts_in_failed = 0
    for chunk in chunks:
        sentences = sorted(m[0] for m in SENTENCE.finditer(chunk.text))
        mine = sorted(
            r.fact.source_text for r in report.records if r.fact.chunk_index == chunk.index
        )
        if chunk.index in failed:
            record = failed[chunk.index]
            assert (record.span.start, record.span.end) == (chunk.start, chunk.end)
            assert record.text == chunk.text == text[chunk.start : chunk.end]
            assert record.cause == "error" and f"chunk {chunk.index}" in record.error
            assert mine == []
            facts_in_failed += len(sentences)
        else:
            assert mine == sentences, f"chunk {chunk.index} lost facts"
    assert len(report.records) + facts_in_failed == N_FACTS
    errored = sum(1 for r in report.records if r.verdict.error)
    assert report.failures == errored + len(failed)
    unchecked = [c.span for c in report.failed_chunks] + [
        r.fact.span for r in report.records if r.verdict.error and r.fact.span
    ]
    assert report.coverage == pytest.approx(checked_coverage(text, unchecked))
    verified = len(report.records) - errored
    assert report.outcome == (
        "complete" if not report.failures else "partial" if verified else "failed"
    )


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("setting", sorted(FAULT_SETTINGS))
def test_every_chunk_and_fact_is_accounted_for_under_faults(setting: str, seed: int) -> None:
    malformed, errors = FAULT_SETTINGS[setting]
    model = faulty(malformed_rate=malformed, error_rate=errors, seed=seed)
    text = corpus_text()
    report = run(model, text, chunk_size=150, routing="always_element")
    assert_every_chunk_and_fact_accounted_for(report, text, 150)
    assert model.faults["ok"] < sum(model.faults.values()), "faults must have been injected"
    assert_failures_recorded(report)


def test_stress_faults_fail_some_chunks_and_the_report_says_so() -> None:
    text = corpus_text()
    # One call per chunk, so the fault draws fall on many calls, not on one batch call.
    settings: dict[str, Any] = {"max_output_retries": 0, "decompose_batch_chars": 0}
    report = run(faulty(malformed_rate=0.5, error_rate=0.3), text, chunk_size=150, **settings)
    assert report.failed_chunks, "at these rates without retries some chunks must fail"
    assert_every_chunk_and_fact_accounted_for(report, text, 150)
    assert report.coverage is not None and report.coverage < 1.0
    assert report.outcome in ("partial", "failed")


@pytest.mark.slow
def test_failed_facts_are_the_same_in_every_run() -> None:
    settings: dict[str, Any] = {"max_concurrency": 8}
    first = run(faulty(malformed_rate=0.3, error_rate=0.2), **settings)
    second = run(faulty(malformed_rate=0.3, error_rate=0.2), max_concurrency=3)
    assert len(first.records) == len(second.records)

    def failed(report: Report) -> list[str]:
        return [r.claim_id for r in report.records if r.verdict.error]

    assert failed(first) == failed(second)
    assert first.errors == second.errors


def test_decomposition_faults_are_reported_and_the_run_finishes() -> None:
    model = faulty(error_rate=1.0, schemas=frozenset({"ExtractedFacts"}))
    report = run(model, max_output_retries=1)
    assert report.records == []
    assert report.scores.triqua_score is None
    assert report.errors and all("decompose failed" in e for e in report.errors)
    assert len(report.failed_chunks) == report.chunks == report.failures > 0
    assert report.coverage == 0.0 and report.outcome == "failed"
    assert any(
        re.search(r"RateLimitError|ServerError|ProviderTimeoutError", e) for e in report.errors
    )


def test_retries_back_off_and_stop() -> None:
    model = faulty(error_rate=1.0)
    caller = StructuredCaller(model, Judgement, max_retries=2, retry_wait=0.05)
    started = time.perf_counter()
    with pytest.raises((ProviderError, TimeoutError)):
        caller.invoke([HumanMessage("always fails")])
    elapsed = time.perf_counter() - started
    assert model.attempts == 3
    # Waits of 0.05 s then 0.1 s, each plus up to 0.05 s of jitter, between the three tries.
    assert 0.05 + 0.1 <= elapsed < 1.0


def test_time_outs_take_their_time_and_are_recorded() -> None:
    model = faulty(error_rate=1.0, timeout_after=0.02, schemas=frozenset({"Judgement"}))
    report = run(model, text="Person1 was born in City1.", max_output_retries=0)
    (record,) = report.records
    assert record.verdict.status is Status.INSUFFICIENT
    assert record.verdict.error and "verification failed" in record.verdict.error


# --- search faults ------------------------------------------------------------------------


def stub(**rates: Any) -> str:
    inner = SuppliedRetriever([Document(text=d) for d in DOCS])
    return register_retriever(
        f"faulty-{id(rates)}-{time.monotonic_ns()}", FaultyRetriever(inner, **rates)
    )


def run_search(retriever: str, **settings: Any) -> Report:
    model = ScriptedChatModel(responder=responder)
    settings = {"cache": False, "chunk_size": 400, "retriever": retriever, **settings}
    return triqua.check(corpus_text(20), model=model, **settings)


@pytest.mark.parametrize("raise_errors", [False, True], ids=["returned", "raised"])
def test_search_outage_is_recorded_per_fact(raise_errors: bool) -> None:
    report = run_search(stub(outage_rate=1.0, raise_errors=raise_errors))
    assert len(report.records) == 20
    for record in report.records:
        assert record.verdict.status is Status.INSUFFICIENT
        assert record.verdict.error and "unreachable" in record.verdict.error
    assert report.failures == 20


@pytest.mark.slow
def test_partial_search_faults_keep_every_fact() -> None:
    retriever = stub(outage_rate=0.2, rate_limit_rate=0.2, slow_rate=0.2, slow_seconds=0.01)
    report = run_search(retriever)
    assert len(report.records) == 20
    errored = [r for r in report.records if r.verdict.error]
    assert errored, "some searches must fail at these rates"
    assert all(r.verdict.status is not Status.SUPPORTED for r in errored)
    assert any("429" in (r.verdict.error or "") for r in report.records)
    assert sum(r.verdict.status is Status.SUPPORTED for r in report.records) >= 5


def test_a_raising_retriever_is_retried_by_the_node_policy() -> None:
    seen: Counter[str] = Counter()

    class Flaky(SuppliedRetriever):
        def search(self, query: str, k: int, *, budget: Any = None) -> Any:
            seen[query] += 1
            if seen[query] == 1:
                raise ConnectionError("connection reset (first try)")
            return super().search(query, k, budget=budget)

    name = register_retriever("flaky", Flaky([Document(text=d) for d in DOCS]))
    report = run_search(name)
    assert len(report.records) == 20
    assert all(r.verdict.status is Status.SUPPORTED for r in report.records)
    assert report.failures == 0
    assert set(seen.values()) == {2}, "each search failed once and was retried once"


@pytest.mark.slow
def test_unreachable_chroma_server_is_a_clear_error_at_start() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again on exit: nothing listens there
    started = time.perf_counter()
    result = CliRunner().invoke(
        app,
        [
            "check",
            "Paris is the capital of France.",
            "--retriever",
            "chroma",
            "--collection",
            "docs",
            "--chroma-url",
            f"http://127.0.0.1:{port}",
        ],
    )
    assert result.exit_code not in (0, None)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "chroma" in lines[0] and str(port) in lines[0]
    assert time.perf_counter() - started < 30


@pytest.fixture()
def silent_server() -> Iterator[str]:
    """A server that accepts connections and never answers (a hung Chroma)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        sock.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(sock.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    sock.close()


@pytest.mark.slow
def test_a_silent_chroma_server_ends_the_check_within_its_search_timeout(
    silent_server: str,
) -> None:
    started = time.perf_counter()
    result = CliRunner().invoke(
        app,
        [
            "check",
            "Paris is the capital of France.",
            *("--retriever", "chroma", "--collection", "docs"),
            *("--chroma-url", silent_server, "--search-timeout", "1"),
        ],
    )
    assert result.exit_code not in (0, None)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "did not answer within 1 s" in lines[0]
    assert time.perf_counter() - started < 20


@pytest.mark.slow
def test_a_silent_chroma_server_bounds_collections_and_ingest(
    silent_server: str, tmp_path: Path
) -> None:
    from triqua.tools.base import RetrieverUnavailable
    from triqua.tools.ingest import ingest_paths, list_collections

    started = time.perf_counter()
    with pytest.raises(RetrieverUnavailable, match="did not answer within 1 s"):
        list_collections(url=silent_server, timeout=1)
    (tmp_path / "a.txt").write_text("Paris is the capital of France.", "utf-8")
    with pytest.raises(RetrieverUnavailable, match="did not answer within 1 s"):
        ingest_paths([tmp_path / "a.txt"], "docs", url=silent_server, timeout=1)
    assert time.perf_counter() - started < 15


# --- nodes that raise ---------------------------------------------------------------------


def test_a_judge_that_raises_fails_its_fact_only(monkeypatch: pytest.MonkeyPatch) -> None:
    real = LLMJudge.verify

    def verify(self: LLMJudge, fact: Any, evidence: Any, **kwargs: Any) -> Any:
        if fact.subject == "Person3":
            raise RuntimeError("judge crashed")
        return real(self, fact, evidence, **kwargs)

    monkeypatch.setattr(LLMJudge, "verify", verify)
    report = run(ScriptedChatModel(responder=responder), text=corpus_text(8))
    assert len(report.records) == 8
    (crashed,) = [r for r in report.records if r.fact.subject == "Person3"]
    assert crashed.verdict.status is Status.INSUFFICIENT
    assert crashed.verdict.error == "verify failed: RuntimeError: judge crashed"
    assert report.failures == 1
    assert all(r.verdict.status is Status.SUPPORTED for r in report.records if r is not crashed)


def test_a_refiner_that_raises_ends_the_round_with_a_recorded_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refine(self: LLMRefiner, fact: Any, units: Any, round_index: int) -> Any:
        raise KeyError("refiner crashed")

    def open_year(tool: str, prompt: str) -> dict[str, Any] | str:
        answer = responder(tool, prompt)
        if tool == "Judgement" and isinstance(answer, dict):
            for unit in answer["unit_verdicts"]:
                if unit["unit"].startswith("(point in time"):
                    unit["status"] = "insufficient_evidence"
            answer["status"] = "insufficient_evidence"
        return answer

    monkeypatch.setattr(LLMRefiner, "refine", refine)
    model = ScriptedChatModel(responder=open_year)
    report = run(model, text="Person5 was born in City5 in 1905.", routing="always_element")
    (record,) = report.records
    assert record.rounds == []
    assert record.verdict.status is Status.INSUFFICIENT
    assert record.verdict.error and "reverify failed: KeyError" in record.verdict.error
    assert report.failures == 1


def test_a_judge_call_that_failed_is_not_judged_again_by_a_round() -> None:
    # The judge answers nothing usable until re-verification starts (the refiner's call):
    # the first pass exhausts its retries, a round's judgement would succeed.
    refined = threading.Event()

    def late_judge(tool: str, prompt: str) -> dict[str, Any] | str:
        if tool == "RefinedQueries":
            refined.set()
        if tool == "Judgement" and not refined.is_set():
            return "no verdict here"
        return responder(tool, prompt)

    model = ScriptedChatModel(responder=late_judge)
    report = run(model, text="Person5 was born in City5 in 1905.", routing="always_element")
    (record,) = report.records
    assert record.verdict.error and "verification failed" in record.verdict.error
    assert record.verdict.status is Status.INSUFFICIENT
    assert record.rounds == []  # no round: the failure is not rescued
    assert not refined.is_set()
    assert report.failures == 1


def test_structured_calls_work_when_a_provider_returns_no_model_parser_sequence() -> None:
    class Opaque(ScriptedChatModel):
        """A provider whose structured output is one runnable, not model | parser."""

        def with_structured_output(
            self, schema: Any, *, include_raw: bool = False, **kw: Any
        ) -> Any:
            inner = ScriptedChatModel.with_structured_output(self, schema, include_raw=include_raw)
            return RunnableLambda(lambda messages: inner.invoke(messages))

    good = Opaque(responder=lambda tool, prompt: {"status": "supported"})
    parsed, raw, _ = StructuredCaller(good, Judgement, 0, 0.0).invoke([HumanMessage("x")])
    assert parsed.status == "supported" and raw is not None and raw.tool_calls
    bad = Opaque(responder=lambda tool, prompt: "not json")
    with pytest.raises(OutputParserException, match="malformed model output"):
        StructuredCaller(bad, Judgement, 1, 0.0).invoke([HumanMessage("x")])
    assert len(bad.calls) == 2


def test_an_oversized_model_answer_is_a_failed_call_and_is_not_stored() -> None:
    from triqua.engines.llm.calls import MAX_ANSWER_CHARS

    huge = "x" * (MAX_ANSWER_CHARS + 10)

    def runaway(tool: str, prompt: str) -> dict[str, Any]:
        if tool == "ExtractedFacts":
            fact = {"subject": "Paris", "relation": "is", "object": huge}
            return {"facts": [{**fact, "qualifiers": [], "source_sentence": "Paris is big."}]}
        raise AssertionError(tool)

    report = triqua.check(
        "Paris is big.", model=ScriptedChatModel(responder=runaway), cache=False, retry_wait=0.001
    )
    assert report.records == [] and report.outcome == "failed"
    (failed,) = report.failed_chunks
    assert "over the 200,000-character limit" in (failed.error or "")
    assert len(report.model_dump_json()) < 20_000
