"""What the batched call's evidence sheet costs in verdicts, against the full passages.

A batched verification call shows each fact only its best sentences of its passages (the
evidence sheet, ``core.plan.evidence_sheet``), not the whole passages a per-fact call shows. This
measures what the trimming changes with a literal judge: the offline verifier, which reads
exactly the text it is given and nothing else, judges every fact twice — against its full
passages and against the sheet's lines of those passages (in passage order, each run of
adjacent lines a passage of its own, so that lines apart in the passage are never read as
one window) — and both verdicts are settled by the grounding rule as a run settles them.
Reported: the share of facts whose status changes (and how), how many of the changed facts'
full-passage verdicts agree with the gold stance of the passage they cite (a change that
loses a verdict the gold calls wrong costs nothing), and the evidence tokens each way
(MiniLM WordPiece, as ``core.budget.costs.estimate_tokens`` counts).

All 661 claims (758 facts), batches of 16, 5 passages: 1.6 % of facts change (12: 7 supported
and 2 contradicted become insufficient, 2 insufficient become supported and 1 contradicted); of
the lost verdicts, 6 of the 7 supports and none of the 2 contradictions agree with the gold.
The sheet is 45.6 % of the full passages' evidence tokens, but a FActScore bio costs 551
evidence tokens, 4,735 in all (a bio's facts mostly have one clearly best sentence, and its
passages are short). Sentences are chosen as the offline verifier ranks windows (part-weighted
overlap, then 0.6 × MiniLM cosine + 0.4 × overlap), one to four per fact: each next one while
it scores ≥ 0.8 of the best; each is shown with the sentence before and the one after it in its
paragraph, the verifier's two-sentence windows. What is left: sentences the verifier aligns
that the sheet ranks below 0.8 of the best (its overlap is not the verifier's name matching),
supports and contradictions the gold calls wrong, and verdicts that move either way because
fewer sentences compete for the verifier's three anchors (the two gained supports are of that
kind).

Before the windows: 2.8 % (21 of 758: 19 supports and 2 contradictions lost) at 26.1 % of the
tokens, 487 evidence tokens and 4,670 in all per bio; of the 21, 9 were a window of which the
sheet showed one sentence, 3 a run-on the sheet cuts at 40 words where the verifier cuts at 60
(the cut's other piece is its window now), 8 a sentence the sheet did not choose, 1 a downgrade
by the grounding rule. Measured with windows and not kept (the full-passage verdicts held
fixed): around the best sentence only, 2.4 % at 34 %; around the two best, 2.0 % at 39 %; the
three best (the verifier's anchors), 1.8 % at 43 %; only a neighbour holding words of the fact
that the chosen sentence lacks, 2.2 % at 32 %; a neighbour holding any word of the fact, 2.0 %
at 41 % (around the best only, 2.6 % at 32 %); both neighbours of the best and, of the others,
those adding words of the fact, 1.8 % at 38 %; windows of the three best at ratio 0.7, 1.7 % at
47 %.

Before the adaptive choice (idf-weighted overlap, two sentences per fact): 4.8 % (24 supports
and 9 contradictions lost, 3 gained), the sheet at 20 % of the tokens, 676 evidence tokens and
4,860 in all per bio. Measured then and not kept: with the similarity but two sentences per
fact, 4.4-4.5 %; three per fact with it, 4.0 % at 26 %; the adaptive choice by overlap alone,
3.6 % (idf-weighted or part-weighted alike); at least two per fact (≥ 0.8 of the best, up to
four), 2.7 % at 28 %; ratio 0.7, 2.7 % at 30 %; up to five at 0.75, 2.7 % at 32 % — the plateau
was the windows, not the choice. Earlier, before the similarity: windows of two adjacent
sentences chosen within the same two places (7.3 %), a second sentence from another passage
than the first (6.0 %), three sentences per fact (4.7 %, at 28 % of the tokens); reading the
sheet's lines as one passage gave 5.1 %; plain word overlap, split at every full stop, 6.3 %.
Runs differ by a fact or two (the full-passage verdicts themselves move by one to three).

Data: Factcheck-Bench subtask 3; each claim's facts (offline decomposer; a claim it yields
no fact for gets one crude fact) with the claim's evidence passages (up to ``--passages``),
packed in claim order into batches of up to ``--batch`` facts, as ``--verify-batch`` packs
whole sentences.

Run: ``.venv/bin/python benchmarks/evidence_sheet.py [--limit N] [--batch 16] [--passages 5]``
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from collections.abc import Sequence

from offline_verdicts import DATA, crude_fact
from shared_data import require

from triqua.core.budget.costs import estimate_tokens
from triqua.core.plan.evidence_sheet import Sheet, build_sheet
from triqua.core.verdicts.settling import settle
from triqua.engines.offline.decompose.decomposer import get_decomposer
from triqua.engines.offline.verify.verifier import AlignmentVerifier, get_verifier
from triqua.engines.second_opinion import EntailmentReader
from triqua.models.vectors import cosines
from triqua.schema import Evidence, Fact, Status, Verdict

Item = tuple[Fact, list[Evidence]]
SUPPORTING = ("completely-support", "partially-support")


def shown_runs(sheet: Sheet, passage: Evidence) -> list[Evidence]:
    """``passage`` as the sheet shows it: its lines, in passage order, one passage per run.

    Lines that stand apart in the passage are kept apart (each run of adjacent lines is a
    passage of its own), so the verifier, which reads one to three adjacent sentences as one
    window, never reads two lines as one window that the passage does not write together.
    """
    places = sorted(
        (start, end, line.text)
        for line in sheet.lines.values()
        for pid, start, end in line.places
        if pid == passage.id
    )
    runs: list[list[str]] = []
    last = None
    for start, end, text in places:
        if last is None or passage.text[last:start].strip():
            runs.append([])
        runs[-1].append(text)
        last = end
    return [
        Evidence.build(
            document_id=f"{passage.document_id}#{i}", text=" ".join(run), retriever="bench"
        )
        for i, run in enumerate(runs)
    ]


def batches(items: Sequence[Sequence[Item]], size: int) -> list[list[Item]]:
    """Claims' items packed in order, whole claims, up to ``size`` facts a batch."""
    out: list[list[Item]] = []
    for claim_items in items:
        if out and len(out[-1]) + len(claim_items) <= size:
            out[-1].extend(claim_items)
        else:
            out.append(list(claim_items))
    return out


def judged(verifier: AlignmentVerifier, fact: Fact, evidence: list[Evidence]) -> Verdict:
    """The settled verdict on ``fact`` against ``evidence`` (empty passages dropped)."""
    evidence = [e for e in evidence if e.text.strip()]
    if not evidence:
        return Verdict(status=Status.INSUFFICIENT)
    verdict = verifier.verify(fact, evidence)
    model = verifier.entailment
    reader = EntailmentReader(model) if model is not None else None
    return settle(fact, verdict, evidence, reader=reader)


def agrees(verdict: Verdict, stance_of: dict[str, str]) -> bool:
    """Whether a verdict agrees with the gold stance of the passage it cites first."""
    stance = stance_of.get(verdict.evidence_ids[0], "") if verdict.evidence_ids else ""
    if verdict.status is Status.SUPPORTED:
        return stance in SUPPORTING
    if verdict.status is Status.CONTRADICTED:
        return stance == "refute"
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=0, help="claims to sample (0: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=16, help="facts per batch")
    parser.add_argument("--passages", type=int, default=5, help="passages per claim")
    args = parser.parse_args()

    by_claim: dict[str, list[tuple[str, str]]] = {}
    for line in require(DATA).open(encoding="utf-8"):
        row = json.loads(line)
        by_claim.setdefault(row["claim"], []).append((row["evidence"], row["stance"]))
    claims = list(by_claim)
    if args.limit:
        claims = random.Random(args.seed).sample(claims, min(args.limit, len(claims)))
    facts_of = get_decomposer().decompose_many(claims)
    items = []
    stance_of: dict[str, str] = {}  # evidence id -> its gold stance towards its claim
    for c, (claim, facts) in enumerate(zip(claims, facts_of, strict=True)):
        passages = []
        for j, (text, stance) in enumerate(by_claim[claim][: args.passages]):
            passages.append(Evidence.build(document_id=f"c{c}-p{j}", text=text, retriever="bench"))
            stance_of[passages[-1].id] = stance
        items.append([(fact, passages) for fact in (facts or crude_fact(claim))])

    verifier = get_verifier()
    verifier.warm_up()
    t0 = time.perf_counter()
    changes: Counter[tuple[str, str]] = Counter()
    agreeing: Counter[str] = Counter()  # changed facts whose full-passage verdict fits the gold
    tokens = Counter[str]()
    n = 0
    for batch in batches(items, args.batch):
        sheet = build_sheet(batch, similarity=cosines)  # as the LLM engine builds it
        for fact, passages in batch:
            shown = [run for p in passages for run in shown_runs(sheet, p)]
            full = judged(verifier, fact, passages)
            sheet_status = judged(verifier, fact, shown).status
            changes[(full.status.value, sheet_status.value)] += 1
            if full.status is not sheet_status and agrees(full, stance_of):
                agreeing[full.status.value] += 1
            tokens["full"] += sum(estimate_tokens(p.text) for p in passages)
            tokens["sheet"] += sum(estimate_tokens(p.text) for p in shown if p.text)
            n += 1
    changed = sum(v for (a, b), v in changes.items() if a != b)
    print(
        f"{len(claims)} claims, {n} facts, batches of up to {args.batch} facts, "
        f"up to {args.passages} passages per claim; {time.perf_counter() - t0:.0f} s"
    )
    print(f"verdicts changed by the sheet: {changed}/{n} = {changed / max(1, n):.3%}")
    for (before, after), count in sorted(changes.items()):
        if before != after:
            print(f"  {before:>22} -> {after:<22} {count}")
    for status in (Status.SUPPORTED, Status.CONTRADICTED):
        lost = sum(v for (a, b), v in changes.items() if a == status.value and b != a)
        print(
            f"  lost {status.value} verdicts agreeing with the cited passage's gold stance: "
            f"{agreeing[status.value]}/{lost}"
        )
    print(
        f"evidence tokens per fact: full passages {tokens['full'] / max(1, n):.0f}, "
        f"sheet {tokens['sheet'] / max(1, n):.0f} "
        f"({tokens['sheet'] / max(1, tokens['full']):.1%} of full; the sheet also shows "
        "each line once per batch, so a batch costs less than this sum)"
    )


if __name__ == "__main__":
    main()
