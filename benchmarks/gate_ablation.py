"""What each gate of the offline verifier adds: every gate switched off in turn, on dev rows.

The judge reads; the gates may only take a support back. A gate earns its place when
switching it off raises the lies kept more than it raises the true supports found. Each
configuration is run on the same rows in one process:

- **Factcheck-Bench dev**: the tune half's dev claims (``training/prepare.py``'s split: never
  trained on, never reported), partial support left out; balanced accuracy of "supported vs
  not", recall of supported and false support on the rest, the claim supported when every
  fact is after the grounding rule;
- **plausible lies** (``benchmarks/data/plausible_lies.jsonl``): a lie is kept when some
  fact of its claim ends supported; controls are true paraphrases that should be supported;
- **evaluation cases** (``triqua.evals.cases``, as ``benchmarks/eval_cases.py`` runs them):
  the hand-written fact and text cases passed. They hold the worked examples a rule was
  written for, which the dev rows rarely meet: a rule whose removal changes nothing on dev
  may still lose them.

Gates (each switched off alone): ``values`` (the fact's numbers, dates, names, polarity and
restrictors in the window), ``relation`` (a relation the lexicon knows written by one of its
words), ``grounding`` (the statement gates read when a run settles a verdict, the only ones
on the rules' own-words support), ``rival`` (a judged rival after a bare "is in"), and three
readings of the rules: ``life-dates`` (a life's dates in parentheses giving another date
contradict; one giving the claimed date is the judge's to support),
``unique-roles`` (a role only one holds) and ``rules-support`` (a sentence stating the fact in
its own words supports without the judge); and the rules' value
readings: ``rules-conflict`` (another value in the object's slot contradicts), ``rules-rival``
(another name of the object's type after the relation contradicts), ``restrictors`` ("once",
"the first", "only" read in the window), ``qualifier-rules`` (a qualifier's value stated or
rivalled in its base's window; off, only the judge reads qualifiers) and ``qualifier-rival``
(another name after a qualifier's cue word contradicts); and two guards of the rules' reading:
``rules-roles`` (the roles swapped, "Iron is more reactive than copper", give no own-words
support) and ``rules-namesake`` ("Pierre Curie was born in Paris" is no conflict for "Curie");
and ``said-object`` (a fact whose decomposition lost its object is gated by its sentence's
words after the relation: "was ranked worst …" against "the greatest"). Finer readings of the
rules, each a candidate to retire once the judge and the shared gates hold its cases:
``negation-scope`` (a cue in a clause under another noun denies nothing: "Einstein, who never
learned to drive, won"), ``values-elsewhere`` (a value in another clause is no conflict),
``agent-rival`` (an active sentence's agent rivals a passive fact's), ``comparative`` (the word
a comparison turns on), ``head-rival`` (another word in the object's head slot),
``substitution`` ("baseball clubs" for "football clubs"), ``wide-windows`` (two-sentence
windows), ``place-slot`` (a name after "in" fills a place slot), ``temporal`` (a dated qualifier
read by its date alone), ``label-cues`` (the cue words of a qualifier's label), ``subject-head``
("the largest city of Australia" is not "the capital of Australia"), ``referent`` (a subject's
restrictor written in the sentence a reference points back to), ``recipient`` ("the prize was
awarded to Curie" for "Curie was awarded the prize"), ``part-count`` ("ten medals, including
nine gold" is no rival count), ``quote-choice`` (of the sentences stating the base, the one
writing most of the object binds its qualifiers), ``past-verb`` (another past verb before the
object: "was repainted in" for "was built in"), ``object-it`` (a passive fact's subject as "it"
after the verb: "Wales and Sanger launched it") and ``worded`` (a window wording a known
relation otherwise needs the card's ``entailed``), and the guards inside the rules' reading:
``opposite`` (a crisp opposite word contradicts), ``held-elsewhere`` (a neighbour gives the
predicate to another holder), ``filled`` (a window writing no object word needs a surer judge),
``counts-groups`` ("19 chromosome pairs" is no rival count), ``rules-head`` and ``rules-count``
(a named head or a vague count keeps the rules from supporting), ``qualifier-stated`` (a
qualifier's value stated in its base's window supports it), ``qualifier-refusal`` (the
qualifier gates) and ``rules-negation`` (a negation that differs contradicts). Each loses
something switched off: evaluation cases (``object-it`` and ``rules-count`` the recall
suite's, ``held-elsewhere`` and ``rules-head`` the lies suite's, which ``eval_cases.py``
runs), dev rows (``filled``) or a unit test (``opposite``, ``counts-groups``); the statement
gates of the rules' own-words support are the grounding rule's alone (``grounding``), and
they hold its "only one" and "has yet to" cases. ``--failures`` lists the evaluation cases
each configuration fails. Each configuration reads afresh: the readings
triqua remembers (``functools.lru_cache``: the statement gates, the subject's mentions) are
emptied when a switch goes off and again when it comes back on, so a reading remembered with
every gate on never answers for a gate switched off.

Usage: python benchmarks/gate_ablation.py [--limit N] [--only GATE ...] [--no-cases] [--failures]
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "training"))

from offline_verdicts import crude_fact  # noqa: E402
from prepare import FCB, bucket, fcb_half  # noqa: E402

import triqua.core.reading.mentions as mentions  # noqa: E402
import triqua.core.reading.part_match as part_match  # noqa: E402
import triqua.core.reading.part_rivals as part_rivals  # noqa: E402
import triqua.core.reading.slot_rivals as slot_rivals  # noqa: E402
import triqua.core.reading.slot_words as slot_words  # noqa: E402
import triqua.core.reading.statements as statements  # noqa: E402
import triqua.engines.offline.verify.base_rules as base_rules  # noqa: E402
import triqua.engines.offline.verify.gates as gates  # noqa: E402
import triqua.engines.offline.verify.qualifiers as qualifiers  # noqa: E402
import triqua.engines.offline.verify.reading as reading  # noqa: E402
import triqua.engines.offline.verify.verifier as verifier_module  # noqa: E402
from triqua.core.verdicts.settling import settle  # noqa: E402
from triqua.engines.offline.decompose.decomposer import get_decomposer  # noqa: E402
from triqua.engines.offline.verify.verifier import AlignmentVerifier  # noqa: E402
from triqua.evals.cases import (  # noqa: E402
    load_cases,
    pass_rates,
    run_fact_cases,
    run_text_cases,
)
from triqua.models.reader import EntailmentReader  # noqa: E402
from triqua.schema import Evidence, Fact, Status  # noqa: E402

LIES = ROOT / "benchmarks" / "data" / "plausible_lies.jsonl"
FACT_CASES = ROOT / "tests" / "data" / "offline_cases.jsonl"
TEXT_CASES = ROOT / "benchmarks" / "data" / "new_user_cases.jsonl"

_windows = reading.windows
_rules_reading = verifier_module._rules_reading
_needed = reading.needed

#: Each gate: the module attribute that reads it, and what it answers when switched off.
GATES: dict[str, list[tuple[Any, str, Any]]] = {
    "values": [(reading, "values_present", lambda *a, **k: True)],
    "relation": [
        (reading, "other_known_relation", lambda *a, **k: False),
        (reading, "rewords", lambda *a, **k: False),
    ],
    "grounding": [(EntailmentReader, "refusal", lambda self, unit, window: None)],
    "rival": [(verifier_module, "judged_rival", lambda *a, **k: None)],
    "life-dates": [(verifier_module, "life_date_finding", lambda *a, **k: None)],
    "unique-roles": [(verifier_module, "role_rival", lambda *a, **k: None)],
    "rules-support": [
        (verifier_module, "_rules_reading", lambda *a, **k: _no_support(*a, **k)),
    ],
    "qualifier-rules": [
        (verifier_module, "judge_qualifier", lambda *a, **k: _no_crisp_qualifier(*a, **k)),
    ],
    "restrictors": [
        (gates, "restrictors_stated", lambda *a, **k: ("ok", None)),
        (base_rules, "restrictors_stated", lambda *a, **k: ("ok", None)),
    ],
    "own-slot": [(statements, "own_slot", lambda *a, **k: None)],
    "counted-noun": [(statements, "counted_slot", lambda *a, **k: None)],
    "other-patient": [(statements, "patient_of_fact", lambda *a, **k: None)],
    "rules-conflict": [(base_rules, "_conflict", lambda *a, **k: None)],
    "rules-rival": [(base_rules, "slot_rival", lambda *a, **k: None)],
    "qualifier-rival": [(qualifiers, "qualifier_rival", lambda *a, **k: None)],
    "rules-roles": [(base_rules, "roles_differ", lambda *a, **k: False)],
    "rules-namesake": [(base_rules, "extends_subject", lambda *a, **k: False)],
    "said-object": [(reading, "said_object", lambda fact, parts: parts.object)],
    "negation-scope": [(part_rivals, "in_scope", lambda sentence, tokens, anchor: tokens)],
    "values-elsewhere": [(base_rules, "values_elsewhere", lambda *a, **k: False)],
    "agent-rival": [(slot_rivals, "agent_rival", lambda *a, **k: None)],
    "comparative": [(part_match, "comparative", lambda *a, **k: None)],
    "head-rival": [(reading, "head_rival", lambda *a, **k: None)],
    "substitution": [
        (module, "substitution", lambda *a, **k: None) for module in (reading, gates, part_match)
    ],
    "wide-windows": [(reading, "windows", lambda *a, **k: _windows(*a, **{**k, "wide": False}))],
    "place-slot": [(slot_rivals, "_place_slot", lambda *a, **k: False)],
    "temporal": [(qualifiers, "_TEMPORAL", re.compile(r"(?!)"))],
    "label-cues": [(slot_rivals, "LABEL_CUES", {})],
    "subject-head": [(gates, "subject_head_rival", lambda *a, **k: None)],
    "referent": [(base_rules, "sentence_before", lambda *a, **k: None)],
    "recipient": [(part_rivals, "_to_recipient", lambda *a, **k: False)],
    "part-count": [(base_rules, "states_count", lambda *a, **k: False)],
    "quote-choice": [(base_rules, "written_share", lambda *a, **k: 0.0)],
    "past-verb": [(slot_words, "_past_form", lambda word: False)],
    "object-it": [(mentions, "_object_it", lambda info: False)],
    "worded": [(reading, "needed", lambda *a, **k: _unworded(*a, **k))],
    "opposite": [(base_rules, "_opposite", lambda *a, **k: None)],
    "held-elsewhere": [(reading, "held_elsewhere", lambda *a, **k: False)],
    "filled": [(reading, "_filled", lambda parts, readings: readings)],
    "counts-groups": [(base_rules, "counts_groups", lambda *a, **k: False)],
    "rules-head": [(base_rules, "named_head_rival", lambda *a, **k: None)],
    "rules-count": [(base_rules, "count_substitution", lambda *a, **k: None)],
    "qualifier-stated": [(qualifiers, "_stated_in_window", lambda *a, **k: None)],
    "qualifier-refusal": [
        (module, "qualifier_refusal", lambda *a, **k: None) for module in (reading, qualifiers)
    ],
    "rules-negation": [(base_rules, "negated_in", lambda info, anchor, parts: parts.negated)],
}


def _unworded(window: reading.Reading, model: Any) -> float:
    """The entailment a window needs with the relation's wording not read (``worded`` off)."""
    return _needed(dataclasses.replace(window, worded=True), model)


def _no_crisp_qualifier(*args: Any, **kwargs: Any) -> Any:
    """A qualifier the rules neither state nor contradict: only the judge may read it."""
    base = args[3]
    return type(base)(Status.INSUFFICIENT, base.sentence)


def _no_support(*args: Any, **kwargs: Any) -> Any:
    """The rules' reading of the base with every support taken away (conflicts stay)."""
    finding, stated = _rules_reading(*args, **kwargs)
    if finding.status != Status.SUPPORTED:
        return finding, stated
    return type(finding)(Status.INSUFFICIENT, finding.sentence, strength=finding.strength), []


def forget_readings() -> None:
    """Empty every remembered reading of triqua's modules (``functools.lru_cache``).

    A reading remembered with a gate on would answer for the gate switched off (the
    statement gates are read once per fact and window): each configuration reads afresh.
    """
    for name, module in list(sys.modules.items()):
        if name.startswith("triqua.") and module is not None:
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


@contextlib.contextmanager
def switched_off(gate: str | None) -> Iterator[None]:
    """Run with ``gate`` switched off (None: every gate on), nothing remembered across."""
    saved = []
    for owner, name, off in GATES.get(gate or "", []):
        saved.append((owner, name, getattr(owner, name)))
        setattr(owner, name, off)
    if saved:
        forget_readings()
    try:
        yield
    finally:
        for owner, name, value in saved:
            setattr(owner, name, value)
        if saved:
            forget_readings()


def fcb_dev(limit: int) -> list[tuple[str, str, bool]]:
    """(claim, passage, gold supported) of Factcheck-Bench's dev claims, no partial support."""
    rows = [
        (r["claim"], r["evidence"], r["stance"] == "completely-support")
        for r in map(json.loads, FCB.open(encoding="utf-8"))
        if fcb_half(r["claim"]) == "tune"
        and bucket(r["claim"], "fcb-dev") < 52
        and r["stance"] != "partially-support"
    ]
    return rows[:limit] if limit else rows


def lies() -> list[dict[str, Any]]:
    """The plausible lies and their controls."""
    return [json.loads(line) for line in LIES.open(encoding="utf-8") if line.strip()]


def check(
    verifier: AlignmentVerifier,
    reader: EntailmentReader,
    facts: list[Fact],
    evidence: list[Evidence],
) -> list[Status]:
    """The facts' statuses as a run settles them (the grounding rule applied)."""
    verdicts = verifier.verify_many(facts, evidence)
    return [
        settle(f, v, evidence, reader=reader).status for f, v in zip(facts, verdicts, strict=True)
    ]


def measure(
    verifier: AlignmentVerifier,
    rows: list[tuple[str, str, bool]],
    decomposed: list[list[Fact]],
    lie_rows: list[dict[str, Any]],
) -> dict[str, float]:
    """Factcheck-Bench dev figures and plausible lies kept, for the gates as they are now."""
    model = verifier.entailment
    assert model is not None, "the shipped entailment judge is missing"
    reader = EntailmentReader(model, paraphrase=model.thresholds.supports)
    hits = {True: [0, 0], False: [0, 0]}
    for (claim, passage, gold), facts in zip(rows, decomposed, strict=True):
        facts = facts or crude_fact(claim)
        evidence = [Evidence.build(document_id="row", text=passage, retriever="bench")]
        statuses = check(verifier, reader, facts, evidence)
        called = bool(statuses) and all(s == Status.SUPPORTED for s in statuses)
        hits[gold][0] += called
        hits[gold][1] += 1
    kept = controls = lies_n = controls_n = 0
    for row in lie_rows:
        fact = Fact(**row["fact"], source_text=row["claim"])
        evidence = [
            Evidence.build(document_id=f"doc{k}", text=text, retriever="bench")
            for k, text in enumerate(row["evidence"])
        ]
        statuses = check(verifier, reader, [fact], evidence)
        if row["kind"] == "control":
            controls_n += 1
            controls += statuses[0] == Status.SUPPORTED
        else:
            lies_n += 1
            kept += statuses[0] == Status.SUPPORTED
    recall = hits[True][0] / max(1, hits[True][1])
    false_support = hits[False][0] / max(1, hits[False][1])
    return {
        "balanced": (recall + 1 - false_support) / 2,
        "recall": recall,
        "false_support": false_support,
        "lies_kept": kept,
        "lies": lies_n,
        "controls_supported": controls,
        "controls": controls_n,
    }


def cases_passed(failures: bool = False) -> str:
    """The evaluation cases passed, as "fact 262/265 text 63/66" (and the ids failed)."""
    results = run_fact_cases(load_cases(FACT_CASES)) + run_text_cases(load_cases(TEXT_CASES))
    rates = pass_rates(results)
    passed = "  ".join(f"{suite} {rates[suite][0]}/{rates[suite][1]}" for suite in ("fact", "text"))
    failed = [f"{r.suite}:{r.id}" for r in results if not r.passed]
    return f"{passed}  failed: {' '.join(failed)}" if failures else passed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="Factcheck-Bench dev rows (0: all)")
    parser.add_argument("--only", nargs="*", default=None, choices=sorted(GATES))
    parser.add_argument("--no-cases", action="store_true", help="skip the evaluation cases")
    parser.add_argument(
        "--failures", action="store_true", help="list the evaluation cases each one fails"
    )
    args = parser.parse_args()
    rows = fcb_dev(args.limit)
    decomposed = get_decomposer().decompose_many([claim for claim, _, _ in rows])
    lie_rows = lies()
    print(f"Factcheck-Bench dev: {len(rows)} claims; plausible lies: {len(lie_rows)} rows")
    print(
        f"{'switched off':<14}{'bal. acc.':>10}{'recall':>8}{'false sup.':>11}{'lies kept':>11}"
        f"{'controls':>10}  evaluation cases"
    )
    for gate in [None, *(args.only if args.only is not None else GATES)]:
        started = time.perf_counter()
        # A fresh verifier per configuration: nothing it caches outlives a configuration.
        verifier = AlignmentVerifier()
        with switched_off(gate):
            f = measure(verifier, rows, decomposed, lie_rows)
            cases = "" if args.no_cases else cases_passed(args.failures)
        print(
            f"{gate or '(none)':<14}{f['balanced']:>10.3f}{f['recall']:>8.3f}"
            f"{f['false_support']:>11.3f}{f['lies_kept']:>6.0f}/{f['lies']:<4.0f}"
            f"{f['controls_supported']:>5.0f}/{f['controls']:<4.0f}  {cases}"
            f"  ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
