"""What the batched call's evidence sheet costs in verdicts, against the full passages.

A batched verification call shows each fact only its best sentences of its passages (the
evidence sheet, ``core.evidence_sheet``), not the whole passages a per-fact call shows. This
measures what the trimming changes with a literal judge: the offline verifier, which reads
exactly the text it is given and nothing else, judges every fact twice — against its full
passages and against the sheet's lines of those passages (every line the batch shows from
them, in passage order) — and both verdicts are settled by the grounding rule as a run
settles them. Reported: the share of facts whose status changes (and how), how many of the
changed facts' full-passage verdicts agree with the gold stance of the passage they cite (a
change that loses a verdict the gold calls wrong costs nothing), and the evidence tokens each
way (MiniLM WordPiece, as ``core.costs.estimate_tokens`` counts).

All 661 claims (750 facts), batches of 16, 5 passages: 4.7 % of facts change (19 supported
and 10 contradicted become insufficient, 6 insufficient become supported or contradicted);
of the lost verdicts, 15 of the 19 supports and 1 of the 10 contradictions agree with the
gold. The sheet is 20 % of the full passages' evidence tokens. With the sentences chosen by
plain word overlap and split at every full stop it was 6.3 % (30 supports and 14
contradictions lost), at 21 %.

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

from triqua.core.costs import estimate_tokens
from triqua.core.evidence_sheet import Sheet, build_sheet
from triqua.core.verdicts import settle
from triqua.engines.offline.decompose.decomposer import get_decomposer
from triqua.engines.offline.verify.verifier import AlignmentVerifier, get_verifier
from triqua.engines.second_opinion import EntailmentReader
from triqua.schema import Evidence, Fact, Status, Verdict

Item = tuple[Fact, list[Evidence]]
SUPPORTING = ("completely-support", "partially-support")


def shown_passage(sheet: Sheet, passage: Evidence) -> Evidence:
    """``passage`` as the sheet shows it: its lines on the sheet, in passage order."""
    places = sorted(
        (start, line.text)
        for line in sheet.lines.values()
        for pid, start, _ in line.places
        if pid == passage.id
    )
    return Evidence.build(
        document_id=passage.document_id,
        text=" ".join(text for _, text in places),
        retriever="bench",
    )


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
        sheet = build_sheet(batch)
        for fact, passages in batch:
            shown = [shown_passage(sheet, p) for p in passages]
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
