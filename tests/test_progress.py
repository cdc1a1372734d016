"""Progress from stream events: the running score, the bar on terminals, silence otherwise."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import pytest
from rich.console import Console

import triqua
from triqua.cli._progress import ProgressTracker, astream_check, run_with_progress

from .conftest import CURIE, FRANCE, PARIS

DOCS = [
    "France had a population of 64.5 million in 2025, excluding overseas departments.",
    "Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie.",
    PARIS,
]
LONG = f"{CURIE}\n\n{FRANCE}\n\n{PARIS}"  # three chunks at chunk_size=90


def test_tracker_folds_events_into_a_running_score() -> None:
    tracker = ProgressTracker()
    assert tracker.score_so_far is None
    events: list[dict[str, Any]] = [
        {"event": "chunk_decomposed", "chunk": 0, "facts": 2},
        {"event": "facts_found", "facts": 2},
        {"event": "fact_verified", "status": "contradicted", "units": 3, "supported_units": 2},
    ]
    for event in events:
        tracker.update(event)
    assert (tracker.chunks_done, tracker.facts_total, tracker.facts_done) == (1, 2, 1)
    assert tracker.score_so_far == pytest.approx(2 / 3)
    assert tracker.describe() == "score so far 66.7% · 1 contradicted"
    tracker.update(
        {"event": "fact_verified", "status": "supported", "units": 2, "supported_units": 2}
    )
    tracker.update({"event": "scored", "score": 0.8, "facts": 2})
    assert tracker.finished and tracker.score_so_far == pytest.approx(4 / 5)
    assert tracker.describe() == "TriQuaScore 80.0% · 1 contradicted, 1 supported"


@pytest.mark.slow
def test_fact_verified_events_carry_unit_counts(scripted: Any) -> None:
    async def collect() -> list[Any]:
        stream = astream_check(f"{FRANCE} {CURIE}", documents=DOCS, model=scripted())
        return [item async for item in stream]

    items = asyncio.run(collect())
    report = items[-1]
    assert isinstance(report, triqua.Report)
    verified = {e["fact"]: e for e in items[:-1] if e["event"] == "fact_verified"}
    assert verified["f1"]["status"] == "contradicted"
    assert verified["f1"]["wrong_components"] == ["(point in time, 2026)"]
    assert (verified["f1"]["units"], verified["f1"]["supported_units"]) == (3, 2)
    assert (verified["f2"]["units"], verified["f2"]["supported_units"]) == (2, 2)
    assert items[-2] == {"event": "scored", "score": report.score, "facts": 2}


def _terminal() -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, force_terminal=True, width=120), buffer


def test_long_text_on_a_terminal_gets_a_bar(scripted: Any) -> None:
    console, buffer = _terminal()
    report = run_with_progress(
        LONG, console=console, model=scripted(), documents=DOCS, chunk_size=90
    )
    drawn = buffer.getvalue()
    assert "decompose" in drawn and "verify" in drawn and "3/3" in drawn
    assert "TriQuaScore 83.3%" in drawn  # the final line shows the final score
    assert report.score == pytest.approx(5 / 6)


@pytest.mark.parametrize("case", ["quiet", "piped", "short"])
def test_no_bar_when_quiet_piped_or_short(scripted: Any, case: str) -> None:
    console, buffer = _terminal()
    if case == "piped":
        console = Console(file=buffer, force_terminal=False)
    text = CURIE if case == "short" else LONG
    report = run_with_progress(
        text,
        quiet=case == "quiet",
        console=console,
        model=scripted(),
        documents=DOCS,
        chunk_size=90,
    )
    assert buffer.getvalue() == ""
    assert report.records  # the check itself still ran
