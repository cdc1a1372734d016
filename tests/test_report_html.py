"""The HTML report, its charts, the risk–coverage helper and ``triqua report``."""

from __future__ import annotations

import json
import re
import struct
import subprocess
import zlib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import triqua
from triqua.citations import CitationLink, CitationReport, ClaimCitation
from triqua.cli import app
from triqua.core.budget.costs import ModelPrice, Prices
from triqua.metrics import risk_coverage_curve
from triqua.rendering.html import render_html, write_html
from triqua.rendering.plots import risk_coverage_plot, stacked_bars
from triqua.schema import Document, Report, Status, Verdict
from triqua.testing import ScriptedChatModel, fenced, shown_text

from .conftest import CURIE, FRANCE, PARIS, make_responder

CHROMIUM = Path("/usr/bin/chromium")
SCRIPT_SENTENCE = 'The page shows <script>alert("text")</script> inline.'
SCRIPT_FACT = {
    "subject": "The page",
    "relation": "shows",
    "object": "an inline script",
    "qualifiers": [],
    "source_sentence": SCRIPT_SENTENCE,
}


def responder() -> Any:
    """The shared scripted roles, plus a fact from a sentence that carries markup."""
    base = make_responder()

    def respond(tool: str, prompt: str) -> dict[str, Any] | str:
        answer = base(tool, prompt)
        if tool == "ExtractedFacts" and SCRIPT_SENTENCE in shown_text(prompt):
            assert isinstance(answer, dict)
            answer["facts"].append(SCRIPT_FACT)
        if tool == "Judgement" and "inline script" in fenced(prompt, "FACT"):
            return {"status": "insufficient_evidence", "rationale": "<b>no</b> passage says so"}
        return answer

    return respond


@pytest.fixture
def report(tmp_path: Path) -> Report:
    """A report from a real pipeline run: contradicted, supported and abstained facts."""
    page = tmp_path / "curie.md"
    page.write_text("Marie Curie won the Nobel Prize in Physics in 1903.\n", "utf-8")
    documents = [
        Document(
            text="France had a population of 64.5 million in 2025, excluding overseas "
            "departments. <script>alert('evidence')</script>",
            source="https://example.org/france?a=1&b=2",
        ),
        Document(text=page.read_text("utf-8"), source=str(page)),
        Document(text="Paris is the capital of France.", source="javascript:alert(1)"),
        Document(text="The page shows many things inline, an inline script among them."),
    ]
    text = f"{FRANCE} {CURIE}\n\n{PARIS} {SCRIPT_SENTENCE}"
    model = ScriptedChatModel(responder=responder(), usage=False)
    return triqua.check(text, documents=documents, model=model)


def test_page_shows_scores_facts_units_and_spec(report: Report) -> None:
    statuses = [r.verdict.status for r in report.records]
    assert Status.CONTRADICTED in statuses and Status.INSUFFICIENT in statuses
    html = render_html(report)
    assert f"{report.scores.triqua_score:.1%}" in html
    for record in report.records:
        assert f'id="{record.claim_id}"' in html
    wrong = re.search(r'<span class="unit contradicted wrong"[^>]*>(.*?)</span></span>', html)
    assert wrong is not None and "(point in time, 2026)" in wrong.group(1)
    assert '<span class="unit supported"' in html
    assert '<mark class="err">2026</mark>' in html
    assert report.spec.hash in html
    assert "Wrong component: (point in time, 2026)" in html
    assert html.count("<svg") == 2
    assert 'aria-label="Unit verdicts per fact"' in html
    assert 'aria-label="Abstention–coverage curve"' in html


def test_everything_from_the_report_is_escaped(report: Report) -> None:
    html = render_html(report)
    assert "<script" not in html.lower()
    assert "&lt;script&gt;alert(&quot;text&quot;)&lt;/script&gt;" in html  # checked text
    assert "&lt;script&gt;alert(&#x27;evidence&#x27;)&lt;/script&gt;" in html  # evidence
    assert "&lt;b&gt;no&lt;/b&gt; passage says so" in html  # judge rationale
    assert 'href="javascript:' not in html
    assert "javascript:alert(1)" in html  # shown as text, never linked


def test_page_is_self_contained(report: Report) -> None:
    html = render_html(report)
    for needle in ("<link", "<script", "<img", "<iframe", "src=", "url(", "@import"):
        assert needle not in html.lower(), needle
    hrefs = re.findall(r'href="([^"]*)"', html)
    assert all(h.startswith(("https://example.org/", "file:///")) for h in hrefs), hrefs


def test_evidence_links_point_at_urls_and_files(report: Report) -> None:
    html = render_html(report)
    assert 'href="https://example.org/france?a=1&amp;b=2"' in html
    path = next(
        e.source for r in report.records for e in r.evidence if (e.source or "").endswith(".md")
    )
    assert path is not None
    assert f'href="{Path(path).as_uri()}"' in html


def test_costs_show_estimated_tokens_and_money(report: Report) -> None:
    assert report.usage.tokens_estimated  # the scripted provider reported no usage
    plain = render_html(report)
    assert "No prices configured" in plain and "≈" in plain
    prices = Prices(
        currency="EUR",
        models={"scripted": ModelPrice(input_per_million=1000.0, output_per_million=2000.0)},
        searches={"supplied": 0.0},
    )
    priced = render_html(report, prices=prices)
    total = report.usage.input_tokens * 1e-3 + report.usage.output_tokens * 2e-3
    assert f"{total:.4f} EUR" in priced


def test_citations_section(report: Report) -> None:
    citations = CitationReport(
        claims=[ClaimCitation(claim_id="f1", keys=["1"], supported=False)],
        links=[
            CitationLink(
                claim_id="f1",
                key="1",
                target="https://example.org/<x>",
                available=True,
                verdict=Verdict(status=Status.INSUFFICIENT),
            )
        ],
        completeness=0.0,
        link_correctness=0.0,
    )
    html = render_html(report, citations=citations)
    assert '<section id="citations">' in html
    assert 'href="https://example.org/&lt;x&gt;"' in html


def test_undefined_score_renders() -> None:
    html = render_html(Report())
    assert "undefined" in html and "No facts were found." in html
    assert "no facts to chart" in html and "no verdicts to plot" in html


def _png_size_and_colours(data: bytes) -> tuple[int, int, int]:
    """Width, height and number of distinct byte values in the decoded image data."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    pos, idat = 8, b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        if kind == b"IDAT":
            idat += data[pos + 8 : pos + 8 + length]
        pos += 12 + length
    return width, height, len(set(zlib.decompress(idat)))


@pytest.mark.slow
def test_page_renders_in_headless_chromium(report: Report, tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.skip("chromium is not installed at /usr/bin/chromium (apt-get install chromium)")
    page = write_html(report, tmp_path / "report.html")
    shot = tmp_path / "report.png"
    subprocess.run(
        [
            str(CHROMIUM),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            f"--screenshot={shot}",
            "--window-size=1280,2000",
            page.resolve().as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    data = shot.read_bytes()
    width, height, colours = _png_size_and_colours(data)
    assert (width, height) == (1280, 2000)
    assert len(data) > 20_000 and colours > 50  # a drawn page, not a blank one


def test_stacked_bars_check_and_escape_their_input() -> None:
    svg = stacked_bars(
        ["f1", "<f2>"],
        [("ok", "#0a0", [2, 1]), ("bad", "#a00", [1, 0])],
        title="T",
    )
    assert "&lt;f2&gt;" in svg and "<f2>" not in svg
    assert svg.count("<rect") == 2 + 3  # legend swatches + non-empty segments
    with pytest.raises(ValueError, match="has 1 values for 2 bars"):
        stacked_bars(["a", "b"], [("ok", "#0a0", [1])], title="T")
    with pytest.raises(ValueError, match="negative"):
        stacked_bars(["a"], [("ok", "#0a0", [-1])], title="T")


def test_risk_coverage_plot_draws_one_marker_per_point() -> None:
    svg = risk_coverage_plot([(1.0, 0.5), (0.5, 0.0)], title="curve")
    assert svg.count("<circle") == 2 and "<polyline" in svg
    with pytest.raises(ValueError, match="between 0 and 1"):
        risk_coverage_plot([(1.5, 0.0)], title="curve")


def test_risk_coverage_curve_without_gold_is_the_abstention_curve(report: Report) -> None:
    curve = risk_coverage_curve(report.records)
    assert curve.kind == "abstention" and curve.n == len(report.records)
    full = curve.points[0]  # lowest threshold: everything covered
    abstained = sum(r.verdict.status is Status.INSUFFICIENT for r in report.records)
    assert full["coverage"] == 1.0
    assert full["risk"] == pytest.approx(abstained / len(report.records))
    not_checkable = report.records[0].model_copy(
        update={"verdict": Verdict(status=Status.NOT_CHECKABLE, confidence=0.99)}
    )
    assert risk_coverage_curve([*report.records, not_checkable]).n == len(report.records)


def test_risk_coverage_curve_with_gold_measures_accuracy(report: Report) -> None:
    gold = [r.verdict.status for r in report.records]
    gold[0] = Status.SUPPORTED if gold[0] != Status.SUPPORTED else Status.CONTRADICTED
    curve = risk_coverage_curve(report.records, gold)
    assert curve.kind == "accuracy"
    assert curve.points[0]["risk"] == pytest.approx(1 / len(report.records))
    with pytest.raises(ValueError, match="gold labels"):
        risk_coverage_curve(report.records, gold[:1])


runner = CliRunner()


def test_cli_report_writes_html_and_prints_costs(report: Report, tmp_path: Path) -> None:
    saved = tmp_path / "report.json"
    saved.write_text(report.model_dump_json(), "utf-8")
    out = tmp_path / "page.html"
    result = runner.invoke(app, ["report", str(saved), "--html", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text("utf-8").startswith("<!DOCTYPE html>")
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"searches": {"supplied": 0}}), "utf-8")
    printed = runner.invoke(
        app, ["report", str(saved), "--prices", str(prices)], env={"COLUMNS": "200"}
    )
    assert printed.exit_code == 0, printed.output
    assert "TriQuaScore" in printed.stdout
    assert f"model calls {report.usage.model_calls}" in printed.stdout


def test_cli_report_rejects_a_file_that_is_not_a_report(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"scores": 3}', "utf-8")
    result = runner.invoke(app, ["report", str(bad), "--html", str(tmp_path / "x.html")])
    assert result.exit_code == 2
    assert "not a triqua report" in result.stderr
    assert not (tmp_path / "x.html").exists()


def test_fact_shows_its_sentence_graph_and_route_reason() -> None:
    from triqua.rendering.html.facts import _graph_line
    from triqua.schema import ClaimRecord, Fact, Status, Verdict

    record = ClaimRecord(
        claim_id="f1",
        claim_text="(Ann, married, Bob)",
        fact=Fact(subject="Ann", relation="married", object="Bob"),
        verdict=Verdict(status=Status.INSUFFICIENT),
        route="complex",
        complexity={
            "nodes": 5,
            "edges": 4,
            "diameter": 4,
            "components": 1,
            "decision": "complex",
            "reason": "diameter 4 > δ=3",
        },
    )
    line = _graph_line(record)
    assert "5 elements, 4 relations, diameter 4, 1 component" in line
    assert "diameter 4 &gt; δ=3" in line
    assert _graph_line(record.model_copy(update={"complexity": {}})) == ""
