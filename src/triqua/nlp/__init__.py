"""spaCy's package: every import of spaCy in triqua is here (an import contract keeps it so).

:mod:`triqua.nlp.pipeline` loads the shared English pipeline and the blank sentencizer on
first use; :mod:`triqua.nlp.tokens` names spaCy's parse types and stop words for the modules
that walk a parse (the offline engine, the element graph); :mod:`triqua.nlp.passages` splits
passages into sentences with offsets and types their entities; :mod:`triqua.nlp.clauses`
reads a word's clause and its owner from the dependency parse. A check that splits no sentence
and parses nothing never imports spaCy.
"""
