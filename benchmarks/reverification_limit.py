"""Why re-verification changes no verdict under the defaults: the rounds, or the judge?

Runs the defaults (offline engine, ``routing="auto"``, two rounds) on the two sets
``benchmarks/reverification.py`` and ``benchmarks/routing.py`` use, and for every fact that
entered a round reports what the rounds did (passages read that the first pass had not,
contextual claims that carried a resolved neighbour, units judged, units a grounding gate
withheld) and then asks the judge alone on the best evidence there is:

- Factcheck-Bench (``--limit`` claims, one BM25 corpus of all their passages, top 5): each
  gold-supported claim whose fact entered a round is checked again against only the
  passages its gold stances mark as completely supporting — does the judge support it?
  Also: was such a passage among the evidence the first pass already read?
- FActScore bios (the first ``--bios``, each against its supported human facts; with
  ``--corpus topic`` against those of every annotated answer about the same person, the
  ChatGPT, InstructGPT and PerplexityAI bios: more of the person's actual values): the
  units left insufficient are judged once more against every passage of that corpus —
  does the judge support them, or contradict them (a rival value it reads as one)?

When the judge given the gold passages (or the whole corpus) still leaves the units
insufficient, no query, contextual claim or deeper page can change the verdict: the limit
is the judge or the evidence.

Run: ``.venv/bin/python benchmarks/reverification_limit.py [--limit 200] [--bios 10]
[--corpus answer|topic]``
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from typing import Any

from offline_verdicts import DATA, balanced_accuracy
from reverification import claim_supported, gold_of
from routing import load_bios, supported_facts
from shared_data import data_file, require

import triqua
from triqua.api import make_context
from triqua.core.verdicts.reverification import pending_units
from triqua.core.verdicts.settling import settle
from triqua.engines.factory import resolve_engines
from triqua.runtime.resources import register_retriever
from triqua.schema import Document, Evidence, Report, Status
from triqua.tools.supplied import SuppliedRetriever


def round_figures(reports: list[Report]) -> Counter[str]:
    """What the rounds of ``reports`` did, counted over the facts that entered one."""
    counts: Counter[str] = Counter()
    for record in (r for report in reports for r in report.records if r.rounds):
        counts["facts that entered a round"] += 1
        counts["judged again"] += record.rejudged
        counts["round searches"] += sum(len(r.queries) for r in record.rounds)
        counts["read new passages"] += any(r.evidence_ids for r in record.rounds)
        counts["new passages"] += sum(len(r.evidence_ids) for r in record.rounds)
        counts["claim with a resolved neighbour"] += any(
            ", where " in r.claim for r in record.rounds
        )
        for unit in (u for r in record.rounds for u in r.unit_verdicts):
            counts["units judged"] += 1
            counts["units a gate withheld"] += bool(unit.grounding)
            counts[f"units {unit.status.value}"] += 1
    return counts


def factcheck_bench(limit: int, seed: int) -> None:
    """The defaults on Factcheck-Bench, then the judge on the gold passages alone."""
    stances: dict[str, list[str]] = {}
    support: dict[str, list[str]] = {}
    passages: dict[str, None] = {}
    for line in require(DATA).open(encoding="utf-8"):
        row = json.loads(line)
        stances.setdefault(row["claim"], []).append(row["stance"])
        passages[row["evidence"]] = None
        if row["stance"] == "completely-support":
            support.setdefault(row["claim"], []).append(row["evidence"])
    claims = [c for c in stances if gold_of(stances[c]) is not None]
    claims = random.Random(seed).sample(claims, min(limit, len(claims)))
    corpus = SuppliedRetriever([Document(text=t, source=f"p{i}") for i, t in enumerate(passages)])
    name = register_retriever("factcheck-bench-limit", corpus)
    settings: dict[str, Any] = {
        "retriever": name,
        "max_results": 5,
        "cache": False,
        "max_searches": 200,
    }
    without = [triqua.check(c, reverify_rounds=0, **settings) for c in claims]
    reports = [triqua.check(c, **settings) for c in claims]
    print(f"Factcheck-Bench, {len(claims)} claims: {dict(round_figures(reports))}")
    changed = sum(
        a.verdict.status is not b.verdict.status
        for x, y in zip(without, reports, strict=True)
        for a, b in zip(x.records, y.records, strict=True)
        if b.rounds
    )
    gold = [gold_of(stances[c]) is True for c in claims]
    ba = [
        balanced_accuracy(list(zip(gold, map(claim_supported, rs), strict=True)))
        for rs in (without, reports)
    ]
    print(
        f"  verdicts changed by the rounds: {changed}; balanced accuracy {ba[0]:.3f} -> {ba[1]:.3f}"
    )
    facts = first_held = supported = units = units_supported = 0
    for claim, first, report in zip(claims, without, reports, strict=True):
        entered = [r for r in report.records if r.rounds]
        if not entered or gold_of(stances[claim]) is not True:
            continue
        oracle = triqua.check(claim, documents=support[claim], reverify_rounds=0, cache=False)
        by_fact = {r.fact.to_string(): r for r in oracle.records}
        held = {e.text for r in first.records for e in r.evidence}
        for record in entered:
            facts += 1
            first_held += any(
                t.strip() in p or p.strip() in t for t in held for p in support[claim]
            )
            judged = by_fact.get(record.fact.to_string())
            if judged is None:
                continue
            supported += judged.verdict.status is Status.SUPPORTED
            units += len(judged.verdict.unit_verdicts)
            units_supported += sum(
                u.status is Status.SUPPORTED for u in judged.verdict.unit_verdicts
            )
    print(
        f"  gold-supported facts that entered a round: {facts}; a completely-supporting "
        f"passage already read by the first pass: {first_held}; the judge on those passages "
        f"alone supports {supported} facts ({units_supported} of {units} units)"
    )


def sentence_gold(bio: dict[str, Any]) -> dict[str, bool]:
    """Each annotated sentence's gold: True when its human facts are all supported ("S").

    False when any is not supported ("NS"); a sentence with only irrelevant facts has none.
    """
    gold: dict[str, bool] = {}
    for sentence in bio["annotations"]:
        labels = {f.get("label") for f in sentence.get("human-atomic-facts") or []}
        if "NS" in labels or "S" in labels:
            gold[" ".join(sentence["text"].split())] = "NS" not in labels
    return gold


def sentence_pairs(bio: dict[str, Any], report: Report) -> list[tuple[bool, bool]]:
    """(gold, predicted supported) for each checked sentence the annotations label."""
    gold = sentence_gold(bio)
    pairs = []
    for sentence in report.sentences:
        text = " ".join(sentence.text.split())
        match = next((g for t, g in gold.items() if text[:60] in t or t[:60] in text), None)
        if match is not None:
            pairs.append((match, sentence.status is Status.SUPPORTED))
    return pairs


#: The other annotated answers about the same people (``--corpus topic``).
OTHER_ANSWERS = ("InstructGPT", "PerplexityAI")


def topic_facts() -> dict[str, list[str]]:
    """Each person's supported human facts from the other annotated answers about them."""
    found: dict[str, list[str]] = {}
    for answer in OTHER_ANSWERS:
        path = data_file(f"factscore_labeled/{answer}.jsonl")
        for line in path.read_text().splitlines():
            row = json.loads(line) if line.strip() else {}
            if row.get("annotations"):
                found.setdefault(row["topic"], []).extend(supported_facts(row))
    return found


def bios(count: int, corpus: str = "answer") -> None:
    """The defaults on bios, then each round's units judged on every passage of the corpus.

    Balanced accuracy is per sentence (one verdict per sentence, as ElementCheck gives):
    gold-supported when every human fact of the annotated sentence is supported.
    """
    context = make_context(None)
    engines = resolve_engines(context)
    reports, pending, supported, contradicted, changed = [], 0, 0, 0, 0
    moves: Counter[tuple[str, str]] = Counter()
    pairs: tuple[list[tuple[bool, bool]], list[tuple[bool, bool]]] = ([], [])
    others = topic_facts() if corpus == "topic" else {}
    for bio in load_bios()[:count]:
        own = supported_facts(bio)
        docs = list(dict.fromkeys([*own, *others.get(bio["topic"], [])]))
        evidence = [
            Evidence.build(document_id=f"d{i}", text=t, retriever="all") for i, t in enumerate(docs)
        ]
        first = triqua.check(bio["output"], documents=docs, reverify_rounds=0, cache=False)
        report = triqua.check(bio["output"], documents=docs, cache=False)
        reports.append(report)
        pairs[0].extend(sentence_pairs(bio, first))
        pairs[1].extend(sentence_pairs(bio, report))
        before = {r.claim_id: r for r in first.records}
        for record in (r for r in report.records if r.rounds):
            start = before[record.claim_id]
            changed += start.verdict.status is not record.verdict.status
            if start.verdict.status is not record.verdict.status:
                moves[(start.verdict.status.value, record.verdict.status.value)] += 1
            units = pending_units(start.fact, start.verdict)
            result = engines.judge.verify(record.fact, evidence, units=units)
            verdict = settle(
                record.fact,
                result.verdict,
                evidence,
                supported_threshold=context.supported_threshold(),
                reader=engines.judge.reader,
                grounding=context.grounding,
            )
            statuses = {u.unit: u.status for u in verdict.unit_verdicts}
            pending += len(units)
            supported += sum(statuses.get(u.text) is Status.SUPPORTED for u in units)
            contradicted += sum(statuses.get(u.text) is Status.CONTRADICTED for u in units)
    print(f"bios, {count}, corpus {corpus}: {dict(round_figures(reports))}")
    entered = sum(1 for report in reports for r in report.records if r.rounds)
    ba = [balanced_accuracy(p) for p in pairs]
    print(
        f"  verdicts changed by the rounds: {changed} of {entered} "
        f"({changed / max(1, entered):.1%}); sentence balanced accuracy "
        f"{ba[0]:.3f} -> {ba[1]:.3f} ({len(pairs[1])} labelled sentences)"
    )
    for (a, b), moved in sorted(moves.items()):
        print(f"    {a} -> {b}: {moved}")
    print(
        f"  units left insufficient by the first pass: {pending}; the judge on every passage "
        f"of the corpus supports {supported}, contradicts {contradicted}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=200, help="Factcheck-Bench claims (0: none)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bios", type=int, default=10)
    parser.add_argument(
        "--corpus",
        choices=("answer", "topic"),
        default="answer",
        help="bios' evidence: the answer's supported facts, or every annotated answer's",
    )
    args = parser.parse_args()
    if args.limit:
        factcheck_bench(args.limit, args.seed)
    bios(args.bios, args.corpus)


if __name__ == "__main__":
    main()
