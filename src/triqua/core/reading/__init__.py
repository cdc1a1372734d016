"""Reading: the one reader of words, names, numbers, dates, units and restrictors.

A claim is checked against a passage by both engines: the offline verifier aligns and
gates a fact's parts, and the grounding rule (``core.grounding``) decides whether a cited
window states a chat model's unit. Both must read a passage alike — "about 1,000" must
reach as far in one as in the other, "won" must be "win", "the former CEO" must not state
"the CEO" — so the readers live here, once, below both:

- ``words`` — tokens, word forms (the lexicon's irregular forms, a light suffix stemmer
  and Snowball stems), relation synonyms, negation cues; ``lexicon`` and ``lexicon_file``
  read ``data/lexicon.json``; ``rules_file`` reads every rules file here alike.
- ``values`` — numbers, units, dates and names in text and how they compare, with one
  tolerance policy (``values/data/values.json``: rules as data, each with examples that
  must and must not match, run as tests).
- ``analysis`` — a text analysed once (tokens, content words, dates, quantities) and how
  a part's words and values are found in a sentence, with ``quantities`` (a counted noun
  compared by its stem); ``name_match`` — whether a sentence names a part ("Curie" names
  "Marie Curie").
- ``roles`` — roles only one holds ("the capital of Australia"): another holder
  contradicts the fact; ``disputes`` — another sentence about the subject giving a value
  only one holds (a bare relation's rival name, a birth's or a death's place or year, such
  a role), read by the offline verifier and the grounding rule alike.
- ``restrictors`` — the small words that decide whether a statement holds: "once",
  "first", "only", "the largest" (``markers``), "one of the largest", "the former CEO"
  (``groups``); their word lists and worked examples are ``data/restrictors.json``.
- ``quotes`` — a quote normalised and found in its passage; ``quote_values`` — whether a
  quote carries a unit's numbers, dates and names (the grounding rule's value gate, the
  plan's founded facts).
- ``acronyms`` — a name and the acronym that spells it ("CTA", "U.S."); ``speech`` —
  direct speech in a sentence, whose pronouns are its speaker's; ``reference`` — whether a
  pronoun or "the film" may refer back to the subject.
- ``negation`` — whether a negation cue denies a unit's words; ``fact_parts`` — a fact's
  subject, relation words (with the lexicon's synonyms), object and polarity;
  ``clause_owners`` — whose clause holds the object; ``statements`` — the statement gates
  no judge overrules (a keyword list, the other polarity, the opposite of the relation's
  word as ``antonyms`` pairs them, another class of the subject, another name in the
  relation's slot, the clause gates), asked of every window an LLM judge cites and of
  every offline support.
- ``passage_reading`` — a passage's sentences as evidence (``stating``: the same readers
  asked of a cited window); ``mentions`` — which sentences speak about a subject;
  ``part_match`` — a fact's object words, restrictors and denial in a sentence, with
  ``part_rivals`` (a substituted word, swapped roles), ``slot_rivals`` (a rival name in
  the value's slot; a qualifier label's cue words are ``data/label_cues.json``) and
  ``slot_words`` (the word leading the object's slot, the word ending its phrase);
  ``class_nouns`` — the class a window gives a subject, against a fact's "X is a Y".

It sits in ``core`` because it is domain knowledge with no engine behind it: the engines'
tier imports ``core``, and ``core.grounding`` the tier below it (``pyproject.toml``'s
import contracts), so neither engine owns what the other reads.
"""
