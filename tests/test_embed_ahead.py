"""The offline judge embeds the facts' queries ahead, while the run still decomposes.

Announcing changes when a vector is made, never what it is: verdicts with the announcement and
without it are the same, and a closed-book run, which judges nothing, embeds nothing for it.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import triqua
from triqua.engines.offline.engine import OfflineJudge
from triqua.models.vectors import sentence_vectors
from triqua.schema import Fact

TEXT = (
    "Marie Curie was born in Warsaw in 1867. She won the Nobel Prize in Physics in 1903. "
    "Pierre Curie was born in Paris."
)
DOCUMENTS = [
    "Marie Curie was born in Warsaw, then part of the Russian Empire, in 1867.",
    "In 1903 Marie Curie shared the Nobel Prize in Physics. Pierre Curie was born in Lyon.",
]


def _verdicts(report: triqua.Report) -> list[tuple[str, str, str]]:
    return [
        (
            r.fact.to_string(),
            r.verdict.status.value,
            r.verdict.model_dump_json(exclude={"created_at"}),
        )
        for r in report.records
    ]


def test_verdicts_are_the_same_with_and_without_the_announcement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    announced: list[list[str]] = []
    expect = OfflineJudge.expect

    def recording(self: OfflineJudge, facts: Sequence[Fact]) -> None:
        announced.append([fact.to_string() for fact in facts])
        expect(self, facts)

    sentence_vectors().clear()
    monkeypatch.setattr(OfflineJudge, "expect", recording)
    ahead = triqua.check(TEXT, documents=DOCUMENTS, cache=False)
    assert announced and {f for batch in announced for f in batch} == {
        r.fact.to_string() for r in ahead.records
    }
    sentence_vectors().clear()
    monkeypatch.setattr(OfflineJudge, "expect", lambda self, facts: None)
    asked = triqua.check(TEXT, documents=DOCUMENTS, cache=False)
    assert _verdicts(ahead) == _verdicts(asked)
    assert any(status == "contradicted" for _, status, _ in _verdicts(ahead))


def test_a_closed_book_run_announces_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    announced: list[int] = []
    monkeypatch.setattr(OfflineJudge, "expect", lambda self, facts: announced.append(len(facts)))
    report = triqua.check(TEXT, cache=False)
    assert report.records and not announced


def test_a_judge_that_fails_to_prepare_fails_no_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    """The announcement is a hint: if the judge cannot prepare, the facts are judged anyway."""
    expected = _verdicts(triqua.check(TEXT, documents=DOCUMENTS, cache=False))

    def broken(self: OfflineJudge, facts: Sequence[Fact]) -> None:
        raise RuntimeError("embedder unavailable")

    monkeypatch.setattr(OfflineJudge, "expect", broken)
    report = triqua.check(TEXT, documents=DOCUMENTS, cache=False)
    assert not report.failed_chunks
    assert _verdicts(report) == expected
