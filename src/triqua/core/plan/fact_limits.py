"""Fact order and the ``max_facts`` cap: number the facts in text order, keep the first ones."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from triqua.core.budget.limits import LIMIT_NOTE_PREFIX
from triqua.core.plan.routing import group_by_sentence
from triqua.schema import Fact
from triqua.support.wording import counted, plural


@dataclass
class CappedFacts:
    """The facts to verify (numbered ``f1``…), those cut off, and what to report about it."""

    facts: list[Fact]
    unverified: list[Fact] = field(default_factory=list)
    error: str | None = None
    note: str | None = None


def cap_facts(
    facts: Sequence[Fact], max_facts: int, skipped: int, chunks: int, *, renumber: bool = True
) -> CappedFacts:
    """Sort facts in text order, keep ``max_facts`` and number them; say what was left out.

    ``skipped`` is the number of chunks decomposition skipped once the cap was reached.
    ``renumber`` False keeps the facts' ids (given facts: the ids their file names).
    """
    ordered = sorted(facts, key=lambda f: (f.chunk_index, f.span.start if f.span else 0))
    capped = CappedFacts(facts=ordered)
    if len(ordered) > max_facts or skipped:
        more = max(0, len(ordered) - max_facts)
        parts: list[str] = []
        if more:
            were = plural(more, "was", "were")
            parts.append(f"{counted(more, 'more fact')} found {were} not verified")
        if skipped:
            parts.append(
                f"{skipped} of {counted(chunks, 'chunk')} {plural(skipped, 'was', 'were')} "
                "not decomposed"
            )
        what = " and ".join(parts)
        capped.error = f"stopped at max_facts={max_facts}: {what}"
        capped.note = f"{LIMIT_NOTE_PREFIX}max_facts={max_facts}: {what}"
        capped.unverified = ordered[max_facts:]
        ordered = ordered[:max_facts]
    if renumber:
        ordered = [f.model_copy(update={"id": f"f{n}"}) for n, f in enumerate(ordered, start=1)]
    capped.facts = ordered
    return capped


def sentence_facts(facts: Sequence[Fact]) -> dict[str, list[Fact]]:
    """Each fact's id → the facts of its sentence (re-verification builds claims from them)."""
    return {
        facts[i].id: [facts[j] for j in group] for group in group_by_sentence(facts) for i in group
    }
