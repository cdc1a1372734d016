"""The complex route: per-unit verification and the bounded re-verify loop."""

from __future__ import annotations

import re
from typing import Any

import triqua
from triqua.resources import register_retriever
from triqua.schema import Evidence, Status
from triqua.testing import best_quote, passages
from triqua.tools.base import Retriever, SearchBudget, SearchResult, budget_refused

from .conftest import CURIE


class CountingRetriever(Retriever):
    """A budgeted retriever that returns one passage per query and records the queries."""

    name = "counting"
    revision = "counting/1"
    uses_budget = True

    def __init__(self) -> None:
        super().__init__()
        self.queries: list[str] = []

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        if budget is not None and not budget.try_spend():
            return budget_refused()
        self._count_call()
        self.queries.append(query)
        text = f"Passage for: {query}"
        return SearchResult(
            evidence=[Evidence.build(document_id=query, text=text, retriever=self.name, rank=1)]
        )


def qualifiers_unresolved(fact: str, prompt: str) -> dict[str, Any]:
    """Support the base triple only; every qualifier stays insufficient."""
    ids = re.findall(r"<<<EVIDENCE id=(ev-[0-9a-f]+)>>>", prompt)
    units = re.findall(r"^- (\(.*\))$", prompt, flags=re.M)
    passage = passages(prompt).get(ids[0], "") if ids else ""
    return {
        "status": "insufficient_evidence",
        "unit_verdicts": [
            {
                "unit": u,
                "status": "supported" if u.startswith("(Marie") else "insufficient_evidence",
                "quote": best_quote(passage, u),
            }
            for u in units
        ],
        "evidence_ids": ids[:1],
    }


def run(scripted: Any, **settings: Any) -> tuple[triqua.Report, CountingRetriever, Any]:
    retriever = CountingRetriever()
    model = scripted(judge=qualifiers_unresolved)
    name = register_retriever(f"counting-{id(retriever)}", retriever)
    settings.setdefault("routing", "always_element")
    report = triqua.check(CURIE, model=model, retriever=name, **settings)
    return report, retriever, model


def test_loop_stops_at_its_round_limit(scripted: Any) -> None:
    report, retriever, model = run(scripted, reverify_rounds=2)
    (record,) = report.records
    assert record.route == "complex"
    assert [r.round for r in record.rounds] == [1, 2]
    assert record.verdict.status is Status.INSUFFICIENT
    assert len(retriever.queries) == 1 + 2  # first retrieval, then one query per round
    judge_calls = [p for tool, p in model.calls if tool == "Judgement"]
    assert len(judge_calls) == 3  # one per-unit call, then one per round
    assert report.reverify_trigger_rate == 1.0


def test_reverify_touches_only_insufficient_units(scripted: Any) -> None:
    report, _retriever, model = run(scripted, reverify_rounds=1)
    (record,) = report.records
    (round_,) = record.rounds
    assert round_.units == ["(point in time, 1903)"]
    assert round_.queries == ["refined (point in time, 1903)"]
    reverify_prompt = [p for tool, p in model.calls if tool == "Judgement"][-1]
    listed = re.findall(r"^- (\(.*\))$", reverify_prompt, flags=re.M)
    assert listed == ["(point in time, 1903)"]
    base = next(u for u in record.verdict.unit_verdicts if u.kind == "base")
    assert base.status is Status.SUPPORTED


def test_loop_stops_when_the_search_budget_is_spent(scripted: Any) -> None:
    report, retriever, _ = run(scripted, reverify_rounds=5, max_searches=2)
    (record,) = report.records
    assert len(retriever.queries) == 2
    assert len(record.rounds) <= 2
    assert record.rounds[-1].stop_reason == "search budget spent" or len(record.rounds) == 1
    assert report.usage.search_calls == 2


def test_never_reverify_mode_skips_the_loop(scripted: Any) -> None:
    report, retriever, _ = run(scripted, routing="never_reverify")
    (record,) = report.records
    assert record.rounds == [] and len(retriever.queries) == 1


def test_records_hold_every_round(scripted: Any) -> None:
    report, _, _ = run(scripted, reverify_rounds=2)
    (record,) = report.records
    for round_ in record.rounds:
        assert round_.queries and round_.evidence_ids and round_.unit_verdicts
    again = triqua.Report.model_validate_json(report.model_dump_json())
    assert again.records[0].rounds == record.rounds


def test_a_repeated_query_stops_the_loop_without_another_verdict() -> None:
    from triqua.testing import ScriptedChatModel

    from .conftest import make_responder

    base = make_responder(qualifiers_unresolved)

    def same_query_every_round(tool: str, prompt: str) -> Any:
        if tool == "RefinedQueries":
            return {"queries": ["Marie Curie 1903"]}
        return base(tool, prompt)

    model = ScriptedChatModel(responder=same_query_every_round)
    retriever = CountingRetriever()
    name = register_retriever(f"counting-{id(retriever)}", retriever)
    report = triqua.check(
        CURIE, model=model, retriever=name, routing="always_element", reverify_rounds=3
    )
    (record,) = report.records
    assert [r.stop_reason for r in record.rounds] == [None, "no new query"]
    assert retriever.queries.count("Marie Curie 1903") == 1
    assert len([1 for tool, _ in model.calls if tool == "Judgement"]) == 2
