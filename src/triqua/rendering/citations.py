"""The citation check in the terminal: one row per claim with its sources and one verdict."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from triqua.rendering.terminal import SHORT, STYLE
from triqua.schema import Status

if TYPE_CHECKING:
    from triqua.schema import Report
    from triqua.schema.citations import CitationLink, CitationReport

__all__ = ["citations_table", "link_status"]


def link_status(link: CitationLink) -> str:
    """How one cited source, alone, stands to its claim: supports, contradicts, … unavailable."""
    if link.target is None:
        return "not in the source list"
    if not link.available:
        return f"unavailable ({link.reason})" if link.reason else "unavailable"
    if link.supports:
        return "supports"
    if link.contradicts:
        return "contradicts"
    return "insufficient"


def citations_table(report: Report, citations: CitationReport) -> Table:
    """One row per claim: its text, the sources it cites, its verdict and each link's status.

    The verdict is the claim's one judgement, the same as in the facts table.
    """
    table = Table(title="citations", show_lines=True, expand=True)
    table.add_column("#", no_wrap=True)
    table.add_column("claim", ratio=3)
    table.add_column("cited sources", ratio=2, overflow="fold")
    table.add_column("verdict", no_wrap=True)
    table.add_column("links", ratio=2, overflow="fold")
    claims = {c.claim_id: c for c in citations.claims}
    for record in report.records:
        claim = claims.get(record.claim_id)
        if claim is None:
            continue
        links = [link for link in citations.links if link.claim_id == record.claim_id]
        sources = "\n".join(f"[{link.key}] {link.target or '?'}" for link in links)
        statuses = "\n".join(f"[{link.key}] {link_status(link)}" for link in links)
        status = record.verdict.status
        support = f"\n({claim.support})" if claim.checkable and claim.keys else ""
        table.add_row(
            record.claim_id,
            record.fact.source_text or record.fact.to_string(),
            sources or Text("none", style="dim"),
            Text(SHORT[status] + support, style=STYLE[status]),
            statuses or Text("no citation" if status != Status.NOT_CHECKABLE else "", "dim"),
        )
    return table
