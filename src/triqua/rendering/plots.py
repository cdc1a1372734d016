"""Small SVG charts for the HTML report, returned as strings.

Hand-written SVG instead of a plotting library: a dependency-free inline SVG keeps the report
one self-contained page (no image files, no scripts, no fonts to fetch), and the two charts
it needs (stacked bars, a risk–coverage line) are a few dozen shapes each.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

__all__ = ["risk_coverage_plot", "stacked_bars"]

_FONT = 'font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif"'


def _fmt(value: float) -> str:
    """A coordinate with at most one decimal (keeps the markup short and stable)."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _empty(width: int, height: int, title: str, message: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" {_FONT}>'
        f'<text x="{width // 2}" y="{height // 2}" text-anchor="middle" font-size="13" '
        f'fill="#666">{escape(message)}</text></svg>'
    )


def stacked_bars(
    labels: Sequence[str],
    series: Sequence[tuple[str, str, Sequence[int]]],
    *,
    title: str,
    width: int = 640,
) -> str:
    """Horizontal stacked bars: one bar per label, one coloured segment per series.

    Args:
        labels: Bar labels, top to bottom.
        series: ``(name, css colour, one count per label)`` per segment kind, in stack order.
        title: Accessible name of the chart.
        width: Width of the chart in pixels.

    Raises:
        ValueError: when a series does not have one value per label, or a value is negative.
    """
    for name, _colour, values in series:
        if len(values) != len(labels):
            raise ValueError(f"series {name!r} has {len(values)} values for {len(labels)} bars")
        if any(v < 0 for v in values):
            raise ValueError(f"series {name!r} has a negative value")
    if not labels:
        return _empty(width, 60, title, "no facts to chart")
    row, left, right = 22, 64, 24
    legend, x, y = [], 8.0, 8
    for name, colour, _values in series:
        step = 26 + 6.8 * len(name)  # a generous estimate of the label's width at 12px
        if x + step > width and x > 8:
            x, y = 8.0, y + 18
        legend.append(
            f'<rect x="{_fmt(x)}" y="{y}" width="12" height="12" rx="2" fill="{escape(colour)}"/>'
            f'<text x="{_fmt(x + 17)}" y="{y + 10}" font-size="12" fill="#333">'
            f"{escape(name)}</text>"
        )
        x += step
    top = y + 26
    height = top + row * len(labels) + 28
    totals = [sum(values[i] for _, _, values in series) for i in range(len(labels))]
    peak = max(max(totals), 1)
    scale = (width - left - right) / peak
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" {_FONT}>',
        f"<title>{escape(title)}</title>",
        *legend,
    ]
    step = max(1, -(-peak // 8))  # about eight integer ticks at most
    for tick in range(0, peak + 1, step):
        tx = left + tick * scale
        parts.append(
            f'<line x1="{_fmt(tx)}" y1="{top - 4}" x2="{_fmt(tx)}" y2="{height - 24}" '
            f'stroke="#e3e3e3"/><text x="{_fmt(tx)}" y="{height - 10}" font-size="11" '
            f'text-anchor="middle" fill="#666">{tick}</text>'
        )
    for i, label in enumerate(labels):
        y = top + i * row
        parts.append(
            f'<text x="{left - 8}" y="{y + 15}" font-size="12" text-anchor="end" '
            f'fill="#333">{escape(label)}</text>'
        )
        x = float(left)
        for name, colour, values in series:
            if values[i] == 0:
                continue
            w = values[i] * scale
            parts.append(
                f'<rect x="{_fmt(x)}" y="{y + 3}" width="{_fmt(w)}" height="{row - 6}" '
                f'fill="{escape(colour)}"><title>{escape(label)}: {values[i]} '
                f"{escape(name)}</title></rect>"
            )
            x += w
    parts.append("</svg>")
    return "".join(parts)


def risk_coverage_plot(
    points: Sequence[tuple[float, float]],
    *,
    title: str,
    y_label: str = "risk",
    width: int = 420,
    height: int = 300,
) -> str:
    """A risk–coverage line: coverage (0–1) across, risk (0–1) up, one marker per point.

    Args:
        points: ``(coverage, risk)`` pairs; they are drawn in order of coverage.
        title: Accessible name of the chart.
        y_label: What the vertical axis measures.
        width: Width of the chart in pixels.
        height: Height of the chart in pixels.

    Raises:
        ValueError: when a coordinate lies outside 0–1.
    """
    if any(not (0.0 <= c <= 1.0 and 0.0 <= r <= 1.0) for c, r in points):
        raise ValueError("coverage and risk must lie between 0 and 1")
    if not points:
        return _empty(width, height, title, "no verdicts to plot")
    left, right, top, bottom = 52, 16, 16, 44
    plot_w, plot_h = width - left - right, height - top - bottom

    def at(coverage: float, risk: float) -> tuple[float, float]:
        return left + coverage * plot_w, top + (1.0 - risk) * plot_h

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" {_FONT}>',
        f"<title>{escape(title)}</title>",
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        gx, gy = at(tick, tick)
        parts.append(
            f'<line x1="{left}" y1="{_fmt(gy)}" x2="{left + plot_w}" y2="{_fmt(gy)}" '
            f'stroke="#e3e3e3"/><line x1="{_fmt(gx)}" y1="{top}" x2="{_fmt(gx)}" '
            f'y2="{top + plot_h}" stroke="#e3e3e3"/>'
            f'<text x="{left - 6}" y="{_fmt(gy + 4)}" font-size="11" text-anchor="end" '
            f'fill="#666">{tick:g}</text><text x="{_fmt(gx)}" y="{top + plot_h + 16}" '
            f'font-size="11" text-anchor="middle" fill="#666">{tick:g}</text>'
        )
    parts.append(
        f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" '
        f'stroke="#999"/><text x="{left + plot_w / 2:.0f}" y="{height - 6}" font-size="12" '
        f'text-anchor="middle" fill="#333">coverage</text>'
        f'<text x="14" y="{top + plot_h / 2:.0f}" font-size="12" text-anchor="middle" '
        f'fill="#333" transform="rotate(-90 14 {top + plot_h / 2:.0f})">{escape(y_label)}</text>'
    )
    ordered = sorted(points)
    coords = [at(c, r) for c, r in ordered]
    parts.append(
        '<polyline fill="none" stroke="#1565c0" stroke-width="2" points="'
        + " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in coords)
        + '"/>'
    )
    for (c, r), (x, y) in zip(ordered, coords, strict=True):
        parts.append(
            f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="3.5" fill="#1565c0">'
            f"<title>coverage {c:.2f}, {escape(y_label)} {r:.2f}</title></circle>"
        )
    parts.append("</svg>")
    return "".join(parts)
