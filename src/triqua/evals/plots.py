"""SVG figures of evaluation results: scatter of predicted vs gold, confusion matrix, calibration.

Hand-written SVG rather than a plotting library: the figures are a few dozen shapes, and a
plain SVG file needs no dependency, renders on GitHub and diffs as text.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

__all__ = ["calibration_svg", "confusion_svg", "scatter_svg"]

_FONT = 'font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif"'


def _n(value: float) -> str:
    """A coordinate with at most one decimal (short, stable markup)."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _open(width: int, height: int, title: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" {_FONT}>',
        f'<rect width="{width}" height="{height}" fill="#fff"/>',
        f'<text x="{width / 2:.0f}" y="20" text-anchor="middle" font-size="14" '
        f'font-weight="600">{escape(title)}</text>',
    ]


def scatter_svg(
    points: Sequence[tuple[float, float]],
    *,
    title: str,
    x_label: str,
    y_label: str,
    subtitles: Sequence[str] = (),
    size: int = 420,
) -> str:
    """A scatter of ``(x, y)`` points in [0, 1] x [0, 1] with the diagonal ``y = x``.

    ``subtitles`` are short lines under the title (engine, evidence, correlation).

    Raises:
        ValueError: when a coordinate lies outside [0, 1].
    """
    for x, y in points:
        if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
            raise ValueError(f"point ({x}, {y}) is outside the unit square")
    left, top, right, bottom = 56, 32 + 14 * len(subtitles), 16, 48
    plot = size - left - right
    height = top + plot + bottom

    def at(x: float, y: float) -> tuple[str, str]:
        return _n(left + x * plot), _n(top + (1 - y) * plot)

    parts = _open(size, height, title)
    for i, line in enumerate(subtitles):
        parts.append(
            f'<text x="{size / 2:.0f}" y="{36 + 14 * i}" text-anchor="middle" font-size="11" '
            f'fill="#555">{escape(line)}</text>'
        )
    parts.append(
        f'<rect x="{left}" y="{top}" width="{plot}" height="{plot}" fill="none" stroke="#999"/>'
    )
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        tx, _ = at(tick, 0)
        _, ty = at(0, tick)
        label = f"{tick * 100:.0f}"
        parts.append(
            f'<text x="{tx}" y="{top + plot + 16}" text-anchor="middle" font-size="11">'
            f"{label}</text>"
        )
        parts.append(
            f'<text x="{left - 6}" y="{ty}" text-anchor="end" dominant-baseline="middle" '
            f'font-size="11">{label}</text>'
        )
    x0, y0 = at(0, 0)
    x1, y1 = at(1, 1)
    parts.append(
        f'<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="#bbb" stroke-dasharray="4 4"/>'
    )
    for x, y in points:
        cx, cy = at(x, y)
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="3" fill="#2563eb" fill-opacity="0.55"/>')
    parts.append(
        f'<text x="{left + plot / 2:.0f}" y="{height - 12}" text-anchor="middle" '
        f'font-size="12">{escape(x_label)}</text>'
    )
    mid = top + plot / 2
    parts.append(
        f'<text x="14" y="{mid:.0f}" text-anchor="middle" font-size="12" '
        f'transform="rotate(-90 14 {mid:.0f})">{escape(y_label)}</text>'
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def confusion_svg(
    matrix: Sequence[Sequence[int]],
    labels: Sequence[str],
    *,
    title: str,
    cell: int = 64,
) -> str:
    """A confusion matrix (rows gold, columns predicted) with counts, shaded by row share.

    Raises:
        ValueError: when the matrix is not square with one row per label.
    """
    if len(matrix) != len(labels) or any(len(row) != len(labels) for row in matrix):
        raise ValueError("the matrix needs one row and one column per label")
    short = [label.replace("insufficient_evidence", "insufficient") for label in labels]
    left, top = 110, 70
    width = left + cell * len(labels) + 16
    height = top + cell * len(labels) + 16
    parts = _open(width, height, title)
    parts.append(
        f'<text x="{left + cell * len(labels) / 2:.0f}" y="40" text-anchor="middle" '
        'font-size="11" fill="#555">predicted</text>'
    )
    for j, label in enumerate(short):
        parts.append(
            f'<text x="{left + cell * j + cell / 2:.0f}" y="{top - 8}" text-anchor="middle" '
            f'font-size="11">{escape(label)}</text>'
        )
    for i, row in enumerate(matrix):
        total = sum(row)
        y = top + cell * i
        parts.append(
            f'<text x="{left - 6}" y="{y + cell / 2:.0f}" text-anchor="end" '
            f'dominant-baseline="middle" font-size="11">{escape(short[i])}</text>'
        )
        for j, count in enumerate(row):
            share = count / total if total else 0.0
            x = left + cell * j
            colour = "#fff" if share > 0.55 else "#111"
            parts.append(
                f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#2563eb" '
                f'fill-opacity="{share:.2f}" stroke="#ccc"/>'
            )
            parts.append(
                f'<text x="{x + cell / 2:.0f}" y="{y + cell / 2:.0f}" text-anchor="middle" '
                f'dominant-baseline="middle" font-size="13" fill="{colour}">{count}</text>'
            )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def calibration_svg(
    bins: Sequence[dict[str, Any]],
    *,
    title: str,
    subtitle: str = "",
    size: int = 420,
) -> str:
    """A reliability diagram: accuracy per confidence bin as bars, the diagonal as reference.

    ``bins`` are :func:`triqua.evals.stats.calibration_table` rows (``lower``, ``upper``,
    ``count``, ``accuracy``); an empty bin draws no bar. Each bar is labelled with its
    count, and a dot marks the bin's mean confidence at the height it should reach.
    """
    left, top, right, bottom = 56, 32 + (14 if subtitle else 0), 16, 48
    plot = size - left - right
    height = top + plot + bottom

    def at(x: float, y: float) -> tuple[float, float]:
        return left + x * plot, top + (1 - y) * plot

    parts = _open(size, height, title)
    if subtitle:
        parts.append(
            f'<text x="{size / 2:.0f}" y="36" text-anchor="middle" font-size="11" '
            f'fill="#555">{escape(subtitle)}</text>'
        )
    parts.append(
        f'<rect x="{left}" y="{top}" width="{plot}" height="{plot}" fill="none" stroke="#999"/>'
    )
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        tx, _ = at(tick, 0)
        _, ty = at(0, tick)
        parts.append(
            f'<text x="{_n(tx)}" y="{top + plot + 16}" text-anchor="middle" font-size="11">'
            f"{tick:.2f}</text>"
        )
        parts.append(
            f'<text x="{left - 6}" y="{_n(ty)}" text-anchor="end" dominant-baseline="middle" '
            f'font-size="11">{tick:.2f}</text>'
        )
    x0, y0 = at(0, 0)
    x1, y1 = at(1, 1)
    parts.append(
        f'<line x1="{_n(x0)}" y1="{_n(y0)}" x2="{_n(x1)}" y2="{_n(y1)}" stroke="#bbb" '
        'stroke-dasharray="4 4"/>'
    )
    for row in bins:
        if not row["count"] or row["accuracy"] is None:
            continue
        bx, by = at(float(row["lower"]), float(row["accuracy"]))
        bar_width = (float(row["upper"]) - float(row["lower"])) * plot
        parts.append(
            f'<rect x="{_n(bx + 1)}" y="{_n(by)}" width="{_n(bar_width - 2)}" '
            f'height="{_n(top + plot - by)}" fill="#2563eb" fill-opacity="0.55"/>'
        )
        if row.get("mean_confidence") is not None:
            cx, cy = at(float(row["mean_confidence"]), float(row["mean_confidence"]))
            parts.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="2.5" fill="#111"/>')
        parts.append(
            f'<text x="{_n(bx + bar_width / 2)}" y="{_n(max(by - 4, top + 10))}" '
            f'text-anchor="middle" font-size="10">{row["count"]}</text>'
        )
    parts.append(
        f'<text x="{left + plot / 2:.0f}" y="{height - 12}" text-anchor="middle" '
        'font-size="12">confidence</text>'
    )
    mid = top + plot / 2
    parts.append(
        f'<text x="14" y="{mid:.0f}" text-anchor="middle" font-size="12" '
        f'transform="rotate(-90 14 {mid:.0f})">accuracy (share correct)</text>'
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
