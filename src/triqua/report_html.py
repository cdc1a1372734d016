"""A report as one self-contained HTML page: inline CSS and SVG, no scripts, nothing fetched.

The page shows the scores, every fact with its units coloured by verdict and the wrong
component marked, the evidence with links (the quote each verdict rests on marked in its
passage, grounding downgrades noted), costs, the spec with its hash, and two charts.
Every piece of text from the report is HTML-escaped, since checked text and evidence may
hold markup of their own.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from html import escape
from importlib import resources
from pathlib import Path
from string import Template
from urllib.parse import quote

from triqua.accounting import failure_summary
from triqua.citations import CitationReport
from triqua.core.grounding import locate_quote
from triqua.core.scoring import label_units, risk_coverage_curve
from triqua.costs import CostSummary, Prices, cost_summary
from triqua.plots import risk_coverage_plot, stacked_bars
from triqua.schema import ClaimRecord, Evidence, FactUnit, Report, Status

__all__ = ["render_html", "write_html"]

STATUS_LABEL = {
    Status.SUPPORTED: "supported",
    Status.CONTRADICTED: "contradicted",
    Status.INSUFFICIENT: "insufficient evidence",
    Status.NOT_CHECKABLE: "not checkable",
}
#: Chart colours per status (the page's CSS uses the same hues).
STATUS_COLOUR = {
    Status.SUPPORTED: "#43a047",
    Status.CONTRADICTED: "#e53935",
    Status.INSUFFICIENT: "#f9a825",
    Status.NOT_CHECKABLE: "#9e9e9e",
}
SNIPPET_CHARS = 420
_URL = re.compile(r"^https?://", re.IGNORECASE)
_FRAGMENT = re.compile(r"#\d+$")
_PATH_LIKE = re.compile(r"[\\/]|^~|\.[A-Za-z0-9]{1,8}$")


def _e(value: object) -> str:
    """HTML-escape any value (quotes included, so it is safe in attributes too)."""
    return escape(str(value), quote=True)


def _pct(value: float | None) -> str:
    return "undefined" if value is None else f"{value:.1%}"


def _href(source: str) -> str | None:
    """A safe link target for an evidence source: http(s) URLs and file paths only."""
    if _URL.match(source):
        return source
    if ":" in source.split("/", 1)[0] and not re.match(r"^[A-Za-z]:[\\/]", source):
        return None  # another scheme (javascript:, data:, …): shown, never linked
    fragment = _FRAGMENT.search(source)
    path = source[: fragment.start()] if fragment else source
    if not _PATH_LIKE.search(path):
        return None  # a name such as "document 1", not a place to go
    target = Path(path).expanduser()
    if target.is_absolute():
        return target.as_uri() + (fragment.group() if fragment else "")
    return quote(path) + (fragment.group() if fragment else "")


def _link(source: str | None, fallback: str) -> str:
    text = source or fallback
    href = _href(source) if source else None
    if href is None:
        return f'<span class="mono">{_e(text)}</span>'
    return f'<a href="{_e(href)}">{_e(text)}</a>'


def _highlight(text: str, spans: Iterable[str]) -> str:
    """Escape ``text`` and wrap each case-insensitive occurrence of an error span in <mark>."""
    needles = sorted({s.strip() for s in spans if s and s.strip()}, key=len, reverse=True)
    if not needles:
        return _e(text)
    pattern = re.compile("|".join(re.escape(n) for n in needles), re.IGNORECASE)
    out, cursor = [], 0
    for match in pattern.finditer(text):
        out.append(_e(text[cursor : match.start()]))
        out.append(f'<mark class="err">{_e(match.group())}</mark>')
        cursor = match.end()
    out.append(_e(text[cursor:]))
    return "".join(out)


def _failures_sub(report: Report) -> str:
    facts = sum(1 for r in report.records if r.verdict.error)
    chunks = sum(1 for c in report.failed_chunks if c.cause == "error")
    return f"{facts} facts not verified, {chunks} chunks not decomposed"


def _unchecked(report: Report) -> str:
    """The parts of the text that were not checked: failed chunks and sentences without facts."""
    if not report.failed_chunks and not report.undecomposed:
        return ""
    html = ['<section id="unchecked"><h2>Not checked</h2>']
    line = failure_summary(report)
    if line:
        html.append(f'<p class="error-line">{_e(line)}</p>')
    if report.failed_chunks:
        html.append("<h3>Chunks not decomposed</h3><ul>")
        for chunk in report.failed_chunks:
            html.append(
                f'<li><span class="fid">chunk {chunk.chunk_index}</span> '
                f'<span class="route">chars {chunk.span.start}–{chunk.span.end}</span>'
                f"<blockquote>{_e(chunk.text)}</blockquote>"
                f'<p class="{"error-line" if chunk.cause == "error" else "meta"}">'
                f"{_e(chunk.error)}</p></li>"
            )
        html.append("</ul>")
    if report.undecomposed:
        html.append("<h3>Sentences not decomposed (no fact found)</h3><ul>")
        for sentence in report.undecomposed:
            html.append(
                f'<li><span class="route">chunk {sentence.chunk_index} · chars '
                f"{sentence.span.start}–{sentence.span.end}</span> "
                f"<q>{_e(sentence.text)}</q></li>"
            )
        html.append("</ul>")
    return "".join(html) + "</section>"


def _summary(report: Report) -> str:
    s = report.scores
    cards = [
        ("main", "TriQuaScore", _pct(s.triqua_score), f"{s.units_supported}/{s.units_total} units"),
        ("", "coverage", _pct(report.coverage), "of the text checked"),
        ("", "claim-level", _pct(s.claim_level_score), "facts fully supported"),
        ("", "no dedup", _pct(s.no_dedup_score), f"{s.units_raw} units before dedup"),
        ("", "fact precision", _pct(s.factscore_precision), "facts judged supported"),
        ("", "contradiction rate", _pct(s.contradiction_rate), "of checkable facts"),
        ("", "abstentions", str(s.abstentions), "insufficient evidence"),
        ("", "re-verified", _pct(report.reverify_trigger_rate), "of facts"),
        ("", "failures", str(report.failures), _failures_sub(report)),
    ]
    html = ['<section id="summary"><h2>Scores</h2><div class="cards">']
    for cls, label, value, sub in cards:
        html.append(
            f'<div class="card {cls}"><div class="label">{_e(label)}</div>'
            f'<div class="value">{_e(value)}</div><div class="sub">{_e(sub)}</div></div>'
        )
    html.append('</div><div class="chips">')
    for status in Status:
        count = s.facts_by_status.get(status.value, 0)
        html.append(f'<span class="chip {status.value}">{count} {_e(STATUS_LABEL[status])}</span>')
    html.append("</div>")
    if report.notes:
        html.append('<div class="notes">' + "".join(f"<p>{_e(n)}</p>" for n in report.notes))
        html.append("</div>")
    listed = {c.error for c in report.failed_chunks}  # shown with their chunk below
    errors = [e for e in report.errors if e not in listed]
    if errors:
        html.append('<div class="errors">' + "".join(f"<p>{_e(n)}</p>" for n in errors))
        html.append("</div>")
    return "".join(html) + "</section>"


def _plots(report: Report) -> str:
    labels = [r.claim_id for r in report.records]
    counts = [Counter(s for _, s in label_units(r.fact, r.verdict)) for r in report.records]
    series = [
        (STATUS_LABEL[status], STATUS_COLOUR[status], [c[status] for c in counts])
        for status in Status
    ]
    bars = stacked_bars(labels, series, title="Unit verdicts per fact", width=540)
    curve = risk_coverage_curve(report.records)
    points = [
        (p["coverage"], p["risk"])
        for p in curve.points
        if p["coverage"] is not None and p["risk"] is not None
    ]
    line = risk_coverage_plot(
        points, title="Abstention–coverage curve", y_label="abstention rate", width=400
    )
    return (
        '<section id="plots"><h2>Charts</h2><div class="plots">'
        f"<figure>{bars}<figcaption>Units of each fact by verdict.</figcaption></figure>"
        f"<figure>{line}<figcaption>Verdicts kept when thresholding on confidence: coverage "
        "against the share of kept verdicts that abstain (insufficient evidence). Without "
        "gold labels this measures decisiveness, not accuracy.</figcaption></figure>"
        "</div></section>"
    )


def _quoted(text: str, quotes: Iterable[str]) -> str:
    """Escape a passage, each grounded quote wrapped in <mark class="quote">, cut to a snippet.

    A long passage is cut around its first quote, so the words the verdict rests on show.
    """
    spans = sorted({span for q in quotes if (span := locate_quote(text, q)) is not None})
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    lo = 0
    if merged and merged[0][1] > SNIPPET_CHARS - 1:
        lo = max(0, merged[0][0] - 80)
    hi = max(lo + SNIPPET_CHARS - 1, merged[0][1] if merged else 0)
    if lo == 0 and len(text) <= SNIPPET_CHARS:
        hi = len(text)
    out = ["…" if lo else ""]
    cursor = lo
    for start, end in merged:
        if start >= hi:
            break
        out.append(_e(text[cursor:start]))
        out.append(f'<mark class="quote">{_e(text[start:end])}</mark>')
        cursor = end
    out.append(_e(text[cursor:hi]))
    return "".join(out) + ("…" if hi < len(text) else "")


def _evidence_item(item: Evidence, cited: bool, quotes: Iterable[str] = ()) -> str:
    text = _quoted(item.text, quotes)
    meta = [_link(item.source, item.document_id)]
    if item.title:
        meta.append(_e(item.title))
    if item.start is not None and item.end is not None:
        meta.append(f"chars {item.start}–{item.end}")
    if item.rank is not None:
        meta.append(f"rank {item.rank}")
    if item.score is not None:
        meta.append(f"score {item.score:.2f}")
    if cited:
        meta.append('<span class="tag">cited</span>')
    return (
        f'<li class="{"cited" if cited else ""}"><blockquote>{text}</blockquote>'
        f'<div class="ev-meta">{" · ".join(meta)}</div></li>'
    )


def _unit(unit: FactUnit, status: Status) -> str:
    """One unit, coloured by its verdict; a contradicted unit is outlined and flagged wrong."""
    flag = {Status.CONTRADICTED: "wrong", Status.INSUFFICIENT: "unverified"}.get(status)
    classes = f"unit {status.value}" + (" wrong" if status is Status.CONTRADICTED else "")
    return (
        f'<span class="{classes}" title="{_e(unit.kind)}: {_e(STATUS_LABEL[status])}">'
        f'<span class="kind">{_e(unit.kind)}</span>{_e(unit.text)}'
        + (f'<span class="flag">{flag}</span>' if flag else "")
        + "</span>"
    )


def _graph_line(record: ClaimRecord) -> str:
    """The sentence's element-graph features and why it was routed as it was."""
    c = record.complexity
    if "diameter" not in c:
        return ""
    components = int(c.get("components", 1))
    text = (
        f"sentence element graph: {c.get('nodes', '?')} elements, {c.get('edges', '?')} "
        f"relations, diameter {c['diameter']}, {components} component{'s' * (components != 1)}"
    )
    if c.get("reason"):
        text += f" — {c['reason']}"
    return f'<p class="route graph">{_e(text)}</p>'


def _fact(record: ClaimRecord) -> str:
    verdict = record.verdict
    status = verdict.status
    route = str(record.route)
    if record.rounds:
        route += f" · {len(record.rounds)} re-verify round{'s' * (len(record.rounds) > 1)}"
    head = [
        f'<span class="fid">{_e(record.claim_id)}</span>',
        f'<span class="badge {status.value}">{_e(STATUS_LABEL[status])}</span>',
        f'<span class="route">{_e(route)} route</span>',
    ]
    if verdict.confidence is not None:
        head.append(f'<span class="route">confidence {verdict.confidence:.2f}</span>')
    if verdict.basis != "evidence":
        head.append(f'<span class="route">basis: {_e(verdict.basis)}</span>')
    units = '<span class="route">–</span>'.join(
        _unit(unit, unit_status) for unit, unit_status in label_units(record.fact, verdict)
    )
    body = [
        f'<article class="fact status-{status.value}" id="{_e(record.claim_id)}">',
        f'<div class="fact-head">{"".join(head)}</div>',
    ]
    if record.source_text:
        body.append(
            f'<div class="source-text">{_highlight(record.source_text, verdict.error_spans)}</div>'
        )
    body.append(f'<div class="units">{units}</div>')
    graph = _graph_line(record)
    if graph:
        body.append(graph)
    if verdict.wrong_components:
        wrong_text = ", ".join(verdict.wrong_components)
        spans = ", ".join(f"“{s}”" for s in verdict.error_spans)
        label, cls = (
            ("Wrong", "") if status is Status.CONTRADICTED else ("Unverified", " unverified")
        )
        body.append(
            f'<p class="wrong-line{cls}">{label} component: {_e(wrong_text)}'
            + (f" — error span {_e(spans)}" if spans else "")
            + "</p>"
        )
    if verdict.rationale:
        body.append(f'<p class="rationale">{_e(verdict.rationale)}</p>')
    if verdict.error:
        body.append(f'<p class="error-line">error: {_e(verdict.error)}</p>')
    for unit in verdict.unit_verdicts:
        if unit.grounding:  # the grounding rule overrode the judge: say why
            body.append(f'<p class="grounding">{_e(unit.unit)}: {_e(unit.grounding)}</p>')
    quotes: dict[str, list[str]] = {}
    for unit in verdict.unit_verdicts:
        if unit.quote and unit.evidence_ids:
            quotes.setdefault(unit.evidence_ids[0], []).append(unit.quote)
    cited_ids = set(verdict.evidence_ids)
    ordered = sorted(record.evidence, key=lambda e: e.id not in cited_ids)
    if ordered:
        items = "".join(_evidence_item(e, e.id in cited_ids, quotes.get(e.id, ())) for e in ordered)
        body.append(
            f"<details open><summary>Evidence ({len(ordered)})</summary>"
            f'<ol class="evidence">{items}</ol></details>'
        )
    else:
        body.append('<p class="route">No evidence passages.</p>')
    if record.rounds:
        rounds = "".join(
            f"<li>round {r.round}: {_e(', '.join(r.units))}"
            + (f" — claim: “{_e(r.claim)}”" if r.claim else "")
            + " — queries: "
            + _e(" | ".join(r.queries))
            + (f" — {_e(r.stop_reason)}" if r.stop_reason else "")
            + "</li>"
            for r in record.rounds
        )
        body.append(f'<details><summary>Re-verification</summary><ul class="rounds">{rounds}</ul>')
        body.append("</details>")
    if record.history:
        body.append(f'<p class="route">{len(record.history)} earlier verdict(s) kept.</p>')
    body.append("</article>")
    return "".join(body)


def _money(value: float | None, currency: str | None) -> str:
    if value is None:
        return "—"
    return f"{value:.4f} {_e(currency or '')}".strip()


def _costs(summary: CostSummary) -> str:
    rows = []
    for role in summary.roles:
        mark = " ≈" if role.tokens_estimated else ""
        rows.append(
            f"<tr><td>{_e(role.role)}</td><td class='mono'>{_e(role.model or '—')}</td>"
            f"<td class='num'>{role.model_calls}</td><td class='num'>{role.search_calls}</td>"
            f"<td class='num'>{role.input_tokens:,}{mark}</td>"
            f"<td class='num'>{role.output_tokens:,}{mark}</td>"
            f"<td class='num'>{_money(role.cost, summary.currency)}</td></tr>"
        )
    mark = " ≈" if summary.tokens_estimated else ""
    rows.append(
        f"<tr class='total'><td>total</td><td></td><td class='num'>{summary.model_calls}</td>"
        f"<td class='num'>{summary.search_calls}</td>"
        f"<td class='num'>{summary.input_tokens:,}{mark}</td>"
        f"<td class='num'>{summary.output_tokens:,}{mark}</td>"
        f"<td class='num'>{_money(summary.cost, summary.currency)}</td></tr>"
    )
    notes = []
    if summary.tokens_estimated:
        notes.append("≈ token counts estimated with a WordPiece tokenizer (no provider usage).")
    if summary.currency is None:
        notes.append("No prices configured (set TRIQUA_PRICES to a prices file to see money).")
    if summary.unpriced:
        notes.append("No price for: " + ", ".join(summary.unpriced) + ".")
    return (
        '<section id="costs"><h2>Costs</h2><table><thead><tr><th>role</th><th>model</th>'
        '<th class="num">calls</th><th class="num">searches</th><th class="num">input tokens</th>'
        '<th class="num">output tokens</th><th class="num">cost</th></tr></thead><tbody>'
        + "".join(rows)
        + "</tbody></table>"
        + "".join(f'<p class="meta">{_e(n)}</p>' for n in notes)
        + "</section>"
    )


def _citations(report: CitationReport) -> str:
    rows = []
    for link in report.links:
        verdict = link.verdict
        status = (
            f'<span class="badge {verdict.status.value}">{_e(STATUS_LABEL[verdict.status])}</span>'
            if verdict
            else f'<span class="badge not_checkable">unavailable</span> {_e(link.reason or "")}'
        )
        rows.append(
            f"<tr><td class='fid'>{_e(link.claim_id)}</td><td>[{_e(link.key)}]</td>"
            f"<td>{_link(link.target, '—')}</td><td>{status}</td></tr>"
        )
    uncited = [c.claim_id for c in report.claims if c.checkable and not c.keys]
    return (
        '<section id="citations"><h2>Citations</h2><div class="cards">'
        f'<div class="card"><div class="label">completeness</div>'
        f'<div class="value">{_pct(report.completeness)}</div>'
        '<div class="sub">claims supported by their cites</div></div>'
        f'<div class="card"><div class="label">link correctness</div>'
        f'<div class="value">{_pct(report.link_correctness)}</div>'
        '<div class="sub">links that support their claim</div></div>'
        f'<div class="card"><div class="label">unavailable</div>'
        f'<div class="value">{report.unavailable_links}</div>'
        f'<div class="sub">links ({_pct(report.unavailable_rate)})</div></div>'
        "</div>"
        + (f'<p class="meta">Uncited claims: {_e(", ".join(uncited))}</p>' if uncited else "")
        + "".join(f'<p class="meta">{_e(n)}</p>' for n in report.notes)
        + "<table><thead><tr><th>claim</th><th>cite</th><th>source</th><th>verdict</th></tr>"
        "</thead><tbody>" + "".join(rows) + "</tbody></table></section>"
    )


def _spec(report: Report) -> str:
    spec = report.spec
    rows = [
        ("hash", f'<span class="mono hash">{_e(spec.hash)}</span>'),
        ("mode", _e(spec.mode.value)),
        ("authority", _e(spec.authority or "—")),
        ("as of", _e(spec.as_of or "—")),
        ("corpus", _e(spec.corpus or "—")),
        ("retriever", f'<span class="mono">{_e(spec.retriever)}</span>'),
        ("budget", _e(f"{spec.budget.max_searches} searches, {spec.budget.max_results} per query")),
        ("models", _e(", ".join(f"{k}: {v}" for k, v in spec.models.items()) or "—")),
    ]
    table = "".join(f"<tr><th>{_e(k)}</th><td>{v}</td></tr>" for k, v in rows)
    full = json.dumps(spec.model_dump(mode="json"), indent=2, ensure_ascii=False)
    return (
        '<section id="spec"><h2>Factuality spec</h2>'
        f"<table>{table}</table><details><summary>Full spec (JSON)</summary>"
        f"<pre>{_e(full)}</pre></details></section>"
    )


def _template() -> Template:
    return Template(resources.files("triqua").joinpath("templates/report.html").read_text("utf-8"))


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
    extra = {"cite": citations.usage} if citations and citations.usage.model_calls else None
    meta = [
        f"run {report.run_id or '—'}",
        f"created {report.created_at:%Y-%m-%d %H:%M:%S %Z}".strip(),
        f"engine {report.engine or '—'}",
        f"mode {report.spec.mode.value}",
        f"spec {report.spec.hash[:12]}",
        f"input {report.input_hash[:12] or '—'}",
    ]
    if report.question:
        meta.append(f"question: {report.question}")
    facts = "".join(_fact(r) for r in report.records) or '<p class="meta">No facts were found.</p>'
    body = "".join(
        [
            "<header><h1>triqua report</h1>",
            '<div class="meta">' + "".join(f"<span>{_e(m)}</span>" for m in meta) + "</div>",
            "</header>",
            _summary(report),
            _unchecked(report),
            _plots(report),
            f'<section id="facts"><h2>Facts ({len(report.records)})</h2>{facts}</section>',
            _citations(citations) if citations is not None else "",
            _costs(cost_summary(report, prices, extra_usage=extra)),
            _spec(report),
            f"<footer>Report schema {_e(report.schema_version)}.</footer>",
        ]
    )
    title = f"triqua report — {_pct(report.scores.triqua_score)}"
    return _template().substitute(title=_e(title), body=body)


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
