"""Decomposition diagnostics: how text becomes facts (the TriQua paper's Tables 3 and 5).

Facts per sentence, the share of simple and complex facts, qualifiers per complex fact and
by qualifier label, and fact units before and after deduplication.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from triqua.core.text.chunking import previous_text, split_text
from triqua.core.verdicts.scoring import normalize, unit_key
from triqua.evals.setup import EvalSetup
from triqua.prompts import prompt_mode
from triqua.schema import Chunk, Fact, Usage

__all__ = [
    "OFFLINE_MODE",
    "DecomposedText",
    "decompose_texts",
    "decompose_texts_with_modes",
    "decomposition_mode",
    "decomposition_stats",
    "route_texts",
]

OFFLINE_MODE = "offline"
"""The decomposition mode of the offline engine (it has no prompt modes)."""


@dataclass(frozen=True)
class DecomposedText:
    """The facts found in one text and the number of sentences it has."""

    facts: tuple[Fact, ...]
    sentences: int


def _ratio(numerator: float, denominator: float) -> float | None:
    return numerator / denominator if denominator else None


def decomposition_stats(items: Sequence[DecomposedText], top_labels: int = 15) -> dict[str, Any]:
    """Aggregate decomposition statistics over texts.

    Units are deduplicated within each text (as TriQuaScore does), then summed. Qualifier
    labels are compared normalised (case and punctuation ignored); the ``top_labels`` most
    frequent are listed with their share of all qualifiers.
    """
    facts = [fact for item in items for fact in item.facts]
    sentences = sum(item.sentences for item in items)
    complex_facts = [fact for fact in facts if fact.has_qualifiers]
    qualifiers = [q for fact in complex_facts for q in fact.qualifiers]
    labels = Counter(normalize(q.label) or "(empty)" for q in qualifiers)
    units_raw = sum(len(fact.units()) for fact in facts)
    units_dedup = sum(
        len({unit_key(u) for fact in item.facts for u in fact.units()}) for item in items
    )
    per_complex = Counter(len(fact.qualifiers) for fact in complex_facts)
    return {
        "texts": len(items),
        "sentences": sentences,
        "facts": len(facts),
        "facts_per_sentence": _ratio(len(facts), sentences),
        "facts_per_text": _ratio(len(facts), len(items)),
        "simple_facts": len(facts) - len(complex_facts),
        "complex_facts": len(complex_facts),
        "complex_share": _ratio(len(complex_facts), len(facts)),
        "qualifiers": len(qualifiers),
        "qualifiers_per_complex_fact": _ratio(len(qualifiers), len(complex_facts)),
        "complex_by_qualifier_count": {str(k): per_complex[k] for k in sorted(per_complex)},
        "qualifier_labels": [
            {"label": label, "count": count, "share": count / len(qualifiers)}
            for label, count in labels.most_common(top_labels)
        ],
        "distinct_qualifier_labels": len(labels),
        "units_raw": units_raw,
        "units_dedup": units_dedup,
        "dedup_removed_share": _ratio(units_raw - units_dedup, units_raw),
    }


def _chunks(text: str, chunk_size: int) -> list[Chunk]:
    return split_text(text, chunk_size) if text.strip() else []


def decompose_texts(
    texts: Sequence[tuple[str, str | None]],
    setup: EvalSetup,
    *,
    workers: int = 1,
) -> tuple[list[list[Fact]], Usage, list[str]]:
    """Decompose ``(text, question)`` pairs (see :func:`decompose_texts_with_modes`)."""
    facts, _, usage, errors = decompose_texts_with_modes(texts, setup, workers=workers)
    return facts, usage, errors


def decompose_texts_with_modes(
    texts: Sequence[tuple[str, str | None]],
    setup: EvalSetup,
    *,
    workers: int = 1,
) -> tuple[list[list[Fact]], list[list[str]], Usage, list[str]]:
    """Decompose ``(text, question)`` pairs the way a check does: chunked, previous chunk given.

    The offline engine parses every chunk of every text in one spaCy batch; chat models get
    one call per chunk, ``workers`` at a time, through the run's (cached) decomposer.

    Returns:
        Facts per text (in input order), the decomposition mode of each of those facts (one
        of the four prompt modes, or ``"offline"``), the usage spent and the decomposition
        errors.
    """
    chunk_size = setup.context.chunk_size
    plans = [(_chunks(text, chunk_size), question) for text, question in texts]
    if setup.offline:
        from triqua.engines.factory import offline_facts

        requests = [
            (chunk, previous_text([c.text for c in chunks], i), question)
            for chunks, question in plans
            for i, chunk in enumerate(chunks)
        ]
        found = iter(offline_facts(requests))
        found_facts = [[f for _ in chunks for f in next(found)] for chunks, _ in plans]
        return found_facts, [[OFFLINE_MODE] * len(f) for f in found_facts], Usage(), []

    decomposer = setup.resources.engines.decomposer
    jobs = [
        (n, chunk, previous_text([c.text for c in chunks], i), question, len(chunks) > 1)
        for n, (chunks, question) in enumerate(plans)
        for i, chunk in enumerate(chunks)
    ]

    def run(job: tuple[int, Chunk, str | None, str | None, bool]) -> Any:
        _, chunk, previous, question, chunked = job
        return decomposer.decompose(
            chunk, previous_chunk=previous, question=question, chunked=chunked
        )

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        results = list(pool.map(run, jobs))
    facts: list[list[Fact]] = [[] for _ in plans]
    modes: list[list[str]] = [[] for _ in plans]
    usage = Usage()
    errors = []
    for job, result in zip(jobs, results, strict=True):
        facts[job[0]].extend(result.facts)
        mode = prompt_mode(has_question=bool(job[3]), chunked=job[4])
        modes[job[0]].extend([mode] * len(result.facts))
        usage = usage + result.usage
        if result.error:
            errors.append(result.error)
    return facts, modes, usage, errors


def route_texts(facts: Sequence[Sequence[Fact]], setup: EvalSetup) -> list[list[str]]:
    """The route of every fact of every text ('simple' or 'complex'), as a check routes it.

    Each text is routed on its own: facts of different texts never share a sentence graph.
    """
    from triqua.core.plan.routing import Thresholds, route_facts
    from triqua.engines.elements import sentence_element_graphs

    thresholds = Thresholds.of(setup.context)
    return [
        [route for route, _ in route_facts(list(f), thresholds, sentence_element_graphs)]
        for f in facts
    ]


def decomposition_mode(text: str, question: str | None, setup: EvalSetup) -> str:
    """The prompt mode a check of ``text`` decomposes in ("offline" on the offline engine).

    Chunked means more than one decomposition call, as the check packs its chunks
    (``decompose_batch_chars``).
    """
    if setup.offline:
        return OFFLINE_MODE
    from triqua.core.text.chunk_batches import pack

    batches = pack(
        _chunks(text, setup.context.chunk_size), setup.spec.claim_policy.decompose_batch_chars
    )
    return prompt_mode(has_question=bool(question), chunked=len(batches) > 1)
