"""Decomposition quality (TriQua §4.2): judge every fact, then rates and judge agreement.

Each fact is judged on three criteria (:mod:`triqua.evals.decomposition_judges`) by one
judge (the rule judges, offline) or two (chat models); the summary gives pass rates per
criterion overall, per decomposition mode and per qualifier label, and Cohen's κ between two
judges per criterion.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from triqua.core.verdicts.scoring import normalize
from triqua.evals.decomposition_judges import (
    CRITERIA,
    DEFAULT_CONTAINMENT_THRESHOLD,
    FactDiagnosis,
    rule_diagnosis,
)
from triqua.evals.stats import cohen_kappa
from triqua.schema import Fact, Usage

__all__ = [
    "CONTEXT_CHARS",
    "JudgeFn",
    "JudgedFact",
    "JudgedTexts",
    "criterion_rates",
    "judge_facts",
    "kappas",
    "quality_summary",
    "rule_judge",
    "source_and_context",
]

CONTEXT_CHARS = 1500
"""Characters of text before a fact's sentence given to judges (what pronouns refer to)."""

#: A judge: (fact, source sentence, context before it) -> (diagnosis or None, usage, error).
JudgeFn = Callable[[Fact, str, str], tuple[FactDiagnosis | None, Usage, str]]


def rule_judge(threshold: float = DEFAULT_CONTAINMENT_THRESHOLD) -> JudgeFn:
    """The offline judge: rules for (b) and (c), token containment at ``threshold`` for (a)."""

    def judge(fact: Fact, source: str, context: str) -> tuple[FactDiagnosis | None, Usage, str]:
        return rule_diagnosis(fact, source, context, threshold), Usage(), ""

    return judge


@dataclass(frozen=True)
class JudgedFact:
    """A fact, its decomposition mode, its source sentence, each judge's diagnosis, its route."""

    fact: Fact
    mode: str
    source: str
    diagnoses: dict[str, FactDiagnosis | None]
    route: str = ""


@dataclass
class JudgedTexts:
    """Every judged fact of a run, the usage of the judges and their errors."""

    facts: list[JudgedFact]
    judges: list[str]
    usage: Usage = field(default_factory=Usage)
    errors: list[str] = field(default_factory=list)


def source_and_context(fact: Fact, text: str) -> tuple[str, str]:
    """The fact's source sentence and up to :data:`CONTEXT_CHARS` of text before it."""
    source = fact.source_text.strip()
    start = None
    if fact.span is not None and fact.span.end <= len(text):
        start = fact.span.start
        if not source:
            source = text[fact.span.start : fact.span.end]
    if start is None and source:
        found = text.find(source)
        start = found if found >= 0 else None
    context = text[max(0, start - CONTEXT_CHARS) : start] if start else ""
    return source, context


def judge_facts(
    items: Sequence[tuple[str, Sequence[Fact], Sequence[str]]],
    judges: dict[str, JudgeFn],
    *,
    workers: int = 1,
    routes: Sequence[Sequence[str]] | None = None,
) -> JudgedTexts:
    """Judge every fact of ``(text, facts, modes)`` items with every judge.

    Judges run ``workers`` facts at a time (chat models); a judge's failure on a fact leaves
    that diagnosis ``None`` (the fact is left out of that judge's rates and of κ) and is
    listed in the errors. ``routes`` (per item, per fact) records each fact's route.
    """
    route_lists = routes if routes is not None else [[""] * len(f) for _, f, _ in items]
    jobs = [
        (fact, mode, route, *source_and_context(fact, text))
        for (text, facts, modes), item_routes in zip(items, route_lists, strict=True)
        for fact, mode, route in zip(facts, modes, item_routes, strict=True)
    ]

    def run(job: tuple[Fact, str, str, str, str]) -> tuple[JudgedFact, Usage, list[str]]:
        fact, mode, route, source, context = job
        usage = Usage()
        errors = []
        diagnoses: dict[str, FactDiagnosis | None] = {}
        for name, judge in judges.items():
            diagnosis, spent, error = judge(fact, source, context)
            diagnoses[name] = diagnosis
            usage = usage + spent
            if error:
                errors.append(error)
        return JudgedFact(fact, mode, source, diagnoses, route), usage, errors

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        results = list(pool.map(run, jobs))
    judged = JudgedTexts(facts=[r[0] for r in results], judges=list(judges))
    for _, usage, errors in results:
        judged.usage = judged.usage + usage
        judged.errors.extend(errors)
    return judged


def _rate(passed: int, total: int) -> float | None:
    return passed / total if total else None


def _applies(criterion: str, fact: Fact) -> bool:
    """Qualifier misuse is judged on facts with qualifiers only (vacuous otherwise)."""
    return criterion != "qualifiers_ok" or fact.has_qualifiers


def criterion_rates(facts: Sequence[JudgedFact], judges: Sequence[str]) -> dict[str, Any]:
    """Per criterion and judge: facts judged and the share that pass."""
    rates: dict[str, Any] = {}
    for criterion in CRITERIA:
        per_judge = {}
        for judge in judges:
            verdicts = [
                d.verdicts[criterion].passed
                for f in facts
                if _applies(criterion, f.fact) and (d := f.diagnoses.get(judge)) is not None
            ]
            per_judge[judge] = {
                "n": len(verdicts),
                "pass_rate": _rate(sum(verdicts), len(verdicts)),
            }
        rates[criterion] = per_judge
    return rates


def kappas(facts: Sequence[JudgedFact], judges: Sequence[str]) -> dict[str, Any]:
    """Cohen's κ of the first two judges per criterion, over facts both judged."""
    first, second = judges[:2]
    result: dict[str, Any] = {}
    for criterion in CRITERIA:
        pairs = [
            (a.verdicts[criterion].passed, b.verdicts[criterion].passed)
            for f in facts
            if _applies(criterion, f.fact)
            and (a := f.diagnoses.get(first)) is not None
            and (b := f.diagnoses.get(second)) is not None
        ]
        result[criterion] = {
            "n": len(pairs),
            "kappa": cohen_kappa([p[0] for p in pairs], [p[1] for p in pairs]),
            "agreement": _rate(sum(a == b for a, b in pairs), len(pairs)),
        }
    return result


def _by_label(facts: Sequence[JudgedFact], judges: Sequence[str], top: int) -> list[dict[str, Any]]:
    """Per qualifier label (normalised): qualifiers and each judge's pass rate per criterion."""
    counts: dict[str, int] = defaultdict(int)
    passed: dict[tuple[str, str, str], int] = defaultdict(int)
    judged: dict[tuple[str, str, str], int] = defaultdict(int)
    for item in facts:
        for qualifier in item.fact.qualifiers:
            label = normalize(qualifier.label) or "(empty)"
            counts[label] += 1
            for judge in judges:
                diagnosis = item.diagnoses.get(judge)
                if diagnosis is None:
                    continue
                for criterion in CRITERIA:
                    key = (label, criterion, judge)
                    judged[key] += 1
                    if qualifier.label not in diagnosis.failed_labels(criterion, item.fact):
                        passed[key] += 1
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    return [
        {
            "label": label,
            "qualifiers": count,
            **{
                criterion: {
                    judge: _rate(
                        passed[(label, criterion, judge)], judged[(label, criterion, judge)]
                    )
                    for judge in judges
                }
                for criterion in CRITERIA
            },
        }
        for label, count in ranked
    ]


def quality_summary(judged: JudgedTexts, top_labels: int = 15) -> dict[str, Any]:
    """Pass rates per criterion (overall, per mode, per qualifier label) and κ of two judges.

    Qualifier misuse (``qualifiers_ok``) is rated over facts with qualifiers; per label, a
    qualifier fails a criterion when its judge names it (or names nothing on a failed fact).
    """
    judges = judged.judges
    modes = sorted({f.mode for f in judged.facts})
    summary: dict[str, Any] = {
        "judges": judges,
        "facts": len(judged.facts),
        "criteria": criterion_rates(judged.facts, judges),
        "by_mode": {
            mode: {
                "facts": sum(f.mode == mode for f in judged.facts),
                "criteria": criterion_rates([f for f in judged.facts if f.mode == mode], judges),
            }
            for mode in modes
        },
        "by_label": _by_label(judged.facts, judges, top_labels),
        "errors": len(judged.errors),
    }
    if len(judges) >= 2:
        summary["kappa"] = kappas(judged.facts, judges)
    return summary
