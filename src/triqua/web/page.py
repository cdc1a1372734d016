"""The check page's HTML: the form, the live progress, the compact fact list, error pages.

No scripts: the page is one streamed HTML response. Progress lines are appended as the graph
reports them, and the page's CSS shows only the newest one, at the top, so the first line is
on screen the moment the check starts. Once the check ends, the result is one line per fact
(its verdict, the fact, the part that is wrong) and the full report, the same as ``--html``,
is folded underneath; a fact's link opens it there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from triqua.rendering.html import html_page, report_body
from triqua.rendering.html.markup import STATUS_LABEL, esc, pct
from triqua.schema import Report, Status
from triqua.support.wording import counted

__all__ = ["Progress", "error_page", "form_html", "form_page", "result_html"]

_STYLE = (
    "<style>form.check textarea{width:100%;font:inherit}form.check label{display:block;"
    "margin-top:10px;font-weight:600}.error{color:var(--bad);font-weight:600}"
    "#live{display:flex;flex-direction:column}#live h2{order:-2}"
    "#live p.step{order:-1;margin:0 0 10px}#live p.step:not(:last-of-type){display:none}"
    "#live progress,#result progress{width:260px;vertical-align:middle;margin-right:8px}"
    ".compact{list-style:none;padding:0;margin:0}"
    ".compact li,#live .line{padding:3px 0;border-bottom:1px solid var(--line);line-height:1.45}"
    ".compact .badge,#live .badge{display:inline-block;min-width:9.5em;text-align:center}"
    ".compact .fid{display:inline-block;min-width:3.5em}"
    ".compact .wrong{color:var(--bad)}.compact .unverified{color:var(--unk)}"
    "#full>summary{cursor:pointer;font-weight:600;margin-top:24px}</style>"
)
_LABEL_BY_VALUE = {status.value: label for status, label in STATUS_LABEL.items()}


def form_html(token: str, fields: dict[str, str] | None = None) -> str:
    """The check form carrying the page ``token``, filled with ``fields`` (escaped) when given."""
    given = fields or {}

    def value(name: str) -> str:
        return esc(given.get(name, ""))

    return (
        _STYLE
        + '<form class="check" method="post" action="/check">'
        + f'<input type="hidden" name="token" value="{esc(token)}">'
        + '<label for="text">Text to check</label>'
        + f'<textarea id="text" name="text" rows="8" required>{value("text")}</textarea>'
        + '<label for="question">Question it answers (optional)</label>'
        + f'<textarea id="question" name="question" rows="1">{value("question")}</textarea>'
        + '<label for="evidence">Evidence documents (optional; a line "---" between two)</label>'
        + f'<textarea id="evidence" name="evidence" rows="6">{value("evidence")}</textarea>'
        + '<label for="collection">or a Chroma collection to search (optional)</label>'
        + f'<input id="collection" name="collection" value="{value("collection")}">'
        + '<p><button type="submit">Check</button></p></form>'
    )


def form_page(token: str) -> str:
    """The start page: the empty form."""
    return html_page("triqua", "<h1>triqua</h1>" + form_html(token))


def error_page(message: str, form: str = "") -> str:
    """A page that says ``error: message`` (escaped), then ``form`` (HTML) when given."""
    return html_page("triqua", f'{_STYLE}<p class="error">error: {esc(message)}</p>{form}')


def _badge(status: str) -> str:
    return f'<span class="badge {esc(status)}">{esc(_LABEL_BY_VALUE.get(status, status))}</span>'


def _step(text: str, done: int | None = None, total: int | None = None) -> str:
    bar = (
        f'<progress value="{done}" max="{total}"></progress>' if total else "<progress></progress>"
    )
    return f'<p class="step">{bar}{esc(text)}</p>'


@dataclass
class Progress:
    """The live part of the page, folded from the graph's stream events.

    Each call returns the HTML to append: a new progress line, and for a verified fact its
    line in the live list.
    """

    chunks: int = 0
    found: int = 0
    facts: int | None = None
    verified: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    def start(self) -> str:
        """The live section's opening and its first line, sent before the check starts."""
        return '<section id="live"><h2>Checking…</h2>' + _step(
            "Started: reading the text and finding its facts…"
        )

    def update(self, event: dict[str, Any]) -> str:
        """The HTML one stream event adds (empty for events the page does not show)."""
        name = event.get("event")
        if name == "chunk_decomposed":
            self.chunks += 1
            self.found += int(event.get("facts") or 0)
            parts = counted(self.chunks, "part")
            found = counted(self.found, "fact")
            return _step(f"Finding facts: {parts} of the text read, {found} so far…")
        if name == "facts_found":
            self.facts = int(event.get("facts") or 0)
            facts = counted(self.facts, "fact")
            return _step(f"Verifying {facts} against the evidence…", 0, self.facts)
        if name == "fact_verified":
            self.verified += 1
            status = str(event.get("status", ""))
            self.counts[status] = self.counts.get(status, 0) + 1
            done = (
                f"{self.verified} of {counted(self.facts, 'fact')}"
                if self.facts
                else counted(self.verified, "fact")
            )
            line = f'<div class="line">{_badge(status)} {esc(event.get("claim", ""))}</div>'
            return _step(f"Verified {done}…", self.verified, self.facts) + line
        if name == "scored":
            return _step("Scored; writing the report…", 1, 1)
        return ""


def _fact_line(record: Any) -> str:
    verdict = record.verdict
    status: Status = verdict.status
    note = ""
    if verdict.wrong_components:
        cls, label = (
            ("wrong", "wrong") if status is Status.CONTRADICTED else ("unverified", "unverified")
        )
        note = f' <span class="{cls}">— {label}: {esc(", ".join(verdict.wrong_components))}</span>'
    if verdict.error:
        note += f' <span class="wrong">— error: {esc(verdict.error)}</span>'
    return (
        f'<li class="status-{status.value}">{_badge(status.value)} '
        f'<a class="fid" href="#{esc(record.claim_id)}">{esc(record.claim_id)}</a> '
        f"{esc(record.claim_text)}{note}</li>"
    )


def result_html(report: Report) -> str:
    """The end of the page: the score, one line per fact, the full report folded underneath.

    It also hides the live list, whose lines the compact list replaces with final verdicts.
    """
    counts = report.scores.facts_by_status
    tally = ", ".join(
        f"{counts[s.value]} {STATUS_LABEL[s]}" for s in Status if counts.get(s.value, 0)
    )
    head = f"TriQuaScore {pct(report.scores.triqua_score)}" + (f" · {tally}" if tally else "")
    lines = "".join(_fact_line(record) for record in report.records)
    facts = f'<ol class="compact">{lines}</ol>' if lines else '<p class="meta">No facts found.</p>'
    return (
        "<style>#live{display:none}</style>"
        f'<section id="result"><h2>Result</h2><p><strong>{esc(head)}</strong></p>'
        f"<h3>Facts ({len(report.records)})</h3>{facts}</section>"
        '<details id="full"><summary>Full report (the same as --html): scores, sentences, '
        "every fact with its evidence</summary>"
        f'<section id="report">{report_body(report)}</section></details>'
    )
