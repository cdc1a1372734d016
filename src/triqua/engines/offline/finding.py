"""One unit's finding: the status the offline verifier found, on the window it judged.

The verifier's readers (``verify``) and the reader of disputed supports (``disputes``)
record what they find alike; ``verify.findings`` assembles the verdict from the findings.
"""

from __future__ import annotations

from dataclasses import dataclass

from triqua.engines.offline.alignment import Sentence
from triqua.schema import Status

__all__ = ["Finding", "Sentence", "on_sentence"]


@dataclass
class Finding:
    """What one unit's alignment found: status, where, why and how strongly."""

    status: Status
    sentence: Sentence | None = None
    error_span: str | None = None
    reason: str = "no aligned evidence sentence states it"
    strength: float = 0.0
    window_start: Sentence | None = None  # first sentence of a two-sentence window
    similar: float = 0.0  # closest sentence carrying the fact's values, when rules found none


def on_sentence(
    status: Status,
    sentence: Sentence,
    reason: str,
    span: str | None = None,
    window_start: Sentence | None = None,
) -> Finding:
    """A unit judged on ``sentence`` (``span``: the wrong words), as strong as its alignment."""
    return Finding(status, sentence, span, reason, sentence.score, window_start=window_start)
