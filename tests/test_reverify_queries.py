"""Later re-verification rounds ask queries no earlier search asked, on every engine."""

from __future__ import annotations

import triqua
from triqua.core.verdicts.reverification import wider_queries
from triqua.runtime.resources import register_retriever
from triqua.schema import Evidence, Fact
from triqua.tools.base import SearchBudget, SearchResult

from .conftest import CURIE
from .test_reverify import CountingRetriever


class OffTopicRetriever(CountingRetriever):
    """One new passage per query that says nothing about the claim: units stay pending."""

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        self._count_call()
        self.queries.append(query)
        text = f"The weather was mild in spring number {len(self.queries)}."
        return SearchResult(
            evidence=[Evidence.build(document_id=query, text=text, retriever=self.name, rank=1)]
        )


def test_round_two_on_the_offline_engine_asks_only_queries_never_asked_before() -> None:
    retriever = OffTopicRetriever()
    name = register_retriever(f"off-topic-{id(retriever)}", retriever)
    report = triqua.check(
        CURIE, retriever=name, routing="always_element", reverify_rounds=2, cache=False
    )
    (record,) = report.records
    first, second = record.rounds
    assert first.unit_verdicts and first.queries
    # The offline refiner repeats its round-1 queries; round 2 still searches and judges.
    assert second.stop_reason != "no new query"
    assert second.queries and second.unit_verdicts
    asked_before = set(retriever.queries[: 1 + len(first.queries)])
    assert not asked_before & set(second.queries)
    # The source sentence reads as the contextual claim (round 1 asked it); round 2 asks the
    # units' elements without their subject.
    assert first.queries[0] == "Marie Curie won the Nobel Prize in Physics in 1903"
    assert second.queries == ["won the Nobel Prize in Physics", "the Nobel Prize in Physics 1903"]


def test_wider_queries_carry_a_resolved_neighbours_name_beside_the_unit() -> None:
    fact = Fact.parse(
        "(Gerhard Fischer, became, citizen)-(point in time, 1941)",
        source_text="Gerhard Fischer moved to Princeton and became a citizen in 1941.",
    )
    neighbour = Fact.parse("(Gerhard Fischer, moved to, Princeton)")
    (unit,) = fact.units()[1:]
    queries = wider_queries(fact, [unit], [neighbour])
    assert queries == [
        "Gerhard Fischer moved to Princeton and became a citizen in 1941",
        "citizen 1941",
        "Gerhard Fischer Princeton 1941",
    ]
    # Without neighbours: the sentence and the unit's elements without the subject.
    assert wider_queries(fact, fact.units()[:1]) == [fact.source_text.rstrip("."), "became citizen"]
