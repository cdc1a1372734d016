"""Grounding: does a cited window state a unit.

The grounding rule (``rule``) under each setting: ``judged``, the default (``stated``),
``judge`` (``judged``) or ``strict`` (``strict``); its value gates (``gates``), the word
check (``statement``), the relation's slot (``slots``: who a window gives the relation
to), a year bound to another event (``value_binding``), a support another passage of the
run disputes (``disputes``) and the reader of meaning the rules ask (``meaning_reader``).
Words, values, names, restrictors and a unit's values in a quote
(``core.reading.quote_values``) are read by ``core.reading``, the reader the offline
verifier and the plan share.
"""
