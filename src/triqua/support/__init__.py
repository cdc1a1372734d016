"""Plumbing below every layer: nothing here knows what a check is.

Lazy public names (``lazy``), safe text and JSON Lines readers (``encoding``, ``jsonl``),
SQLite file checks (``dbfiles``) and the registry of objects a caller hands triqua by name
(``instances``).
"""
