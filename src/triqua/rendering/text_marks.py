"""The checked text with each fact's source span marked by its verdict, for ``triqua show``.

A reader sees at a glance which parts of the text were supported, contradicted or left
unverified, and which fact ids came from where; text no fact came from stays plain.
"""

from __future__ import annotations

from rich.text import Text

from triqua.rendering.terminal import STYLE
from triqua.schema import ClaimRecord, Status

#: When facts of one span disagree, the span shows the worst of them.
_SEVERITY = {
    Status.CONTRADICTED: 3,
    Status.INSUFFICIENT: 2,
    Status.NOT_CHECKABLE: 1,
    Status.SUPPORTED: 0,
}


def marked_text(text: str, records: list[ClaimRecord]) -> Text:
    """``text`` with every fact's span styled by its verdict and followed by ``[ids]``.

    Facts of one sentence share a span: the span is marked once, in the colour of its worst
    verdict, with all their ids. Spans outside the text (a stale report) are ignored.
    """
    by_span: dict[tuple[int, int], list[ClaimRecord]] = {}
    for record in records:
        span = record.fact.span
        if span is not None and 0 <= span.start < span.end <= len(text):
            by_span.setdefault((span.start, span.end), []).append(record)
    out = Text()
    cursor = 0
    for (start, end), group in sorted(by_span.items()):
        if start < cursor:  # overlaps a span already marked: mark only what is new
            start = cursor
            if start >= end:
                continue
        out.append(text[cursor:start])
        worst = max((r.verdict.status for r in group), key=lambda s: _SEVERITY[s])
        out.append(text[start:end], style=f"underline {STYLE[worst]}")
        out.append(f"[{','.join(r.claim_id for r in group)}]", style=f"bold {STYLE[worst]}")
        cursor = end
    out.append(text[cursor:])
    return out
