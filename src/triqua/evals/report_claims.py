"""The write-up of a claim-verification evaluation: metric tables, confusion and calibration."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from triqua.evals.claims import ClaimOutcome
from triqua.evals.claims_data import LABELS
from triqua.evals.claims_summary import (
    BINARY_LABELS,
    CLAIM_COLUMNS,
    claim_slices,
    summarize_claims,
)
from triqua.evals.data import DataStamp
from triqua.evals.plots import calibration_svg, confusion_svg
from triqua.evals.report_format import (
    COST_KEYS,
    RunOutput,
    calibration_lines,
    cost_line,
    fmt,
    offline_note,
    stamped,
)
from triqua.evals.setup import EvalSetup, runs_summary
from triqua.evals.slices import slice_lines
from triqua.schema import Usage

__all__ = ["claims_output"]


#: The two systems compared, with their titles in tables and plots.
_SYSTEMS = {
    "triqua": "triqua (decompose → verify → aggregate)",
    "direct": "direct (whole claim as one fact)",
}


def claims_output(
    outcomes: Sequence[ClaimOutcome],
    *,
    setup: EvalSetup,
    usage: Usage,
    data: list[DataStamp],
    options: dict[str, Any],
) -> RunOutput:
    """The stamped run of a claim-verification evaluation, with both confusion matrices."""
    summary = summarize_claims(outcomes)
    notes = offline_note(setup)
    sliced = claim_slices(outcomes)
    details = {"summary": summary, "slices": sliced, "rows": [o.model_dump() for o in outcomes]}
    runs = runs_summary([o.stamp_settings for o in outcomes])
    headline = _headline(summary)
    run, lines = stamped("claims", setup, data, options, headline, usage, notes, details, runs)
    lines += _class_lines(summary)
    lines += _binary_and_coverage_lines(summary)
    lines += _partial_and_slice_lines(summary, sliced)
    files, images = _plots(summary)
    lines += images
    return RunOutput(run, "\n".join(lines) + "\n", files)


def _headline(summary: dict[str, Any]) -> dict[str, float | int | None]:
    """The headline figures: rows, each system's metrics, coverage and calibration, cost."""
    systems = summary["systems"]
    headline: dict[str, float | int | None] = {
        "rows": summary["rows"],
        "three_way_rows": summary["three_way_rows"],
        "errors": summary["errors"],
    }
    for system in ("triqua", "direct"):
        report = systems[system]
        for key in ("macro_f1", "balanced_accuracy", "accuracy"):
            headline[f"{system}_{key}"] = report[key]
        for label in LABELS:
            headline[f"{system}_f1_{label}"] = report["per_class"][label]["f1"]
        binary = summary["binary"][system]
        headline[f"{system}_binary_f1_supported"] = binary["per_class"]["supported"]["f1"]
        headline[f"{system}_binary_balanced_accuracy"] = binary["balanced_accuracy"]
        covered = summary["coverage"][system]
        headline[f"{system}_coverage"] = covered["coverage"]
        headline[f"{system}_covered_balanced_accuracy"] = covered["balanced_accuracy"]
        headline[f"{system}_overall"] = covered["overall"]
        definite = summary["definite_coverage"][system]
        headline[f"{system}_definite_coverage"] = definite["coverage"]
        headline[f"{system}_definite_overall"] = definite["overall"]
        headline[f"{system}_ece"] = summary["calibration"][system]["ece"]
    headline["partial_between_share"] = summary["partial"]["between_share"]
    for key in COST_KEYS:
        headline[key] = summary["cost"][key]
    return headline


def _class_lines(summary: dict[str, Any]) -> list[str]:
    """The rows and cost, then the 3-way metrics of each system and their per-class table."""
    systems = summary["systems"]
    lines = [
        f"Rows: {summary['rows']} ({summary['three_way_rows']} in the 3-way metrics, "
        f"{summary['partial']['rows']} partial, {summary['errors']} failed); gold counts "
        f"{summary['gold_counts']}. Facts per claim: {fmt(summary['facts_per_claim'], 2)}; "
        f"claims with no fact: {summary['claims_without_facts']}.",
        "",
        cost_line(summary["cost"], "not run offline: one passage per row, nothing new to search"),
        "",
        "| system | macro F1 | balanced acc. | accuracy | "
        + " | ".join(f"F1 {label}" for label in LABELS)
        + " |",
        "| --- | --- | --- | --- | " + " | ".join("---" for _ in LABELS) + " |",
    ]
    for system, title in _SYSTEMS.items():
        r = systems[system]
        per = " | ".join(fmt(r["per_class"][label]["f1"]) for label in LABELS)
        lines.append(
            f"| {title} | {fmt(r['macro_f1'])} | {fmt(r['balanced_accuracy'])} | "
            f"{fmt(r['accuracy'])} | {per} |"
        )
    lines += ["", "Per class (precision / recall / support):", ""]
    lines += ["| system | " + " | ".join(LABELS) + " |", "| --- |" + " --- |" * len(LABELS)]
    for system, title in _SYSTEMS.items():
        cells = [
            f"{fmt(c['precision'])} / {fmt(c['recall'])} / {c['support']}"
            for c in (systems[system]["per_class"][label] for label in LABELS)
        ]
        lines.append(f"| {title} | " + " | ".join(cells) + " |")
    return lines


def _binary_and_coverage_lines(summary: dict[str, Any]) -> list[str]:
    """The binary view, ElementCheck's Coverage and Overall, and each system's calibration."""
    lines = [
        "",
        f"Binary view, supported vs not ({summary['binary_rows']} rows; partial rows count as "
        "not supported):",
        "",
        "| system | F1 supported | F1 not supported | balanced acc. | accuracy | matrix |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for system, title in _SYSTEMS.items():
        b = summary["binary"][system]
        f1s = [b["per_class"][label]["f1"] for label in BINARY_LABELS]
        lines.append(
            f"| {title} | {fmt(f1s[0])} | {fmt(f1s[1])} | {fmt(b['balanced_accuracy'])} | "
            f"{fmt(b['accuracy'])} | {b['confusion_matrix']} |"
        )
    lines += [
        "",
        "ElementCheck's Coverage (share of all rows where the system had a fact to "
        "check), balanced accuracy over those covered rows (supported vs not supported), "
        "and Overall = Coverage × balanced accuracy; then the selective view (share of "
        "rows with gold supported or contradicted given a definite verdict, insufficient "
        "evidence abstaining):",
        "",
        "| system | rows | covered | Coverage | balanced acc. (covered) | Overall "
        "| definite Coverage | definite Overall |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for system, title in _SYSTEMS.items():
        c = summary["coverage"][system]
        d = summary["definite_coverage"][system]
        lines.append(
            f"| {title} | {c['n']} | {c['covered']} | {fmt(c['coverage'])} | "
            f"{fmt(c['balanced_accuracy'])} | {fmt(c['overall'])} | "
            f"{fmt(d['coverage'])} | {fmt(d['overall'])} |"
        )
    for system, title in _SYSTEMS.items():
        lines += ["", *calibration_lines(title, summary["calibration"][system])]
    return lines


def _partial_and_slice_lines(summary: dict[str, Any], sliced: dict[str, Any]) -> list[str]:
    """What the systems said of partially supported claims, then the slices of the rows."""
    lines = []
    partial = summary["partial"]
    if partial["rows"]:
        bands = partial["triqua_score_bands"]
        lines += [
            "",
            f"Partially supported claims ({partial['rows']}): triqua "
            f"{partial['triqua']}, direct {partial['direct']}. TriQuaScore strictly between "
            f"0 and 1 on {fmt(partial['between_share'])} of them (bands {bands}).",
        ]
    lines += [
        "",
        "Slices of the rows that did not fail (accuracy over rows with a 3-way gold; by gold "
        "label it is recall, by triqua's verdict triqua's precision; a row is in the slice of "
        "each qualifier label of triqua's facts; route complex when any fact took the "
        "element-level route):",
        "",
        *slice_lines(sliced, CLAIM_COLUMNS, unit="rows"),
    ]
    return lines


def _plots(summary: dict[str, Any]) -> tuple[dict[str, str], list[str]]:
    """Each system's confusion matrix and calibration plot, and the lines showing them."""
    systems = summary["systems"]
    files = {}
    lines = []
    for system, title in _SYSTEMS.items():
        file = f"confusion-{system}.svg"
        files[file] = confusion_svg(systems[system]["confusion_matrix"], list(LABELS), title=title)
        lines.append(f"\n![{title}]({file})")
    for system, title in _SYSTEMS.items():
        table = summary["calibration"][system]
        if not table["n"]:
            continue
        file = f"calibration-{system}.svg"
        files[file] = calibration_svg(
            table["bins"],
            title=f"Calibration: {title}",
            subtitle=f"n={table['n']}, ECE {fmt(table['ece'])}",
        )
        lines.append(f"\n![Calibration: {title}]({file})")
    return files, lines
