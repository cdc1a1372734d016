"""Check-worthiness on the FActScore ChatGPT bios: how many sentences are set aside, and which.

For every bio (declined answers included) the sentences are classed by
``triqua.core.text.checkworthy``; the script prints the share not check-worthy per class, the
time per sentence, and the excluded sentences of annotated bios together with the labels
FActScore's annotators gave the atomic facts of the sentence they fall in (a sentence
whose human facts are supported is a candidate false exclusion).

Run: ``python benchmarks/checkworthy.py [path/to/ChatGPT.jsonl] [--all]``.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

from shared_data import data_file

from triqua.core.text.checkworthy import classify
from triqua.sentences import sentence_spans

DEFAULT = data_file("factscore_labeled/ChatGPT.jsonl")


def _human_labels(annotations: list[dict], sentence: str) -> list[str]:
    """Labels of the human atomic facts of the annotated sentence holding ``sentence``."""
    for annotation in annotations or []:
        if sentence.strip() and (sentence in annotation["text"] or annotation["text"] in sentence):
            return [f["label"] for f in annotation.get("human-atomic-facts") or []]
    return []


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    path = Path(args[0]) if args else DEFAULT
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    counts: Counter[str] = Counter()
    declined: Counter[str] = Counter()
    excluded = []
    started = time.perf_counter()
    for row in rows:
        text = row["output"]
        for start, end in sentence_spans(text):
            for line in text[start:end].split("\n"):
                if not line.strip():
                    continue
                judgement = classify(line)
                (declined if row["annotations"] is None else counts)[judgement.label] += 1
                if not judgement.checkworthy and row["annotations"] is not None:
                    labels = _human_labels(row["annotations"], line)
                    excluded.append((judgement.label, judgement.reason, line.strip(), labels))
    elapsed = time.perf_counter() - started
    total, total_declined = sum(counts.values()), sum(declined.values())
    print(
        f"{path.name}: {len(rows)} bios, {total + total_declined} sentences, "
        f"{elapsed / max(1, total + total_declined) * 1e3:.2f} ms per sentence"
    )
    groups = (("annotated bios", counts, total), ("declined", declined, total_declined))
    for name, counter, n in groups:
        share = 1 - counter["checkworthy"] / n if n else 0.0
        by_class = ", ".join(f"{k} {v}" for k, v in counter.most_common() if k != "checkworthy")
        print(f"  {name}: {n} sentences, {share:.1%} not check-worthy ({by_class})")
    with_facts = [e for e in excluded if e[3]]
    labels = Counter(label for e in with_facts for label in e[3])
    print(
        f"  excluded sentences of annotated bios with human facts: {len(with_facts)} of "
        f"{len(excluded)}; their facts' labels: {dict(labels)}"
    )
    shown = excluded if "--all" in sys.argv else excluded[:40]
    for label, reason, line, human in shown:
        print(f"  [{label}] {line[:110]}  <- {reason}  human={''.join(h[0] for h in human)}")


if __name__ == "__main__":
    main()
