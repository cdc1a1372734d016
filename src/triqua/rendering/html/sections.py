"""The report page's sections besides the facts: scores, unchecked text, charts, costs, spec."""

from __future__ import annotations

import json
from collections import Counter

from triqua.core.budget.costs import CostSummary
from triqua.core.report.accounting import checkworthy_line, failure_summary
from triqua.core.report.sentence_verdicts import problem_marks
from triqua.core.verdicts.scoring import label_units, risk_coverage_curve
from triqua.rendering.html.markup import STATUS_COLOUR, STATUS_LABEL, esc, pct, source_link
from triqua.rendering.plots import risk_coverage_plot, stacked_bars
from triqua.schema import (
    ElementClaim,
    NotCheckworthySentence,
    Report,
    SentenceVerdict,
    Status,
    UndecomposedSentence,
)
from triqua.schema.citations import CitationReport
from triqua.support.wording import counted


def _failures_sub(report: Report) -> str:
    facts = sum(1 for r in report.records if r.verdict.error)
    chunks = sum(1 for c in report.failed_chunks if c.cause == "error")
    return f"{counted(facts, 'fact')} not verified, {counted(chunks, 'chunk')} not decomposed"


def _sentence(sentence: UndecomposedSentence | NotCheckworthySentence) -> str:
    """A sentence of the text, quoted after its chunk and characters."""
    return (
        f'<span class="route">chunk {sentence.chunk_index} · chars '
        f"{sentence.span.start}–{sentence.span.end}</span> <q>{esc(sentence.text)}</q>"
    )


def unchecked_html(report: Report) -> str:
    """The parts of the text that were not checked: failed chunks and sentences without facts."""
    if not report.failed_chunks and not report.undecomposed:
        return ""
    html = ['<section id="unchecked"><h2>Not checked</h2>']
    line = failure_summary(report)
    if line:
        html.append(f'<p class="error-line">{esc(line)}</p>')
    if report.failed_chunks:
        html.append("<h3>Chunks not decomposed</h3><ul>")
        for chunk in report.failed_chunks:
            html.append(
                f'<li><span class="fid">chunk {chunk.chunk_index}</span> '
                f'<span class="route">chars {chunk.span.start}–{chunk.span.end}</span>'
                f"<blockquote>{esc(chunk.text)}</blockquote>"
                f'<p class="{"error-line" if chunk.cause == "error" else "meta"}">'
                f"{esc(chunk.error)}</p></li>"
            )
        html.append("</ul>")
    if report.undecomposed:
        html.append("<h3>Sentences not decomposed (no fact found)</h3><ul>")
        for sentence in report.undecomposed:
            html.append(f"<li>{_sentence(sentence)}</li>")
        html.append("</ul>")
    return "".join(html) + "</section>"


def not_checkworthy_html(report: Report) -> str:
    """The sentences set aside as not check-worthy, each with its class and reason."""
    line = checkworthy_line(report)
    if line is None:
        return ""
    html = ['<section id="not-checkworthy"><h2>Not check-worthy</h2>']
    html.append(f'<p class="meta">{esc(line)}</p><ul>')
    for sentence in report.not_checkworthy:
        html.append(
            f'<li><span class="fid">{esc(sentence.label)}</span> {_sentence(sentence)}'
            f'<p class="meta">{esc(sentence.reason)}</p></li>'
        )
    html.append("</ul>")
    return "".join(html) + "</section>"


def _element_html(claim: ElementClaim) -> str:
    """One element claim: its verdict, ``element — attribute — value`` and the quote it rests on.

    When the element judgement was left insufficient and the fact's own unit verdict is what
    counts, both are shown.
    """
    note = ""
    if claim.judged is not claim.status:
        note = (
            f' <span class="route">(element judged {esc(STATUS_LABEL[claim.judged])}; '
            "the fact's unit verdict counts)</span>"
        )
    quote = f' <q class="meta">{esc(claim.quote)}</q>' if claim.quote else ""
    return (
        f'<li><span class="badge {claim.status.value}">{esc(STATUS_LABEL[claim.status])}</span> '
        f'<span class="mono">{esc(claim.text)}</span>{note}{quote}</li>'
    )


def _elements_html(sentence: SentenceVerdict) -> str:
    """A complex sentence's element claims, each with its verdict (ElementCheck's level)."""
    if not sentence.elements:
        return ""
    items = "".join(_element_html(claim) for claim in sentence.elements)
    return (
        f'<details class="elements" open><summary>element claims '
        f"({len(sentence.elements)})</summary><ul>{items}</ul></details>"
    )


def sentences_html(report: Report) -> str:
    """One verdict per checked sentence, with its route and the units that decide it.

    A complex sentence also lists its element claims, each with its verdict.
    """
    if not report.sentences:
        return ""
    html = [f'<section id="sentences"><h2>Sentences ({len(report.sentences)})</h2><ul>']
    for sentence in report.sentences:
        problems = [esc(mark) for mark in problem_marks(sentence)]
        html.append(
            f'<li><span class="badge {sentence.status.value}">'
            f"{esc(STATUS_LABEL[sentence.status])}</span> "
            f'<span class="route">{sentence.route} · {sentence.units_supported}/'
            f"{counted(sentence.units_total, 'unit')} · {esc(', '.join(sentence.facts))}</span> "
            f"<q>{esc(sentence.text)}</q>"
            + (f'<p class="meta">{"<br>".join(problems)}</p>' if problems else "")
            + _elements_html(sentence)
            + "</li>"
        )
    html.append("</ul>")
    return "".join(html) + "</section>"


def summary_html(report: Report) -> str:
    """The score cards, facts per status, notes and errors."""
    s = report.scores
    cards = [
        (
            "main",
            "TriQuaScore",
            pct(s.triqua_score),
            f"{s.units_supported}/{counted(s.units_total, 'unit')}",
        ),
        ("", "coverage", pct(report.coverage), "of the text checked"),
        ("", "extraction recall", pct(report.extraction_recall), "check-worthy text in facts"),
        ("", "claim-level", pct(s.claim_level_score), "facts fully supported"),
        ("", "no dedup", pct(s.no_dedup_score), f"{counted(s.units_raw, 'unit')} before dedup"),
        ("", "fact precision", pct(s.factscore_precision), "facts judged supported"),
        ("", "contradiction rate", pct(s.contradiction_rate), "of checkable facts"),
        ("", "abstentions", str(s.abstentions), "insufficient evidence"),
        ("", "re-verified", pct(report.reverify_trigger_rate), "of facts"),
        ("", "failures", str(report.failures), _failures_sub(report)),
    ]
    html = ['<section id="summary"><h2>Scores</h2><div class="cards">']
    for cls, label, value, sub in cards:
        html.append(
            f'<div class="card {cls}"><div class="label">{esc(label)}</div>'
            f'<div class="value">{esc(value)}</div><div class="sub">{esc(sub)}</div></div>'
        )
    html.append('</div><div class="chips">')
    for status in Status:
        count = s.facts_by_status.get(status.value, 0)
        html.append(f'<span class="chip {status.value}">{count} {esc(STATUS_LABEL[status])}</span>')
    html.append("</div>")
    if report.notes:
        html.append('<div class="notes">' + "".join(f"<p>{esc(n)}</p>" for n in report.notes))
        html.append("</div>")
    listed = {c.error for c in report.failed_chunks}  # shown with their chunk below
    errors = [e for e in report.errors if e not in listed]
    if errors:
        html.append('<div class="errors">' + "".join(f"<p>{esc(n)}</p>" for n in errors))
        html.append("</div>")
    return "".join(html) + "</section>"


def plots_html(report: Report) -> str:
    """The two charts: unit verdicts per fact and the abstention–coverage curve."""
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


def _money(value: float | None, currency: str | None) -> str:
    if value is None:
        return "—"
    return f"{value:.4f} {esc(currency or '')}".strip()


def costs_html(summary: CostSummary) -> str:
    """Calls, tokens and money per role, with a total row."""
    rows = []
    for role in summary.roles:
        mark = " ≈" if role.tokens_estimated else ""
        rows.append(
            f"<tr><td>{esc(role.role)}</td><td class='mono'>{esc(role.model or '—')}</td>"
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
        + "".join(f'<p class="meta">{esc(n)}</p>' for n in notes)
        + "</section>"
    )


def citations_html(report: CitationReport) -> str:
    """Citation completeness, link correctness and every claim–source link."""
    rows = []
    for link in report.links:
        verdict = link.verdict
        status = (
            f'<span class="badge {verdict.status.value}">{esc(STATUS_LABEL[verdict.status])}</span>'
            if verdict
            else f'<span class="badge not_checkable">unavailable</span> {esc(link.reason or "")}'
        )
        rows.append(
            f"<tr><td class='fid'>{esc(link.claim_id)}</td><td>[{esc(link.key)}]</td>"
            f"<td>{source_link(link.target, '—')}</td><td>{status}</td></tr>"
        )
    uncited = [c.claim_id for c in report.claims if c.checkable and not c.keys]
    return (
        '<section id="citations"><h2>Citations</h2><div class="cards">'
        f'<div class="card"><div class="label">completeness</div>'
        f'<div class="value">{pct(report.completeness)}</div>'
        '<div class="sub">claims supported by their cites</div></div>'
        f'<div class="card"><div class="label">link correctness</div>'
        f'<div class="value">{pct(report.link_correctness)}</div>'
        '<div class="sub">links that support their claim</div></div>'
        f'<div class="card"><div class="label">unavailable</div>'
        f'<div class="value">{report.unavailable_links}</div>'
        f'<div class="sub">links ({pct(report.unavailable_rate)})</div></div>'
        "</div>"
        + (f'<p class="meta">Uncited claims: {esc(", ".join(uncited))}</p>' if uncited else "")
        + "".join(f'<p class="meta">{esc(n)}</p>' for n in report.notes)
        + "<table><thead><tr><th>claim</th><th>cite</th><th>source</th><th>verdict</th></tr>"
        "</thead><tbody>" + "".join(rows) + "</tbody></table></section>"
    )


def spec_html(report: Report) -> str:
    """The factuality spec: its main fields, its hash and the full JSON."""
    spec = report.spec
    rows = [
        ("hash", f'<span class="mono hash">{esc(spec.hash)}</span>'),
        ("mode", esc(spec.mode.value)),
        ("authority", esc(spec.authority or "—")),
        ("as of", esc(spec.as_of or "—")),
        ("corpus", esc(spec.corpus or "—")),
        ("retriever", f'<span class="mono">{esc(spec.retriever)}</span>'),
        (
            "budget",
            esc(f"{spec.budget.max_searches} searches, {spec.budget.max_results} per query"),
        ),
        ("models", esc(", ".join(f"{k}: {v}" for k, v in spec.models.items()) or "—")),
    ]
    table = "".join(f"<tr><th>{esc(k)}</th><td>{v}</td></tr>" for k, v in rows)
    full = json.dumps(spec.model_dump(mode="json"), indent=2, ensure_ascii=False)
    return (
        '<section id="spec"><h2>Factuality spec</h2>'
        f"<table>{table}</table><details><summary>Full spec (JSON)</summary>"
        f"<pre>{esc(full)}</pre></details></section>"
    )
