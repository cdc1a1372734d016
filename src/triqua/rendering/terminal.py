"""Human-readable rendering of a report for the terminal (rich tables)."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from triqua.core.report.accounting import (
    checkworthy_line,
    coverage_line,
    failure_summary,
    stop_phrase,
)
from triqua.schema import FactualitySpec, Report, Status, Verdict
from triqua.support.wording import counted, printable_text

STYLE = {
    Status.SUPPORTED: "green",
    Status.CONTRADICTED: "red",
    Status.INSUFFICIENT: "yellow",
    Status.NOT_CHECKABLE: "dim",
}
SHORT = {
    Status.SUPPORTED: "supported",
    Status.CONTRADICTED: "contradicted",
    Status.INSUFFICIENT: "insufficient",
    Status.NOT_CHECKABLE: "not checkable",
}


def fmt_score(value: float | None) -> str:
    """A score as a percentage, or 'undefined' when there was nothing to score."""
    return "undefined" if value is None else f"{value:.1%}"


def fmt_coverage(report: Report) -> str | None:
    """The report's coverage as a percentage, or 'undefined' with why; None when unknown.

    Coverage is undefined when the run found nothing checkable (as TriQuaScore is); a
    report made before coverage was measured (no chunks recorded) has none to show.
    """
    if report.coverage is not None:
        return fmt_score(report.coverage)
    if report.chunks and report.scores.units_total == 0:
        return "undefined (no checkable facts)"
    return None


def facts_table(report: Report) -> Table:
    """One row per fact: units with verdicts, wrong component, the quote (or closest passage)."""
    table = Table(show_lines=True, expand=True)
    table.add_column("#", no_wrap=True)
    table.add_column("fact (units)", ratio=3)
    table.add_column("verdict", no_wrap=True)
    table.add_column("wrong / unverified", ratio=1, width=12)  # with a ratio, width is the least
    table.add_column("evidence", ratio=2)
    for record in report.records:
        verdict = record.verdict
        units = Text()
        by_unit = {u.unit: u.status for u in verdict.unit_verdicts}
        for i, unit in enumerate(record.fact.units()):
            if i:
                units.append("-")
            status = by_unit.get(unit.text, verdict.status)
            units.append(unit.text, style=STYLE[status])
        evidence = Text(overflow="fold")  # a long path wraps instead of ending in '…'
        quoted = next(((u.quote, u.evidence_ids) for u in verdict.unit_verdicts if u.quote), None)
        if quoted is not None:  # the very sentence the verdict rests on
            quote, ids = quoted
            source = next((e for e in record.evidence if e.id in ids), None)
            evidence.append(f"“{quote}”")
            if source is not None:
                evidence.append(f"\n{source.source or source.document_id}", style="dim")
        else:
            cited = [e for e in record.evidence if e.id in set(verdict.evidence_ids)]
            if not cited and record.evidence:
                evidence.append("closest passage (not support): ", style="dim italic")
            for item in (cited or record.evidence)[:1]:
                snippet = item.text if len(item.text) <= 160 else item.text[:157] + "…"
                evidence.append(snippet)
                evidence.append(f"\n{item.source or item.document_id}", style="dim")
        for judged in verdict.unit_verdicts:
            if judged.grounding:  # the grounding rule overrode the judge
                evidence.append(f"\n{judged.unit}: {judged.grounding}", style="yellow")
            if judged.abstention:  # withheld by the failure costs: the quote did not decide
                evidence.append(f"\n{judged.unit}: {judged.abstention}", style="yellow")
        if verdict.abstention and not verdict.unit_verdicts:
            evidence.append(f"\n{verdict.abstention}", style="yellow")
        if verdict.error:
            evidence.append(f"\nerror: {verdict.error}", style="red")
        wrong = problem_units(verdict, by_unit)
        if verdict.error_spans:
            wrong.append("\n→ " + ", ".join(f'"{s}"' for s in verdict.error_spans))
        route = " ↻" * len(record.rounds)
        table.add_row(
            record.claim_id,
            units,
            Text(SHORT[verdict.status] + route, style=STYLE[verdict.status]),
            wrong,
            evidence,
        )
    return table


def problem_units(verdict: Verdict, by_unit: dict[str, Status]) -> Text:
    """The verdict's wrong components, each labelled 'wrong' (contradicted) or 'unverified'.

    ``wrong_components`` also lists units that merely lack evidence; they are not wrong.
    """
    text = Text(overflow="fold")
    for unit in verdict.wrong_components:
        status = by_unit.get(unit, verdict.status)
        if text:
            text.append("\n")
        if status is Status.CONTRADICTED:
            text.append("wrong ", style="bold red")
        else:
            text.append("unverified ", style="yellow")
        text.append(unit)
    return text


#: Unchecked pieces listed in the terminal; the rest are counted (JSON and HTML list all).
MAX_LISTED = 10


def _clip(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def unchecked_lines(report: Report) -> list[Text]:
    """What was not checked: how much failed, each failed chunk, each sentence without a fact."""
    lines = []
    failed = failure_summary(report)
    if failed:
        lines.append(Text(f"failed: {failed}", style="bold red"))
    items = [
        Text(
            f"chunk {c.chunk_index} (chars {c.span.start}–{c.span.end}) not decomposed: "
            f"{c.error.splitlines()[0] if c.error else ''}",
            style="red" if c.cause == "error" else "yellow",
        )
        for c in report.failed_chunks
    ] + [
        Text(
            f"not decomposed (no fact): chars {u.span.start}–{u.span.end} “{_clip(u.text)}”",
            style="yellow",
        )
        for u in report.undecomposed
    ]
    lines.extend(items[:MAX_LISTED])
    if len(items) > MAX_LISTED:
        lines.append(
            Text(f"… and {len(items) - MAX_LISTED} more unchecked (see --json or --html)", "dim")
        )
    return lines


def not_checkworthy_lines(report: Report) -> list[Text]:
    """The sentences set aside as not check-worthy: a count line, then each with its reason."""
    line = checkworthy_line(report)
    if line is None:
        return []
    lines = [Text(line, style="magenta")]
    for s in report.not_checkworthy[:MAX_LISTED]:
        lines.append(
            Text(
                f"  {s.label}: chars {s.span.start}–{s.span.end} “{_clip(s.text)}” ({s.reason})",
                style="dim",
            )
        )
    if len(report.not_checkworthy) > MAX_LISTED:
        more = len(report.not_checkworthy) - MAX_LISTED
        lines.append(Text(f"  … and {more} more (see --json or --html)", "dim"))
    return lines


def sentences_line(report: Report) -> Text:
    """The sentence-level view in one line: how many checked sentences got each verdict."""
    line = Text(f"sentences {len(report.sentences)}: ")
    for i, status in enumerate(s for s in Status if s is not Status.NOT_CHECKABLE):
        count = sum(1 for v in report.sentences if v.status is status)
        line.append(" · " if i else "")
        line.append(f"{count} {SHORT[status]}", style=STYLE[status])
    complex_ = sum(1 for v in report.sentences if v.route == "complex")
    if complex_:
        line.append(f" ({complex_} complex, judged element by element)", style="dim")
    return line


def element_lines(report: Report) -> list[Text]:
    """Each complex sentence with its verdict, then its element claims with theirs.

    An element claim left insufficient whose fact's unit verdict counts instead shows both.
    """
    lines = []
    for sentence in report.sentences:
        if not sentence.elements:
            continue
        line = Text(f"complex sentence “{_clip(sentence.text)}”: ")
        line.append(SHORT[sentence.status], style=STYLE[sentence.status])
        lines.append(line)
        for claim in sentence.elements:
            item = Text("  ")
            item.append(f"{SHORT[claim.status]:<13}", style=STYLE[claim.status])
            item.append(f" {claim.text}")
            if claim.judged is not claim.status:
                item.append(f" (element {SHORT[claim.judged]}; fact's unit counts)", style="dim")
            lines.append(item)
    return lines


#: What the companion scores on the line above it mean, in the words of ``core.verdicts.scoring``.
GLOSSARY = (
    "(shares of checkable facts: claim-level = all units supported, fact precision = judged "
    "supported, contradiction rate = judged contradicted; no-dedup = TriQuaScore counting "
    "repeated units; abstentions = facts left insufficient)"
)


def summary(report: Report) -> Group:
    """Scores, counts and costs under the table."""
    s = report.scores
    coverage: list[str | tuple[str, str]] = []
    measured = fmt_coverage(report)
    if measured is not None:
        coverage = [("  ·  coverage ", "bold"), (measured, "bold cyan")]
        coverage.append(" of the text" if report.coverage is not None else "")
    stop = stop_phrase(report)
    if stop:
        coverage.append((f" ({stop})", "bold yellow"))
    if report.extraction_recall is not None:
        coverage += ["  ·  facts span ", (fmt_score(report.extraction_recall), "bold cyan")]
        coverage.append(" of the check-worthy text")
    lines = [
        Text.assemble(
            ("TriQuaScore ", "bold"),
            (fmt_score(s.triqua_score), "bold cyan"),
            f"  ({s.units_supported}/{counted(s.units_total, 'unit')}; {s.units_raw} before dedup)",
            *coverage,
        ),
        Text(
            f"claim-level {fmt_score(s.claim_level_score)} · no-dedup {fmt_score(s.no_dedup_score)}"
            f" · fact precision {fmt_score(s.factscore_precision)}"
            f" · contradiction rate {fmt_score(s.contradiction_rate)}"
            f" · abstentions {s.abstentions}"
        ),
        Text(GLOSSARY, style="dim"),
        Text(
            f"facts {s.facts_total} · model calls {report.usage.model_calls}"
            f" · searches {report.usage.search_calls} · failures {report.failures}"
            f" · mode {report.spec.mode.value} · spec {report.spec.hash[:12]}",
            style="dim",
        ),
    ]
    if report.sentences:
        lines.append(sentences_line(report))
        lines.extend(element_lines(report))
    asked = coverage_line(report)
    if asked:
        lines.append(Text(asked, style="magenta"))
    lines.extend(unchecked_lines(report))
    lines.extend(not_checkworthy_lines(report))
    lines.extend(Text(note, style="italic") for note in report.notes)
    shown = {c.error for c in report.failed_chunks}  # listed above with their chunk
    lines.extend(
        Text(f"error: {error}", style="red") for error in report.errors if error not in shown
    )
    return Group(*lines)


#: Rows shown per mapping of the spec (the rest are counted): a snapshot may hash thousands
#: of documents, and ``--json`` has them all.
SPEC_ROWS_PER_FIELD = 20


def spec_table(spec: FactualitySpec) -> Table:
    """The run's frozen evidence contract, one row per field (nested policies flattened)."""
    table = Table(title=f"Spec {spec.hash[:12]}", show_header=False, title_justify="left")
    table.add_column("field", style="bold")
    table.add_column("value")

    def add(prefix: str, value: object) -> None:
        if isinstance(value, dict) and value:
            items = list(value.items())
            for key, inner in items[:SPEC_ROWS_PER_FIELD]:
                add(f"{prefix}.{key}" if prefix else key, inner)
            if len(items) > SPEC_ROWS_PER_FIELD:  # e.g. a snapshot of many documents
                table.add_row(f"{prefix}.…", f"{len(items) - SPEC_ROWS_PER_FIELD} more")
        else:
            shown = ", ".join(map(str, value)) if isinstance(value, list) else value
            table.add_row(prefix, "—" if shown in (None, "", {}) else str(shown))

    add("", spec.model_dump(mode="json", exclude={"hash"}))
    return table


class _Printable:
    """A renderable whose text segments carry no control characters (styles kept)."""

    def __init__(self, inner: RenderableType) -> None:
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.inner, options):
            if segment.control:  # the console's own cursor moves, not data
                yield segment
            else:
                yield Segment(printable_text(segment.text), segment.style)


def printable(renderable: RenderableType) -> RenderableType:
    """``renderable`` with every control character of its text shown as ``?`` (styles kept)."""
    return _Printable(renderable)


def print_report(report: Report, console: Console) -> None:
    """Print the facts table and the summary, with no control character from the data."""
    if report.records:
        console.print(_Printable(facts_table(report)))
    console.print(_Printable(summary(report)))
