"""Usage accounting: model and search calls summed per role and over a run."""

from __future__ import annotations

from collections.abc import Iterable

from triqua.schema import RoleUsage, Usage


def usage_by_role(log: Iterable[RoleUsage]) -> dict[str, Usage]:
    """Sum usage per role (decompose, verify, refine, search)."""
    totals: dict[str, Usage] = {}
    for entry in log:
        totals[entry.role] = totals.get(entry.role, Usage()) + entry.usage
    return totals


def total_usage(usages: Iterable[Usage]) -> Usage:
    """The sum of several usages."""
    total = Usage()
    for usage in usages:
        total = total + usage
    return total
