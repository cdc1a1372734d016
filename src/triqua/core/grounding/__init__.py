"""Grounding: does a cited window state a unit.

The grounding rule (``rule``) judged (``judged``) or strict (``strict``), its value gates
(``gates``), the word check (``statement``), a unit's values in a quote (``quote_values``,
``value_binding``) and the reader of meaning the rules ask (``meaning_reader``). Words,
values, names and restrictors are read by ``core.reading``, the reader the offline verifier
shares.
"""
