"""Defaults the ``triqua eval`` help shows, kept apart so ``--help`` loads no evaluation code."""

DEFAULT_CONTAINMENT_THRESHOLD = 0.8
"""Share of an element's content words the source sentence must contain for entailment."""
