"""Training pairs that teach the judge to read values as triqua's value reader does.

The judge must know that "64.5 million" is "64,500,000", that 1,200 m is 1.2 km, that 412
people are "more than 300" and not "more than 500", that 1850 is "in the nineteenth
century", that "one of the largest" is not "the largest". These pairs are made by rewriting
a value in real sentences (``value_rewrites.py``, ``value_phrases.py``) with the reader's
own tables (``src/triqua/core/reading/values/data/values.json``), so the worked examples
of those rules become data: each kind (``value-form``, ``value-unit``, ``value-approx``,
``value-compare``, ``value-ordinal``, ``value-century``, ``value-date``,
``value-restrictor``, ``value-synonym``, ``value-life-dates``: a life's years in the
parenthesis after a name) yields entailed, contradicted and, where the
premise says less than the hypothesis, neutral pairs.

Sentences come from the claims and evidence passages of Factcheck-Bench's tune half, the
premises and hypotheses of the shared NLI pairs outside their test split, and the FActScore
bios; each pair takes the
split of its sentence (``prepare.py``'s and ``nli.py``'s splits), so nothing held out is
trained on. A sentence that shares eight words in a row with an evaluation row (the
hand-written cases, the benchmark data, Factcheck-Bench's held half, the NLI test split) is
never used.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from nli import NLI, nli_pairs
from value_phrases import centuries, dates, life_dates, restrictors, synonyms
from value_rewrites import (
    Rewrite,
    approximations,
    comparatives,
    number_forms,
    ordinals,
    unit_conversions,
)

from triqua.evals.data import eval_data_dir

ROOT = Path(__file__).resolve().parents[1]
SHARED = eval_data_dir()
FCB = SHARED / "factcheck_bench" / "subtask3_claim_evidence_stance.jsonl"
BIOS = [
    SHARED / "factscore_labeled" / f"{n}.jsonl" for n in ("ChatGPT", "InstructGPT", "PerplexityAI")
]
#: The rows triqua is evaluated on: no generated pair may copy one of them.
EVALUATION = [
    ROOT / "tests" / "data" / "offline_cases.jsonl",
    *sorted((ROOT / "benchmarks" / "data").glob("*.jsonl")),
    ROOT / "benchmarks" / "data" / "declaratives.txt",
]
#: Every rewrite, in the order it is tried on a sentence.
REWRITES: list[Callable[[str, random.Random], list[Rewrite]]] = [
    number_forms,
    unit_conversions,
    approximations,
    comparatives,
    ordinals,
    centuries,
    dates,
    life_dates,
    restrictors,
    synonyms,
]
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"“(])")
_WORD = re.compile(r"\w+")
SHINGLE = 8


def _bucket(text: str, salt: str) -> int:
    return hashlib.sha1((salt + text).encode("utf-8")).digest()[0]


def shingles(text: str) -> set[str]:
    """Runs of ``SHINGLE`` words (lower case) of ``text``; the whole text when shorter."""
    words = [w.lower() for w in _WORD.findall(text)]
    if len(words) < SHINGLE:
        return {" ".join(words)} if words else set()
    return {" ".join(words[i : i + SHINGLE]) for i in range(len(words) - SHINGLE + 1)}


def _strings(value: object) -> Iterator[str]:
    """Every string inside a parsed JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def evaluation_texts() -> Iterator[str]:
    """The texts of every evaluation row: cases, benchmark data, held claims, NLI test."""
    for path in EVALUATION:
        for line in path.open(encoding="utf-8"):
            if line.strip():
                yield from _strings(json.loads(line)) if path.suffix == ".jsonl" else [line]
    for line in FCB.open(encoding="utf-8"):
        row = json.loads(line)
        if _fcb_half(row["claim"]) == "held":
            yield row["claim"]
            yield row["evidence"]
    for row in nli_pairs(NLI):
        if row["split"] == "test":
            yield str(row["premise"])
            yield str(row["hypothesis"])


def _fcb_half(claim: str) -> str:
    return "tune" if hashlib.sha1(claim.encode("utf-8")).digest()[0] % 2 == 0 else "held"


def sentences(text: str) -> list[str]:
    """The sentences of a passage that are long enough to say something (20-400 chars)."""
    return [s.strip() for s in _SENTENCE.split(text) if 20 <= len(s.strip()) <= 400]


def source_sentences() -> Iterator[tuple[str, str, str]]:
    """(sentence, split, source) of every sentence the pairs are made from."""
    for line in FCB.open(encoding="utf-8"):
        row = json.loads(line)
        claim = row["claim"]
        if _fcb_half(claim) == "held":
            continue
        split = "dev" if _bucket(claim, "fcb-dev") < 52 else "train"
        for sentence in [claim, *sentences(row["evidence"][:1200])]:
            yield sentence, split, "fcb"
    for row in nli_pairs(NLI):
        if row["split"] != "test":
            yield str(row["premise"]), str(row["split"]), "nli"
            yield str(row["hypothesis"]), str(row["split"]), "nli"
    for path in BIOS:
        for line in path.open(encoding="utf-8"):
            bio = json.loads(line)
            split = "dev" if _bucket(bio["topic"], "bio-dev") < 38 else "train"
            for annotation in bio.get("annotations") or []:
                for sentence in sentences(annotation["text"]):
                    yield sentence, split, "bio"


def make_pairs(
    rows: Iterable[tuple[str, str, str]], rng: random.Random, banned: set[str]
) -> Iterator[dict[str, object]]:
    """Training pairs from (sentence, split, source) rows; none from a banned shingle."""
    seen: set[str] = set()
    for sentence, split, source in rows:
        if sentence in seen or shingles(sentence) & banned:
            continue
        seen.add(sentence)
        for rewrite in REWRITES:
            for made in rewrite(sentence, rng):
                if made.hypothesis == made.premise or shingles(made.hypothesis) & banned:
                    continue  # a rewrite may land on an evaluation row ("kids" for "children")
                yield {
                    "premise": made.premise,
                    "hypothesis": made.hypothesis,
                    "label": made.label,
                    "split": split,
                    "source": f"{made.kind}:{source}",
                }


def banned_shingles() -> set[str]:
    """The shingles of every evaluation text and of each of its sentences (short ones too)."""
    banned: set[str] = set()
    for text in evaluation_texts():
        banned |= shingles(text)
        for sentence in _SENTENCE.split(text):
            banned |= shingles(sentence)
    return banned


def value_pairs(seed: int = 13) -> list[dict[str, object]]:
    """Every value pair of the shared data, the same for the same seed."""
    return list(make_pairs(source_sentences(), random.Random(seed), banned_shingles()))


if __name__ == "__main__":
    from collections import Counter

    made = value_pairs()
    counts = Counter((str(r["source"]).split(":")[0], r["label"]) for r in made)
    for (kind, label), count in sorted(counts.items()):
        print(f"{kind:18} {('entailed', 'neutral', 'contradicted')[int(label)]:13} {count}")
