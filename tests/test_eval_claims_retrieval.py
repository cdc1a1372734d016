"""`eval claims` on the offline engine retrieves as its stamp says: BM25 top-k per fact."""

from __future__ import annotations

from triqua.evals.claims import _row_search
from triqua.evals.claims_data import ClaimRow

PASSAGE = (
    "Marie Curie won the Nobel Prize in Physics in 1903. " * 8
    + "The Eiffel Tower stands in Paris and was finished in 1889. " * 8
)


def _row() -> ClaimRow:
    return ClaimRow(index=3, claim="", evidence=PASSAGE, label="x", gold="supported")


def test_each_fact_gets_the_passages_the_supplied_retriever_returns() -> None:
    search = _row_search(_row())
    found = search("Eiffel Tower Paris 1889", 1)
    assert len(found) == 1 and "Eiffel Tower" in found[0].text
    assert found[0].retriever == "supplied"
    assert found[0].text in PASSAGE  # a slice of the row's passage, offsets kept


def test_a_fact_sharing_no_word_with_the_passage_gets_no_evidence() -> None:
    assert _row_search(_row())("Zanzibar cloves", 5) == []
