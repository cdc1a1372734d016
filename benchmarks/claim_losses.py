"""Where the offline engine loses gold-supported claims, cause by cause, on dev rows only.

For each Factcheck-Bench dev claim (``gate_ablation.fcb_dev``: never the held half) that is
gold "completely supported" but that the engine does not support (every fact supported after
the grounding rule, as a run settles it), the loss goes to the first cause that explains it:

- **a decomposition**: the decomposer gave nothing (the crude one-fact fallback), a fact
  names words the claim does not state, or it gave more facts than the claim has clauses;
- then, per fact not supported, **f rules conflict** (the rules read a rival value, name or
  role: the judge is not asked), **b no window read** (no aligned window about the subject
  even with the value and relation gates off), **c judge below supports** for the base in
  every window read with those gates off (``c+`` when a window the engine did not read
  reaches ``supports``: the anchors missed it), **d a gate** took a base support back: the
  grounding rule at settle (its reason kept) or the first gate whose switching off
  (``gate_ablation.switched_off``) gives the base its support again, **e a qualifier** not
  supported while its base is.

A claim's cause is the first (a-f) of its facts' causes. The same table is printed for the
subset the bare judge supports (the claim entailed by its best 1-3-sentence window at the
card's ``entailed`` threshold, ``sentence_judge.claim_probabilities``): the losses the engine
adds to the judge.

Examples marked * are claims the bare judge supports.

``--rows`` picks other dev rows for the same table: ``fcb-tune`` (the whole Factcheck-Bench
tune half, ``offline_verdicts.py``'s split: the judge was trained on its non-dev claims, so its
scores there run high), ``fever-dev`` and ``fever-train`` (the FEVER-symmetric pairs of
``training/nli.py``'s dev and train splits; train for diagnosis only). Never the held rows.

Usage: python benchmarks/claim_losses.py [--limit N] [--examples K]
       [--rows fcb-dev|fcb-tune|fever-dev|fever-train]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "training"))

import gate_ablation as ablation  # noqa: E402
import nli  # noqa: E402  (training/nli.py: the shared NLI pairs and their splits)
from offline_verdicts import DATA, crude_fact, half_of  # noqa: E402
from sentence_judge import claim_probabilities  # noqa: E402

import triqua.core.reading.statements as statements  # noqa: E402
import triqua.engines.offline.verify.gates as gates  # noqa: E402
from triqua.core.verdicts.settling import settle  # noqa: E402
from triqua.engines.offline.alignment import Aligned, align  # noqa: E402
from triqua.engines.offline.decompose.decomposer import get_decomposer  # noqa: E402
from triqua.engines.offline.verify.reading import needed, read  # noqa: E402
from triqua.engines.offline.verify.verifier import AlignmentVerifier, _rules_reading  # noqa: E402
from triqua.models.entailment import ENTAILED, EntailmentModel  # noqa: E402
from triqua.models.hypotheses import unit_hypothesis  # noqa: E402
from triqua.models.reader import EntailmentReader  # noqa: E402
from triqua.nlp.pipeline import load_nlp  # noqa: E402
from triqua.schema import Evidence, Fact, Status, Verdict  # noqa: E402

#: The value gate's parts, switched off alone before the whole gate (finest cause first).
ablation.GATES.setdefault("list", [(statements, "is_list", lambda *a, **k: False)])
ablation.GATES.setdefault(
    "polarity",
    [
        (gates, "polarity_differs", lambda *a, **k: False),
        (statements, "polarity_differs", lambda *a, **k: False),
    ],
)
ablation.GATES.setdefault("slot rival", [(statements, "_slot_rival", lambda *a, **k: False)])
#: Gates tried in turn for a base support taken back ("role" is the role/clause gate).
GATE_ORDER = ("list", "polarity", "slot rival", "values", "role", "relation", "rival")
CAUSES = {
    "a": "decomposition",
    "b": "no window read",
    "c": "judge below supports in every window read",
    "c+": "  ... a window not read reaches supports",
    "d": "a gate took the base support back",
    "e": "a qualifier not supported",
    "f": "a rules conflict contradicted",
}
_CLAUSE_DEPS = {"ROOT", "conj", "ccomp", "advcl", "relcl", "xcomp", "acl", "parataxis", "appos"}
_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> set[str]:
    """Lower-case words of three characters or more, cut to five (a crude stem)."""
    return {w[:5] for w in _WORD.findall(text.lower()) if len(w) > 2}


def clauses(claim: str) -> int:
    """The claim's clauses: verbs heading one, and appositions (a fact of their own)."""
    doc = load_nlp()(claim)
    heads = [t for t in doc if t.dep_ in _CLAUSE_DEPS and t.pos_ in ("VERB", "AUX", "NOUN")]
    return max(1, sum(t.pos_ != "NOUN" or t.dep_ == "appos" for t in heads))


def decomposition_fault(claim: str, facts: list[Fact], crude: bool) -> str | None:
    """What the decomposer did wrong with ``claim`` (None: nothing seen)."""
    if crude:
        return "crude fallback"
    stated = words(claim)
    for fact in facts:
        said = f"{fact.subject} {fact.object} " + " ".join(q.value for q in fact.qualifiers)
        if words(said) - stated:
            return "words the claim does not state"
    if len(facts) > clauses(claim):
        return "more facts than clauses"
    return None


def settled(
    verifier: AlignmentVerifier, reader: EntailmentReader, fact: Fact, evidence: list[Evidence]
) -> tuple[Verdict, Verdict]:
    """The fact's raw verdict and the verdict as a run settles it."""
    raw = verifier.verify_many([fact], evidence)[0]
    return raw, settle(fact, raw, evidence, reader=reader)


def base_supported(verdict: Verdict) -> bool:
    """Whether the base triple's unit is supported."""
    units = verdict.unit_verdicts
    return bool(units) and units[0].status == Status.SUPPORTED


def fact_cause(
    fact: Fact, evidence: list[Evidence], model: EntailmentModel, reader: EntailmentReader
) -> tuple[str, str]:
    """(cause, detail) of a fact the engine does not support."""
    verifier = AlignmentVerifier(entailment=model)
    raw, final = settled(verifier, reader, fact, evidence)
    if base_supported(final):
        return "e", ", ".join(
            u.unit for u in final.unit_verdicts[1:] if u.status != Status.SUPPORTED
        )
    if base_supported(raw):
        return "d", f"grounding at settle: {final.unit_verdicts[0].grounding or ''}"[:90]
    found = align([fact], evidence)[0]
    rules, _ = _rules_reading(fact, found.parts, found.top, found.by_place)
    if rules.status == Status.CONTRADICTED:
        return "f", rules.reason or ""
    texts = [ev.text for ev in evidence]
    with ablation.switched_off("values"), ablation.switched_off("relation"):
        readings = read(fact, found.parts, found.read, found.by_place, texts, model)
    if not readings:
        return "b", f"{len(found.read)} aligned, {len(found.top)} about the subject"
    best = max(r.entailed for r in readings)
    supports = model.thresholds.supports
    if best < supports:
        anywhere, _ = claim_probabilities(unit_hypothesis(fact.units()[0]), texts[0])
        return ("c+" if anywhere >= supports else "c"), f"read {best:.2f}, best {anywhere:.2f}"
    for gate in GATE_ORDER:
        with ablation.switched_off(gate):
            if base_supported(
                settled(AlignmentVerifier(entailment=model), reader, fact, evidence)[1]
            ):
                return "d", gate
    return "d", why_refused(fact, found, texts, model, best)


def why_refused(
    fact: Fact, found: Aligned, texts: list[str], model: EntailmentModel, best: float
) -> str:
    """Why a base the judge reads at or above ``supports`` stays unsupported, gates on.

    The best reading past the window gates is read first: below its own bar (``needed``:
    an orphan's pronoun, the relation worded otherwise, a rival head …), else vetoed by a
    contradicting window or disputed by a rival; without one, the best window is not about
    the subject (never named) or fails a window gate.
    """
    readings = read(fact, found.parts, found.read, found.by_place, texts, model)
    passing = [r for r in readings if r.gated and r.entailed >= model.thresholds.supports]
    if passing:
        top = max(passing, key=lambda r: r.entailed - needed(r, model))
        if top.entailed < needed(top, model):
            bar = next(
                (
                    name
                    for name, on in (
                        ("rival head", top.rival_head),
                        ("orphan pronoun", top.orphan),
                        ("not worded", not top.worded),
                        ("restrictor left out", not top.restricted),
                        ("no object word", not top.filled),
                    )
                    if on
                ),
                "?",
            )
            return f"bar: {bar} (judge {top.entailed:.2f} < {needed(top, model):.2f})"
        contradicting = max((r.contradicted for r in readings if r.about), default=0.0)
        if contradicting >= model.thresholds.contradicted:
            return f"judge's contradiction {contradicting:.2f} in another window"
        return "disputed by a rival sentence"
    above = [r for r in readings if r.entailed >= model.thresholds.supports]
    if not above:
        return f"window gates: none read above supports (best {best:.2f} gates off)"
    top = max(above, key=lambda r: r.entailed)
    if not top.about:
        return f"subject not named in the window (judge {top.entailed:.2f})"
    return f"window gate (judge {top.entailed:.2f})"


def gold_rows(which: str, limit: int) -> list[tuple[str, str, bool]]:
    """(claim, passage, True) of one set of dev rows' gold-supported claims."""
    if which == "fcb-dev":
        rows = [r for r in ablation.fcb_dev(0) if r[2]]
    elif which == "fcb-tune":
        rows = [
            (r["claim"], r["evidence"], True)
            for r in map(json.loads, DATA.open(encoding="utf-8"))
            if half_of(r["claim"]) == "tune" and r["stance"] == "completely-support"
        ]
    else:
        split = which.removeprefix("fever-")
        rows = [
            (str(r["hypothesis"]), str(r["premise"]), True)
            for r in nli.nli_pairs()
            if str(r["source"]).startswith("nli-fever:")
            and r["split"] == split
            and int(str(r["label"])) == ENTAILED
        ]
    return rows[:limit] if limit else rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="dev rows (0: all)")
    parser.add_argument("--examples", type=int, default=0, help="lost claims shown per cause")
    parser.add_argument(
        "--rows", choices=("fcb-dev", "fcb-tune", "fever-dev", "fever-train"), default="fcb-dev"
    )
    args = parser.parse_args()
    rows = gold_rows(args.rows, args.limit)
    decomposed = get_decomposer().decompose_many([claim for claim, _, _ in rows])
    verifier = AlignmentVerifier()
    model = verifier.entailment
    assert model is not None, "the shipped entailment judge is missing"
    reader = EntailmentReader(model, paraphrase=model.thresholds.supports)
    order = list(CAUSES)
    counts: dict[bool, Counter[str]] = {False: Counter(), True: Counter()}
    facts_lost: Counter[str] = Counter()
    details: dict[str, Counter[str]] = defaultdict(Counter)
    examples: dict[str, list[str]] = defaultdict(list)
    supported = {False: 0, True: 0}
    judged = 0
    for (claim, passage, _), facts in zip(rows, decomposed, strict=True):
        crude = not facts
        facts = facts or crude_fact(claim)
        evidence = [Evidence.build(document_id="row", text=passage, retriever="bench")]
        by_judge = claim_probabilities(claim, passage)[0] >= model.thresholds.entailed
        judged += by_judge
        finals = [settled(verifier, reader, f, evidence)[1] for f in facts]
        if all(v.status == Status.SUPPORTED for v in finals):
            supported[by_judge] += 1
            continue
        fault = decomposition_fault(claim, facts, crude)
        if fault is not None:
            causes = [("a", fault)]
        else:
            causes = [
                fact_cause(f, evidence, model, reader)
                for f, v in zip(facts, finals, strict=True)
                if v.status != Status.SUPPORTED
            ]
            facts_lost.update(c for c, _ in causes)
        cause, detail = min(causes, key=lambda c: order.index(c[0]))
        counts[False][cause] += 1
        counts[True][cause] += by_judge
        details[cause][re.split(r"[:(]", detail)[0].strip() if cause in "ad" else ""] += 1
        if cause == "d" and detail.startswith("bar"):
            details[cause][detail.split("(")[0].strip()] += 1
        examples[cause].append(f"{'*' if by_judge else ' '} {claim[:100]} -> {detail}")
    lost = sum(counts[False].values())
    print(
        f"{args.rows}, gold supported: {len(rows)} claims; engine supports "
        f"{sum(supported.values())}, bare judge {judged}, both {supported[True]}; "
        f"engine loses {lost} ({sum(counts[True].values())} the judge supports)"
    )
    print(f"{'cause':<48}{'claims':>8}{'judge-supported':>17}{'facts':>7}")
    for key, name in CAUSES.items():
        print(
            f"{key:<3}{name:<45}{counts[False][key]:>8}{counts[True][key]:>17}{facts_lost[key]:>7}"
        )
    for key in ("a", "d"):
        for detail, n in details[key].most_common():
            print(f"    {key} {detail:<60}{n:>5}")
    for key in order:
        for line in examples[key][: args.examples]:
            print(f"  [{key}] {line}")


if __name__ == "__main__":
    main()
