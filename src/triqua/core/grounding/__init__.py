"""Grounding: does a cited window state a unit.

The grounding rule (``rule``) judged (``judged``) or strict (``strict``), its value gates
(``gates``), the word check (``statement``), quotes and their values (``quotes``,
``quote_values``, ``value_binding``, ``restrictors``, ``numbers``), the reader of meaning
the rules ask (``meaning_reader``) and the lexicon they read (``lexicon_file``).
"""
