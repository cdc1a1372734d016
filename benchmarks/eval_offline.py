"""Run every evaluation on the offline engine over the shared data and print a summary table.

Runs, in order: claim verification on Factcheck-Bench subtask 3, FActScore bios (ChatGPT)
with the PerplexityAI answers as proxy evidence, the same bios closed book, and the
decomposition diagnostics. Each writes its stamped results folder under --out; the table
printed at the end is the one docs/evaluation.md and the README quote.

Usage: python benchmarks/eval_offline.py [--out results] [--limit N] [--seed S]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

from triqua.evals.results import EvalRun, load_run

RUNS = {
    "claims": ["claims"],
    "bios-proxy": ["factscore-bio", "--evidence-answers", "PerplexityAI"],
    "bios-closed": ["factscore-bio"],
    "diagnostics": ["diagnostics"],
}


def run(args: list[str], out: Path, extra: list[str]) -> Path:
    command = [sys.executable, "-m", "triqua", "eval", *args, "--out", str(out), "--yes", *extra]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)} failed:\n{done.stderr}")
    found = re.search(r"^results: (.+)$", done.stderr, flags=re.M)
    if found is None:
        sys.exit(f"{' '.join(args)}: no results folder reported")
    return Path(found.group(1))


def fmt(value: float | int | None, scale: float = 1.0, digits: int = 3) -> str:
    return "-" if value is None else f"{value * scale:.{digits}f}"


def table(runs: dict[str, EvalRun]) -> str:
    c = runs["claims"].headline
    lines = [
        "| evaluation (offline engine) | metric | triqua | baseline / note |",
        "| --- | --- | --- | --- |",
        f"| Factcheck-Bench claims ({c['three_way_rows']} rows, 3-way) | macro F1 | "
        f"{fmt(c['triqua_macro_f1'])} | direct {fmt(c['direct_macro_f1'])} |",
        f"| | balanced accuracy | {fmt(c['triqua_balanced_accuracy'])} | "
        f"direct {fmt(c['direct_balanced_accuracy'])} |",
        f"| | binary F1 supported / balanced acc. | "
        f"{fmt(c['triqua_binary_f1_supported'])} / {fmt(c['triqua_binary_balanced_accuracy'])} | "
        f"direct {fmt(c['direct_binary_f1_supported'])} / "
        f"{fmt(c['direct_binary_balanced_accuracy'])} |",
        f"| | Coverage / Overall | {fmt(c['triqua_coverage'])} / {fmt(c['triqua_overall'])} | "
        f"direct {fmt(c['direct_coverage'])} / {fmt(c['direct_overall'])} |",
        f"| | ECE (confidence calibration) | {fmt(c['triqua_ece'])} | "
        f"direct {fmt(c['direct_ece'])} |",
        f"| | model calls per fact / re-verify trigger rate | "
        f"{fmt(c['model_calls_per_fact'], digits=2)} / {fmt(c['reverify_trigger_rate'])} | |",
    ]
    for key, label in (
        ("bios-proxy", "PerplexityAI answers as proxy evidence"),
        ("bios-closed", "closed book"),
    ):
        h = runs[key].headline
        lines.append(
            f"| FActScore ChatGPT bios, {label} | Pearson / Spearman (n={h['scored']}) | "
            f"{fmt(h['triqua_score_pearson'])} / {fmt(h['triqua_score_spearman'])} | "
            f"MAE {fmt(h['triqua_score_mae'], 100, 1)} points; mean "
            f"{fmt(h['triqua_score_mean'], 100, 1)} vs gold {fmt(h['mean_gold'], 100, 1)} |"
        )
        lines.append(
            f"| | F1@K (K={fmt(h['f1_k'], digits=0)}) / re-verify trigger rate | "
            f"{fmt(h['f1_at_k'])} / {fmt(h['reverify_trigger_rate'])} | "
            f"{fmt(h['search_calls_per_fact'], digits=2)} searches per fact |"
        )
    d = runs["diagnostics"].headline
    lines.append(
        f"| decomposition of the bios | facts per sentence / complex share | "
        f"{fmt(d['facts_per_sentence'], digits=2)} / {fmt(d['complex_share'])} | "
        f"dedup removes {fmt(d['dedup_removed_share'])} of units |"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("results"))
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    extra = ["--seed", str(args.seed)] + (["--limit", str(args.limit)] if args.limit else [])
    runs = {}
    for name, command in RUNS.items():
        folder = run(command, args.out, extra)
        print(f"{name}: {folder}", file=sys.stderr)
        runs[name] = load_run(folder)
    print(table(runs))


if __name__ == "__main__":
    main()
