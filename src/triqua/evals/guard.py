"""Cost guard: estimate model calls and searches before an evaluation runs, and ask first.

The estimate is deliberately rough and errs high: sentences are counted with a regex, each
sentence is assumed to yield a few facts, and every complex fact is assumed to use all its
re-verification rounds. Which facts are complex is not known before decomposition: under
``routing="auto"`` the estimate takes the share measured on the FActScore bios
(:data:`COMPLEX_SHARE`), under ``"always_element"`` every fact. The offline engine costs no
model calls, so with local evidence it never asks; web searches (Tavily) count against the
same threshold whatever the engine.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from triqua.context import Context
from triqua.core.text.chunking import split_text
from triqua.schema.retriever_kinds import kind_of

__all__ = [
    "COMPLEX_SHARE",
    "FACTS_PER_SENTENCE",
    "CostEstimate",
    "complex_share",
    "confirm",
    "count_sentences",
    "estimate_cost",
]

#: Facts an LLM decomposer extracts per sentence (TriQua reports about 2 to 3).
FACTS_PER_SENTENCE = 3
#: Share of facts routed complex under ``routing="auto"`` (they take the re-verification
#: path): 35.7 % of the FActScore ChatGPT bios' facts at δ = 3 (``benchmarks/routing.py
#: --graphs-only``, which prints this figure beside its measurement; docs/fidelity.md row 26).
COMPLEX_SHARE = 0.357


def complex_share(context: Context) -> float:
    """Share of facts expected on the re-verification path under ``context.routing``."""
    if context.routing == "never_reverify":
        return 0.0
    return 1.0 if context.routing == "always_element" else COMPLEX_SHARE


_SENTENCE_END = re.compile(r"[.!?]+(?:\s+|$)")


def count_sentences(text: str) -> int:
    """Sentences in ``text``, cut at end punctuation (errs high: "Dr. Who" counts as two)."""
    return sum(1 for piece in _SENTENCE_END.split(text) if any(ch.isalnum() for ch in piece))


@dataclass(frozen=True)
class CostEstimate:
    """Expected work of an evaluation run."""

    texts: int
    sentences: int
    facts: int
    model_calls: int
    searches: int
    offline: bool

    def describe(self) -> str:
        """One line for the terminal."""
        engine = "offline engine, no model calls" if self.offline else "chat model"
        return (
            f"estimate: {self.texts} texts, ~{self.sentences} sentences, ~{self.facts} facts; "
            f"~{self.model_calls} model calls, ~{self.searches} searches ({engine})"
        )

    def needs_confirmation(self, threshold: int) -> bool:
        """True when the run would spend more than ``threshold`` model calls or searches."""
        return self.model_calls > threshold or self.searches > threshold


def estimate_cost(
    texts: Sequence[str],
    context: Context,
    *,
    retriever: str,
    extra_calls_per_text: int = 0,
    verify: bool = True,
) -> CostEstimate:
    """Estimate the model calls and searches of checking every text with ``context``.

    Args:
        texts: The texts that will be checked.
        context: The run's settings (models, chunk size, re-verification rounds).
        retriever: The retriever kind the run uses ('supplied', 'closed_book', 'tavily'...).
        extra_calls_per_text: Model calls made per text besides the check (e.g. a baseline).
        verify: False when the run only decomposes (no verification, no searches).
    """
    per_text = [count_sentences(t) for t in texts]
    sentences = sum(per_text)
    facts = sentences * FACTS_PER_SENTENCE
    per_fact_rounds = complex_share(context) * context.reverify_rounds
    searches = 0
    if verify and kind_of(retriever).web:  # paid per search; BM25 and Chroma cost nothing
        # Each check stops searching at its budget (max_searches per run).
        searches = sum(
            min(context.max_searches, round(n * FACTS_PER_SENTENCE * (1 + per_fact_rounds)))
            for n in per_text
        )
    model_roles = [context.model_for(r) for r in ("decompose", "verify", "refine")]
    offline = not any(model_roles)
    calls = 0.0
    if context.model_for("decompose"):
        calls += sum(len(split_text(t, context.chunk_size)) for t in texts if t.strip())
    if verify and context.model_for("verify"):
        calls += facts * (1 + per_fact_rounds) + extra_calls_per_text * len(texts)
    if verify and context.model_for("refine"):
        calls += facts * per_fact_rounds
    return CostEstimate(
        texts=len(texts),
        sentences=sentences,
        facts=facts,
        model_calls=round(calls),
        searches=searches,
        offline=offline,
    )


def confirm(
    estimate: CostEstimate,
    *,
    threshold: int,
    assume_yes: bool,
    ask: Callable[[str], bool],
    say: Callable[[str], None],
) -> bool:
    """Print the estimate; ask ``ask`` when it is above ``threshold``; True means go ahead."""
    say(estimate.describe())
    if assume_yes or not estimate.needs_confirmation(threshold):
        return True
    return ask(f"This run may make more than {threshold} model calls or searches. Continue?")
