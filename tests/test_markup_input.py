"""Markdown and HTML input: headings and navigation are context, never sentences to check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.core.report.records import resolved_context
from triqua.core.text.checkworthy import classify
from triqua.core.text.chunking import previous_text, split_text
from triqua.tools.documents import html_to_text

BIO = (
    "# Marie Curie\n\n## Early life\n"
    "Marie Curie was born in Warsaw in 1867. She moved to Paris in 1891.\n\n"
    "  ### Work\nShe won the Nobel Prize in Physics in 1903.\n"
)
EVIDENCE = (
    "Marie Curie was born in Warsaw in 1867. She moved to Paris in 1891. "
    "She won the Nobel Prize in Physics in 1903."
)
PAGE = (
    "<html><head><title>Curie</title><style>p{}</style></head><body>"
    "<nav><a href='/'>Home page of the Curie Museum</a></nav>"
    "<h1>Marie Curie</h1><p>Marie Curie was born in Warsaw in 1867.</p>"
    "<h2>Work</h2><p>She won the Nobel Prize in Physics in 1903.</p>"
    "<footer>The museum was founded in 1934 in Paris.</footer></body></html>"
)


def test_each_heading_line_is_a_chunk_of_its_own_at_its_offsets() -> None:
    chunks = split_text(BIO, 300)
    assert [c.text for c in chunks] == [
        "# Marie Curie",
        "## Early life",
        "Marie Curie was born in Warsaw in 1867. She moved to Paris in 1891.",
        "### Work",
        "She won the Nobel Prize in Physics in 1903.",
    ]
    assert all(BIO[c.start : c.end] == c.text for c in chunks)
    assert [c.index for c in chunks] == list(range(5))
    assert len(split_text(BIO, 0)) == 1  # no chunking: one chunk, as before


def test_a_heading_is_not_check_worthy_and_a_hash_mid_line_is_no_heading() -> None:
    assert classify("## Early life").label == "heading"
    assert classify("#Hashtag of the day").checkworthy  # no space: not a heading
    assert classify("Issue #5 was closed in 2020.").checkworthy


@pytest.mark.slow
def test_a_markdown_text_checks_its_sentences_and_keeps_headings_as_context() -> None:
    report = triqua.check(BIO, documents=[EVIDENCE], store=False, cache=False)
    assert {r.fact.source_text for r in report.records} == {
        "Marie Curie was born in Warsaw in 1867.",
        "She moved to Paris in 1891.",
        "She won the Nobel Prize in Physics in 1903.",
    }
    headings = [(s.label, s.text) for s in report.not_checkworthy]
    assert headings == [
        ("heading", "# Marie Curie"),
        ("heading", "## Early life"),
        ("heading", "### Work"),
    ]
    # "She" after "### Work" is read with the heading and the text before it as PREVIOUS.
    # The outline above ("# Marie Curie", "## Early life") is context too.
    nobel = next(r for r in report.records if "Nobel" in r.fact.source_text)
    before = "Marie Curie was born in Warsaw in 1867. She moved to Paris in 1891."
    outline = "# Marie Curie\n\n## Early life"
    assert nobel.context == resolved_context(None, f"{outline}\n\n{before}\n\n### Work")
    assert nobel.fact.subject == "Marie Curie"
    assert report.scores.triqua_score == 1.0


# Each section's text before its heading names no one: only the title or the lead does.
SECTIONS = (
    "# Marie Curie\n\nMarie Curie was born in Warsaw in 1867.\n\n## Paris\n\n"
    "She moved to Paris in 1891.\n\n## Work\n\nShe won the Nobel Prize in Physics in 1905.\n"
)


def test_a_heading_is_no_barrier_to_coreference_the_outline_and_lead_carry_across() -> None:
    texts = [c.text for c in split_text(SECTIONS, 300)]
    assert texts[-1].startswith("She won") and texts[-2] == "## Work"
    previous = previous_text(texts, len(texts) - 1)
    assert previous is not None
    assert previous.startswith("# Marie Curie\n\nMarie Curie was born") and previous.endswith(
        "She moved to Paris in 1891.\n\n## Work"
    )
    report = triqua.check(SECTIONS, documents=[EVIDENCE], store=False, cache=False)
    assert report.undecomposed == []  # "She" under "## Work" is checked
    nobel = next(r for r in report.records if "Nobel" in r.fact.source_text)
    assert nobel.fact.subject == "Marie Curie" and nobel.verdict.status == "contradicted"
    assert report.scores.triqua_score is not None and report.scores.triqua_score < 1.0
    # Without a title, the document's first paragraph names the subject for every section.
    untitled = SECTIONS.removeprefix("# Marie Curie\n\n")
    report = triqua.check(untitled, documents=[EVIDENCE], store=False, cache=False)
    assert report.undecomposed == []
    assert {r.fact.subject for r in report.records} == {"Marie Curie"}


CODE = (
    "Marie Curie was born in Warsaw in 1867.\n\n"
    "```python\n# Marie Curie was born in Paris\nx = 1903 + 1911\n```\n\n"
    "She won the Nobel Prize in Physics in 1903.\n"
)


def test_a_code_block_is_a_chunk_of_its_own_never_checked_and_passed_over_as_context() -> None:
    chunks = split_text(CODE, 300)
    assert [c.text for c in chunks] == [
        "Marie Curie was born in Warsaw in 1867.",
        "```python\n# Marie Curie was born in Paris\nx = 1903 + 1911\n```",
        "She won the Nobel Prize in Physics in 1903.",
    ]  # the "# ..." comment inside the block is no heading
    assert all(CODE[c.start : c.end] == c.text for c in chunks)
    texts = [c.text for c in chunks]
    assert previous_text(texts, 2) == "Marie Curie was born in Warsaw in 1867."
    report = triqua.check(CODE, documents=[EVIDENCE], store=False, cache=False)
    assert {r.fact.source_text for r in report.records} == {
        "Marie Curie was born in Warsaw in 1867.",
        "She won the Nobel Prize in Physics in 1903.",
    }
    (code,) = report.not_checkworthy
    assert code.label == "code" and code.text.startswith("```python")
    assert report.scores.triqua_score == 1.0
    # Without chunking (one chunk) the block is still listed as code, not as sentences.
    unchunked = triqua.check(CODE, documents=[EVIDENCE], chunk_size=0, store=False, cache=False)
    assert [s.label for s in unchunked.not_checkworthy] == ["code"]


def test_an_html_page_to_check_loses_its_navigation_and_keeps_headings() -> None:
    text, title = html_to_text(PAGE, checked=True)
    assert title == "Curie"
    assert text.splitlines()[0] == "# Marie Curie" and "## Work" in text
    assert "Home page" not in text and "founded in 1934" not in text
    evidence, _ = html_to_text(PAGE)  # evidence keeps every visible block, as before
    assert "founded in 1934" in evidence and "# Marie" not in evidence


def test_cli_checks_an_html_file_without_its_navigation(tmp_path: Path) -> None:
    page = tmp_path / "curie.html"
    page.write_text(PAGE, encoding="utf-8")
    evidence = tmp_path / "evidence.txt"
    evidence.write_text(EVIDENCE, encoding="utf-8")
    result = CliRunner().invoke(
        app, ["check", "-f", str(page), "-e", str(evidence), "--json", "--no-store"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    sources = {r["fact"]["source_text"] for r in report["records"]}
    assert sources == {
        "Marie Curie was born in Warsaw in 1867.",
        "She won the Nobel Prize in Physics in 1903.",
    }
    assert [s["label"] for s in report["not_checkworthy"]] == ["heading", "heading"]


def test_previous_text_reaches_past_headings() -> None:
    texts = ["Body one.", "## A", "### B", "Body two."]
    assert previous_text(texts, 0) is None
    assert previous_text(texts, 1) == "Body one."
    assert previous_text(texts, 3) == "Body one.\n\n## A\n\n### B"
    assert previous_text([None, "# T", "x"], 2) == "# T"  # nothing before the heading


PLAIN_TITLED = (
    "Biography\nMarie Curie was born in Warsaw in 1867.\n\n"
    "Later Life and Work:\nShe won the Nobel Prize in Physics in 1903.\n\n"
    "Curie was born in Warsaw\nShe moved to Paris in 1891."
)


def test_a_plain_title_line_is_a_chunk_of_its_own_and_a_statement_line_is_not() -> None:
    chunks = split_text(PLAIN_TITLED, 300)
    assert [c.text for c in chunks][:3] == [
        "Biography",
        "Marie Curie was born in Warsaw in 1867.",
        "Later Life and Work:",
    ]
    # A line that states something (lower-case words past two) stays in its chunk, even
    # without its full stop.
    assert chunks[3].text.startswith("She won the Nobel Prize in Physics in 1903.")
    assert chunks[3].text.endswith("Curie was born in Warsaw\nShe moved to Paris in 1891.")
    assert all(PLAIN_TITLED[c.start : c.end] == c.text for c in chunks)
    assert classify("Biography").label == "heading"
    assert classify("Curie was born in Warsaw").checkworthy
    assert classify("Paris", titles=False).checkworthy  # an answer to a question


def test_a_title_line_never_joins_the_subject_below_it_and_is_set_aside_as_heading() -> None:
    report = triqua.check(PLAIN_TITLED, documents=[EVIDENCE], store=False, cache=False)
    subjects = {r.fact.subject for r in report.records}
    assert "Marie Curie" in subjects
    assert not any("Biography" in s for s in subjects)
    headings = {s.text for s in report.not_checkworthy if s.label == "heading"}
    assert headings == {"Biography", "Later Life and Work:"}
    assert not any("Biography" in u.text for u in report.undecomposed)


def test_a_one_word_answer_to_a_question_is_not_taken_for_a_title() -> None:
    report = triqua.check(
        "Paris",
        question="Where did Marie Curie move in 1891?",
        documents=[EVIDENCE],
        store=False,
        cache=False,
    )
    assert not [s for s in report.not_checkworthy if s.label == "heading"]
