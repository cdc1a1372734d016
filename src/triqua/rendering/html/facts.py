"""One fact on the report page: its units by verdict, its route, evidence with quotes marked."""

from __future__ import annotations

from collections.abc import Iterable

from triqua.core.grounding.rule import locate_quote
from triqua.core.verdicts.scoring import label_units
from triqua.rendering.html.markup import SNIPPET_CHARS, STATUS_LABEL, esc, highlight, source_link
from triqua.schema import ClaimRecord, Evidence, FactUnit, Status


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
        out.append(esc(text[cursor:start]))
        out.append(f'<mark class="quote">{esc(text[start:end])}</mark>')
        cursor = end
    out.append(esc(text[cursor:hi]))
    return "".join(out) + ("…" if hi < len(text) else "")


def _evidence_item(item: Evidence, cited: bool, quotes: Iterable[str] = ()) -> str:
    text = _quoted(item.text, quotes)
    meta = [source_link(item.source, item.document_id)]
    if item.title:
        meta.append(esc(item.title))
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
        f'<span class="{classes}" title="{esc(unit.kind)}: {esc(STATUS_LABEL[status])}">'
        f'<span class="kind">{esc(unit.kind)}</span>{esc(unit.text)}'
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
    return f'<p class="route graph">{esc(text)}</p>'


def _head(record: ClaimRecord) -> str:
    """The fact's head line: its id, verdict badge, route (and rounds), confidence, basis."""
    verdict = record.verdict
    status = verdict.status
    route = str(record.route)
    if record.rounds:
        route += f" · {len(record.rounds)} re-verify round{'s' * (len(record.rounds) > 1)}"
    head = [
        f'<span class="fid">{esc(record.claim_id)}</span>',
        f'<span class="badge {status.value}">{esc(STATUS_LABEL[status])}</span>',
        f'<span class="route">{esc(route)} route</span>',
    ]
    if verdict.confidence is not None:
        head.append(f'<span class="route">confidence {verdict.confidence:.2f}</span>')
    if verdict.basis != "evidence":
        head.append(f'<span class="route">basis: {esc(verdict.basis)}</span>')
    return f'<div class="fact-head">{"".join(head)}</div>'


def _verdict_lines(record: ClaimRecord) -> list[str]:
    """The wrong component, the rationale, an error, and why the rule or costs overrode units."""
    verdict = record.verdict
    lines = []
    if verdict.wrong_components:
        wrong_text = ", ".join(verdict.wrong_components)
        spans = ", ".join(f"“{s}”" for s in verdict.error_spans)
        label, cls = (
            ("Wrong", "")
            if verdict.status is Status.CONTRADICTED
            else ("Unverified", " unverified")
        )
        lines.append(
            f'<p class="wrong-line{cls}">{label} component: {esc(wrong_text)}'
            + (f" — error span {esc(spans)}" if spans else "")
            + "</p>"
        )
    if verdict.rationale:
        lines.append(f'<p class="rationale">{esc(verdict.rationale)}</p>')
    if verdict.error:
        lines.append(f'<p class="error-line">error: {esc(verdict.error)}</p>')
    for unit in verdict.unit_verdicts:
        if unit.grounding:  # the grounding rule overrode the judge: say why
            lines.append(f'<p class="grounding">{esc(unit.unit)}: {esc(unit.grounding)}</p>')
        if unit.abstention:  # withheld by the failure costs: say why
            lines.append(f'<p class="grounding">{esc(unit.unit)}: {esc(unit.abstention)}</p>')
    return lines


def _evidence_block(record: ClaimRecord) -> str:
    """The evidence passages, the cited ones first with their quotes, or a line saying none."""
    verdict = record.verdict
    quotes: dict[str, list[str]] = {}
    for unit in verdict.unit_verdicts:
        if unit.quote and unit.evidence_ids:
            quotes.setdefault(unit.evidence_ids[0], []).append(unit.quote)
    cited_ids = set(verdict.evidence_ids)
    ordered = sorted(record.evidence, key=lambda e: e.id not in cited_ids)
    if not ordered:
        return '<p class="route">No evidence passages.</p>'
    items = "".join(_evidence_item(e, e.id in cited_ids, quotes.get(e.id, ())) for e in ordered)
    return (
        f"<details open><summary>Evidence ({len(ordered)})</summary>"
        f'<ol class="evidence">{items}</ol></details>'
    )


def _rounds_block(record: ClaimRecord) -> str:
    """The re-verification rounds: units, claim, queries and why each stopped."""
    rounds = "".join(
        f"<li>round {r.round}: {esc(', '.join(r.units))}"
        + (f" — claim: “{esc(r.claim)}”" if r.claim else "")
        + " — queries: "
        + esc(" | ".join(r.queries))
        + (f" — {esc(r.stop_reason)}" if r.stop_reason else "")
        + "</li>"
        for r in record.rounds
    )
    return f'<details><summary>Re-verification</summary><ul class="rounds">{rounds}</ul></details>'


def fact_html(record: ClaimRecord) -> str:
    """One fact as an article: verdict badge, units, wrong component, rationale, evidence."""
    verdict = record.verdict
    status = verdict.status
    units = '<span class="route">–</span>'.join(
        _unit(unit, unit_status) for unit, unit_status in label_units(record.fact, verdict)
    )
    body = [
        f'<article class="fact status-{status.value}" id="{esc(record.claim_id)}">',
        _head(record),
    ]
    if record.source_text:
        body.append(
            f'<div class="source-text">{highlight(record.source_text, verdict.error_spans)}</div>'
        )
    body.append(f'<div class="units">{units}</div>')
    graph = _graph_line(record)
    if graph:
        body.append(graph)
    body.extend(_verdict_lines(record))
    body.append(_evidence_block(record))
    if record.rounds:
        body.append(_rounds_block(record))
    if record.history:
        body.append(f'<p class="route">{len(record.history)} earlier verdict(s) kept.</p>')
    body.append("</article>")
    return "".join(body)
