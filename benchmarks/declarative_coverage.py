"""Share of plain declarative sentences the offline decomposer yields a fact for.

Two sets: the hand-written sentences of ``benchmarks/data/declaratives.txt`` (one per line,
each a self-contained statement: rivers, people, companies, events, places, science), and
every declarative sentence (opening with a capital, four words or more, ending in a full
stop) of the FActScore
ChatGPT bios, decomposed bio by bio so pronouns resolve as they do in a check. Prints
the share with at least one fact and every sentence left without one.

A third set (``--claims``) is every distinct declarative sentence of the shared claim data:
the FEVER-symmetric claims and evidence sentences and the Factcheck-Bench claims, each
decomposed alone.

Usage: python benchmarks/declarative_coverage.py [--bios 60] [--model ChatGPT] [--claims]
(``--model InstructGPT`` or ``PerplexityAI`` reads those models' FActScore bios instead.)
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from shared_data import data_dir

from triqua.engines.offline.decompose.decomposer import get_decomposer

HERE = Path(__file__).resolve().parent
DATA = data_dir()
BIOS = DATA / "factscore_labeled"
MODELS = ("ChatGPT", "InstructGPT", "PerplexityAI")


def _declarative(sentence: str) -> bool:
    """Opens with a capital (not a fragment of a data set's own split, such as '", and as
    Princess Zareta ...'), ends in a full stop, and has four words or more."""
    return sentence[:1].isupper() and sentence.endswith(".") and len(sentence.split()) >= 4


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
            if _declarative(sentence):
                total += 1
                if i not in covered:
                    missing.append(sentence)
    return total, missing


def claims() -> tuple[int, list[str]]:
    """Distinct declarative sentences of the FEVER-symmetric pairs (claims and evidence) and
    the Factcheck-Bench claims, each decomposed alone, and those with no fact."""
    found: dict[str, None] = {}
    for line in (DATA / "nli" / "pairs.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        if row["source"] == "fever-sym":
            found[row["hypothesis"].strip()] = None
            found[row["premise"].strip()] = None
    bench = DATA / "factcheck_bench" / "subtask3_claim_evidence_stance.jsonl"
    for line in bench.open(encoding="utf-8"):
        found[json.loads(line)["claim"].strip()] = None
    sentences = sorted(s for s in found if _declarative(s))
    facts = get_decomposer().decompose_many(sentences)
    return len(sentences), [s for s, f in zip(sentences, facts, strict=True) if not f]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bios", type=int, default=60)
    parser.add_argument("--model", choices=MODELS, default="ChatGPT")
    parser.add_argument(
        "--claims", action="store_true", help="also the FEVER and Factcheck-Bench sentences"
    )
    args = parser.parse_args()
    t0 = time.perf_counter()
    sets = [
        ("hand-written declaratives", hand_written),
        (
            f"FActScore {args.model} bios ({args.bios}), in context",
            lambda: bios(args.bios, args.model),
        ),
    ]
    if args.claims:
        sets.append(("FEVER-symmetric and Factcheck-Bench sentences", claims))
    for name, run in sets:
        total, missing = run()
        share = 1 - len(missing) / max(1, total)
        print(f"{name}: {total - len(missing)}/{total} sentences with a fact ({share:.1%})")
        for sentence in missing:
            print(f"    no fact: {sentence}")
    print(f"({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
