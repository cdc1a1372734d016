"""Restrictors: the small words that decide whether a statement holds.

"once", "first", "only", "the largest" (``markers``); "one of the largest", "the former
CEO" (``groups``); their word lists and worked examples (``words``, ``data/restrictors.json``).
"""
