"""Hand-written evaluation cases: each case passes or fails, and a suite has a pass rate.

Three kinds of suite, all written by people for triqua:

- **fact cases** (``tests/data/offline_cases.jsonl``): a fact (subject, relation, object,
  qualifiers), an evidence passage, the expected status of every unit and, for a fact with
  a wrong part, the unit that is wrong. The offline judge verifies the fact against the
  passage and the verdict is settled as a run settles it (the grounding rule, read by the
  judge's reader). The case passes when every unit gets its expected status and the wrong
  unit, if any, is named.
- **text cases** (``benchmarks/data/new_user_cases.jsonl``): a short text and its evidence,
  checked whole by ``triqua.check`` on the offline engine with the evidence as the only
  document; the case passes when its facts' statuses meet the expectation (see
  :func:`meets`).
- **lie cases** (``benchmarks/data/plausible_lies_dev.jsonl``, :func:`lie_cases`): false
  claims whose evidence holds the claim's words with another meaning (a year in another
  slot, a passive's other agent, a belief or fiction frame, a relative clause, a unit) and
  true controls beside them, checked whole as text cases. The recall probe
  (``benchmarks/data/recall_probe.jsonl``: true claims with the passage that states them,
  and false counterparts) is text cases too.

A suite's pass rate is the share of its cases that pass; a regression shows as a case that
passed and now fails, listed with what it got.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from triqua.schema import Evidence, Fact, Qualifier, Status

__all__ = [
    "CaseResult",
    "load_cases",
    "meets",
    "pass_rates",
    "run_fact_cases",
    "run_text_cases",
]

_SHORT = {
    Status.SUPPORTED: "supported",
    Status.CONTRADICTED: "contradicted",
    Status.INSUFFICIENT: "insufficient",
}


@dataclass(frozen=True)
class CaseResult:
    """One evaluation case's outcome.

    Attributes:
        suite: The suite the case belongs to ("fact" or "text").
        id: The case's id in its file.
        kind: The case's category or kind.
        passed: Whether the case got what it expects.
        expected: What the case expects, as written.
        got: What the engine gave, in the same form.
        detail: The claim and evidence, and the engine's rationale, for a failure's listing.
    """

    suite: str
    id: str
    kind: str
    passed: bool
    expected: str
    got: str
    detail: str

    def describe(self) -> str:
        """The case as a failure listing shows it: id, expectation, outcome, detail."""
        return (
            f"[{self.suite}:{self.id}] expected {self.expected}, got {self.got}\n    {self.detail}"
        )


def load_cases(path: Path) -> list[dict[str, Any]]:
    """The cases of a JSON Lines file, one object a line."""
    return [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]


def case_fact(case: dict[str, Any]) -> Fact:
    """A fact case's fact, built from its fields (values may hold commas: "8,849 metres").

    An optional ``source`` is the sentence the fact was read from: a fact whose object the
    decomposition lost ("Humphrey Bogart | was ranked |") is read as its sentence.
    """
    return Fact(
        subject=str(case["subject"]),
        relation=str(case["relation"]),
        object=str(case["object"]),
        qualifiers=[Qualifier(label=label, value=value) for label, value in case["qualifiers"]],
        source_text=str(case.get("source", "")),
    )


def run_fact_cases(cases: Sequence[dict[str, Any]], judge: str = "shipped") -> list[CaseResult]:
    """Verify each fact case with the offline judge and settle it as a run does."""
    from triqua.core.verdicts.settling import settle
    from triqua.engines.factory import offline_judge

    offline = offline_judge(judge)
    reader = offline.reader
    results = []
    for case in cases:
        evidence = Evidence.build(
            document_id=str(case["id"]),
            text=str(case["evidence"]),
            title=str(case["title"]) if case.get("title") else None,
            retriever="cases",
        )
        fact = case_fact(case)
        verdict = settle(fact, offline.verify(fact, [evidence]).verdict, [evidence], reader=reader)
        got = [u.status.value for u in verdict.unit_verdicts]
        expected = [str(status) for status in case["expected"]]
        wrong = case.get("wrong")
        passed = got == expected and (not wrong or wrong in verdict.wrong_components)
        named = f"; wrong {wrong} named: {wrong in verdict.wrong_components}" if wrong else ""
        results.append(
            CaseResult(
                suite="fact",
                id=str(case["id"]),
                kind=str(case["category"]),
                passed=passed,
                expected=str(expected),
                got=str(got) + named,
                detail=f"{fact.to_string()} | evidence: {case['evidence']}",
            )
        )
    return results


def meets(expected: str | list[str], got: list[str]) -> bool:
    """Whether the facts' statuses ``got`` (text order) meet a text case's expectation.

    ``supported``: at least one fact, every fact supported; ``contradicted``: some fact
    contradicted; ``insufficient``: at least one fact, none supported or contradicted;
    ``not_supported``: at least one fact, none supported; a list: the statuses in order.

    Raises:
        ValueError: the expectation is none of these.
    """
    if isinstance(expected, list):
        return got == expected
    if not got:
        return False
    if expected == "supported":
        return all(s == "supported" for s in got)
    if expected == "contradicted":
        return "contradicted" in got
    if expected == "insufficient":
        return all(s == "insufficient" for s in got)
    if expected == "not_supported":
        return "supported" not in got
    raise ValueError(f"unknown expectation {expected!r}")


def lie_cases(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Plausible-lie rows (``benchmarks/plausible_lies.py``'s format) as text cases.

    A lie passes when none of its facts ends supported, a control when every fact does;
    the row's ``shape`` (the reading it probes) is the case's kind.
    """
    return [
        {
            "id": row["id"],
            "kind": row.get("shape", row["kind"]),
            "text": row["claim"],
            "evidence": "\n\n".join(row["evidence"]),
            "question": None,
            "expected": "supported" if row["kind"] == "control" else "not_supported",
        }
        for row in rows
    ]


def run_text_cases(cases: Sequence[dict[str, Any]], suite: str = "text") -> list[CaseResult]:
    """Check each text case whole on the offline engine, its evidence the only document."""
    from triqua.api import check

    results = []
    for case in cases:
        report = check(
            case["text"],
            question=case.get("question"),
            documents=[case["evidence"]],
            store=False,
            cache=False,
        )
        records = sorted(report.records, key=lambda r: r.fact.span.start if r.fact.span else 0)
        got = [_SHORT.get(r.verdict.status, r.verdict.status.value) for r in records]
        facts = "; ".join(r.fact.to_string() for r in records) or "no fact"
        results.append(
            CaseResult(
                suite=suite,
                id=str(case["id"]),
                kind=str(case["kind"]),
                passed=meets(case["expected"], got),
                expected=str(case["expected"]),
                got=str(got or "no fact"),
                detail=f"{case['text'].strip()[:120]!r} | evidence: "
                f"{case['evidence'].strip()[:160]!r} | facts: {facts}",
            )
        )
    return results


def pass_rates(results: Iterable[CaseResult]) -> dict[str, tuple[int, int]]:
    """(passed, cases) per suite and for ``all``."""
    rates: dict[str, tuple[int, int]] = {}
    for result in results:
        for suite in (result.suite, "all"):
            passed, total = rates.get(suite, (0, 0))
            rates[suite] = (passed + result.passed, total + 1)
    return rates
