"""No fact lost without a record: failed chunks, not-decomposed sentences, coverage, outcome."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.core.report.accounting import checked_coverage, failure_line, failure_summary
from triqua.engines.base import DecomposeResult
from triqua.engines.factory import register_model
from triqua.engines.llm.engine import LLMDecomposer, LLMJudge
from triqua.rendering.html import render_html
from triqua.rendering.terminal import print_report
from triqua.schema import ChunkFailure, Fact, Report, Span, Status, UndecomposedSentence
from triqua.store import RunStore
from triqua.testing import ScriptedChatModel
from triqua.testing.faults import FaultyChatModel

from .conftest import CURIE, FRANCE, PARIS, make_responder

pytestmark = [
    pytest.mark.usefixtures("per_fact_verification"),  # per-fact calls counted or faulted
    pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated"),
]
runner = CliRunner()
FILLER = "It rained in 1900."  # check-worthy, but no fact comes from it
DOCS = [CURIE, PARIS]


def nonblank(text: str) -> int:
    return sum(not c.isspace() for c in text)


def run(model: Any, text: str, **settings: Any) -> Report:
    settings = {"cache": False, "retry_wait": 0.001, **settings}
    return triqua.check(text, documents=DOCS, model=model, **settings)


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Retries without waiting, for commands that cannot set ``retry_wait``."""
    monkeypatch.setattr(
        "triqua.engines.llm.engine.backoff", lambda wait: {"initial": 0.0, "jitter": 0.0}
    )


def always_failing() -> FaultyChatModel:
    return FaultyChatModel(inner=ScriptedChatModel(responder=make_responder()), error_rate=1.0)


# --- coverage, the function ---------------------------------------------------------------


def test_coverage_counts_non_whitespace_characters_left_checked() -> None:
    text = "Aa bb.  Cc dd.\n\nEe ff."
    assert checked_coverage(text) == 1.0
    first = Span(start=0, end=6)  # "Aa bb." : 5 non-blank characters of 15
    assert checked_coverage(text, [first]) == pytest.approx(10 / 15)
    # Overlapping and repeated spans are not subtracted twice; whitespace never counts.
    assert checked_coverage(text, [first, Span(start=2, end=8), first]) == pytest.approx(10 / 15)
    assert checked_coverage(text, [Span(start=0, end=len(text))]) == 0.0
    assert checked_coverage("   \n ") is None


def test_coverage_rejects_spans_outside_the_text() -> None:
    with pytest.raises(ValueError, match="outside the text"):
        checked_coverage("short", [Span(start=2, end=9)])


# --- failed chunks ------------------------------------------------------------------------


@pytest.mark.slow
def test_a_failed_chunk_is_a_record_with_its_span_index_and_error(
    monkeypatch: pytest.MonkeyPatch, scripted: Any
) -> None:
    real = LLMDecomposer.decompose
    text = f"{PARIS}\n\n{CURIE}"

    def decompose(self: LLMDecomposer, chunk: Any, **kwargs: Any) -> DecomposeResult:
        if CURIE in chunk.text:
            return DecomposeResult(error=f"decompose failed for chunk {chunk.index}: boom")
        return real(self, chunk, **kwargs)

    monkeypatch.setattr(LLMDecomposer, "decompose", decompose)
    report = run(scripted(), text, chunk_size=60)
    assert report.chunks == 2
    (failed,) = report.failed_chunks
    assert failed.chunk_index == 1 and failed.cause == "error"
    assert text[failed.span.start : failed.span.end] == failed.text == CURIE
    assert failed.error == "decompose failed for chunk 1: boom"
    assert [r.fact.subject for r in report.records] == ["Paris"]
    assert report.failures == 1
    assert report.outcome == "partial"
    assert report.coverage == pytest.approx(nonblank(PARIS) / nonblank(text))


def test_a_decomposer_that_raises_fails_its_chunk_only(
    monkeypatch: pytest.MonkeyPatch, scripted: Any
) -> None:
    real = LLMDecomposer.decompose

    def decompose(self: LLMDecomposer, chunk: Any, **kwargs: Any) -> DecomposeResult:
        if CURIE in chunk.text:
            raise RuntimeError("decomposer crashed")
        return real(self, chunk, **kwargs)

    monkeypatch.setattr(LLMDecomposer, "decompose", decompose)
    report = run(scripted(), f"{PARIS} {CURIE}", chunk_size=60)
    (failed,) = report.failed_chunks
    assert failed.text == CURIE
    assert failed.error == "decompose failed for chunk 1: RuntimeError: decomposer crashed"
    assert len(report.records) == 1 and report.failures == 1


def test_every_call_failing_is_a_failed_run_with_every_chunk_recorded() -> None:
    text = f"{PARIS} {CURIE} {PARIS}"
    report = run(always_failing(), text, chunk_size=60, max_output_retries=0)
    assert report.records == []
    assert report.chunks == 3 == len(report.failed_chunks) == report.failures
    assert [c.chunk_index for c in report.failed_chunks] == [0, 1, 2]
    errors = r"RateLimitError|ServerError|ProviderTimeoutError"
    assert all(re.search(errors, c.error) for c in report.failed_chunks)
    assert report.coverage == 0.0
    assert report.outcome == "failed"
    assert report.model_dump(mode="json")["outcome"] == "failed"
    assert "3 of 3 chunks" in failure_line(report)


def test_chunks_skipped_at_max_facts_are_recorded_but_not_failures(scripted: Any) -> None:
    text = " ".join([PARIS, CURIE] * 4)
    report = run(scripted(), text, chunk_size=60, max_facts=2, max_concurrency=1)
    skipped = [c for c in report.failed_chunks if c.cause == "max_facts"]
    assert skipped and all("max_facts=2" in c.error for c in skipped)
    assert report.failures == 0 and report.outcome == "partial"  # stopped short, not failed
    assert report.stopped_at == ["max_facts"]
    assert len(report.records) + len(report.unverified_facts) + len(skipped) == 8
    assert report.coverage is not None and report.coverage < 0.5


# --- sentences that yielded no fact -------------------------------------------------------


@pytest.fixture
def with_filler(monkeypatch: pytest.MonkeyPatch) -> None:
    """An LLM decomposer that reports exactly the filler sentence as not decomposed."""
    real = LLMDecomposer.decompose

    def decompose(self: LLMDecomposer, chunk: Any, **kwargs: Any) -> DecomposeResult:
        result = real(self, chunk, **kwargs)
        at = chunk.text.find(FILLER)
        start = chunk.start + at
        result.undecomposed = [Span(start=start, end=start + len(FILLER))] if at >= 0 else []
        return result

    monkeypatch.setattr(LLMDecomposer, "decompose", decompose)


@pytest.mark.usefixtures("with_filler")
def test_undecomposed_sentences_reach_the_report_and_lower_coverage(scripted: Any) -> None:
    text = f"{PARIS} {FILLER} {CURIE}"
    report = run(scripted(), text)
    (sentence,) = report.undecomposed
    assert sentence == UndecomposedSentence(
        chunk_index=0,
        span=Span(start=len(PARIS) + 1, end=len(PARIS) + 1 + len(FILLER)),
        text=FILLER,
    )
    assert report.failures == 0 and report.outcome == "complete"
    assert report.coverage == pytest.approx(1 - nonblank(FILLER) / nonblank(text))


def test_the_llm_decomposer_lists_sentences_no_fact_came_from(scripted: Any) -> None:
    aside = "Dr. Who is not a doctor."
    text = f"{PARIS} {FILLER}\n\n{aside} {CURIE}\n\n---"
    report = run(scripted(), text, chunk_size=0)
    assert [s.text for s in report.undecomposed] == [FILLER, aside]  # "---": nothing to check
    for sentence in report.undecomposed:
        assert text[sentence.span.start : sentence.span.end] == sentence.text
    assert len(report.records) == 2
    assert report.coverage == pytest.approx(
        1 - (nonblank(FILLER) + nonblank(aside)) / nonblank(text)
    )


def test_facts_whose_verification_failed_leave_their_span_unchecked(
    monkeypatch: pytest.MonkeyPatch, scripted: Any
) -> None:
    real = LLMJudge.verify

    def verify(self: LLMJudge, fact: Fact, evidence: Any, **kwargs: Any) -> Any:
        if fact.subject == "Marie Curie":
            raise RuntimeError("judge crashed")
        return real(self, fact, evidence, **kwargs)

    monkeypatch.setattr(LLMJudge, "verify", verify)
    text = f"{PARIS} {CURIE}"
    report = run(scripted(), text)
    assert report.failures == 1 and report.outcome == "partial"
    assert report.coverage == pytest.approx(nonblank(PARIS) / nonblank(text))


def test_all_facts_failing_verification_is_a_failed_run(monkeypatch: pytest.MonkeyPatch) -> None:
    model = FaultyChatModel(
        inner=ScriptedChatModel(responder=make_responder()),
        error_rate=1.0,
        schemas=frozenset({"Judgement"}),
    )
    report = run(model, f"{PARIS} {CURIE}", max_output_retries=0)
    assert len(report.records) == 2 and report.failures == 2
    assert report.failed_chunks == [] and report.outcome == "failed"
    assert report.coverage == 0.0
    assert "2 of 2 facts" in failure_line(report)


# --- shown in the terminal, HTML, show and JSON ------------------------------------------


def accounted_report() -> Report:
    """A report with one failed chunk and one sentence that yielded no fact."""
    return Report(
        chunks=3,
        failures=1,
        coverage=0.5,
        failed_chunks=[
            ChunkFailure(
                chunk_index=2,
                span=Span(start=40, end=60),
                text="Ada <b>wrote</b> notes.",
                error="decompose failed for chunk 2: ServerError: 500",
            )
        ],
        undecomposed=[
            UndecomposedSentence(chunk_index=0, span=Span(start=0, end=len(FILLER)), text=FILLER)
        ],
    )


def test_terminal_shows_coverage_failed_chunks_and_undecomposed_sentences() -> None:
    out = io.StringIO()
    print_report(accounted_report(), Console(file=out, width=200))
    shown = out.getvalue()
    assert "coverage 50.0%" in shown
    assert "1 of 3 chunks not decomposed" in shown
    assert "chunk 2 (chars 40–60) not decomposed: decompose failed for chunk 2" in shown
    assert f"not decomposed (no fact): chars 0–18 “{FILLER}”" in shown


def test_html_shows_coverage_failed_chunks_and_undecomposed_sentences() -> None:
    html = render_html(accounted_report())
    assert "coverage" in html and "50.0%" in html
    assert 'id="unchecked"' in html
    assert "Ada &lt;b&gt;wrote&lt;/b&gt; notes." in html  # escaped, never markup
    assert "decompose failed for chunk 2: ServerError: 500" in html
    assert FILLER in html and "chars 0–18" in html


def test_partial_failure_summary_says_how_much_failed() -> None:
    line = failure_summary(accounted_report())
    assert line == "1 of 3 chunks not decomposed · 50.0% of the text checked"


# --- the command line ---------------------------------------------------------------------


@pytest.mark.slow
def test_check_exits_3_when_nothing_could_be_checked(tmp_path: Path) -> None:
    name = register_model("always-failing", always_failing())
    store = tmp_path / "runs.sqlite"
    result = runner.invoke(
        app, ["check", f"{PARIS} {CURIE}", "-m", name, "--no-cache", "--store", str(store)]
    )
    assert result.exit_code == 3, result.output
    lines = result.stderr.strip().splitlines()
    failure = [line for line in lines if line.startswith("error:")]
    assert len(failure) == 1
    assert re.match(r"error: nothing could be checked: 1 of 1 chunks? not decomposed", failure[0])
    (stored,) = RunStore(store).runs()
    assert RunStore(store).report(stored.run_id).outcome == "failed"


@pytest.mark.slow
def test_check_json_of_a_failed_run_is_printed_and_exits_3(tmp_path: Path) -> None:
    name = register_model("always-failing-json", always_failing())
    result = runner.invoke(app, ["check", PARIS, "-m", name, "--no-cache", "--json", "--no-store"])
    assert result.exit_code == 3
    payload = json.loads(result.stdout)
    assert payload["outcome"] == "failed" and payload["coverage"] == 0.0
    assert payload["failed_chunks"][0]["span"] == {"start": 0, "end": len(PARIS)}


@pytest.mark.usefixtures("with_filler")
def test_partial_failure_exits_0_and_says_how_much_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scripted: Any
) -> None:
    real = LLMDecomposer.decompose

    def decompose(self: LLMDecomposer, chunk: Any, **kwargs: Any) -> DecomposeResult:
        if CURIE in chunk.text:
            return DecomposeResult(error=f"decompose failed for chunk {chunk.index}: boom")
        return real(self, chunk, **kwargs)

    monkeypatch.setattr(LLMDecomposer, "decompose", decompose)
    evidence = tmp_path / "evidence.md"
    evidence.write_text(PARIS, encoding="utf-8")
    name = register_model("partly-failing", scripted())
    text = f"{PARIS} {FILLER}\n\n{CURIE}"
    result = runner.invoke(
        app,
        [
            "check",
            text,
            "-m",
            name,
            "-e",
            str(evidence),
            "--chunk-size",
            "60",
            "--no-store",
            "--no-cache",
        ],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    assert "1 of 2 chunks not decomposed" in result.stdout
    assert "coverage" in result.stdout


def test_show_prints_coverage(tmp_path: Path, scripted: Any) -> None:
    store = tmp_path / "runs.sqlite"
    report = triqua.check(PARIS, documents=DOCS, model=scripted(), store=store, cache=False)
    result = runner.invoke(app, ["show", report.run_id, "--store", str(store)])
    assert result.exit_code == 0
    assert "coverage 100.0%" in result.stdout


@pytest.mark.slow
def test_batch_lines_carry_their_outcome_and_the_summary_counts_them(tmp_path: Path) -> None:
    from triqua.batch import run_batch

    source = tmp_path / "in.jsonl"
    source.write_text(
        "\n".join(json.dumps({"id": i, "text": PARIS, "evidence": [PARIS]}) for i in (1, 2)),
        encoding="utf-8",
    )
    out = tmp_path / "out.jsonl"
    console = Console(file=io.StringIO(), width=200)
    summary = run_batch(source, out, console=console, model=always_failing(), cache=False)
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert sorted(line["id"] for line in lines) == [1, 2]
    assert {line["outcome"] for line in lines} == {"failed"}
    assert summary.outcomes["failed"] == 2 and summary.all_failed
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert "runs failed (nothing checked)" in shown
    assert re.search(r"in\.jsonl:\d: id [12]: nothing could be checked", shown)


@pytest.mark.slow
def test_batch_command_exits_3_when_every_check_failed(tmp_path: Path) -> None:
    name = register_model("always-failing-batch", always_failing())
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "a", "text": PARIS}) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = runner.invoke(
        app, ["batch", str(source), "-o", str(out), "-m", name, "--no-resume", "--quiet"]
    )
    assert result.exit_code == 3, result.output
    assert json.loads(out.read_text(encoding="utf-8"))["outcome"] == "failed"


def test_status_of_old_reports_without_coverage_still_loads() -> None:
    old = Report().model_dump(mode="json")
    for key in ("coverage", "failed_chunks", "undecomposed", "chunks", "outcome"):
        old.pop(key)
    loaded = Report.model_validate(old)
    assert loaded.coverage is None and loaded.outcome == "complete"
    assert Status.SUPPORTED.value == "supported"


def test_regrade_keeps_failed_chunks_and_recomputes_coverage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scripted: Any
) -> None:
    from triqua.regrade import regrade

    real_decompose, real_verify = LLMDecomposer.decompose, LLMJudge.verify

    def decompose(self: LLMDecomposer, chunk: Any, **kwargs: Any) -> DecomposeResult:
        if FRANCE in chunk.text:
            return DecomposeResult(error=f"decompose failed for chunk {chunk.index}: boom")
        return real_decompose(self, chunk, **kwargs)

    def verify(self: LLMJudge, fact: Fact, evidence: Any, **kwargs: Any) -> Any:
        if fact.subject == "Marie Curie":
            raise RuntimeError("judge crashed")
        return real_verify(self, fact, evidence, **kwargs)

    monkeypatch.setattr(LLMDecomposer, "decompose", decompose)
    monkeypatch.setattr(LLMJudge, "verify", verify)
    store = tmp_path / "runs.sqlite"
    text = f"{PARIS} {CURIE} {FRANCE}"
    first = run(scripted(), text, chunk_size=90, store=store)
    assert first.failures == 2 and len(first.failed_chunks) == 1
    monkeypatch.setattr(LLMJudge, "verify", real_verify)
    again = regrade(first.run_id, model=scripted(), store=store)
    assert again.failed_chunks == first.failed_chunks and again.failures == 1
    assert again.coverage == pytest.approx(1 - nonblank(FRANCE) / nonblank(text))
    assert first.coverage is not None and again.coverage > first.coverage


def test_the_agent_summary_says_what_was_not_checked() -> None:
    from triqua.integrations.agents import summarize

    lines = summarize(accounted_report()).splitlines()
    assert "not all checked: 1 of 3 chunks not decomposed · 50.0% of the text checked" in lines
    only_sentences = Report(coverage=0.75, undecomposed=accounted_report().undecomposed)
    assert summarize(only_sentences).splitlines()[-1] == (
        "75.0% of the text checked; 1 sentence yielded no fact"
    )
