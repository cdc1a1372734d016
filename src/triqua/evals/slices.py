"""Slices of an evaluation: its items broken down by status, route, qualifier label and mode.

One slicing for every ``triqua eval`` summary. A *dimension* names the slices an item belongs
to (one for status, route and decomposition mode; every normalised label of its qualifiers
for the qualifier-label dimension, so those slices overlap); a *metric* summarises the items
of one slice. :func:`slice_by` gives, per dimension, one row per slice (its size, its share
of all items and the metric), :func:`slice_lines` the Markdown tables of those rows.

The items and metrics of two evaluations are here too: checked facts (FActScore bios) and
judged facts (decomposition diagnostics); claim rows are sliced in ``claims_summary``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from triqua.core.verdicts.scoring import normalize
from triqua.evals.decomposition_judges import CRITERIA
from triqua.evals.decomposition_quality import JudgedFact, criterion_rates, kappas
from triqua.evals.report_format import fmt
from triqua.schema import Fact, Status

__all__ = [
    "DIMENSION_TITLES",
    "FACT_COLUMNS",
    "NO_FACT",
    "NO_QUALIFIER",
    "CheckedFact",
    "Dimension",
    "Metric",
    "fact_metric",
    "fact_slices",
    "judged_columns",
    "judged_metric",
    "judged_slices",
    "qualifier_labels",
    "share",
    "slice_by",
    "slice_lines",
]

T = TypeVar("T")
#: The slices an item belongs to along one dimension (none: the item is in no slice).
Dimension = Callable[[T], Iterable[str]]
#: A metric over the items of one slice: named numbers (None when undefined).
Metric = Callable[[Sequence[T]], dict[str, Any]]

#: The slice of facts (or rows) with no qualifier, along the qualifier-label dimension.
NO_QUALIFIER = "(no qualifier)"
#: The route of a claim row whose claim yielded no fact.
NO_FACT = "(no fact)"
#: How the tables name each dimension.
DIMENSION_TITLES = {
    "status": "verdict status",
    "gold": "gold label",
    "verdict": "triqua's verdict",
    "route": "route",
    "mode": "decomposition mode",
    "qualifier_label": "qualifier label",
}


def qualifier_labels(fact: Fact) -> tuple[str, ...]:
    """The fact's qualifier labels, normalised (case and punctuation ignored), each once."""
    labels = dict.fromkeys(normalize(q.label) or "(empty)" for q in fact.qualifiers)
    return tuple(labels) or (NO_QUALIFIER,)


def slice_by(
    items: Sequence[T],
    dimensions: Mapping[str, Dimension[T]],
    metric: Metric[T],
) -> dict[str, list[dict[str, Any]]]:
    """Per dimension, one row per slice: ``slice``, ``n``, ``share`` of all items, the metric.

    Rows run from the largest slice to the smallest (ties by name). An item may be in
    several slices of one dimension (qualifier labels), so shares need not sum to 1.
    """
    total = len(items)
    result: dict[str, list[dict[str, Any]]] = {}
    for name, members_of in dimensions.items():
        groups: dict[str, list[T]] = defaultdict(list)
        for item in items:
            for key in dict.fromkeys(members_of(item)):
                groups[key].append(item)
        ordered = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        result[name] = [
            {"slice": key, "n": len(group), "share": len(group) / total, **metric(group)}
            for key, group in ordered
        ]
    return result


def slice_lines(
    sliced: Mapping[str, list[dict[str, Any]]],
    columns: Sequence[tuple[str, str]],
    *,
    unit: str,
    top: int = 15,
) -> list[str]:
    """One Markdown table per dimension: slice, size, share and each ``(header, key)`` column.

    Only the ``top`` largest slices of a dimension are shown (the JSON keeps every slice).
    """
    lines: list[str] = []
    for name, rows in sliced.items():
        if not rows:
            continue
        title = DIMENSION_TITLES.get(name, name)
        headers = [title, unit, "share", *(header for header, _ in columns)]
        lines += [
            "| " + " | ".join(headers) + " |",
            "|" + " --- |" * len(headers),
        ]
        for row in rows[:top]:
            cells = [row["slice"], str(row["n"]), fmt(row["share"])]
            cells += [fmt(row.get(key)) for _, key in columns]
            lines.append("| " + " | ".join(cells) + " |")
        if len(rows) > top:
            lines.append(f"\n{len(rows) - top} smaller {title} slice(s) are in result.json.")
        lines.append("")
    return lines


def share(part: int, whole: int) -> float | None:
    """``part / whole``; None when ``whole`` is 0."""
    return part / whole if whole else None


@dataclass(frozen=True)
class CheckedFact:
    """One checked fact as the slices see it: its verdict, route, mode and labels."""

    status: str
    route: str
    mode: str
    labels: tuple[str, ...]
    reverified: bool = False


#: The slicing dimensions of checked facts.
FACT_DIMENSIONS: dict[str, Dimension[CheckedFact]] = {
    "status": lambda f: (f.status,),
    "route": lambda f: (f.route,),
    "mode": lambda f: (f.mode,),
    "qualifier_label": lambda f: f.labels,
}


def fact_metric(facts: Sequence[CheckedFact]) -> dict[str, Any]:
    """Verdict counts, precision (supported / checkable facts) and the re-verified share."""
    counts = {s.value: sum(f.status == s.value for f in facts) for s in Status}
    checkable = len(facts) - counts[Status.NOT_CHECKABLE.value]
    return {
        **counts,
        "precision": share(counts[Status.SUPPORTED.value], checkable),
        "contradicted_rate": share(counts[Status.CONTRADICTED.value], checkable),
        "abstained_rate": share(counts[Status.INSUFFICIENT.value], checkable),
        "reverified_rate": share(sum(f.reverified for f in facts), len(facts)),
    }


#: The columns of the checked-fact tables.
FACT_COLUMNS = (
    ("supported", Status.SUPPORTED.value),
    ("contradicted", Status.CONTRADICTED.value),
    ("insufficient", Status.INSUFFICIENT.value),
    ("not checkable", Status.NOT_CHECKABLE.value),
    ("precision", "precision"),
    ("re-verified", "reverified_rate"),
)


def fact_slices(facts: Sequence[CheckedFact]) -> dict[str, list[dict[str, Any]]]:
    """Checked facts sliced by verdict status, route, decomposition mode and qualifier label."""
    return slice_by(facts, FACT_DIMENSIONS, fact_metric)


_CRITERION_TITLES = {
    "entailed": "entailed",
    "decontextualised": "decontextualised",
    "qualifiers_ok": "qualifiers well used",
}


def judged_metric(judges: Sequence[str]) -> Metric[JudgedFact]:
    """A metric of judged facts: per criterion, facts judged and each judge's pass rate.

    With two judges, also their agreement and Cohen's κ (keys named as the headline's).
    """

    def metric(facts: Sequence[JudgedFact]) -> dict[str, Any]:
        rates = criterion_rates(facts, judges)
        out: dict[str, Any] = {}
        for criterion in CRITERIA:
            out[f"{criterion}_n"] = rates[criterion][judges[0]]["n"]
            out[f"{criterion}_rate"] = rates[criterion][judges[0]]["pass_rate"]
            if len(judges) >= 2:
                out[f"{criterion}_rate_judge2"] = rates[criterion][judges[1]]["pass_rate"]
        if len(judges) >= 2:
            agreement = kappas(facts, judges)
            for criterion in CRITERIA:
                out[f"{criterion}_agreement"] = agreement[criterion]["agreement"]
                out[f"{criterion}_kappa"] = agreement[criterion]["kappa"]
        return out

    return metric


def judged_columns(judges: Sequence[str]) -> list[tuple[str, str]]:
    """The columns of the judged-fact tables for ``judges`` (one or two)."""
    columns = []
    for criterion in CRITERIA:
        title = _CRITERION_TITLES[criterion]
        columns.append((f"{title} ({judges[0]})", f"{criterion}_rate"))
        if len(judges) >= 2:
            columns += [
                (f"{title} ({judges[1]})", f"{criterion}_rate_judge2"),
                (f"{title} agreement", f"{criterion}_agreement"),
                (f"{title} κ", f"{criterion}_kappa"),
            ]
    return columns


#: The slicing dimensions of judged facts (nothing is verified, so there is no status).
JUDGED_DIMENSIONS: dict[str, Dimension[JudgedFact]] = {
    "route": lambda f: (f.route,) if f.route else (),
    "mode": lambda f: (f.mode,),
    "qualifier_label": lambda f: qualifier_labels(f.fact),
}


def judged_slices(
    facts: Sequence[JudgedFact], judges: Sequence[str]
) -> dict[str, list[dict[str, Any]]]:
    """Judged facts by route, decomposition mode and qualifier label, rated per criterion."""
    return slice_by(facts, JUDGED_DIMENSIONS, judged_metric(judges))
