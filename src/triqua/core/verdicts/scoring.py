"""TriQuaScore and its companions, as pure functions over facts and verdicts.

A fact's base triple is one unit and each qualifier one more. Error spans are mapped to
units after normalisation, repeated units are counted once, and scores with nothing
checkable are ``None`` (undefined), never 1.0 or 0.0. Also the run-time measures a report
shows (citation completeness, link correctness, the risk–coverage curve). Evaluation
statistics (correlations, classification reports) live in :mod:`triqua.evals.stats`, so the
graph loads no numpy for them.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from triqua.schema import ClaimRecord, Fact, FactUnit, Scores, Status, Verdict

__all__ = [
    "RiskCoverage",
    "citation_completeness",
    "combined_status",
    "label_units",
    "link_correctness",
    "normalize",
    "risk_coverage_curve",
    "score_facts",
    "selective_risk",
    "unit_key",
]

# A comma inside digit groups ("1,000", "1,234.5") is a thousands separator: it is deleted so
# that "1,000" and "1000" compare equal; any other punctuation becomes a space.
_THOUSANDS_COMMA = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")

# Words a verifier may use for the base triple as a whole in ``wrong_components``.
_BASE_NAMES = frozenset({"base", "base triple", "triple"})

# When one unit appears several times with different statuses, the highest rank wins.
_RANK = {Status.CONTRADICTED: 2, Status.SUPPORTED: 1, Status.INSUFFICIENT: 0}


@functools.lru_cache(maxsize=8192)
def normalize(text: str) -> str:
    """Normalise text for unit and span comparison: caseless, NFKC, no punctuation.

    Letters, digits and combining marks are kept; a decimal point between digits survives
    (``"64.5"`` stays distinct from ``"645"``); everything else becomes a space, and runs of
    whitespace collapse to one space. Cached: a fact's units are compared many times over
    (grounding, labelling, scoring), and this per-character walk was ~5 % of a check's CPU.
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    folded = _THOUSANDS_COMMA.sub("", folded)
    if folded.isascii():  # the same walk as two substitutions (letters are folded to a-z)
        folded = _ASCII_DROPPED.sub(" ", _ASCII_OTHER.sub(" ", folded))
        return " ".join(folded.split())
    kept = (char if _is_kept(folded, i) else " " for i, char in enumerate(folded))
    return " ".join("".join(kept).split())


#: ASCII text: everything but letters, digits and dots, then dots not between two digits.
_ASCII_OTHER = re.compile(r"[^a-z0-9.]")
_ASCII_DROPPED = re.compile(r"(?<![0-9])\.|\.(?![0-9])")


def _is_kept(text: str, i: int) -> bool:
    """True when ``text[i]`` is a letter, digit, combining mark or a decimal point."""
    char = text[i]
    if char.isalnum() or unicodedata.category(char).startswith("M"):
        return True
    return char == "." and 0 < i < len(text) - 1 and text[i - 1].isdigit() and text[i + 1].isdigit()


def unit_key(unit: FactUnit) -> str:
    """Return the dedup identity of a unit.

    A base triple is identified by its normalised ``subject relation object``; a qualifier by
    its normalised subject, label and value, so one qualifier on two subjects is two units.
    """
    if unit.kind == "base":
        parts = ["base", unit.subject, unit.relation, unit.object]
    else:
        parts = ["qualifier", unit.subject, unit.label or "", unit.value or ""]
    # "|" never survives normalisation, so joining with it cannot merge distinct parts.
    return "|".join(normalize(part) for part in parts)


def _unit_text(unit: FactUnit) -> str:
    """Normalised text that error spans are matched against: ``s r o`` or ``label value``."""
    if unit.kind == "base":
        return normalize(f"{unit.subject} {unit.relation} {unit.object}")
    return normalize(f"{unit.label or ''} {unit.value or ''}")


def _unit_value(unit: FactUnit) -> str:
    """Normalised value of a unit: the object of a base triple, the value of a qualifier."""
    return normalize(unit.object if unit.kind == "base" else unit.value or "")


def _contains(haystack: str, needle: str) -> bool:
    """True when ``needle`` occurs in ``haystack`` on word boundaries (both normalised).

    Word boundaries keep a span such as ``"19"`` from matching the value ``"1990"``.
    """
    return bool(needle) and f" {needle} " in f" {haystack} "


def _span_matches(span: str, unit: FactUnit) -> bool:
    """True when a normalised error span points at ``unit``.

    The span matches when it occurs in the unit's text, or when the unit's value occurs in
    the span (a span quoted from the source sentence, such as ``"as of 2026"``).
    """
    if unit.kind == "base" and span in _BASE_NAMES:
        return True
    return _contains(_unit_text(unit), span) or _contains(span, _unit_value(unit))


def label_units(fact: Fact, verdict: Verdict) -> list[tuple[FactUnit, Status]]:
    """Give each unit of ``fact`` its status under ``verdict``.

    Unit verdicts decide the units they name (matched by normalised text and kind; a later
    unit verdict replaces an earlier one). Other units follow the fact's verdict: supported
    and not-checkable verdicts apply to all of them; a contradicted or insufficient verdict
    applies to the units its error spans and wrong components point at, and the rest are
    supported. When the error is located nowhere (no span matches a unit and no unit verdict
    carries the verdict's status) the remaining units all take the verdict's status.
    """
    units = fact.units()
    named = {(uv.kind, normalize(uv.unit)): uv.status for uv in verdict.unit_verdicts}
    statuses: list[Status | None] = [named.get((u.kind, normalize(u.text))) for u in units]
    open_units = [i for i, status in enumerate(statuses) if status is None]
    if open_units:
        fill = _fill_from_verdict(units, statuses, open_units, verdict)
        for i in open_units:
            statuses[i] = fill[i]
    return [(unit, status or verdict.status) for unit, status in zip(units, statuses, strict=True)]


def combined_status(pairs: Sequence[tuple[Fact, Verdict]]) -> Status:
    """One verdict for several facts read together (a claim, a source sentence), unit by unit.

    Supported only when every checkable unit is; contradicted when any unit is; otherwise
    (including nothing checkable) insufficient evidence.
    """
    statuses = [
        status
        for fact, verdict in pairs
        for _, status in label_units(fact, verdict)
        if status is not Status.NOT_CHECKABLE
    ]
    if Status.CONTRADICTED in statuses:
        return Status.CONTRADICTED
    if statuses and all(s is Status.SUPPORTED for s in statuses):
        return Status.SUPPORTED
    return Status.INSUFFICIENT


def _fill_from_verdict(
    units: list[FactUnit],
    statuses: list[Status | None],
    open_units: list[int],
    verdict: Verdict,
) -> dict[int, Status]:
    """Statuses of the units no unit verdict named, derived from the fact-level verdict."""
    if verdict.status in (Status.SUPPORTED, Status.NOT_CHECKABLE):
        return dict.fromkeys(open_units, verdict.status)
    spans = [normalize(s) for s in [*verdict.error_spans, *verdict.wrong_components]]
    spans = [s for s in spans if s]
    hits = {i for i, unit in enumerate(units) if any(_span_matches(s, unit) for s in spans)}
    located = bool(hits) or verdict.status in statuses
    if not located:
        return dict.fromkeys(open_units, verdict.status)
    return {i: verdict.status if i in hits else Status.SUPPORTED for i in open_units}


def _ratio(numerator: int, denominator: int) -> float | None:
    """``numerator / denominator``, or ``None`` when the denominator is zero."""
    return numerator / denominator if denominator else None


def score_facts(pairs: Sequence[tuple[Fact, Verdict]]) -> Scores:
    """Compute TriQuaScore and its companions for checked facts.

    Units are labelled with :func:`label_units`; not-checkable units are left out. For the
    deduplicated score each :func:`unit_key` counts once, and when its occurrences disagree
    contradicted wins over supported, and supported wins over insufficient evidence. A fact
    is checkable when at least one of its units is. With no checkable unit every score is
    ``None``.
    """
    raw: list[Status] = []
    merged: dict[str, Status] = {}
    checkable_facts = facts_all_supported = facts_supported = facts_contradicted = 0
    for fact, verdict in pairs:
        labelled = [(u, s) for u, s in label_units(fact, verdict) if s != Status.NOT_CHECKABLE]
        if not labelled:
            continue
        checkable_facts += 1
        facts_all_supported += all(s == Status.SUPPORTED for _, s in labelled)
        facts_supported += verdict.status == Status.SUPPORTED
        facts_contradicted += verdict.status == Status.CONTRADICTED
        for unit, status in labelled:
            raw.append(status)
            key = unit_key(unit)
            if key not in merged or _RANK[status] > _RANK[merged[key]]:
                merged[key] = status

    by_status = Counter(verdict.status for _, verdict in pairs)
    units_supported = sum(s == Status.SUPPORTED for s in merged.values())
    return Scores(
        triqua_score=_ratio(units_supported, len(merged)),
        no_dedup_score=_ratio(sum(s == Status.SUPPORTED for s in raw), len(raw)),
        claim_level_score=_ratio(facts_all_supported, checkable_facts),
        factscore_precision=_ratio(facts_supported, checkable_facts),
        contradiction_rate=_ratio(facts_contradicted, checkable_facts),
        abstentions=by_status[Status.INSUFFICIENT],
        units_total=len(merged),
        units_supported=units_supported,
        units_raw=len(raw),
        facts_total=len(pairs),
        facts_by_status={status.value: by_status[status] for status in Status},
    )


def selective_risk(
    confidences: Sequence[float],
    correct: Sequence[bool],
    thresholds: Sequence[float] | None = None,
) -> list[dict[str, Any]]:
    """Coverage and selective risk of answering only when confidence >= each threshold.

    Without thresholds every distinct confidence is one (ascending), which traces the whole
    risk–coverage curve. Each row holds ``threshold``, ``covered``, ``coverage``, ``risk``
    (error rate among covered items, ``None`` when none is covered) and ``overall_correct``,
    the evidence contract's overall-correct rate N⁻¹ Σ aₙ·zₙ over all N items, where aₙ = 1
    when item n is released (covered) and zₙ = 1 when it is correct: a threshold that releases
    nothing has an overall-correct rate of 0, whatever the accuracy of the items. Plain
    Python (not numpy), so that run-time reports load no numerical library.

    Raises:
        ValueError: when the two sequences differ in length or a confidence is NaN.
    """
    if len(confidences) != len(correct):
        raise ValueError(f"{len(confidences)} confidences but {len(correct)} correctness flags")
    conf = [float(c) for c in confidences]
    ok = [bool(flag) for flag in correct]
    if any(math.isnan(c) for c in conf):
        raise ValueError("confidences contain NaN")
    total = len(conf)
    cuts = sorted(set(conf)) if thresholds is None else list(thresholds)
    rows: list[dict[str, Any]] = []
    for threshold in cuts:
        hits = [flag for c, flag in zip(conf, ok, strict=True) if c >= threshold]
        covered = len(hits)
        rows.append(
            {
                "threshold": float(threshold),
                "covered": covered,
                "coverage": covered / total if total else None,
                "risk": 1.0 - sum(hits) / covered if covered else None,
                "overall_correct": sum(hits) / total if total else None,
            }
        )
    return rows


def citation_completeness(
    supported: Sequence[bool | float], weights: Sequence[float] | None = None
) -> float | None:
    """Share of claims needing support whose cited sources jointly support them.

    ``supported`` has one credit per checkable claim: a flag (an uncited claim is ``False``)
    or a credit in [0, 1], as the citation policy gives partial support; with ``weights``
    (one importance per claim, >= 0) the share is importance-weighted. ``None`` when there
    is no claim or the weights sum to zero.

    Raises:
        ValueError: when the weights differ in length from the credits, one is negative/NaN,
            or a credit lies outside [0, 1].
    """
    credits = [float(flag) for flag in supported]
    if any(not 0.0 <= c <= 1.0 for c in credits):
        raise ValueError("citation credits must lie in [0, 1]")
    if weights is None:
        return sum(credits) / len(credits) if credits else None
    if len(weights) != len(credits):
        raise ValueError(f"{len(credits)} claims but {len(weights)} weights")
    if any(math.isnan(w) or w < 0 for w in weights):
        raise ValueError("weights must be non-negative numbers")
    total = float(sum(weights))
    if total == 0.0:
        return None
    return sum(w * c for w, c in zip(weights, credits, strict=True)) / total


def link_correctness(supports: Sequence[bool]) -> float | None:
    """Share of claim–source links whose source supports its claim; ``None`` with no link."""
    return _ratio(sum(bool(flag) for flag in supports), len(supports))


@dataclass(frozen=True)
class RiskCoverage:
    """A risk–coverage curve over verdict confidence, and what its "risk" means.

    ``kind`` is ``"accuracy"`` when gold labels define correctness (risk is the error rate
    among covered verdicts) and ``"abstention"`` without them (risk is the abstention rate
    among covered verdicts: it measures how decisive the checker is, not whether it is right).
    ``points`` are :func:`selective_risk` rows, by ascending threshold.
    """

    kind: Literal["accuracy", "abstention"]
    n: int
    points: list[dict[str, Any]] = field(default_factory=list)


def risk_coverage_curve(
    records: Sequence[ClaimRecord], gold: Sequence[Status | str] | None = None
) -> RiskCoverage:
    """Risk–coverage curve of the records' verdicts, thresholded on verdict confidence.

    With ``gold`` (one status per record) a verdict is correct when its status equals the
    gold status. Without gold this is the abstention curve: a verdict counts as "correct"
    when it is decisive (supported or contradicted) and wrong when it abstains (insufficient
    evidence); not-checkable records are left out. A verdict without a confidence counts as
    confidence 0, so it is covered only at the lowest threshold.

    Raises:
        ValueError: when ``gold`` differs in length from ``records`` or holds an unknown status.
    """
    if gold is not None:
        if len(gold) != len(records):
            raise ValueError(f"{len(records)} records but {len(gold)} gold labels")
        labels = [Status(label) for label in gold]
        confidences = [r.verdict.confidence or 0.0 for r in records]
        correct = [r.verdict.status == g for r, g in zip(records, labels, strict=True)]
        return RiskCoverage("accuracy", len(records), selective_risk(confidences, correct))
    kept = [r for r in records if r.verdict.status != Status.NOT_CHECKABLE]
    decisive = (Status.SUPPORTED, Status.CONTRADICTED)
    confidences = [r.verdict.confidence or 0.0 for r in kept]
    correct = [r.verdict.status in decisive for r in kept]
    return RiskCoverage("abstention", len(kept), selective_risk(confidences, correct))
