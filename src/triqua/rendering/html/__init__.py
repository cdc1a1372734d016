"""A report as one self-contained HTML page: inline CSS and SVG, no scripts, nothing fetched.

The page shows the scores, every fact with its units coloured by verdict and the wrong
component marked, the evidence with links (the quote each verdict rests on marked in its
passage, grounding downgrades noted), costs, the spec with its hash, and two charts.
Every piece of text from the report is HTML-escaped, since checked text and evidence may
hold markup of their own.

The package splits by part of the page: ``markup`` (escaping, labels, links), ``facts`` (one
fact with its evidence), ``sections`` (scores, unchecked text, charts, costs, citations, spec).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from string import Template

from triqua.core.budget.costs import Prices, cost_summary
from triqua.core.report.accounting import coverage_line
from triqua.rendering.html.facts import fact_html
from triqua.rendering.html.markup import esc, pct
from triqua.rendering.html.sections import (
    citations_html,
    costs_html,
    not_checkworthy_html,
    plots_html,
    sentences_html,
    spec_html,
    summary_html,
    unchecked_html,
)
from triqua.schema import Report
from triqua.schema.citations import CitationReport

__all__ = ["html_page", "render_html", "report_body", "write_html"]


def _template() -> Template:
    return Template(resources.files("triqua").joinpath("templates/report.html").read_text("utf-8"))


def html_page(title: str, body: str) -> str:
    """``body`` (HTML) in the report's page: its inline style, no scripts."""
    return _template().substitute(title=esc(title), body=body)


def report_body(
    report: Report,
    *,
    prices: Prices | None = None,
    citations: CitationReport | None = None,
) -> str:
    """The report's page content (header, scores, facts, costs, spec), without the page."""
    extra = {"cite": citations.usage} if citations and citations.usage.model_calls else None
    meta = [
        f"run {report.run_id or '—'}",
        f"created {report.created_at:%Y-%m-%d %H:%M:%S %Z}".strip(),
        f"engine {report.engine or '—'}",
        f"mode {report.spec.mode.value}",
        f"spec {report.spec.hash[:12]}",
        f"input {report.input_hash[:12] or '—'}",
    ]
    if report.language:
        meta.append(f"language {report.language}")
    if report.question:
        meta.append(f"question: {report.question}")
    asked = coverage_line(report)
    if asked:
        meta.append(asked)
    facts = (
        "".join(fact_html(r) for r in report.records) or '<p class="meta">No facts were found.</p>'
    )
    return "".join(
        [
            "<header><h1>triqua report</h1>",
            '<div class="meta">' + "".join(f"<span>{esc(m)}</span>" for m in meta) + "</div>",
            "</header>",
            summary_html(report),
            unchecked_html(report),
            not_checkworthy_html(report),
            plots_html(report),
            sentences_html(report),
            f'<section id="facts"><h2>Facts ({len(report.records)})</h2>{facts}</section>',
            citations_html(citations) if citations is not None else "",
            costs_html(cost_summary(report, prices, extra_usage=extra)),
            spec_html(report),
            f"<footer>Report schema {esc(report.schema_version)}.</footer>",
        ]
    )


def render_html(
    report: Report,
    *,
    prices: Prices | None = None,
    citations: CitationReport | None = None,
) -> str:
    """Render ``report`` as one self-contained HTML page.

    Args:
        report: The report to show.
        prices: Prices for the cost table (money stays blank without them).
        citations: Citation checks of the same text, shown in their own section.
    """
    body = report_body(report, prices=prices, citations=citations)
    return html_page(f"triqua report — {pct(report.scores.triqua_score)}", body)


def write_html(
    report: Report,
    path: str | Path,
    *,
    prices: Prices | None = None,
    citations: CitationReport | None = None,
) -> Path:
    """Write :func:`render_html` of ``report`` to ``path`` (UTF-8) and return the path."""
    target = Path(path)
    target.write_text(render_html(report, prices=prices, citations=citations), encoding="utf-8")
    return target
