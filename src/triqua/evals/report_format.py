"""What every evaluation's write-up shares: number formats, the cost line, common tables."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from triqua.evals.data import DataStamp
from triqua.evals.results import EvalRun, stamp_markdown
from triqua.evals.setup import EvalSetup
from triqua.schema import Usage

__all__ = [
    "COST_KEYS",
    "RunOutput",
    "as_points",
    "calibration_lines",
    "cost_line",
    "diagnostics_table",
    "fmt",
    "offline_note",
    "stamped",
]


@dataclass
class RunOutput:
    """A finished evaluation: the stamped run, its Markdown and its figure files."""

    run: EvalRun
    markdown: str
    files: dict[str, str]


def fmt(value: Any, digits: int = 3) -> str:
    """A metric for a table: '-' when undefined."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def as_points(value: float | None) -> str:
    """A [0, 1] score as points out of 100."""
    return "-" if value is None else f"{100 * value:.1f}"


def offline_note(setup: EvalSetup) -> list[str]:
    """The note that the figures measure the offline engine, when they do."""
    if not setup.offline:
        return []
    return [
        "Engine: the offline engine (rules + embeddings, no language model). These figures "
        "measure that engine, not triqua with an LLM judge."
    ]


COST_KEYS = ("reverify_trigger_rate", "model_calls_per_fact", "search_calls_per_fact")


def cost_line(cost: dict[str, Any], why_no_trigger: str = "re-verification not run") -> str:
    """One sentence: facts, re-verify trigger rate and calls per fact."""
    rate = cost["reverify_trigger_rate"]
    trigger = f"{fmt(rate)}" if rate is not None else f"- ({why_no_trigger})"
    return (
        f"Facts: {cost['facts']}; re-verification trigger rate {trigger}; model calls per "
        f"fact {fmt(cost['model_calls_per_fact'], 2)}; searches per fact "
        f"{fmt(cost['search_calls_per_fact'], 2)}."
    )


def calibration_lines(title: str, table: dict[str, Any]) -> list[str]:
    """A calibration table: Pr(correct | confidence bin), counts and ECE."""
    lines = [
        f"Calibration of {title}: {table['n']} verdicts with a confidence "
        f"({table['without_confidence']} without), accuracy {fmt(table['accuracy'])}, mean "
        f"confidence {fmt(table['mean_confidence'])}, ECE {fmt(table['ece'])}.",
        "",
        "| confidence | n | mean confidence | accuracy |",
        "| --- | --- | --- | --- |",
    ]
    lines += [
        f"| {b['lower']:.1f}–{b['upper']:.1f} | {b['count']} | {fmt(b['mean_confidence'])} | "
        f"{fmt(b['accuracy'])} |"
        for b in table["bins"]
        if b["count"]
    ]
    return lines


def diagnostics_table(stats: dict[str, Any]) -> list[str]:
    """The decomposition statistics as Markdown tables (and the qualifier labels' shares)."""
    lines = [
        "| decomposition | value |",
        "| --- | --- |",
        f"| texts | {stats['texts']} |",
        f"| sentences | {stats['sentences']} |",
        f"| facts | {stats['facts']} |",
        f"| facts per sentence | {fmt(stats['facts_per_sentence'], 2)} |",
        f"| simple / complex facts | {stats['simple_facts']} / {stats['complex_facts']} |",
        f"| complex share | {fmt(stats['complex_share'])} |",
        f"| qualifiers per complex fact | {fmt(stats['qualifiers_per_complex_fact'], 2)} |",
        f"| units before / after dedup | {stats['units_raw']} / {stats['units_dedup']} |",
        f"| removed by dedup | {fmt(stats['dedup_removed_share'])} |",
    ]
    if stats["qualifier_labels"]:
        lines += ["", "| qualifier label | count | share |", "| --- | --- | --- |"]
        lines += [
            f"| {row['label']} | {row['count']} | {row['share']:.3f} |"
            for row in stats["qualifier_labels"]
        ]
    return lines


def stamped(
    kind: str,
    setup: EvalSetup,
    data: list[DataStamp],
    options: dict[str, Any],
    headline: dict[str, float | int | None],
    usage: Usage,
    notes: list[str],
    details: dict[str, Any],
    runs: dict[str, int] | None = None,
) -> tuple[EvalRun, list[str]]:
    """The stamped run of an evaluation and the opening of its Markdown (stamp and notes).

    ``runs`` counts the check runs it made and those with the stamp's settings
    (:func:`triqua.evals.setup.runs_summary`).
    """
    run = EvalRun.stamped(
        kind,
        setup.spec,
        setup.engine,
        data=data,
        options=options,
        headline=headline,
        usage=usage,
        notes=notes,
        details=details,
        runs=runs,
    )
    return run, [stamp_markdown(run), *(f"> {note}" for note in notes), ""]
