"""The hand-written cases run as evaluation cases: their pass rates never fall below today's.

The floors are the pass rates measured when the suites became evaluation cases
(``python benchmarks/eval_cases.py``); a change that makes a passing case fail lowers a rate
and fails here, listing every failing case. A change that passes more cases may raise the
floor.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

from triqua.evals.cases import (
    CaseResult,
    lie_cases,
    load_cases,
    pass_rates,
    run_fact_cases,
    run_text_cases,
)

ROOT = Path(__file__).resolve().parents[1]
RECALL_CASES = ROOT / "benchmarks" / "data" / "recall_probe.jsonl"


@functools.lru_cache(maxsize=1)
def _recall_results() -> tuple[CaseResult, ...]:
    """The recall suite's results, run once for both of its tests."""
    return tuple(run_text_cases(load_cases(RECALL_CASES), suite="recall"))


SUITES = {
    "fact": (ROOT / "tests" / "data" / "offline_cases.jsonl", run_fact_cases),
    "text": (ROOT / "benchmarks" / "data" / "new_user_cases.jsonl", run_text_cases),
    "lies": (
        ROOT / "benchmarks" / "data" / "plausible_lies_dev.jsonl",
        lambda rows: run_text_cases(lie_cases(rows), suite="lies"),
    ),
    "recall": (RECALL_CASES, lambda rows: list(_recall_results())),
    "lies-llm": (
        ROOT / "benchmarks" / "data" / "plausible_lies_dev.jsonl",
        lambda rows: _benchmark().llm_lie_results(rows),
    ),
}


def _benchmark() -> Any:
    """``benchmarks/eval_cases.py`` as a module (its LLM-path runner reads the lie rows)."""
    import importlib
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        return importlib.import_module("eval_cases")
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))


#: Pass rates measured on the offline engine (verifier and shipped judge) of this revision.
# The fact floor fell by one with the NLI-trained judge (0.5.0): it reads "sold its collection"
# as entailing "is home to a collection" (0.45, above the verifier's dev-chosen 0.15).
# Fifteen fact cases hold the worked examples of the life-date, unique-role and judged-rival
# readings (all passing), so an ablation of those readings is measured here too. Three more
# hold the worked examples of the rules' role and namesake guards ("Iron is more reactive
# than copper" never supports "Copper is more reactive than iron"). Fourteen more hold the
# worked examples of value rules the judge now covers (a subject's dates, numbers and
# restrictors, a word ending the object's phrase, measure words, key words, paraphrased
# objects, a qualifier's namesake), and four another class given after "is": all passing,
# so the floor keeps the one failure of slack.
# The lies suite (false claims of the value-gate shapes and their controls) passed 23 of 53
# before the frame, agent, value-slot, unit and holder gates. Its second part (52 rows: two
# sentences read together, a value in another verb's clause, and their controls) passed 42
# of 52 before the own-slot, counted-noun, active-agent, other-patient and other-name gates,
# 49 of 52 with them; the whole suite 99 of 105 (the floor keeps one failure of slack).
# With 36 rows for a part's count taken as the whole's, a year of the other conjunct and a
# pronoun after a person named after a preposition (24 false, 12 true), the suite passed
# 206 of 232 before the readings of counts by kind, of those years and of those pronouns,
# 221 of 232 with them (the floor keeps one failure of slack); with a conjoined object of
# the same verb read as no rival in its slot ("won A in 1988 and B in 1993"), 223 of 232.
# The recall suite (70 true claims with the passage that states them, 30 false
# counterparts) supported 41 of the 70 and none of the 30 when it was written; with the
# readings of a description's possessive, a pronoun after an opening phrase, an agent named
# beside its description, a recipient after "to" and a news dateline, 53 of 70, still none
# of the 30 (one false counterpart fails for want of a fact). With a relation worded
# otherwise read by the judge (only another relation's word in the object's slot refused),
# 55 of 70; with 3 true and 4 false claims added for that reading (2 of the true supported,
# none of the false), 57 of 73 true and none of 34 false; with "it" as the first verb's
# object read as a passive subject's ("… launched it on …") and 2 true and 3 false claims
# added for it, 60 of 75 true and none of 37 false. A window without the relation's word
# then asked the card's ``entailed`` of the judge (a false birthplace from "taught at a
# school … in Boston" was supported at ``supports``), and a past verb other than the
# relation's leading the object refused ("was repainted in the 20th century" for "was
# built in …"; 2 false claims added): 58 of 75 true, none of 39 false. With 37 true and 34
# false claims added for plain statements (object pronouns, counts of a part, fractions and
# worded numbers, label lines and tables, appositions, relative clauses): 70 of 112 true,
# none of 73 false; with fractions read as values, evidence read as the sentences it states
# (label lines and table rows about the page's subject, an object pronoun as its name, a
# part's count) and a pronoun never the other person its own sentence names, 95 of 112
# true, none of 73 false (4 false and 3 true claims with "about" give no fact: the
# decomposer's); with a possessive before a listed property ("Its length is …") read as
# the previous subject's, 96 of 112. With 11 true and 8 false claims added for "the company"
# after a sentence naming a person beside it and for roles written out in lower case ("chief
# executive officer" for CEO): 96 of 123 true, none of 81 false; with those two readings,
# a year in the clause that spells the role out read as the role's, and a name holding the
# class noun ("Lake Baikal" for "the lake") of that class, 107 of 123, none of 81. The suite
# floor keeps one of slack. With the decomposer reading a count of people as a subject,
# a misread opening "The", a name before a past verb and "is home to" (the claims with
# "about" give facts): 109 of 123 true, none of 81 false. Quoting, of the sentences that
# state the base, the one writing most of the object's words: 110 of 123; with a verb
# without a subject sharing its head verb's ("beat Germany … to win the World Cup"): 111;
# with a sentence referring back finding the subject's restrictor ("Ninth") in its
# referent: 112. The text suite passes 78 of 79 since the offline decomposer reads the rows
# of a Markdown table in the checked text. With 4 true and 3 false claims added for counts of
# groups ("19 chromosome pairs") and a name's own acronym beside it ("Byte Pair Encoding
# (BPE)"), and 5 true and 5 false for labelled years, fuller names, combining accents and
# post-nominal letters.
# With 39 lie rows of the five kinds and their controls (ids ``dev5-…``: negations, a measure
# or a route's end in another clause, another entity with the same relation, two sentences,
# namesakes; relations a copula states, "lies in", "is based in") and 18 text cases (the
# copular relations, a lead writing nothing of a relation the lexicon does not know, a
# measure, a route, a title after a class noun), written before the engine was run on them:
# lies 252 of 271 and text 90 of 94 before the readings they asked for (a copula writing
# "is located in", the parse repairs, a measure's slot, another occurrence of the verb, a
# name on the subject's head word, an object's author, a participle without "in"), 259 of 271
# and 97 of 97 with them. With 18 lie rows and 3 fact cases for a predicate another name holds
# nearby, a class word inside another name, "only one" against "multiple", and a "stated by"
# qualifier its source never reports, and 4 recall rows for joined prepositions. With 8 recall
# rows for a relation's own word before its synonyms, demonyms and vague counts. With 40 lie
# rows (ids ``dev6-…``: a value in another clause, another entity, two sentences read together)
# written before the engine was run on them. With 34 lie rows (ids ``dev7-…``: hyphenated verbs,
# a verb left out of a list's later conjuncts, two verbs of one history, a relation word the
# window does not write), written before the engine was run on them: lies 335 of 363 before
# the readings they asked for (a prefixed word kept whole, gapping read back, a role noun or
# another verb before the relation's preposition raising the bar), 345 of 363 with them.
# With 22 lie rows (ids ``dev7-un-…``, ``dev7-slot-…``: windows that name neither the subject
# nor the relation, the object's slot empty or filled with another value): lies 367 of 385;
# 368 with the event window retired (a later sentence no longer dates a base it refers to).
# Lies whose claim adds a modifier the evidence lacks ("has yet to win", "failed to", "only",
# "positively reviewed") and their controls, written before the engine was run on them:
# 15 of 24 before the modifier gates, 19 of 24 after (the five left give no fact: "died
# before completing", "was elected President"): lies 386 of 409, 387 with the event window
# retired. With 20 lie rows (ids ``dev8-…``: another class for the subject, an antonym in the
# relation or object) and their controls, written before the engine was run on them: 405 of 429.
# With 7 lie rows (ids ``dev10-…``: "sold in Denmark only" for "several countries", a title
# that asks) and 6 recall rows (a class in one phrase with a name, "films, including Green
# Hollow", and false classes), written before the engine was run on them: lies 411 of 436
# (the six lies kept by none; a control "How glaciers are formed is told …" is refused by the
# object-across-clauses gate, as before), recall 228 of 239 ("Green Hollow is a novel" was
# supported before the class gate read the list's class noun). With 4 recall rows for a fact
# written as one noun phrase ("a friendly match against Chile"; one false counterpart first
# held a true sentence too, and was made wholly false): 232 of 243. With a lie and a control
# for a county named in a city's sentence ("Flagstaff is a city in Coconino County" for "is a
# county"): lies 413 of 438, lies-llm 419 of 438 (14 of 293 lies kept). With 24 lie rows and
# controls (ids ``dev10-an/rh/dc/el/cw-…``: a role noun another name holds, a general class
# word, "died before completing", "was elected President", a value in another name's clause),
# written before the engine was run on them, and the readings they asked for: lies 442 of 462,
# lies-llm 438 of 462 (the LLM path's window checks do not read the role-noun and
# general-class gates yet).
# With 17 rows (ids ``dev11-…``: a "he" after a person of unknown gender named after a
# preposition, lies; after a club, a firm or a studio, controls), written before the engine
# was run on them, and the reading that makes such a person a candidate: lies 459 of 479,
# lies-llm 455 of 479 (17 of 311 lies kept; the three "he" lies of dev3/dev4 no longer).
# With 5 rows for a count another clause writes ("Germany has won it four times"), written
# before the engine was run on them, and the role gate reading it: lies 462 of 484, lies-llm
# 461 of 484 (16 of 314 lies kept; dev7-gp-05 no longer). With 9 rows for "died before
# completing" and for a place where a thing was studied beside where it is kept, written before
# the engine was run on them, and "kept"/"housed" read as "located" ("kept in the Louvre in
# Paris" states Paris): lies 471 of 493, lies-llm 471 of 493 (15 of 319 lies kept). With the
# LLM path's window checks reading the role-noun and general-class gates: lies-llm 474 of 493.
# ``lies-llm`` runs the lies suite on the LLM path (a judge calling every unit supported and
# quoting the row's sentence, so the grounding rule decides): 409 of 429 before the readings
# above (18 of 288 lies kept), 415 of 436 with them (16 of 292 kept).
# With 5 true and 9 false recall rows for an excerpt whose subject is only a pronoun with no
# name before it (ids ``r401``-``r405``, ``x401``-``x409``), written before the engine was run
# on them: none of the 5 true supported before that reading, 3 with it; none of the 9 false
# (recall 244 of 257).
# With 10 rows for another head noun after an ordinal or superlative lead-in ("the first
# published novel" for "... algorithm"), written before the engine was run on them, and that
# head read as a gate the judge cannot outweigh (and a grounding gate): lies 481 of 503, lies-llm
# 481 of 503 (none of the 6 lies kept on either path).
# With the role-noun and general-class gates on the grounding rule's window checks and the
# unique-head gate together: lies-llm 484 of 503.
# With 27 rows for a pronoun read past sentences between it and the subject's name (17 lies,
# 10 controls; on main before the step 18 of 27 offline, 20 of 27 on the LLM path), the
# joined windows and the grounding rule reading a pronoun past a place: lies 506 of 530,
# lies-llm 509 of 530 (the 503 earlier rows as before; none of the 17 lies kept on either path).
# With 72 rows (ids dev13-lz-…) written before the engine was run on them: negated relative
# clauses, reported-speech and instruction frames, persons the recogniser types as bodies,
# sentences writing only the object's common words, conjunctions of two sentences, "X, not
# Y"; 32 attacker's rows (dev13-ak-…); and 16 rows of a list that names a slot's members and
# leaves the object out (8 lies, 8 controls, ids dev13-ls-…), that list read as a statement
# gate; all together: lies 606 of 650, lies-llm 611 of 650 (none of the 503 earlier rows lost).
# With 12 rows (ids ``dev13-gr-*``: namesakes with a particle, digits closing a name, a number
# word opening a name, a possessive's degree, a list inside a phrase), written before the
# engine was run on them, and the name reader's particles and possessives: lies 491 of 515,
# lies-llm 494 of 515 (the first 503 as before; of the 12, a century given to another clause
# kept on both paths and "One Direction" as a subject refused on both).
# All of these together: lies 616 of 662, lies-llm 621 of 662; with the offline engine reading
# a negated relative clause by the shared negation reader and small clauses as objects: lies
# 620 of 662.
# With 22 rows (ids dev14-dn-…, 12 lies, 10 controls) written before the engine was run on
# them: a statement the next sentence disowns ("That is wrong."), "There is no evidence that",
# a counterfactual "would have", "far from" / "anything but", and a support beside a rival
# name the judge confirms in another passage: lies 632 of 672 (from 614 of 666 on the rows
# before the last 6), lies-llm 636 of 672 (from 619 of 666; the LLM path still supports the 3
# lies whose rival stands in another passage). No earlier row lost on either path.
# All of these together: lies 646 of 684, lies-llm 646 of 684; with 72 rows of conjunctions and
# other clauses (dev14-cj-…) and a value read in its relation's clause: lies 715 of 756,
# lies-llm 717 of 756.
# With 28 rows (dev15-cf-…, 13 lies, 15 controls) written before the engine was run on them:
# a support beside a value only one can hold in another passage (a birth's or a death's place
# or year, a role only one holds), read by one dispute reader on both engines: lies 738 of 784
# (731 before it), lies-llm 743 of 784 (732 before it: the 3 dev14-dn-cf rows' first two, and
# two attacker rows whose rival stands in another passage). No earlier row lost on either path.
# With 72 rows in new sentence forms (ids dev15-cj-…, 38 lies and 34
# controls: "respectively", "as did", "whereas", comparatives, appositive chains, relatives on
# another noun, relatives sharing a surname, bracketed asides) written before the engine was
# run on them (lies 768 of 828, lies-llm 763 of 828) and the clause owners that read them:
# lies 782 of 828, lies-llm 785 of 828 (dev14-cj-12 passes too); no earlier row lost.
# With 47 attacker rows (dev15-ak-…: hearsay running on, headings and code, closing tags,
# exceptions, label lines, percentage points) and 14 grounding rows (dev15-gr-…: centuries,
# things a possessive owns, "as" roles, end times), all of these together: lies 870 of 917,
# lies-llm 876 of 917, recall 245 of 257 (a bare "the <noun>" opening an excerpt).
FLOORS = {
    "fact": 339 / 341,
    "text": 97 / 97,
    "lies": 870 / 917,
    "recall": 245 / 257,
    "lies-llm": 876 / 917,
}
#: True claims of the recall suite that must end supported, at least.
RECALL_FLOOR = 130

pytestmark = pytest.mark.slow  # about 30 s: 346 cases, 66 of them whole checks


def failures(results: list[CaseResult]) -> str:
    """Every failing case, one block each."""
    return "\n".join(r.describe() for r in results if not r.passed)


@pytest.mark.parametrize("suite", sorted(SUITES))
def test_the_pass_rate_stays_at_or_above_its_floor(suite: str) -> None:
    path, run = SUITES[suite]
    results = run(load_cases(path))
    passed, total = pass_rates(results)[suite]
    listing = failures(results)
    print(f"{suite}: {passed}/{total} passed\n{listing}")
    assert total == len(load_cases(path))
    assert passed / total >= FLOORS[suite] - 1e-9, (
        f"{suite} cases: {passed}/{total} = {passed / total:.3f} < floor "
        f"{FLOORS[suite]:.3f}\n{listing}"
    )


def test_the_eiffel_tower_case_is_an_evaluation_case_of_both_suites() -> None:
    """ "The Eiffel Tower is in Rome." against "The Eiffel Tower is in Paris." expects
    contradicted, as a fact case and as a text case."""
    fact = [c for c in load_cases(SUITES["fact"][0]) if c["subject"] == "The Eiffel Tower"]
    assert any(
        c["relation"] == "is in"
        and c["object"] == "Rome"
        and c["evidence"] == "The Eiffel Tower is in Paris."
        and c["expected"] == ["contradicted"]
        for c in fact
    )
    text = load_cases(SUITES["text"][0])
    assert any(
        c["text"] == "The Eiffel Tower is in Rome."
        and c["evidence"].strip() == "The Eiffel Tower is in Paris."
        and c["expected"] == "contradicted"
        for c in text
    )


def test_the_recall_probe_supports_its_true_claims_and_none_of_its_false_ones() -> None:
    """At least ``RECALL_FLOOR`` of the 138 true claims end supported, and no fact of a
    false counterpart (a changed value or entity) does."""
    cases = load_cases(RECALL_CASES)
    results = _recall_results()
    true = [r for r, c in zip(results, cases, strict=True) if c["expected"] == "supported"]
    false = [r for r, c in zip(results, cases, strict=True) if c["expected"] != "supported"]
    assert len(true) >= 60 and len(false) >= 20
    supported = sum(r.passed for r in true)
    kept = [r for r in false if "'supported'" in r.got]
    assert supported >= RECALL_FLOOR, failures([r for r in true if not r.passed])
    assert kept == [], failures(kept)
