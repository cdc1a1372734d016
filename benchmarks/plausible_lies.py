"""Plausible lies on both engines: false claims whose evidence holds the claim's words.

``benchmarks/data/plausible_lies.jsonl`` holds hand-written false claims, each with evidence
passages that hold a real sentence using the claim's words with another meaning, of five
kinds:

- ``negation``: the passage states the fact with a "not" ("Bats are not blind.");
- ``other_clause``: the fact's value is stated in another clause, for another relation
  ("Sydney is the largest city of Australia, but Canberra is the capital of Australia.");
- ``other_entity``: another entity holds the same relation ("Madrid is the capital of Spain");
- ``conjunction``: two sentences whose conjunction does not state the fact ("… was born in
  1879. He died in Princeton …" for "… was born in Princeton");
- ``namesake``: a namesake with the same surname ("Charlotte Brontë wrote Jane Eyre" for
  "Emily Brontë wrote Jane Eyre");

plus ``keywords``: a line of keywords planted in one evidence file beside a real passage
that contradicts the claim, and ``control``: true paraphrases the passage does support (an
engine that refuses everything keeps no lie and supports no control).

Each claim is checked on its own, with its passages as the only documents:

- **offline**: ``triqua.check`` with the offline engine (no key, no cache);
- **llm**: a scripted chat model that decomposes into the row's fact and plays an eager
  judge, calling every unit supported and quoting the row's misleading sentence verbatim
  (``triqua.testing.liars.eager_quoter``), so what is measured is the grounding rule.

A lie is **kept** when some unit of its claim ends supported (``kept facts``: some fact
ends supported as a whole). A control is **supported** when it has a fact and every fact
is supported. The aim: kept ≤ 2 % on both engines, keyword lists never kept.

``--data`` names another file of the same shape: ``plausible_lies_fresh.jsonl`` is an audit
set written later with new claims and sentence forms, measured and never tuned on.

Usage: python benchmarks/plausible_lies.py [--data PATH] [--engine offline|llm|both]
    [--kind K] [--json] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import triqua
from triqua.schema import Report, Status
from triqua.testing import ScriptedChatModel
from triqua.testing.liars import Quoted, eager_quoter

DATA = Path(__file__).resolve().parent / "data" / "plausible_lies.jsonl"
LIE_KINDS = ("negation", "other_clause", "other_entity", "conjunction", "namesake")
ENGINES = ("offline", "llm")


def load_rows(path: Path = DATA) -> list[dict[str, Any]]:
    """The set's rows, one JSON object a line."""
    return [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]


@dataclass
class Outcome:
    """One row's result on one engine."""

    id: str
    kind: str
    facts: list[str] = field(default_factory=list)  # each fact's status
    units: list[tuple[str, str, str | None]] = field(default_factory=list)  # unit, status, why

    @property
    def supported_unit(self) -> bool:
        """Whether some unit ended supported."""
        return any(status == Status.SUPPORTED.value for _, status, _ in self.units)

    @property
    def supported_fact(self) -> bool:
        """Whether some fact ended supported as a whole."""
        return Status.SUPPORTED.value in self.facts

    @property
    def all_supported(self) -> bool:
        """Whether there is a fact and every fact ended supported."""
        return bool(self.facts) and all(s == Status.SUPPORTED.value for s in self.facts)


def outcome(row: dict[str, Any], report: Report) -> Outcome:
    """The statuses of ``report``'s facts and units."""
    return Outcome(
        id=row["id"],
        kind=row["kind"],
        facts=[r.verdict.status.value for r in report.records],
        units=[
            (u.unit, u.status.value, u.grounding or None)
            for r in report.records
            for u in r.verdict.unit_verdicts
        ],
    )


def run_offline(row: dict[str, Any]) -> Outcome:
    """The row's claim checked by the offline engine against its passages."""
    report = triqua.check(row["claim"], documents=row["evidence"], cache=False, store=False)
    return outcome(row, report)


def run_llm(row: dict[str, Any]) -> Outcome:
    """The row's claim checked by an eager scripted judge that quotes the row's sentence."""
    fact = row["fact"]
    claim = Quoted(row["claim"], fact["subject"], fact["relation"], fact["object"], row["quote"])
    model = ScriptedChatModel(responder=eager_quoter([claim]))
    report = triqua.check(
        row["claim"],
        documents=row["evidence"],
        model=model,
        cache=False,
        store=False,
        routing="always_element",
    )
    return outcome(row, report)


def tally(outcomes: Iterable[Outcome]) -> dict[str, Any]:
    """Kept lies per kind and in total, keyword lists kept, and the controls' support."""
    by_kind: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        by_kind[o.kind].append(o)
    kinds = {}
    for kind in (*LIE_KINDS, "keywords"):
        rows = by_kind.get(kind, [])
        kinds[kind] = {
            "n": len(rows),
            "kept": sum(o.supported_unit for o in rows),
            "kept_facts": sum(o.supported_fact for o in rows),
            "kept_ids": [o.id for o in rows if o.supported_unit],
        }
    lies = [o for kind in LIE_KINDS for o in by_kind.get(kind, [])]
    controls = by_kind.get("control", [])
    kept = sum(o.supported_unit for o in lies)
    return {
        "kinds": kinds,
        "lies": len(lies),
        "kept": kept,
        "kept_rate": kept / max(1, len(lies)),
        "kept_facts": sum(o.supported_fact for o in lies),
        "controls": len(controls),
        "controls_supported": sum(o.all_supported for o in controls),
        "controls_supported_rate": sum(o.all_supported for o in controls) / max(1, len(controls)),
        "controls_missed": [o.id for o in controls if not o.all_supported],
    }


def print_tally(engine: str, summary: dict[str, Any], seconds: float) -> None:
    """The engine's figures as a small table."""
    print(f"\n{engine} engine ({seconds:.1f} s)")
    print(f"  {'kind':14} {'n':>3} {'kept':>5} {'kept facts':>11}")
    for kind, row in summary["kinds"].items():
        print(f"  {kind:14} {row['n']:3} {row['kept']:5} {row['kept_facts']:11}")
    print(
        f"  {'lies (5 kinds)':14} {summary['lies']:3} {summary['kept']:5} "
        f"{summary['kept_facts']:11}   kept {summary['kept_rate']:.1%} (aim ≤ 2 %)"
    )
    print(
        f"  controls supported: {summary['controls_supported']}/{summary['controls']} "
        f"= {summary['controls_supported_rate']:.1%}"
    )


def print_details(outcomes: list[Outcome], rows: dict[str, dict[str, Any]]) -> None:
    """Each kept lie and each control not supported, with its units."""
    for o in outcomes:
        wrong = o.supported_unit if o.kind != "control" else not o.all_supported
        if not wrong:
            continue
        print(f"  [{o.id}] {rows[o.id]['claim']}")
        for unit, status, why in o.units:
            print(f"      {status:22} {unit}" + (f"  ({why})" if why else ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the set's JSONL file")
    parser.add_argument("--engine", choices=[*ENGINES, "both"], default="both")
    parser.add_argument("--kind", action="append", help="only rows of this kind (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--verbose", action="store_true", help="list kept lies, missed controls")
    args = parser.parse_args(argv)
    rows = [r for r in load_rows(args.data) if not args.kind or r["kind"] in args.kind]
    by_id = {r["id"]: r for r in rows}
    runners = {"offline": run_offline, "llm": run_llm}
    results: dict[str, Any] = {}
    for engine in ENGINES if args.engine == "both" else (args.engine,):
        start = time.perf_counter()
        outcomes = [runners[engine](row) for row in rows]
        seconds = time.perf_counter() - start
        summary = tally(outcomes)
        results[engine] = {
            **summary,
            "seconds": round(seconds, 1),
            "rows": [asdict(o) for o in outcomes],
        }
        if not args.json:
            print_tally(engine, summary, seconds)
            if args.verbose:
                print_details(outcomes, by_id)
    if args.json:
        json.dump(results, sys.stdout, indent=2)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
