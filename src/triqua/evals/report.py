"""Turn evaluation outcomes into a stamped run: headline metrics, Markdown tables and figures.

FActScore-bio and decomposition diagnostics are written here; claim verification in
``report_claims``, the shared formats in ``report_format``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from triqua.engines.llm.coverage import COVERAGE_NEEDS_MODEL, coverage_summary
from triqua.evals.data import DataStamp
from triqua.evals.decomposition_quality import JudgedTexts
from triqua.evals.diagnostics import DecomposedText, decomposition_mode, decomposition_stats
from triqua.evals.factscore import (
    VARIANTS,
    BioOutcome,
    BioResult,
    KnowledgeSource,
    summarize_bios,
)
from triqua.evals.plots import scatter_svg
from triqua.evals.report_format import (
    COST_KEYS,
    RunOutput,
    as_points,
    cost_line,
    diagnostics_table,
    fmt,
    offline_note,
    stamped,
)
from triqua.evals.setup import EvalSetup, runs_summary
from triqua.evals.slices import (
    FACT_COLUMNS,
    CheckedFact,
    fact_slices,
    judged_columns,
    judged_slices,
    qualifier_labels,
    slice_lines,
)
from triqua.evals.stats import per_fact_rates
from triqua.schema import Usage

__all__ = ["RunOutput", "diagnostics_output", "factscore_output"]


def factscore_output(
    outcomes: Sequence[BioOutcome],
    *,
    setup: EvalSetup,
    source: KnowledgeSource,
    data: list[DataStamp],
    options: dict[str, Any],
    k: float | None = None,
    coverage: bool = False,
) -> RunOutput:
    """The stamped run of a FActScore-bio evaluation, with a scatter plot per score variant.

    ``k`` is F1@K's K (default: the median number of checkable facts per checked bio);
    ``coverage`` says whether requested-content coverage was judged (a chat model ran it).
    """
    results = [o.result for o in outcomes]
    summary = summarize_bios(results, k=k)
    decomposed = [
        DecomposedText(tuple(r.fact for r in o.report.records), len(o.bio.sentences))
        for o in outcomes
        if o.report is not None
    ]
    stats = decomposition_stats(decomposed)
    sliced = fact_slices(_checked_facts(outcomes, setup))
    usage = Usage()
    for outcome in outcomes:
        if outcome.report is not None:
            usage = usage + outcome.report.usage + outcome.coverage_usage
    requested = _requested(results, coverage)
    notes = _factscore_notes(results, setup, source, coverage)
    details = {
        "knowledge_source": {"kind": source.kind, "label": source.label},
        "summary": summary,
        "decomposition": stats,
        "slices": sliced,
        "requested_coverage": requested,
        "bios": [r.model_dump() for r in results],
    }
    runs = runs_summary([r.stamp_settings for r in results])
    headline = _factscore_headline(summary, requested)
    run, lines = stamped(
        "factscore-bio", setup, data, options, headline, usage, notes, details, runs
    )
    lines += _factscore_lines(summary, k, requested, stats, sliced)
    files, images = _scatter_plots(results, summary, setup, source)
    lines += images
    return RunOutput(run, "\n".join(lines) + "\n", files)


def _factscore_notes(
    results: Sequence[BioResult], setup: EvalSetup, source: KnowledgeSource, coverage: bool
) -> list[str]:
    """The run's notes: the engine, the knowledge source, other specs, coverage not judged."""
    differing = sorted(
        {r.spec_hash for r in results if r.spec_hash and r.spec_hash != setup.spec.hash}
    )
    notes = [*offline_note(setup), f"Knowledge source: {source.label}."]
    if differing:
        notes.append(f"{len(differing)} other spec hash(es) among the checks: {differing}")
    if not coverage:
        notes.append(COVERAGE_NEEDS_MODEL)
    return notes


def _factscore_headline(
    summary: dict[str, Any], requested: dict[str, Any]
) -> dict[str, float | int | None]:
    """The headline figures: bio counts, each variant's correlation, F1@K and the cost."""
    counts = summary["counts"]
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
    if requested["measured"]:
        for verdict, share in requested["shares"].items():
            headline[f"requested_{verdict}_share"] = share
    headline["f1_at_k"] = summary["f1_at_k"]["mean"]
    headline["f1_k"] = summary["f1_at_k"]["k"]
    for key in COST_KEYS:
        headline[key] = summary["cost"][key]
    return headline


def _factscore_lines(
    summary: dict[str, Any],
    k: float | None,
    requested: dict[str, Any],
    stats: dict[str, Any],
    sliced: dict[str, Any],
) -> list[str]:
    """The report's tables: bio counts, gold means, correlations, F1@K, cost, slices."""
    counts = summary["counts"]
    lines = [
        "| bios | scored | undefined (excluded) | declined (ineligible) | no human facts "
        "| no evidence | errors |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        f"| {summary['bios']} | {counts['scored']} | {counts['undefined']} | "
        f"{counts['declined']} | {counts['no_gold']} | {counts['no_evidence']} | "
        f"{counts['error']} |",
        "",
        f"Gold FActScore (mean over the {counts['scored']} scored bios): "
        f"{as_points(summary['mean_gold_scored'])}; over all eligible bios: "
        f"{as_points(summary['mean_gold_eligible'])}. Scored bios where every fact abstained "
        f"(insufficient evidence): {summary['abstained_all']}.",
        "",
        "| score | n | Pearson | Spearman | MAE (points) | mean (points) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name, label in VARIANTS.items():
        v = summary["variants"][name]
        mae = None if v["mae"] is None else 100 * v["mae"]
        lines.append(
            f"| {label} | {v['n']} | {fmt(v['pearson'])} | {fmt(v['spearman'])} | "
            f"{fmt(mae, 1)} | {as_points(v['mean'])} |"
        )
    f1 = summary["f1_at_k"]
    k_text = "-" if f1["k"] is None else f"{f1['k']:g}"
    how = "set" if k is not None else "median checkable facts per bio"
    lines += [
        "",
        f"F1@K (VeriScore-style; precision = supported / checkable facts, recall = "
        f"min(supported / K, 1)), K = {k_text} ({how}), mean over {f1['n']} checked bios: "
        f"{as_points(f1['mean'])}.",
        "",
        cost_line(summary["cost"]),
    ]
    if requested["measured"]:
        lines += ["", *_requested_lines(requested)]
    lines += ["", *diagnostics_table(stats), ""]
    lines += [
        "Slices of the checked facts (precision: supported / checkable facts; route "
        "complex: element-level verification; a fact is in the slice of each of its "
        "qualifier labels):",
        "",
        *slice_lines(sliced, FACT_COLUMNS, unit="facts"),
    ]
    return lines


def _scatter_plots(
    results: Sequence[BioResult],
    summary: dict[str, Any],
    setup: EvalSetup,
    source: KnowledgeSource,
) -> tuple[dict[str, str], list[str]]:
    """Each score variant's scatter plot against the gold FActScore, and the lines showing it."""
    files = {}
    lines = []
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
            f"n={corr['n']}, Pearson {fmt(corr['pearson'])}, Spearman {fmt(corr['spearman'])}",
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
    return files, lines


def _requested(results: Sequence[BioResult], coverage: bool) -> dict[str, Any]:
    """Requested-content coverage over the checked bios, or why it was not measured."""
    if not coverage:
        return {"measured": False, "note": COVERAGE_NEEDS_MODEL}
    return coverage_summary([r.requested for r in results if r.requested is not None])


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell (one line, pipes escaped)."""
    return " ".join(text.split()).replace("|", "\\|")


def _requested_lines(requested: dict[str, Any]) -> list[str]:
    """The coverage sentence and the bios that leave part of their question out."""
    counts, shares = requested["counts"], requested["shares"]
    lines = [
        f"Requested-content coverage (does the bio address its question? a chat model "
        f"judged {requested['judged']} checked bios, {requested['failed']} judgement(s) "
        f"failed): addressed {counts['addressed']} ({fmt(shares['addressed'])}), partly "
        f"{counts['partly']} ({fmt(shares['partly'])}), not addressed "
        f"{counts['not_addressed']} ({fmt(shares['not_addressed'])}).",
    ]
    if requested["missing"]:
        lines += ["", "| question | coverage | missing parts |", "| --- | --- | --- |"]
        lines += [
            f"| {_cell(row['question'])} | {row['verdict']} | "
            f"{_cell('; '.join(row['missing'])) or '-'} |"
            for row in requested["missing"]
        ]
    return lines


def _checked_facts(outcomes: Sequence[BioOutcome], setup: EvalSetup) -> list[CheckedFact]:
    """Every checked fact of the bios, with its verdict, route, mode and qualifier labels."""
    facts = []
    for outcome in outcomes:
        report = outcome.report
        if report is None:
            continue
        mode = decomposition_mode(outcome.bio.text, report.question, setup)
        facts += [
            CheckedFact(
                status=record.verdict.status.value,
                route=record.route,
                mode=mode,
                labels=qualifier_labels(record.fact),
                reverified=record.rejudged,
            )
            for record in report.records
        ]
    return facts


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
    notes = offline_note(setup)
    if errors:
        notes.append(f"{len(errors)} chunk(s) failed to decompose; first: {errors[0]}")
    details: dict[str, Any] = {"decomposition": stats, "cost": cost}
    files: dict[str, str] = {}
    if quality is not None and summary is not None:
        headline.update(quality_headline(summary))
        details["quality"] = summary
        details["slices"] = judged_slices(quality.facts, quality.judges)
        files[JUDGED_FACTS_FILE] = judged_facts_jsonl(quality)
        if quality.errors:
            notes.append(
                f"{len(quality.errors)} judgement(s) failed (left out of rates and κ); "
                f"first: {quality.errors[0]}"
            )
    run, lines = stamped("diagnostics", setup, data, options, headline, usage, notes, details)
    lines += [
        cost_line(cost, "decomposition only: nothing is verified"),
        "",
        *diagnostics_table(stats),
    ]
    if summary is not None and quality is not None:
        lines += ["", *quality_lines(summary, quality_note)]
        lines += ["", *_judged_slice_lines(details["slices"], quality.judges)]
        lines += ["", f"Every judged fact: [{JUDGED_FACTS_FILE}]({JUDGED_FACTS_FILE})."]
    return RunOutput(run, "\n".join(lines) + "\n", files)


def _judged_slice_lines(sliced: dict[str, Any], judges: list[str]) -> list[str]:
    """The judged facts' slices: pass rates (and agreement) per route, mode and label."""
    head = (
        "Slices of the judged facts (pass rates per slice; qualifier use over the slice's "
        "facts with qualifiers; route complex: element-level verification; a fact is in the "
        "slice of each of its qualifier labels). "
        "Nothing is verified here, so there is no status slice."
    )
    return [head, "", *slice_lines(sliced, judged_columns(judges), unit="facts")]
