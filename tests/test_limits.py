"""Limits pushed past: concurrency, re-verify rounds, searches, input size and fact count.

Going past a limit is a clear error or a recorded stop, never a hang or a lost fact.
"""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import pytest

import triqua
from triqua.runtime.resources import register_retriever
from triqua.schema import Evidence, Report, Status
from triqua.testing import ScriptedChatModel, best_quote, fenced, passages, shown_text
from triqua.tools.base import Retriever, SearchBudget, SearchResult, budget_refused

pytestmark = [
    pytest.mark.usefixtures("per_fact_verification"),  # per-fact calls counted or faulted
    pytest.mark.timeout(120),
    pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated"),
]

SIMPLE = re.compile(r"(Person\d+) was born in (City\d+)\.")
COMPLEX = re.compile(
    r"In (\d{4}), (Person\d+) won (Prize\d+) in (Town\d+) with (Partner\d+), says the archive\."
)


def simple_text(n: int) -> str:
    return " ".join(f"Person{i} was born in City{i}." for i in range(n))


def complex_text(n: int) -> str:
    return " ".join(
        f"In {1900 + i}, Person{i} won Prize{i} in Town{i} with Partner{i}, says the archive."
        for i in range(n)
    )


DOCS = [
    f"Person{i} was born in City{i}. "
    f"Person{i} won Prize{i} in {1900 + i} in Town{i} with Partner{i}, says the archive."
    for i in range(40)
]


class Responder:
    """Scripted answers that take ``latency`` s and count the calls in flight."""

    def __init__(self, latency: float = 0.0, *, leave_partner_open: bool = False) -> None:
        self.latency = latency
        self.leave_partner_open = leave_partner_open
        self.in_flight = 0
        self.peak = 0
        self._lock = threading.Lock()

    def __call__(self, tool: str, prompt: str) -> dict[str, Any]:
        with self._lock:
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
        try:
            time.sleep(self.latency)
            return self.answer(tool, prompt)
        finally:
            with self._lock:
                self.in_flight -= 1

    def answer(self, tool: str, prompt: str) -> dict[str, Any]:
        if tool == "ExtractedFacts":
            text = shown_text(prompt)
            facts: list[dict[str, Any]] = [
                {"subject": m[1], "relation": "was born in", "object": m[2]}
                for m in SIMPLE.finditer(text)
            ]
            facts += [
                {
                    "subject": m[2],
                    "relation": "won",
                    "object": m[3],
                    "qualifiers": [
                        {"label": "point in time", "value": m[1]},
                        {"label": "location", "value": m[4]},
                        {"label": "together with", "value": m[5]},
                        {"label": "according to", "value": "the archive"},
                    ],
                }
                for m in COMPLEX.finditer(text)
            ]
            return {"facts": facts}
        units = re.findall(r"^- (\(.*\))$", prompt, flags=re.M)
        if tool == "Judgement":
            ids = re.findall(r"<<<EVIDENCE id=(ev-[0-9a-f]+)>>>", prompt)
            passage = passages(prompt).get(ids[0], "") if ids else ""
            fact = fenced(prompt, "FACT")
            verdicts = [
                {
                    "unit": unit,
                    "status": "insufficient_evidence"
                    if self.leave_partner_open and unit.startswith("(together with")
                    else "supported",
                    "quote": best_quote(passage, f"{fact} {unit}"),
                }
                for unit in units
            ]
            pending = any(v["status"] != "supported" for v in verdicts)
            return {
                "status": "insufficient_evidence" if pending or not ids else "supported",
                "unit_verdicts": verdicts,
                "evidence_ids": ids[:1],
                "quote": best_quote(passage, fact),
            }
        round_index = re.search(r"Round (\d+)\.", prompt)
        label = round_index.group(1) if round_index else "?"
        return {"queries": [f"round {label} {unit}" for unit in units]}


def check(text: str, responder: Responder, **settings: Any) -> Report:
    model = ScriptedChatModel(responder=responder)
    settings = {"documents": DOCS, "cache": False, "retry_wait": 0.0, **settings}
    return triqua.check(text, model=model, **settings)


# --- concurrency ---------------------------------------------------------------------------


@pytest.mark.parametrize("limit", [1, 3])
def test_fan_out_never_exceeds_max_concurrency(limit: int) -> None:
    responder = Responder(latency=0.05)
    report = check(simple_text(12), responder, max_concurrency=limit, chunk_size=0)
    assert len(report.records) == 12
    assert 1 <= responder.peak <= limit
    if limit > 1:
        assert responder.peak > 1, "facts are verified concurrently"


def test_fan_out_reaches_max_concurrency_above_the_cpu_count() -> None:
    responder = Responder(latency=0.3)
    report = check(simple_text(24), responder, max_concurrency=24, chunk_size=0)
    assert len(report.records) == 24
    # The event loop's default executor has min(32, CPUs + 4) threads; the run must not be
    # held to that when max_concurrency asks for more.
    assert responder.peak > 12


@pytest.mark.parametrize("value", [0, -1])
def test_max_concurrency_below_one_is_a_clear_error(value: int) -> None:
    with pytest.raises(ValueError, match="max_concurrency must be >= 1"):
        check(simple_text(2), Responder(), max_concurrency=value)


# --- re-verification rounds ----------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("rounds", [0, 1, 3, 30])
def test_reverify_stops_at_its_round_limit(rounds: int) -> None:
    responder = Responder(leave_partner_open=True)
    report = check(
        complex_text(2),
        responder,
        retriever=notes(),
        reverify_rounds=rounds,
        max_searches=1000,
        routing="always_element",
    )
    assert len(report.records) == 2
    for index, record in enumerate(report.records):
        assert record.route == "complex"
        assert [r.round for r in record.rounds] == list(range(1, rounds + 1))
        assert record.verdict.status is Status.INSUFFICIENT
        assert record.verdict.wrong_components == [f"(together with, Partner{index})"]


def test_negative_rounds_are_a_clear_error() -> None:
    with pytest.raises(ValueError, match="reverify_rounds must be >= 0"):
        check(complex_text(1), Responder(), reverify_rounds=-1)


# --- searches -----------------------------------------------------------------------------


class NotesRetriever(Retriever):
    """One passage per query, new for each new query; every search draws on the budget."""

    name = "notes"
    revision = "notes/1"
    uses_budget = True

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        if budget is not None and not budget.try_spend():
            return budget_refused()
        self._count_call()
        passage = Evidence.build(document_id=query, text=f"Notes: {query}.", retriever=self.name)
        return SearchResult(evidence=[passage])


def notes() -> str:
    return register_retriever(f"notes-{time.monotonic_ns()}", NotesRetriever())


def test_search_budget_is_never_exceeded_and_the_rest_is_recorded() -> None:
    report = check(simple_text(10), Responder(), retriever=notes(), max_searches=4, chunk_size=0)
    assert len(report.records) == 10
    assert report.usage.search_calls == 4
    searched = [r for r in report.records if r.usage.search_calls]
    unsearched = [r for r in report.records if not r.usage.search_calls]
    assert len(searched) == 4 and len(unsearched) == 6
    for record in unsearched:
        assert record.verdict.status is Status.INSUFFICIENT
        assert record.verdict.error and "search budget spent" in record.verdict.error


def test_reverify_stops_when_the_search_budget_is_spent() -> None:
    responder = Responder(leave_partner_open=True)
    report = check(
        complex_text(1),
        responder,
        retriever=notes(),
        max_searches=4,
        reverify_rounds=10,
        routing="always_element",
    )
    (record,) = report.records
    # One search for the fact; the first round searches the contextual claim, a refined
    # query and its two element queries: the fourth search spends the budget in round 1,
    # which stops the loop and says why.
    assert report.usage.search_calls == 4
    assert [r.stop_reason for r in record.rounds] == ["search budget spent"]
    assert record.verdict.status is Status.INSUFFICIENT


def test_zero_searches_verifies_without_evidence() -> None:
    report = check(simple_text(3), Responder(), retriever=notes(), max_searches=0)
    assert report.usage.search_calls == 0
    assert all(r.verdict.status is Status.INSUFFICIENT for r in report.records)
    assert all("search budget spent" in (r.verdict.error or "") for r in report.records)


# --- input size and fact count ---------------------------------------------------------------


def test_max_input_chars_is_exact() -> None:
    text = simple_text(3)
    assert check(text, Responder(), max_input_chars=len(text)).records
    with pytest.raises(ValueError, match="above the limit"):
        check(text, Responder(), max_input_chars=len(text) - 1)


@pytest.mark.parametrize("concurrency", [1, 8])
def test_max_facts_keeps_the_first_facts_and_records_the_stop(concurrency: int) -> None:
    text = simple_text(30)
    everything = check(text, Responder(), chunk_size=60)
    capped = check(text, Responder(), chunk_size=60, max_facts=10, max_concurrency=concurrency)
    assert [r.claim_text for r in capped.records] == [r.claim_text for r in everything.records[:10]]
    (stop,) = capped.errors
    assert stop.startswith("stopped at max_facts=10")
    skipped = int(re.search(r"(\d+) of \d+ chunks? (?:was|were) not decomposed", stop).group(1))  # type: ignore[union-attr]
    assert skipped > 0, "decomposition stops once enough facts are found"


def test_max_facts_below_one_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="max_facts must be >= 1"):
        check(simple_text(1), Responder(), max_facts=0)


@pytest.mark.parametrize("retries", [0, 3])
def test_output_retries_are_bounded(retries: int) -> None:
    calls: list[str] = []

    def malformed(tool: str, prompt: str) -> dict[str, Any] | str:
        if tool == "Judgement":
            calls.append(prompt)
            return "not json"
        return Responder().answer(tool, prompt)

    model = ScriptedChatModel(responder=malformed)
    report = triqua.check(
        simple_text(1),
        model=model,
        documents=DOCS,
        cache=False,
        max_output_retries=retries,
        retry_wait=0.0,
    )
    assert len(calls) == retries + 1
    assert report.failures == 1
