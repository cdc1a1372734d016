"""Turn evaluation outcomes into a stamped run: headline metrics, Markdown tables and figures."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from triqua.evals.claims import BINARY_LABELS, LABELS, ClaimOutcome, summarize_claims
from triqua.evals.data import DataStamp
from triqua.evals.decomposition_quality import JudgedTexts
from triqua.evals.diagnostics import DecomposedText, decomposition_stats
from triqua.evals.factscore import VARIANTS, BioOutcome, KnowledgeSource, summarize_bios
from triqua.evals.plots import calibration_svg, confusion_svg, scatter_svg
from triqua.evals.results import EvalRun, stamp_markdown
from triqua.evals.setup import EvalSetup
from triqua.evals.stats import per_fact_rates
from triqua.schema import Usage

__all__ = ["RunOutput", "claims_output", "diagnostics_output", "factscore_output"]


@dataclass
class RunOutput:
    """A finished evaluation: the stamped run, its Markdown and its figure files."""

    run: EvalRun
    markdown: str
    files: dict[str, str]


def _f(value: Any, digits: int = 3) -> str:
    """A metric for a table: '-' when undefined."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _points(value: float | None) -> str:
    """A [0, 1] score as points out of 100."""
    return "-" if value is None else f"{100 * value:.1f}"


def _offline_note(setup: EvalSetup) -> list[str]:
    if not setup.offline:
        return []
    return [
        "Engine: the offline engine (rules + embeddings, no language model). These figures "
        "measure that engine, not triqua with an LLM judge."
    ]


COST_KEYS = ("reverify_trigger_rate", "model_calls_per_fact", "search_calls_per_fact")


def _cost_line(cost: dict[str, Any], why_no_trigger: str = "re-verification not run") -> str:
    """One sentence: facts, re-verify trigger rate and calls per fact."""
    rate = cost["reverify_trigger_rate"]
    trigger = f"{_f(rate)}" if rate is not None else f"- ({why_no_trigger})"
    return (
        f"Facts: {cost['facts']}; re-verification trigger rate {trigger}; model calls per "
        f"fact {_f(cost['model_calls_per_fact'], 2)}; searches per fact "
        f"{_f(cost['search_calls_per_fact'], 2)}."
    )


def _calibration_lines(title: str, table: dict[str, Any]) -> list[str]:
    """A calibration table: Pr(correct | confidence bin), counts and ECE."""
    lines = [
        f"Calibration of {title}: {table['n']} verdicts with a confidence "
        f"({table['without_confidence']} without), accuracy {_f(table['accuracy'])}, mean "
        f"confidence {_f(table['mean_confidence'])}, ECE {_f(table['ece'])}.",
        "",
        "| confidence | n | mean confidence | accuracy |",
        "| --- | --- | --- | --- |",
    ]
    lines += [
        f"| {b['lower']:.1f}–{b['upper']:.1f} | {b['count']} | {_f(b['mean_confidence'])} | "
        f"{_f(b['accuracy'])} |"
        for b in table["bins"]
        if b["count"]
    ]
    return lines


def _diagnostics_table(stats: dict[str, Any]) -> list[str]:
    lines = [
        "| decomposition | value |",
        "| --- | --- |",
        f"| texts | {stats['texts']} |",
        f"| sentences | {stats['sentences']} |",
        f"| facts | {stats['facts']} |",
        f"| facts per sentence | {_f(stats['facts_per_sentence'], 2)} |",
        f"| simple / complex facts | {stats['simple_facts']} / {stats['complex_facts']} |",
        f"| complex share | {_f(stats['complex_share'])} |",
        f"| qualifiers per complex fact | {_f(stats['qualifiers_per_complex_fact'], 2)} |",
        f"| units before / after dedup | {stats['units_raw']} / {stats['units_dedup']} |",
        f"| removed by dedup | {_f(stats['dedup_removed_share'])} |",
    ]
    if stats["qualifier_labels"]:
        lines += ["", "| qualifier label | count | share |", "| --- | --- | --- |"]
        lines += [
            f"| {row['label']} | {row['count']} | {row['share']:.3f} |"
            for row in stats["qualifier_labels"]
        ]
    return lines


def factscore_output(
    outcomes: Sequence[BioOutcome],
    *,
    setup: EvalSetup,
    source: KnowledgeSource,
    data: list[DataStamp],
    options: dict[str, Any],
    k: float | None = None,
) -> RunOutput:
    """The stamped run of a FActScore-bio evaluation, with a scatter plot per score variant.

    ``k`` is F1@K's K (default: the median number of checkable facts per checked bio).
    """
    results = [o.result for o in outcomes]
    summary = summarize_bios(results, k=k)
    counts = summary["counts"]
    decomposed = [
        DecomposedText(tuple(r.fact for r in o.report.records), len(o.bio.sentences))
        for o in outcomes
        if o.report is not None
    ]
    stats = decomposition_stats(decomposed)
    usage = Usage()
    for outcome in outcomes:
        if outcome.report is not None:
            usage = usage + outcome.report.usage
    differing = sorted(
        {r.spec_hash for r in results if r.spec_hash and r.spec_hash != setup.spec.hash}
    )
    notes = [*_offline_note(setup), f"Knowledge source: {source.label}."]
    if differing:
        notes.append(f"{len(differing)} other spec hash(es) among the checks: {differing}")
    headline: dict[str, float | int | None] = {
        "bios": summary["bios"],
        "scored": counts["scored"],
        "undefined": counts["undefined"],
        "declined": counts["declined"],
        "no_gold": counts["no_gold"],
        "no_evidence": counts["no_evidence"],
        "errors": counts["error"],
        "all_facts_abstained": summary["abstained_all"],
        "mean_gold": summary["mean_gold_scored"],
    }
    for name, stats_v in summary["variants"].items():
        for key in ("pearson", "spearman", "mae", "mean"):
            headline[f"{name}_{key}"] = stats_v[key]
    headline["f1_at_k"] = summary["f1_at_k"]["mean"]
    headline["f1_k"] = summary["f1_at_k"]["k"]
    for key in COST_KEYS:
        headline[key] = summary["cost"][key]
    run = EvalRun.stamped(
        "factscore-bio",
        setup.spec,
        setup.engine,
        data=data,
        options=options,
        headline=headline,
        usage=usage,
        notes=notes,
        details={
            "knowledge_source": {"kind": source.kind, "label": source.label},
            "summary": summary,
            "decomposition": stats,
            "bios": [r.model_dump() for r in results],
        },
    )
    lines = [stamp_markdown(run), *(f"> {note}" for note in notes), ""]
    lines += [
        "| bios | scored | undefined (excluded) | declined (ineligible) | no human facts "
        "| no evidence | errors |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        f"| {summary['bios']} | {counts['scored']} | {counts['undefined']} | "
        f"{counts['declined']} | {counts['no_gold']} | {counts['no_evidence']} | "
        f"{counts['error']} |",
        "",
        f"Gold FActScore (mean over the {counts['scored']} scored bios): "
        f"{_points(summary['mean_gold_scored'])}; over all eligible bios: "
        f"{_points(summary['mean_gold_eligible'])}. Scored bios where every fact abstained "
        f"(insufficient evidence): {summary['abstained_all']}.",
        "",
        "| score | n | Pearson | Spearman | MAE (points) | mean (points) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name, label in VARIANTS.items():
        v = summary["variants"][name]
        mae = None if v["mae"] is None else 100 * v["mae"]
        lines.append(
            f"| {label} | {v['n']} | {_f(v['pearson'])} | {_f(v['spearman'])} | "
            f"{_f(mae, 1)} | {_points(v['mean'])} |"
        )
    f1 = summary["f1_at_k"]
    k_text = "-" if f1["k"] is None else f"{f1['k']:g}"
    how = "set" if k is not None else "median checkable facts per bio"
    lines += [
        "",
        f"F1@K (VeriScore-style; precision = supported / checkable facts, recall = "
        f"min(supported / K, 1)), K = {k_text} ({how}), mean over {f1['n']} checked bios: "
        f"{_points(f1['mean'])}.",
        "",
        _cost_line(summary["cost"]),
    ]
    lines += ["", *_diagnostics_table(stats), ""]
    files = {}
    scored = [r for r in results if r.status == "scored" and r.gold is not None]
    for name, label in VARIANTS.items():
        points = [
            (float(r.gold), float(v))
            for r in scored
            if r.gold is not None and (v := getattr(r, name)) is not None
        ]
        corr = summary["variants"][name]
        subtitles = [
            f"{'offline engine' if setup.offline else setup.engine}; {source.short_label}",
            f"n={corr['n']}, Pearson {_f(corr['pearson'])}, Spearman {_f(corr['spearman'])}",
        ]
        file = f"scatter-{name.removesuffix('_score').replace('_', '-')}.svg"
        files[file] = scatter_svg(
            points,
            title=f"{label} vs human FActScore",
            subtitles=subtitles,
            x_label="human FActScore (gold)",
            y_label=f"{label} (triqua)",
        )
        lines.append(f"![{label} vs gold]({file})")
    return RunOutput(run, "\n".join(lines) + "\n", files)


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
        headline[f"{system}_ece"] = summary["calibration"][system]["ece"]
    headline["partial_between_share"] = summary["partial"]["between_share"]
    for key in COST_KEYS:
        headline[key] = summary["cost"][key]
    notes = _offline_note(setup)
    run = EvalRun.stamped(
        "claims",
        setup.spec,
        setup.engine,
        data=data,
        options=options,
        headline=headline,
        usage=usage,
        notes=notes,
        details={"summary": summary, "rows": [o.model_dump() for o in outcomes]},
    )
    names = {
        "triqua": "triqua (decompose → verify → aggregate)",
        "direct": "direct (whole claim as one fact)",
    }
    lines = [stamp_markdown(run), *(f"> {note}" for note in notes), ""]
    lines += [
        f"Rows: {summary['rows']} ({summary['three_way_rows']} in the 3-way metrics, "
        f"{summary['partial']['rows']} partial, {summary['errors']} failed); gold counts "
        f"{summary['gold_counts']}. Facts per claim: {_f(summary['facts_per_claim'], 2)}; "
        f"claims with no fact: {summary['claims_without_facts']}.",
        "",
        _cost_line(summary["cost"], "not run offline: one passage per row, nothing new to search"),
        "",
        "| system | macro F1 | balanced acc. | accuracy | "
        + " | ".join(f"F1 {label}" for label in LABELS)
        + " |",
        "| --- | --- | --- | --- | " + " | ".join("---" for _ in LABELS) + " |",
    ]
    for system, title in names.items():
        r = systems[system]
        per = " | ".join(_f(r["per_class"][label]["f1"]) for label in LABELS)
        lines.append(
            f"| {title} | {_f(r['macro_f1'])} | {_f(r['balanced_accuracy'])} | "
            f"{_f(r['accuracy'])} | {per} |"
        )
    lines += ["", "Per class (precision / recall / support):", ""]
    lines += ["| system | " + " | ".join(LABELS) + " |", "| --- |" + " --- |" * len(LABELS)]
    for system, title in names.items():
        cells = [
            f"{_f(c['precision'])} / {_f(c['recall'])} / {c['support']}"
            for c in (systems[system]["per_class"][label] for label in LABELS)
        ]
        lines.append(f"| {title} | " + " | ".join(cells) + " |")
    lines += [
        "",
        f"Binary view, supported vs not ({summary['binary_rows']} rows; partial rows count as "
        "not supported):",
        "",
        "| system | F1 supported | F1 not supported | balanced acc. | accuracy | matrix |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for system, title in names.items():
        b = summary["binary"][system]
        f1s = [b["per_class"][label]["f1"] for label in BINARY_LABELS]
        lines.append(
            f"| {title} | {_f(f1s[0])} | {_f(f1s[1])} | {_f(b['balanced_accuracy'])} | "
            f"{_f(b['accuracy'])} | {b['confusion_matrix']} |"
        )
    lines += [
        "",
        "ElementCheck's Coverage (share of rows with gold supported or contradicted given a "
        "definite verdict), balanced accuracy over those covered rows, and Overall = "
        "Coverage × balanced accuracy:",
        "",
        "| system | rows | covered | Coverage | balanced acc. (covered) | Overall |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for system, title in names.items():
        c = summary["coverage"][system]
        lines.append(
            f"| {title} | {c['n']} | {c['covered']} | {_f(c['coverage'])} | "
            f"{_f(c['balanced_accuracy'])} | {_f(c['overall'])} |"
        )
    for system, title in names.items():
        lines += ["", *_calibration_lines(title, summary["calibration"][system])]
    partial = summary["partial"]
    if partial["rows"]:
        bands = partial["triqua_score_bands"]
        lines += [
            "",
            f"Partially supported claims ({partial['rows']}): triqua "
            f"{partial['triqua']}, direct {partial['direct']}. TriQuaScore strictly between "
            f"0 and 1 on {_f(partial['between_share'])} of them (bands {bands}).",
        ]
    files = {}
    for system, title in names.items():
        file = f"confusion-{system}.svg"
        files[file] = confusion_svg(systems[system]["confusion_matrix"], list(LABELS), title=title)
        lines.append(f"\n![{title}]({file})")
    for system, title in names.items():
        table = summary["calibration"][system]
        if not table["n"]:
            continue
        file = f"calibration-{system}.svg"
        files[file] = calibration_svg(
            table["bins"],
            title=f"Calibration: {title}",
            subtitle=f"n={table['n']}, ECE {_f(table['ece'])}",
        )
        lines.append(f"\n![Calibration: {title}]({file})")
    return RunOutput(run, "\n".join(lines) + "\n", files)


def diagnostics_output(
    items: Sequence[DecomposedText],
    *,
    setup: EvalSetup,
    usage: Usage,
    errors: list[str],
    data: list[DataStamp],
    options: dict[str, Any],
    quality: JudgedTexts | None = None,
    quality_note: str = "",
) -> RunOutput:
    """The stamped run of decomposition diagnostics, with the judged quality when given.

    ``usage`` is the decomposition's; the judges' usage (``quality.usage``) is added to it.
    """
    from triqua.evals.decomposition_quality import quality_summary
    from triqua.evals.report_quality import (
        JUDGED_FACTS_FILE,
        judged_facts_jsonl,
        quality_headline,
        quality_lines,
    )

    stats = decomposition_stats(items)
    summary = quality_summary(quality) if quality is not None else None
    if quality is not None:
        usage = usage + quality.usage
    headline: dict[str, float | int | None] = {
        key: stats[key]
        for key in (
            "texts",
            "sentences",
            "facts",
            "facts_per_sentence",
            "complex_share",
            "qualifiers_per_complex_fact",
            "units_raw",
            "units_dedup",
            "dedup_removed_share",
        )
    }
    headline["errors"] = len(errors)
    cost = per_fact_rates(
        stats["facts"],
        reverified=None,
        model_calls=usage.model_calls,
        search_calls=usage.search_calls,
    )
    for key in COST_KEYS:
        headline[key] = cost[key]
    notes = _offline_note(setup)
    if errors:
        notes.append(f"{len(errors)} chunk(s) failed to decompose; first: {errors[0]}")
    details: dict[str, Any] = {"decomposition": stats, "cost": cost}
    files: dict[str, str] = {}
    if quality is not None and summary is not None:
        headline.update(quality_headline(summary))
        details["quality"] = summary
        files[JUDGED_FACTS_FILE] = judged_facts_jsonl(quality)
        if quality.errors:
            notes.append(
                f"{len(quality.errors)} judgement(s) failed (left out of rates and κ); "
                f"first: {quality.errors[0]}"
            )
    run = EvalRun.stamped(
        "diagnostics",
        setup.spec,
        setup.engine,
        data=data,
        options=options,
        headline=headline,
        usage=usage,
        notes=notes,
        details=details,
    )
    lines = [
        stamp_markdown(run),
        *(f"> {note}" for note in notes),
        "",
        _cost_line(cost, "decomposition only: nothing is verified"),
        "",
        *_diagnostics_table(stats),
    ]
    if summary is not None:
        lines += ["", *quality_lines(summary, quality_note)]
        lines += ["", f"Every judged fact: [{JUDGED_FACTS_FILE}]({JUDGED_FACTS_FILE})."]
    return RunOutput(run, "\n".join(lines) + "\n", files)
