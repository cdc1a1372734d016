"""A sentence over ``max_sentence_chars`` is skipped at once and named, never decomposed."""

from __future__ import annotations

import time
from typing import Any

import pytest
from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.core.text.long_sentences import chunks_to_check, long_sentences

from .conftest import CURIE, PARIS

#: 398,000 characters with no sentence end: a paste gone wrong.
HUGE = "word " * 79_600
TEXT = f"{PARIS} {HUGE.strip()}, and so on. {CURIE}"


@pytest.mark.slow
def test_a_huge_sentence_is_skipped_fast_and_named(scripted: Any) -> None:
    triqua.check(f"{PARIS} {CURIE}", model=scripted(), cache=False)  # loaded once per process
    model = scripted()
    started = time.perf_counter()
    report = triqua.check(TEXT, model=model, cache=False, chunk_size=300)
    took = time.perf_counter() - started

    # Only the two real sentences were decomposed; the model never saw the huge one.
    assert not any("word word word" in prompt for _, prompt in model.calls)
    assert [r.fact.subject for r in report.records] == ["Paris", "Marie Curie"]
    (skipped,) = report.failed_chunks
    start = TEXT.index("word")
    assert skipped.cause == "max_sentence_chars"
    assert (skipped.span.start, skipped.span.end) == (start, TEXT.index(" " + CURIE))
    assert "398,0" in skipped.error and "max_sentence_chars=5,000" in skipped.error
    (note,) = [n for n in report.notes if "max_sentence_chars" in n]
    assert f"characters {start:,}-" in note and '"word word word' in note
    assert report.failures == 0  # skipped by the bound, not failed
    assert report.coverage is not None and report.coverage < 0.01  # it was not checked
    assert took < 10, f"{took:.1f} s"  # about 1 s; minutes without the bound


def test_the_bound_is_a_setting_and_the_cli_shows_it(scripted: Any) -> None:
    text = f"{PARIS} {'very ' * 300}long claim. {CURIE}"  # one sentence of 1,516 characters
    assert triqua.check(text, model=scripted(), max_sentence_chars=0).failed_chunks == []
    bounded = triqua.check(text, model=scripted(), max_sentence_chars=1_000)
    assert [c.cause for c in bounded.failed_chunks] == ["max_sentence_chars"]
    result = CliRunner().invoke(
        app, ["check", text, "--max-sentence-chars", "1000", "--no-store", "--language", "en"]
    )
    assert result.exit_code == 0, result.output
    assert "max_sentence_chars=1,000" in result.stdout


def test_only_a_stretch_with_no_sentence_end_counts_as_long() -> None:
    many = " ".join(["Paris is the capital of France."] * 500)  # 15,999 characters
    assert long_sentences(many, 5_000) == []
    lines = "\n".join(["a list item without a full stop"] * 400)
    assert long_sentences(lines, 5_000) == []
    text = f"Short one. {'x' * 6_000} Next one."
    assert long_sentences(text, 5_000) == [(11, 6_011 + len(" Next one."))]
    assert long_sentences(text, 0) == []
    chunks, skipped = chunks_to_check(text, 300, 5_000)
    assert chunks[0].text == "Short one."
    assert skipped == [1] and chunks[1].start == 11
    assert all(text[c.start : c.end] == c.text for c in chunks)
