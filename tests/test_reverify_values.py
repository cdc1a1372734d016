"""Re-verification asks for the relation's actual value, the claimed one left out."""

from __future__ import annotations

import re
from typing import Any

import triqua
from triqua.core.verdicts.reverification import value_queries
from triqua.runtime.resources import register_retriever
from triqua.schema import Evidence, Fact, Status
from triqua.tools.base import Retriever, SearchBudget, SearchResult

#: A claim whose year is wrong: the evidence gives the prize to 1903.
CLAIM = "Marie Curie won the Nobel Prize in Physics in 1905."
CORPUS = [
    "Marie Curie won the Nobel Prize in Physics.",
    "In 1905 Marie Curie met Albert Einstein.",
    "Marie Curie won the Nobel Prize in Physics in 1903.",
]
_YEAR = re.compile(r"\b1[89]\d\d\b")


class YearFacetRetriever(Retriever):
    """A search whose query names a year leaves out passages dated otherwise, as a date facet.

    It ranks that year's passages first, then the undated ones, each by the words they share
    with the query; a query without a year ranks every passage so. So every query that
    carries the claimed year misses the passage that dates the prize otherwise.
    """

    name = "year-facet"
    revision = "year-facet/1"

    def __init__(self) -> None:
        super().__init__()
        self.queries: list[str] = []

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        self._count_call()
        self.queries.append(query)
        years = set(_YEAR.findall(query))
        words = set(query.lower().split())
        kept = [p for p in CORPUS if not years or set(_YEAR.findall(p)) <= years]
        kept.sort(
            key=lambda p: (
                not years & set(_YEAR.findall(p)),
                -len(words & set(p.lower().rstrip(".").split())),
            )
        )
        return SearchResult(
            evidence=[
                Evidence.build(document_id=f"d{CORPUS.index(p)}", text=p, retriever=self.name)
                for p in kept[:k]
            ]
        )


def test_value_queries_leave_the_claimed_value_out() -> None:
    fact = Fact.parse(
        "(Gerhard Fischer, founded, Fischer Research Laboratory)-(point in time, 1936)"
    )
    base, qualifier = fact.units()
    neighbour = Fact.parse("(Gerhard Fischer, moved to, Palo Alto)")
    # A qualifier: its base triple alone; the claimed year is what the passage may differ on.
    assert value_queries(fact, [qualifier]) == [
        "Gerhard Fischer founded Fischer Research Laboratory"
    ]
    # A base: the subject and the relation, and beside them each resolved neighbour's element.
    assert value_queries(fact, [base], [neighbour]) == [
        "Gerhard Fischer founded",
        "Gerhard Fischer founded Palo Alto",
    ]


def test_a_round_asks_for_the_actual_year_and_reads_its_passage() -> None:
    retriever = YearFacetRetriever()
    name = register_retriever(f"year-facet-{id(retriever)}", retriever)
    settings: dict[str, Any] = {"retriever": name, "routing": "always_element", "cache": False}
    first = triqua.check(CLAIM, reverify_rounds=0, **settings)
    (start,) = first.records
    units = {u.kind: u.status for u in start.verdict.unit_verdicts}
    # The first pass's query names 1905, so it reads no passage dated otherwise: the prize
    # is established, its year is not.
    assert units == {"base": Status.SUPPORTED, "qualifier": Status.INSUFFICIENT}
    report = triqua.check(CLAIM, reverify_rounds=1, **settings)
    (record,) = report.records
    (round_,) = record.rounds
    # The round asked for the prize's year without the claimed one and read 1903's passage;
    # the year stays unsupported (the verifier judges a qualifier in the window its base is
    # bound to, here the undated sentence, so it is not yet contradicted).
    assert CORPUS[2] in {e.text for e in record.evidence}
    assert CORPUS[2] not in {e.text for e in start.evidence}
    (judged,) = round_.unit_verdicts
    assert judged.unit == "(point in time, 1905)"
    assert judged.status is not Status.SUPPORTED and record.rejudged
    assert record.verdict.status is not Status.SUPPORTED
    assert round_.queries[-1] == "Marie Curie won the Nobel Prize in Physics"
