"""The complex route: per-unit verification and the bounded re-verify loop."""

from __future__ import annotations

import re
from typing import Any

import pytest

import triqua
from triqua.runtime.resources import register_retriever
from triqua.schema import Evidence, Status
from triqua.testing import best_quote, passages
from triqua.tools.base import Retriever, SearchBudget, SearchResult, budget_refused

from .conftest import CURIE

# About per-fact verification calls (counted, faulted or stalled one by one).
pytestmark = pytest.mark.usefixtures("per_fact_verification")


class CountingRetriever(Retriever):
    """A budgeted retriever that returns one passage per query and records the queries."""

    name = "counting"
    revision = "counting/1"
    uses_budget = True

    def __init__(self) -> None:
        super().__init__()
        self.queries: list[str] = []
        self.depths: list[int] = []

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        if budget is not None and not budget.try_spend():
            return budget_refused()
        self._count_call()
        self.queries.append(query)
        self.depths.append(k)
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
    # First retrieval; round 1 the contextual claim, a refined query, two queries of the
    # pending qualifier's elements and one for its actual value (the base triple alone);
    # round 2 a refined query, the source sentence and the qualifier's elements without the
    # subject (the others were asked already).
    assert len(retriever.queries) == 1 + 5 + 3
    judge_calls = [p for tool, p in model.calls if tool == "Judgement"]
    # One per-unit call, one per round, then the subject's element claim; the object's
    # element claim is the last round's judgement again (same fact, units and evidence),
    # served from the cache.
    assert len(judge_calls) == 1 + 2 + 1
    assert report.reverify_trigger_rate == 1.0


def test_reverify_touches_only_insufficient_units(scripted: Any) -> None:
    report, _retriever, model = run(scripted, reverify_rounds=1)
    (record,) = report.records
    (round_,) = record.rounds
    assert round_.units == ["(point in time, 1903)"]
    claim = "Marie Curie won Nobel Prize in Physics in 1903"
    assert round_.claim == claim + "."
    assert round_.queries == [
        claim,
        "refined (point in time, 1903)",
        "Marie Curie 1903",
        "Marie Curie Nobel Prize in Physics 1903",
        "Marie Curie won Nobel Prize in Physics",
    ]
    # The per-unit call, round 1's, then the element claims' (after the rounds).
    reverify_prompt = [p for tool, p in model.calls if tool == "Judgement"][1]
    listed = re.findall(r"^- (\(.*\))$", reverify_prompt, flags=re.M)
    assert listed == ["(point in time, 1903)"]
    base = next(u for u in record.verdict.unit_verdicts if u.kind == "base")
    assert base.status is Status.SUPPORTED


def test_loop_stops_when_the_search_budget_is_spent(scripted: Any) -> None:
    report, retriever, _ = run(scripted, reverify_rounds=5, max_searches=2)
    (record,) = report.records
    assert len(retriever.queries) == 2
    # The first retrieval and round 1's first query spend the budget; its refined query is
    # refused, so round 1 is the last and says why.
    (round_,) = record.rounds
    assert round_.stop_reason == "search budget spent"
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
    # Round 2 asks the wider queries (the sentence, the unit without its subject); round 3
    # has none left.
    assert [r.stop_reason for r in record.rounds] == [None, None, "no new query"]
    assert record.rounds[2].claim == record.rounds[0].claim  # the same claim, not asked again
    assert retriever.queries.count("Marie Curie 1903") == 1
    # The per-unit call, rounds 1 and 2 and the subject's element claim (the object's is
    # round 2's judgement again, served from the cache); round 3 judged nothing.
    assert len([1 for tool, _ in model.calls if tool == "Judgement"]) == 4


FISCHER = "Gerhard Fischer moved to the United States in 1929, where he became a citizen in 1941."


def test_a_round_judges_the_contextual_claim_of_the_unresolved_units(
    monkeypatch: Any, scripted: Any
) -> None:
    """The claim carries the connecting fact; its search finds what supports the qualifier."""
    from . import conftest

    facts = [
        {
            "subject": "Gerhard Fischer",
            "relation": "moved to",
            "object": "the United States",
            "qualifiers": [{"label": "point in time", "value": "1929"}],
            "source_sentence": FISCHER,
        },
        {
            "subject": "Gerhard Fischer",
            "relation": "became",
            "object": "a citizen",
            "qualifiers": [{"label": "point in time", "value": "1941"}],
            "source_sentence": FISCHER,
        },
    ]
    monkeypatch.setitem(conftest.FACTS_BY_SENTENCE, FISCHER, facts)

    def judge(fact: str, prompt: str) -> dict[str, Any]:
        # Supports a qualifier only on a passage found by a query that names both events.
        ids = re.findall(r"<<<EVIDENCE id=(ev-[0-9a-f]+)>>>\n(.*?)\n<<<END", prompt, re.S)
        units = re.findall(r"^- (\(.*\))$", prompt, flags=re.M)
        both = [i for i, text in ids if "moved to" in text and "became" in text]
        cited = (both or [i for i, _ in ids])[:1]
        quote = passages(prompt)[cited[0]] if cited else None  # the passage, verbatim
        return {
            "status": "insufficient_evidence",
            "unit_verdicts": [
                {
                    "unit": u,
                    "status": "supported"
                    if u.startswith("(Gerhard") or both
                    else "insufficient_evidence",
                    "quote": quote,
                }
                for u in units
            ],
            "evidence_ids": cited,
        }

    retriever = CountingRetriever()
    name = register_retriever(f"counting-{id(retriever)}", retriever)
    model = scripted(judge=judge)
    report = triqua.check(
        FISCHER, model=model, retriever=name, routing="always_element", reverify_rounds=2
    )
    became = next(r for r in report.records if r.fact.relation == "became")
    (round_,) = became.rounds  # nothing left insufficient after the first round
    claim = (
        "Gerhard Fischer became a citizen in 1941, where Gerhard Fischer moved to the United States"
    )
    assert round_.claim == claim + "."
    assert round_.queries[0] == claim and claim in retriever.queries
    assert round_.units == ["(point in time, 1941)"]
    assert [u.status for u in round_.unit_verdicts] == [Status.SUPPORTED]
    assert became.verdict.status is Status.SUPPORTED
    # The judge saw the connecting fact beside the unresolved unit, and judged only that unit.
    prompt = next(
        p for tool, p in model.calls if tool == "Judgement" and "(context," in p and "1941" in p
    )
    assert "(context, Gerhard Fischer moved to the United States)" in prompt
    assert re.findall(r"^- (\(.*\))$", prompt, flags=re.M) == ["(point in time, 1941)"]


def test_each_round_reads_deeper_than_the_first_pass(scripted: Any) -> None:
    # A unit left insufficient on the first page of passages gets the next page too.
    _report, retriever, _model = run(scripted, reverify_rounds=2, max_results=3, rerank=False)
    assert retriever.depths[0] == 3
    assert set(retriever.depths[1:6]) == {6}  # round 1: two pages
    assert set(retriever.depths[6:]) == {9}  # round 2: three


class SamePassageRetriever(CountingRetriever):
    """Returns the one passage it holds whatever the query: a round finds nothing new."""

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        self._count_call()
        self.queries.append(query)
        text = "Marie Curie won the Nobel Prize in Physics."
        return SearchResult(
            evidence=[Evidence.build(document_id="one", text=text, retriever=self.name, rank=1)]
        )


def test_the_trigger_rate_counts_facts_a_round_judged_not_facts_that_entered(
    scripted: Any,
) -> None:
    still = SamePassageRetriever()
    name = register_retriever(f"same-{id(still)}", still)
    model = scripted(judge=qualifiers_unresolved)
    report = triqua.check(CURIE, model=model, retriever=name, routing="always_element", cache=False)
    (record,) = report.records
    # The fact entered both rounds (the first found nothing new, so the second asked its
    # wider queries, which found nothing new either); neither judged: no trigger.
    assert [r.stop_reason for r in record.rounds] == ["no new evidence"] * 2
    assert not any(r.unit_verdicts for r in record.rounds)
    assert not record.rejudged and report.reverify_trigger_rate == 0.0
    judged, _, _ = run(scripted, reverify_rounds=1, cache=False)
    (record,) = judged.records
    assert record.rejudged and judged.reverify_trigger_rate == 1.0


def test_the_first_pass_query_is_the_triple_then_each_qualifier(scripted: Any) -> None:
    report, retriever, _ = run(scripted, reverify_rounds=0, cache=False)
    (record,) = report.records
    fact = record.fact
    # "s r o q1 v1 … qm vm": TriQua's query for a complex fact.
    qualifiers = " ".join(f"{q.label} {q.value}" for q in fact.qualifiers)
    assert fact.qualifiers and qualifiers.endswith("1903")
    assert retriever.queries[0] == f"Marie Curie won Nobel Prize in Physics {qualifiers}"


class KnownPassageRetriever(CountingRetriever):
    """Returns one passage every query finds, then one passage of the query's own."""

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        found = super().search(query, k, budget=budget)
        known = Evidence.build(
            document_id="known", text="Marie Curie won a Nobel Prize.", retriever=self.name
        )
        return SearchResult(evidence=[known, *found.evidence])


def test_a_round_records_only_the_passages_the_fact_did_not_hold_before(scripted: Any) -> None:
    retriever = KnownPassageRetriever()
    name = register_retriever(f"known-{id(retriever)}", retriever)
    model = scripted(judge=qualifiers_unresolved)
    settings: dict[str, Any] = {"routing": "always_element", "retriever": name, "cache": False}
    first = triqua.check(CURIE, model=model, reverify_rounds=0, **settings).records[0]
    (record,) = triqua.check(CURIE, model=model, reverify_rounds=1, **settings).records
    (round_,) = record.rounds
    held = {e.id for e in first.evidence}
    assert round_.evidence_ids and not held & set(round_.evidence_ids)
    assert {e.id for e in record.evidence} == held | set(round_.evidence_ids)
    assert len(round_.evidence_ids) == len(round_.queries)  # one new passage per query


class WiderOnlyRetriever(SamePassageRetriever):
    """The one known passage for every query, and a new one only for a round-2 wider query."""

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        found = super().search(query, k, budget=budget)
        if query != "Nobel Prize in Physics 1903":  # the qualifier without its subject
            return found
        text = "The Nobel Prize in Physics 1903 went to Marie Curie and Pierre Curie."
        extra = Evidence.build(document_id="wider", text=text, retriever=self.name, rank=1)
        return SearchResult(evidence=[*found.evidence, extra])


def supported_on_a_dated_passage(fact: str, prompt: str) -> dict[str, Any]:
    """Every unit supported once a passage names the year; else only the base triple."""
    found = passages(prompt)
    dated = [i for i, text in found.items() if "1903" in text]
    if not dated:
        return qualifiers_unresolved(fact, prompt)
    units = re.findall(r"^- (\(.*\))$", prompt, flags=re.M)
    quote = found[dated[0]]
    return {
        "status": "supported",
        "unit_verdicts": [{"unit": u, "status": "supported", "quote": quote} for u in units],
        "evidence_ids": dated[:1],
    }


def test_a_round_that_finds_nothing_new_hands_over_to_the_next_rounds_wider_queries(
    scripted: Any,
) -> None:
    retriever = WiderOnlyRetriever()
    name = register_retriever(f"wider-{id(retriever)}", retriever)
    model = scripted(judge=supported_on_a_dated_passage)
    report = triqua.check(
        CURIE, model=model, retriever=name, routing="always_element", reverify_rounds=2
    )
    (record,) = report.records
    first, second = record.rounds
    # Round 1 found only the passage the first pass read: it judged nothing, and the loop
    # went on to round 2, whose wider query found the dated passage and supported the year.
    assert first.stop_reason == "no new evidence" and not first.unit_verdicts
    assert "Nobel Prize in Physics 1903" in second.queries and second.evidence_ids
    assert [u.status for u in second.unit_verdicts] == [Status.SUPPORTED]
    assert record.verdict.status is Status.SUPPORTED
    assert record.rejudged and report.reverify_trigger_rate == 1.0
