"""Decomposition-quality parts of the diagnostics report: headline, tables, per-fact file."""

from __future__ import annotations

import json
from typing import Any

from triqua.evals.decomposition_judges import CRITERIA
from triqua.evals.decomposition_quality import JudgedTexts

__all__ = ["JUDGED_FACTS_FILE", "judged_facts_jsonl", "quality_headline", "quality_lines"]

JUDGED_FACTS_FILE = "judged-facts.jsonl"

_TITLES = {
    "entailed": "entailed by source",
    "decontextualised": "decontextualised",
    "qualifiers_ok": "qualifiers well used",
}


def _f(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def quality_headline(summary: dict[str, Any]) -> dict[str, float | int | None]:
    """Pass rate per criterion (first judge; ``_judge2`` for the second) and κ per criterion."""
    judges = summary["judges"]
    headline: dict[str, float | int | None] = {"judge_errors": summary["errors"]}
    for criterion in CRITERIA:
        rates = summary["criteria"][criterion]
        headline[f"{criterion}_rate"] = rates[judges[0]]["pass_rate"]
        if len(judges) >= 2:
            headline[f"{criterion}_rate_judge2"] = rates[judges[1]]["pass_rate"]
            headline[f"{criterion}_kappa"] = summary["kappa"][criterion]["kappa"]
    return headline


def _cells(rates: dict[str, Any], judges: list[str]) -> str:
    """One table cell per criterion: each judge's pass rate, 'A / B' with two judges."""
    return " | ".join(
        " / ".join(_f(rates[c][j]["pass_rate"]) for j in judges)
        + f" (n={rates[c][judges[0]]['n']})"
        for c in CRITERIA
    )


def quality_lines(summary: dict[str, Any], note: str) -> list[str]:
    """Markdown tables: per criterion (with κ), per decomposition mode, per qualifier label."""
    judges = summary["judges"]
    names = " / ".join(judges)
    header = " | ".join(_TITLES[c] for c in CRITERIA)
    lines = [
        f"Decomposition quality (TriQua §4.2), pass rates by {names}. {note} Qualifier use is "
        "rated over facts with qualifiers.",
        "",
        "| criterion | "
        + " | ".join(f"pass rate ({j})" for j in judges)
        + " | facts judged |"
        + (" Cohen's κ | agreement |" if len(judges) >= 2 else ""),
        "| --- |" + " --- |" * (len(judges) + 1) + (" --- | --- |" if len(judges) >= 2 else ""),
    ]
    for criterion in CRITERIA:
        rates = summary["criteria"][criterion]
        row = f"| {_TITLES[criterion]} | " + " | ".join(_f(rates[j]["pass_rate"]) for j in judges)
        row += f" | {rates[judges[0]]['n']} |"
        if len(judges) >= 2:
            kappa = summary["kappa"][criterion]
            row += f" {_f(kappa['kappa'])} | {_f(kappa['agreement'])} |"
        lines.append(row)
    lines += [
        "",
        f"| decomposition mode | facts | {header} |",
        "| --- | --- |" + " --- |" * len(CRITERIA),
    ]
    for mode, row in summary["by_mode"].items():
        lines.append(f"| {mode} | {row['facts']} | {_cells(row['criteria'], judges)} |")
    if summary["by_label"]:
        lines += [
            "",
            f"| qualifier label | qualifiers | {header} |",
            "| --- | --- |" + " --- |" * len(CRITERIA),
        ]
        for row in summary["by_label"]:
            cells = " | ".join(" / ".join(_f(row[c][j]) for j in judges) for c in CRITERIA)
            lines.append(f"| {row['label']} | {row['qualifiers']} | {cells} |")
    return lines


def judged_facts_jsonl(judged: JudgedTexts) -> str:
    """One JSON line per fact: the fact, its mode, its source sentence and every diagnosis."""
    rows = [
        {
            "fact": item.fact.to_string(),
            "mode": item.mode,
            "route": item.route or None,
            "source": item.source,
            "diagnoses": {
                judge: None if d is None else d.model_dump() for judge, d in item.diagnoses.items()
            },
        }
        for item in judged.facts
    ]
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
