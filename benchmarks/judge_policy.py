"""Figures of the offline verifier's decision rule, from a ``judge_features.py`` dump.

The rule under test is the one the verifier applies: a base triple is supported when a
candidate window that passes the value gates is entailed by the judge at ``entail`` or more
(for the fact as a sentence, or for its source sentence); it is contradicted when the rules
find a crisp value conflict, or when the judge finds a window contradicting it at
``contradict`` or more; otherwise evidence is insufficient. A claim is supported when all its
facts are (a fact's qualifiers count as supported when today's engine supported them, or
when the judge entails a window with the fact's source sentence, which carries them: an
approximation of the verifier's qualifier reading). Each threshold pair is printed for both
halves; choose on "tune", report "held".

Usage: python benchmarks/judge_policy.py DUMP [--grid]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from typing import Any

Row = dict[str, Any]


def fact_status(
    fact: Row, entail: float, contradict: float, *, crisp: bool = True, rules: bool = False
) -> str:
    """A fact's verdict under the rule (see the module docstring).

    ``rules``: the rules' verbatim alignment of the base also proposes a support (the judge
    may still take it back by contradiction).
    """
    if crisp and fact["rules_base"] == "contradicted":
        return "contradicted"
    windows = fact["windows"]
    entailed = max(
        (w["entailed"] for w in windows if w["gate"]),
        default=0.0,
    )
    contradicted = max((w["contradicted"] for w in windows), default=0.0)
    proposed = entailed >= entail or (rules and fact["rules_base"] == "supported")
    if proposed and contradicted < contradict:
        qualifiers_ok = fact["n_qualifiers"] == 0 or all(
            u == "supported" for u in fact["units"][1:]
        )
        if qualifiers_ok or entailed >= entail:
            return "supported"
        return "insufficient_evidence"
    if contradicted >= contradict:
        return "contradicted"
    return "insufficient_evidence"


def claim_status(statuses: list[str]) -> str:
    """All supported: supported; any contradicted: contradicted; else insufficient."""
    if statuses and all(s == "supported" for s in statuses):
        return "supported"
    if "contradicted" in statuses:
        return "contradicted"
    return "insufficient_evidence"


def figures(pairs: Iterable[tuple[str, str]]) -> dict[str, float]:
    """Balanced accuracy, recall, false support on refuted and irrelevant claims."""
    pairs = [(g, p) for g, p in pairs if g != "partially-support"]

    def share(stance: str, status: str) -> float:
        picked = [p for g, p in pairs if g == stance]
        return sum(p == status for p in picked) / max(1, len(picked))

    recall = share("completely-support", "supported")
    negatives = [p != "supported" for g, p in pairs if g != "completely-support"]
    specificity = sum(negatives) / max(1, len(negatives))
    return {
        "BA": (recall + specificity) / 2,
        "recall": recall,
        "FS ref": share("refute", "supported"),
        "FS irr": share("irrelevant", "supported"),
        "ref→C": share("refute", "contradicted"),
        "sup→C": share("completely-support", "contradicted"),
    }


def show(name: str, rows: list[Row], decide: Any) -> None:
    """One line per half for a decision function row → claim status."""
    for half in ("tune", "held"):
        mine = [r for r in rows if r["half"] == half]
        f = figures((r["gold"], decide(r)) for r in mine)
        cells = " ".join(f"{k} {v:.3f}" for k, v in f.items())
        print(f"{name:<28} {half:<5} {cells}")


def main() -> None:
    """Print the engine, the bare judge and the rule at a grid of thresholds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dump")
    parser.add_argument("--grid", action="store_true")
    args = parser.parse_args()
    with open(args.dump, encoding="utf-8") as dump:
        rows = [json.loads(line) for line in dump]
    show("engine today", rows, lambda r: r["engine"])
    if "bare" in rows[0]:
        for t in (0.5, 0.7, 0.9):
            show(f"bare judge {t}", rows, lambda r, t=t: "supported" if r["bare"][0] >= t else "i")
    grid = (
        [(e, c) for e in (0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95) for c in (0.5, 0.7, 0.9, 1.01)]
        if args.grid
        else [(0.5, 0.9), (0.7, 0.9)]
    )
    for entail, contradict in grid:
        for with_rules in (False, True):
            show(
                f"{'rules+' if with_rules else ''}judge e{entail} c{contradict}",
                rows,
                lambda r, e=entail, c=contradict, w=with_rules: claim_status(
                    [fact_status(f, e, c, rules=w) for f in r["facts"]]
                ),
            )


if __name__ == "__main__":
    main()
