"""Claim verification data: the claim rows, their gold labels and how labels map to statuses.

Default label mapping (Factcheck-Bench subtask 3 stances): completely-support → supported,
refute → contradicted, irrelevant → insufficient_evidence, partially-support → ``partial``.
Partial rows are not in the 3-way metrics (no single gold verdict fits them); they are
reported apart, with how triqua's unit-level score spreads over them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from triqua.schema import Status
from triqua.support.jsonl import read_jsonl

__all__ = [
    "CLAIMS_FILE",
    "DEFAULT_LABEL_MAP",
    "LABELS",
    "PARTIAL",
    "SKIP",
    "TARGETS",
    "ClaimRow",
    "load_claims",
    "parse_label_map",
]

#: The default data file, relative to the data folder.
CLAIMS_FILE = "factcheck_bench/subtask3_claim_evidence_stance.jsonl"
#: The 3-way classes, in confusion-matrix order.
LABELS = (Status.SUPPORTED.value, Status.CONTRADICTED.value, Status.INSUFFICIENT.value)
#: Gold rows reported apart from the 3-way metrics.
PARTIAL = "partial"
#: Gold rows left out entirely.
SKIP = "skip"
TARGETS = (*LABELS, PARTIAL, SKIP)
DEFAULT_LABEL_MAP = {
    "completely-support": Status.SUPPORTED.value,
    "refute": Status.CONTRADICTED.value,
    "irrelevant": Status.INSUFFICIENT.value,
    "partially-support": PARTIAL,
}


def parse_label_map(text: str) -> dict[str, str]:
    """Parse ``"gold=target,gold=target"``; a target is a status, 'partial' or 'skip'.

    Raises:
        ValueError: for an entry without '=' or an unknown target.
    """
    mapping = {}
    for entry in (e.strip() for e in text.split(",")):
        if not entry:
            continue
        gold, sep, target = (part.strip() for part in entry.partition("="))
        if not sep or not gold:
            raise ValueError(f"label map entry {entry!r} is not 'gold=target'")
        if target not in TARGETS:
            raise ValueError(f"label map target {target!r} is not one of {', '.join(TARGETS)}")
        mapping[gold] = target
    return mapping


@dataclass(frozen=True)
class ClaimRow:
    """One claim with its evidence passage, its raw label and the label it maps to."""

    index: int
    claim: str
    evidence: str
    label: str
    gold: str


def load_claims(
    path: Path,
    *,
    claim_field: str = "claim",
    evidence_field: str = "evidence",
    label_field: str = "stance",
    label_map: dict[str, str] | None = None,
    problems: list[str] | None = None,
) -> tuple[list[ClaimRow], int]:
    """Read claim rows from JSONL; returns the rows and how many were mapped to 'skip'.

    Args:
        path: The JSONL file.
        claim_field: Field holding the claim.
        evidence_field: Field holding its evidence text.
        label_field: Field holding its gold label.
        label_map: Dataset label to triqua status (or 'skip').
        problems: Receives ``"<path>:<line>: <why>"`` for each bad line, which is skipped;
            without it, the first bad line is raised.

    Raises:
        ValueError: ``"<path>:<line>: <why>"`` for a malformed row (without ``problems``),
            or the labels that the mapping does not cover.
    """
    mapping = DEFAULT_LABEL_MAP if label_map is None else label_map
    rows: list[ClaimRow] = []
    unknown: Counter[str] = Counter()
    skipped = 0

    def fields_of(record: Any) -> tuple[str, str, str]:
        try:
            return (
                str(record[claim_field]),
                str(record[evidence_field]),
                str(record[label_field]),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a claim row ({exc!r})") from None

    def strict(message: str) -> None:
        raise ValueError(message)

    report = problems.append if problems is not None else strict
    for number, (claim, evidence, label) in read_jsonl(path, report, parse=fields_of):
        target = mapping.get(label)
        if target is None:
            unknown[label] += 1
        elif target == SKIP:
            skipped += 1
        else:
            rows.append(ClaimRow(number, claim, evidence, label, target))
    if unknown:
        listed = ", ".join(f"{k!r} ({v})" for k, v in sorted(unknown.items()))
        raise ValueError(f"{path}: labels not in the label map: {listed}")
    return rows, skipped
