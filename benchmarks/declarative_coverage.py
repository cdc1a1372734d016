"""Share of plain declarative sentences the offline decomposer yields a fact for.

Two sets: the hand-written sentences of ``benchmarks/data/declaratives.txt`` (one per line,
each a self-contained statement: rivers, people, companies, events, places, science), and
every declarative sentence (opening with a capital, four words or more, ending in a full
stop) of the FActScore
ChatGPT bios, decomposed bio by bio so pronouns resolve as they do in a check. Prints
the share with at least one fact and every sentence left without one.

Usage: python benchmarks/declarative_coverage.py [--bios 60] [--model ChatGPT]
(``--model InstructGPT`` or ``PerplexityAI`` reads those models' FActScore bios instead.)
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from triqua.engines.offline.decompose.decomposer import get_decomposer

HERE = Path(__file__).resolve().parent
BIOS = HERE.parents[1] / "shared" / "data" / "factscore_labeled"
MODELS = ("ChatGPT", "InstructGPT", "PerplexityAI")


def hand_written() -> tuple[int, list[str]]:
    """Sentences of the hand-written set, and those with no fact."""
    sentences = [s.strip() for s in (HERE / "data" / "declaratives.txt").open() if s.strip()]
    facts = get_decomposer().decompose_many(sentences)
    return len(sentences), [s for s, f in zip(sentences, facts, strict=True) if not f]


def bios(limit: int, model: str = "ChatGPT") -> tuple[int, list[str]]:
    """Declarative sentences of ``model``'s first ``limit`` bios, and those with no fact."""
    texts: list[list[str]] = []
    for line in (BIOS / f"{model}.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        if row["annotations"]:
            texts.append([a["text"].strip() for a in row["annotations"]])
    texts = texts[:limit]
    total, missing = 0, []
    for sentences, found in zip(
        texts, get_decomposer().analyse_many([" ".join(t) for t in texts]), strict=True
    ):
        starts, at = [], 0
        for sentence in sentences:
            starts.append(at)
            at += len(sentence) + 1
        covered = {
            max(i for i, start in enumerate(starts) if start <= fact.span.start)
            for fact in found.facts
            if fact.span is not None
        }
        for i, sentence in enumerate(sentences):
            # A sentence: it opens with a capital (not a fragment of the data's own split,
            # such as '", and as Princess Zareta ...'), ends in a full stop, has 4+ words.
            if sentence[:1].isupper() and sentence.endswith(".") and len(sentence.split()) >= 4:
                total += 1
                if i not in covered:
                    missing.append(sentence)
    return total, missing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bios", type=int, default=60)
    parser.add_argument("--model", choices=MODELS, default="ChatGPT")
    args = parser.parse_args()
    t0 = time.perf_counter()
    for name, (total, missing) in (
        ("hand-written declaratives", hand_written()),
        (f"FActScore {args.model} bios ({args.bios}), in context", bios(args.bios, args.model)),
    ):
        share = 1 - len(missing) / max(1, total)
        print(f"{name}: {total - len(missing)}/{total} sentences with a fact ({share:.1%})")
        for sentence in missing:
            print(f"    no fact: {sentence}")
    print(f"({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
