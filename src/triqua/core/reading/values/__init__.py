"""One reader of values for all of triqua: numbers, units, dates, names.

The grounding rule (``core.reading.quote_values``) and the offline verifier
(``core.reading.analysis``) read a claim's and a passage's values here, with the tables and
the one tolerance policy of ``data/values.json``.
"""
