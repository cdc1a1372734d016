"""Bad and odd input through the CLI and the Python API, on the offline engine.

Each input gets a report or a clear one-line error with a non-zero exit, and none hangs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.core.text.chunking import split_text
from triqua.schema import Report, Status

pytestmark = pytest.mark.timeout(180)

runner = CliRunner()
PARIS = "Paris is the capital of France."
EVIDENCE = "Paris is the capital and largest city of France.\n"


@pytest.fixture(scope="module", autouse=True)
def offline_engine() -> None:
    """Load the offline engine once (spaCy and the embedder), so each test measures its input."""
    triqua.check(PARIS, documents=[EVIDENCE], cache=False)


def cli(*args: str, env: dict[str, str] | None = None) -> Any:
    return runner.invoke(app, ["check", *args, "--no-cache"], env=env)


def json_report(result: Any) -> Report:
    assert result.exit_code == 0, result.output
    return Report.model_validate_json(result.stdout)


def assert_one_line_error(result: Any, *words: str) -> None:
    assert result.exit_code not in (0, None), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("error: ")
    for word in words:
        assert word in lines[0]


def assert_spans_valid(report: Report, text: str) -> None:
    for record in report.records:
        span = record.fact.span
        assert span is not None and 0 <= span.start <= span.end <= len(text)


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


# --- empty input ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   \n\t  \n"], ids=["empty", "whitespace"])
def test_empty_text_is_a_one_line_error(text: str, tmp_path: Path) -> None:
    assert_one_line_error(cli(text), "empty")
    assert_one_line_error(cli("-f", str(write(tmp_path, "t.txt", text))), "empty")
    with pytest.raises(ValueError, match="empty"):
        triqua.check(text)


# --- files that are not text ---------------------------------------------------------------


def test_binary_file_is_a_one_line_error(tmp_path: Path) -> None:
    path = write(tmp_path, "photo.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    assert_one_line_error(cli("-f", str(path)), "binary")


def test_invalid_utf8_is_a_one_line_error(tmp_path: Path) -> None:
    path = write(
        tmp_path, "latin1.txt", "Paris est la capitale de la France, très belle.".encode("latin-1")
    )
    assert_one_line_error(cli("-f", str(path)), "UTF-8")


# --- odd but valid text: a report each ----------------------------------------------------

ODD_TEXTS = {
    "html": "<html><body><h1>Facts</h1><p>Paris is the <b>capital</b> of France.</p>"
    "<script>alert('x')</script></body></html>",
    "rtl": "باريس هي عاصمة فرنسا. ירושלים היא עיר עתיקה. Paris is the capital of France.",
    "emoji": "Paris 🗼 is the capital of France 🇫🇷. 😀😀😀 🎉",
    "control_chars": "Paris is the capital\u200b of France.\u202e Lyon is big.\x0b",
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ODD_TEXTS))
def test_odd_text_gets_a_report(name: str, tmp_path: Path) -> None:
    text = ODD_TEXTS[name]
    evidence = write(tmp_path, "evidence.md", EVIDENCE)
    report = json_report(cli(text, "-e", str(evidence), "--json"))
    assert_spans_valid(report, text)
    assert report.scores.facts_total == len(report.records)
    api = triqua.check(text, documents=[EVIDENCE], cache=False)
    assert [r.claim_text for r in api.records] == [r.claim_text for r in report.records]


def test_text_with_no_checkable_facts_says_the_score_is_undefined() -> None:
    result = cli("Hello! How are you? Thanks, bye.")
    assert result.exit_code == 0, result.output
    assert "undefined" in result.output
    report = triqua.check("Hello! How are you? Thanks, bye.", cache=False)
    assert report.records == [] and report.score is None
    assert any("score is undefined" in note for note in report.notes)


@pytest.mark.slow
def test_single_five_thousand_word_sentence_finishes(tmp_path: Path) -> None:
    words = ("Paris is the capital of France and Lyon has a large old cathedral and " * 400).split()
    text = " ".join(words[:5000]) + "."
    assert len(text.split()) == 5000 and text.count(".") == 1
    # 29,999 characters: over the default max_sentence_chars, so lifted here.
    path = write(tmp_path, "long.txt", text)
    report = json_report(cli("-f", str(path), "--json", "--max-sentence-chars", "0"))
    assert report.records, "a long sentence still has facts"
    assert_spans_valid(report, text)


@pytest.mark.slow
def test_one_megabyte_stops_at_max_facts_with_a_recorded_stop(tmp_path: Path) -> None:
    sentence = "Marie Curie won the Nobel Prize in Physics in 1903. "
    text = (sentence * (1_000_000 // len(sentence) + 1))[:1_000_000]
    path = write(tmp_path, "big.txt", text)
    report = json_report(cli("-f", str(path), "--json", env={"TRIQUA_MAX_FACTS": "25"}))
    assert len(report.records) == 25
    (stop,) = [e for e in report.errors if "max_facts=25" in e]
    assert "chunks were not decomposed" in stop
    api = triqua.check(text, max_facts=25, cache=False)
    assert [r.claim_text for r in api.records] == [r.claim_text for r in report.records]
    assert any("max_facts=25" in e for e in api.errors)


def test_input_above_max_input_chars_is_refused() -> None:
    with pytest.raises(ValueError, match="max_input_chars"):
        triqua.check(PARIS * 100, max_input_chars=1000)


# --- bad evidence ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("broken.jsonl", '{"text": "Paris is the capital"\n{"oops": ', ("broken.jsonl",)),
        ("empty.md", "", ("empty.md", "empty")),
        ("blank.txt", "  \n\n ", ("blank.txt",)),
        ("data.bin", b"\x00\x01\x02\x03", ("data.bin",)),
        ("page.html", "<html><script>var x = 1;</script></html>", ("page.html",)),
    ],
)
def test_malformed_evidence_is_a_one_line_error(
    tmp_path: Path, name: str, content: str | bytes, words: tuple[str, ...]
) -> None:
    path = write(tmp_path, name, content)
    assert_one_line_error(cli(PARIS, "-e", str(path)), *words)


def test_empty_supplied_document_is_a_clear_error() -> None:
    for documents in ([""], ["   \n"], [triqua.Document(text=" ")]):
        with pytest.raises(ValueError, match="documents are empty"):
            triqua.check(PARIS, documents=documents, cache=False)


def test_one_empty_document_among_others_is_ignored() -> None:
    report = triqua.check(PARIS, documents=["", EVIDENCE], cache=False)
    assert report.records and report.spec.mode.value == "supplied_context"


# --- property: chunk offsets ---------------------------------------------------------------

PIECES = st.sampled_from(
    [*"ab .!?\n,;:-", "\n\n", "é", "😀", "\u200f", "\t", "  ", "Paris", "1903."]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECES, min_size=1, max_size=120).map("".join), st.integers(0, 80))
def test_split_offsets_point_into_the_text(text: str, chunk_size: int) -> None:
    chunks = split_text(text, chunk_size)
    end = 0
    for index, chunk in enumerate(chunks):
        assert chunk.index == index
        assert text[chunk.start : chunk.end] == chunk.text
        assert chunk.start >= end, "chunks never overlap and keep text order"
        assert chunk.text.strip(), "no chunk is bare whitespace"
        if chunk_size:
            assert len(chunk.text) <= chunk_size
        end = chunk.end
    # Nothing but whitespace is lost between chunks.
    kept = "".join(ch for chunk in chunks for ch in chunk.text if not ch.isspace())
    assert kept == "".join(ch for ch in text if not ch.isspace())


def test_report_json_round_trips_odd_text() -> None:
    text = ODD_TEXTS["rtl"] + " " + ODD_TEXTS["emoji"]
    report = triqua.check(text, documents=[EVIDENCE], cache=False)
    assert Report.model_validate_json(report.model_dump_json()) == report
    assert json.loads(report.model_dump_json())["input_hash"] == report.input_hash


def test_one_document_given_as_a_string_is_one_document() -> None:
    text = "Paris is the capital of France."
    report = triqua.check(text, documents=text, cache=False)
    (record,) = report.records
    assert record.verdict.status is Status.SUPPORTED
    assert [e.text for e in record.evidence] == [text]  # not 31 one-character documents
