"""Batched verification: which facts share a call, their pooled evidence, their shared cost.

A batch is the facts of one source sentence (the routing unit), up to ``verify_batch`` of
them. Its evidence is every member's retrieved passages, pooled and de-duplicated (by id,
then by content), each cut down to its sentences that share the most words with the batch's
facts. Excerpts are verbatim runs of the passage under the passage's own id, so a quote
copied from one is a substring of the passage as each fact's record stores it and the
grounding rule checks it unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from triqua.core.routing import group_by_sentence
from triqua.schema import Evidence, Fact, FactUnit, Usage

__all__ = [
    "BatchItem",
    "batch_keys",
    "batches_of",
    "excerpts",
    "pool_evidence",
    "split_usage",
]

#: Passages up to this many characters are shown whole.
WHOLE_PASSAGE_CHARS = 320
#: Sentences kept from a longer passage.
SENTENCES_KEPT = 3

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'“(])")
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class BatchItem:
    """One fact of a batch: the fact, its own evidence and (complex route) its units."""

    fact: Fact
    evidence: tuple[Evidence, ...]
    units: tuple[FactUnit, ...] | None = None


def batches_of(facts: Sequence[Fact], size: int) -> list[list[int]]:
    """Indices of ``facts`` in batches: each sentence's facts, in runs of at most ``size``."""
    size = max(1, size)
    out: list[list[int]] = []
    for group in group_by_sentence(facts):
        out.extend(group[i : i + size] for i in range(0, len(group), size))
    return out


def batch_keys(facts: Sequence[Fact], size: int) -> dict[str, tuple[str, int]]:
    """Each batched fact's batch (named by its first fact's id) and that batch's size.

    A batch of one is no batch: its fact is judged in its own call, as with ``size`` 1.
    """
    out = {}
    for batch in batches_of(facts, size):
        if len(batch) > 1:
            for index in batch:
                out[facts[index].id] = (facts[batch[0]].id, len(batch))
    return out


def pool_evidence(items: Sequence[BatchItem]) -> list[Evidence]:
    """Every member's passages once, in the order members list them (by id, then content)."""
    pooled: list[Evidence] = []
    ids: set[str] = set()
    hashes: set[str] = set()
    for item in items:
        for passage in item.evidence:
            digest = passage.content_hash or passage.text
            if passage.id in ids or digest in hashes:
                continue
            ids.add(passage.id)
            hashes.add(digest)
            pooled.append(passage)
    return pooled


def _words(text: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(text) if len(w) > 2}


def excerpts(passage: str, facts: Sequence[Fact]) -> list[str]:
    """The verbatim runs of ``passage`` worth showing for ``facts``: whole when short.

    A longer passage keeps its :data:`SENTENCES_KEPT` sentences sharing the most words with
    any fact (ties to the earlier), in passage order; adjacent kept sentences form one run.
    """
    if len(passage) <= WHOLE_PASSAGE_CHARS:
        return [passage]
    wanted = [_words(f"{f.to_string()} {f.source_text}") for f in facts]
    sentences = [s for s in _SENTENCE_END.split(passage) if s.strip()]
    if len(sentences) <= SENTENCES_KEPT:
        return [passage]
    scores = [max((len(w & _words(s)) for w in wanted), default=0) for s in sentences]
    ranked = sorted(range(len(sentences)), key=lambda i: (-scores[i], i))
    kept = sorted(ranked[:SENTENCES_KEPT])
    runs: list[tuple[int, int]] = []
    cursor = 0
    for index, sentence in enumerate(sentences):
        at = passage.find(sentence, cursor)
        cursor = at + len(sentence)
        if index not in kept:
            continue
        if runs and index - 1 in kept:
            runs[-1] = (runs[-1][0], cursor)
        else:
            runs.append((at, cursor))
    return [passage[start:end] for start, end in runs]


def split_usage(total: Usage, members: int) -> list[Usage]:
    """One batch call's usage shared out so that the members' usages add up to it.

    The call itself is counted on the first member; tokens are divided evenly, the remainder
    going to the first members.
    """
    members = max(1, members)

    def share(value: int, index: int) -> int:
        return value // members + (1 if index < value % members else 0)

    return [
        Usage(
            model_calls=total.model_calls if i == 0 else 0,
            search_calls=total.search_calls if i == 0 else 0,
            input_tokens=share(total.input_tokens, i),
            output_tokens=share(total.output_tokens, i),
            cached_input_tokens=share(total.cached_input_tokens, i),
            tokens_estimated=total.tokens_estimated,
        )
        for i in range(members)
    ]
