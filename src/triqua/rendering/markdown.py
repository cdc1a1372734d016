"""A report as Markdown, to paste into issues and pull requests (GitHub-flavoured tables).

The summary line, one table row per fact (units, verdict, wrong and unverified units, the
evidence the verdict rests on), then what was not checked, errors and the spec. Text from
the report is escaped: pipes and line breaks would break a table row, and backticks,
asterisks or angle brackets in checked text must not become formatting or HTML.
"""

from __future__ import annotations

import re
from pathlib import Path

from triqua.core.report.accounting import checkworthy_line, coverage_line, failure_summary
from triqua.core.report.sentence_verdicts import problem_marks
from triqua.rendering.terminal import fmt_coverage, fmt_score
from triqua.schema import ClaimRecord, Report, Status
from triqua.schema.citations import CitationReport
from triqua.support.wording import counted, plural

__all__ = ["render_markdown", "write_markdown"]

LABEL = {
    Status.SUPPORTED: "✅ supported",
    Status.CONTRADICTED: "❌ contradicted",
    Status.INSUFFICIENT: "❔ insufficient evidence",
    Status.NOT_CHECKABLE: "➖ not checkable",
}
SNIPPET_CHARS = 200
_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~])")


def md_escape(text: str) -> str:
    """Text safe in a Markdown table cell: one line, markup characters escaped."""
    return _SPECIAL.sub(r"\\\1", " ".join(text.split()))


def _code_cell(text: str) -> str:
    """``text`` as a code span that stays in its table cell: one line, no backtick, pipes escaped.

    A source is data (a file name, a collection's metadata) and may hold line breaks, which
    would end the table row and let what follows render as Markdown or HTML.
    """
    flat = " ".join(text.replace("`", "").split())
    return "`" + flat.replace("|", "\\|") + "`"


def _clip(text: str, limit: int = SNIPPET_CHARS) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _problems(record: ClaimRecord) -> str:
    """Wrong (contradicted) and unverified units of a fact, labelled apart."""
    verdict = record.verdict
    by_unit = {u.unit: u.status for u in verdict.unit_verdicts}
    parts = []
    for unit in verdict.wrong_components:
        status = by_unit.get(unit, verdict.status)
        label = "**wrong**" if status is Status.CONTRADICTED else "unverified"
        parts.append(f"{label} {md_escape(unit)}")
    if verdict.error_spans:
        parts.append("→ " + ", ".join(f"“{md_escape(s)}”" for s in verdict.error_spans))
    return "<br>".join(parts)


def _evidence(record: ClaimRecord) -> str:
    """The quote or passage the verdict rests on, with its source."""
    verdict = record.verdict
    quoted = next((u for u in verdict.unit_verdicts if u.quote), None)
    if quoted is not None and quoted.quote:
        source = next((e for e in record.evidence if e.id in quoted.evidence_ids), None)
        text = f"“{md_escape(_clip(quoted.quote))}”"
    else:
        cited = [e for e in record.evidence if e.id in set(verdict.evidence_ids)]
        shown = cited or record.evidence
        source = shown[0] if shown else None
        if source is None:
            text = ""
        else:
            prefix = "" if cited else "closest passage (not support): "
            text = prefix + md_escape(_clip(source.text))
    if source is not None:
        text += f" — {_code_cell(source.source or source.document_id)}"
    if verdict.error:
        text += f"<br>error: {md_escape(verdict.error)}"
    return text


def render_markdown(report: Report, *, citations: CitationReport | None = None) -> str:
    """The report as a Markdown document, headed by its case id (a batch line's) when it has one.

    A batch's reports one after another then have headings that say which line each is.
    """
    s = report.scores
    shown = fmt_coverage(report)
    coverage = "" if shown is None else f" · coverage {shown}"
    case = next((r.case_id for r in report.records if r.case_id), "")
    lines = [
        f"## triqua report — {md_escape(case)}" if case else "## triqua report",
        "",
        f"**TriQuaScore {fmt_score(s.triqua_score)}** ({s.units_supported}/{s.units_total} "
        f"{plural(s.units_total, 'unit')}){coverage} · {counted(s.facts_total, 'fact')} · "
        "contradiction rate "
        f"{fmt_score(s.contradiction_rate)} · mode `{report.spec.mode.value}` · "
        f"engine `{report.engine}` · run `{report.run_id}`",
        "",
    ]
    if citations is not None:
        lines += [
            f"Citations: {citations.summary()}",
            "",
        ]
    if report.records:
        lines += [
            "| # | fact (units) | verdict | wrong / unverified | evidence |",
            "|---|---|---|---|---|",
        ]
        for record in report.records:
            units = " – ".join(md_escape(u.text) for u in record.fact.units())
            lines.append(
                f"| {record.claim_id} | {units} | {LABEL[record.verdict.status]} | "
                f"{_problems(record)} | {_evidence(record)} |"
            )
        lines.append("")
    if report.sentences:
        lines += [
            "| sentence | route | verdict | units | wrong / unverified |",
            "|---|---|---|---|---|",
        ]
        for sentence in report.sentences:
            problems = [md_escape(mark) for mark in problem_marks(sentence)]
            lines.append(
                f"| {md_escape(_clip(sentence.text, 120))} | {sentence.route} | "
                f"{LABEL[sentence.status]} | {sentence.units_supported}/{sentence.units_total} | "
                f"{'<br>'.join(problems)} |"
            )
        lines.append("")
    asked = coverage_line(report)
    if asked:
        lines += [f"**Question**: {md_escape(asked)}", ""]
    failed = failure_summary(report)
    unchecked = [f"- failed: {md_escape(failed)}"] if failed else []
    unchecked += [
        f"- not decomposed (no fact): chars {u.span.start}–{u.span.end} "
        f"“{md_escape(_clip(u.text, 80))}”"
        for u in report.undecomposed
    ]
    unchecked += [f"- error: {md_escape(e)}" for e in report.errors]
    if unchecked:
        lines += ["**Not checked**", "", *unchecked, ""]
    set_aside = checkworthy_line(report)
    if set_aside:
        lines += [f"**Not check-worthy**: {md_escape(set_aside)}", ""]
        lines += [
            f"- {s.label}: chars {s.span.start}–{s.span.end} “{md_escape(_clip(s.text, 80))}” "
            f"({md_escape(s.reason)})"
            for s in report.not_checkworthy
        ]
        lines.append("")
    lines.append(
        f"<sub>model calls {report.usage.model_calls} · searches {report.usage.search_calls}"
        f" · spec `{report.spec.hash[:12]}` · report schema {report.schema_version}</sub>"
    )
    return "\n".join(lines) + "\n"


def write_markdown(
    report: Report, path: str | Path, *, citations: CitationReport | None = None
) -> Path:
    """Write :func:`render_markdown` of ``report`` to ``path`` (UTF-8) and return the path."""
    target = Path(path)
    target.write_text(render_markdown(report, citations=citations), encoding="utf-8")
    return target
