"""Build the entailment judge's training pairs from the shared data (runs in triqua's venv).

Every pair is (premise, hypothesis, label) with label 0 entailed, 1 neutral, 2 contradicted,
and a split: "train", "dev" (threshold calibration) or "test". Sources:

- Factcheck-Bench subtask 3 (claim, evidence passage, stance). Claims are split in halves
  by the same hash as ``benchmarks/offline_verdicts.py``: the "held" half is test only and
  never trained on; the "tune" half is split again by claim into train and dev.
  completely-support -> entailed, refute -> contradicted, irrelevant and partially-support
  -> neutral (a passage that states part of a claim does not entail it). The offline
  decomposer's facts of a fully supported or irrelevant claim inherit its label.
- FActScore bios (all three files), split by topic into train and dev. A sentence, or the
  sentence with the one before it (so "She" and a surname resolve), entails the human atomic
  facts written from it and the offline decomposer's facts of it, rendered as the verifier
  renders them (``triqua.models.hypotheses``). Negatives are derived from those:
  another sentence's facts of the same bio and of other bios (neutral), a changed year or
  number, an inserted negation, another entity of the same kind in the object or a
  qualifier (contradicted), another subject (neutral), and a qualifier taken from another
  sentence (contradicted when the premise states another year, neutral otherwise).
- Value pairs (``value_pairs.py``): sentences of Factcheck-Bench, the bios and the NLI
  premises with a value rewritten by the value reader's rules (number forms, units,
  approximations, bounds, ordinals, centuries, dates, restrictors, synonyms), each in its
  sentence's split.
- The shared NLI pairs (SNLI, MultiNLI, FEVER-symmetric; ``nli.py``), held out by premise.
- Hard pairs from true statements (``hard_pairs.py``): negations, namesakes and the like.

Usage: python training/prepare.py [--out training/build/pairs.jsonl] [--seed 13]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

from hard_pairs import hard_pairs, true_statements
from nli import nli_pairs
from value_pairs import value_pairs

from triqua.engines.offline.decompose.decomposer import get_decomposer
from triqua.evals.data import eval_data_dir
from triqua.models.hypotheses import fact_hypothesis, unit_hypothesis
from triqua.nlp.pipeline import load_nlp
from triqua.schema import Fact

ROOT = Path(__file__).resolve().parents[1]
SHARED = eval_data_dir()
FCB = SHARED / "factcheck_bench" / "subtask3_claim_evidence_stance.jsonl"
BIOS = [
    SHARED / "factscore_labeled" / f"{n}.jsonl" for n in ("ChatGPT", "InstructGPT", "PerplexityAI")
]

ENTAILED, NEUTRAL, CONTRADICTED = 0, 1, 2
STANCE = {
    "completely-support": ENTAILED,
    "refute": CONTRADICTED,
    "irrelevant": NEUTRAL,
    "partially-support": NEUTRAL,
}
YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
NUMBER = re.compile(r"\b\d+(?:[.,]\d+)?\b")
WORD = re.compile(r"[A-Za-z]+")
SWAPPABLE = {"GPE", "LOC", "ORG", "PERSON", "NORP", "WORK_OF_ART", "FAC", "EVENT", "LANGUAGE"}
_STOP = frozenset(
    {
        "the", "a", "an", "of", "in", "on", "at", "to", "for", "and", "or", "is", "was",
        "were", "are", "be", "been", "by", "with", "as", "from", "that", "this", "his",
        "her", "their", "its", "he", "she", "they", "it", "who", "which", "has", "have",
        "had", "also",
    }
)  # fmt: skip


def bucket(text: str, salt: str = "") -> int:
    """A stable byte (0-255) of ``text``'s hash, for splits that do not move between runs."""
    return hashlib.sha1((salt + text).encode("utf-8")).digest()[0]


def fcb_half(claim: str) -> str:
    """The Factcheck-Bench half of a claim, as ``benchmarks/offline_verdicts.py`` splits it."""
    return "tune" if hashlib.sha1(claim.encode("utf-8")).digest()[0] % 2 == 0 else "held"


def content_words(text: str) -> set[str]:
    """Lower-cased words of ``text`` that carry content."""
    return {w.lower() for w in WORD.findall(text) if w.lower() not in _STOP and len(w) > 2}


def overlap(hypothesis: str, premise: str) -> float:
    """Share of the hypothesis's content words that the premise holds."""
    words = content_words(hypothesis)
    return len(words & content_words(premise)) / len(words) if words else 1.0


def pair(premise: str, hypothesis: str, label: int, split: str, source: str) -> dict[str, object]:
    """One training row."""
    return {
        "premise": premise.strip(),
        "hypothesis": hypothesis.strip(),
        "label": label,
        "split": split,
        "source": source,
    }


# ------------------------------------------------------------------ Factcheck-Bench


def fcb_pairs(decomposed: dict[str, list[Fact]]) -> Iterator[dict[str, object]]:
    """Pairs from Factcheck-Bench: whole claims and the decomposer's facts of them."""
    for line in FCB.open(encoding="utf-8"):
        row = json.loads(line)
        claim, evidence, stance = row["claim"], row["evidence"][:1200], row["stance"]
        if fcb_half(claim) == "held":
            split = "test"
        else:
            split = "dev" if bucket(claim, "fcb-dev") < 52 else "train"
        label = STANCE[stance]
        yield pair(evidence, claim, label, split, f"fcb:{stance}")
        if stance == "irrelevant" and split != "test":
            # Every window of an irrelevant passage is irrelevant too: the judge reads windows.
            sentences = [s for s in re.split(r"(?<=[.!?])\s+", evidence) if len(s) > 20]
            for k in range(0, min(len(sentences), 6), 3):
                window = " ".join(sentences[k : k + 2])
                yield pair(window, claim, NEUTRAL, split, f"fcb-window:{stance}")
        if stance in ("completely-support", "irrelevant") and split != "test":
            for fact in decomposed.get(claim, [])[:3]:
                yield pair(evidence, fact_hypothesis(fact), label, split, f"fcb-fact:{stance}")


# ------------------------------------------------------------------ FActScore bios


def bio_sentences() -> Iterator[tuple[str, str, list[str], list[list[str]]]]:
    """(file, topic, sentences, human atomic facts per sentence) of every annotated bio."""
    for path in BIOS:
        for line in path.open(encoding="utf-8"):
            row = json.loads(line)
            if not row.get("annotations"):
                continue
            sentences = [a["text"] for a in row["annotations"]]
            facts = [
                [f["text"] for f in (a.get("human-atomic-facts") or [])] for a in row["annotations"]
            ]
            yield path.stem, row["topic"], sentences, facts


class Mutator:
    """Changes a true hypothesis into a false one: years, numbers, negation, entities."""

    def __init__(self, rng: random.Random, entities: dict[str, list[str]]) -> None:
        self.rng = rng
        self.entities = entities

    def year(self, text: str) -> str | None:
        """Another year in place of the first one."""
        match = YEAR.search(text)
        if not match:
            return None
        shift = self.rng.choice([-11, -7, -4, -3, -2, -1, 1, 2, 3, 5, 9, 14])
        return text[: match.start()] + str(int(match.group()) + shift) + text[match.end() :]

    def number(self, text: str) -> str | None:
        """Another number in place of one that is not a year."""
        found = [m for m in NUMBER.finditer(text) if not YEAR.fullmatch(m.group())]
        if not found:
            return None
        match = self.rng.choice(found)
        raw = match.group().replace(",", "")
        try:
            value = float(raw)
        except ValueError:
            return None
        factor = self.rng.choice([0.5, 0.7, 1.5, 2, 3, 10])
        new = value * factor if value else self.rng.randint(2, 9)
        shown = f"{new:,.0f}" if new >= 10 or raw.isdigit() else f"{new:.1f}"
        if shown.replace(",", "") == raw:
            return None
        return text[: match.start()] + shown + text[match.end() :]

    def negate(self, text: str) -> str | None:
        """The hypothesis denied: "is not", "was not", "did not <verb>"."""
        for aux in (" is ", " was ", " are ", " were ", " has ", " had ", " can ", " will "):
            at = text.find(aux)
            if at > 0:
                return text[:at] + aux + "not " + text[at + len(aux) :]
        words = text.split()
        for i, word in enumerate(words[1:6], start=1):
            if word.endswith("ed") and word.islower() and len(word) > 4:
                return " ".join([*words[:i], "never", *words[i:]])
        return None

    def entity(
        self, text: str, spans: list[tuple[int, int, str]], subject_end: int
    ) -> tuple[str, int] | None:
        """Another entity of the same kind; contradicted in the object, neutral as subject."""
        choices = [s for s in spans if s[2] in SWAPPABLE and len(self.entities[s[2]]) > 5]
        if not choices:
            return None
        start, end, label = self.rng.choice(choices)
        old = text[start:end]
        new = self.rng.choice(self.entities[label])
        if new.lower() == old.lower() or old.lower() in new.lower() or new.lower() in old.lower():
            return None
        changed = text[:start] + new + text[end:]
        return changed, NEUTRAL if start < subject_end else CONTRADICTED


def bio_pairs(rng: random.Random) -> Iterator[dict[str, object]]:
    """Pairs from the FActScore bios: sentences against facts of themselves and of others."""
    bios = list(bio_sentences())
    nlp = load_nlp()
    decomposer = get_decomposer()
    print(f"bios: {len(bios)}; decomposing their sentences", file=sys.stderr)
    # Decompose each bio as one text, so pronouns resolve; facts map to sentences by source.
    texts = [" ".join(sentences) for _, _, sentences, _ in bios]
    bio_facts = decomposer.decompose_many(texts)
    all_atomic = [f for _, _, _, facts in bios for fs in facts for f in fs]
    docs = list(nlp.pipe(all_atomic, batch_size=256))
    spans_of = {
        text: [(e.start_char, e.end_char, e.label_) for e in doc.ents]
        for text, doc in zip(all_atomic, docs, strict=True)
    }
    subject_end_of = {
        text: next((t.idx for t in doc if t.dep_ == "ROOT"), 0)
        for text, doc in zip(all_atomic, docs, strict=True)
    }
    entities: dict[str, list[str]] = defaultdict(list)
    for spans, text in ((spans_of[t], t) for t in all_atomic):
        for start, end, label in spans:
            entities[label].append(text[start:end])
    entities = defaultdict(list, {k: sorted(set(v)) for k, v in entities.items()})
    mutate = Mutator(rng, entities)

    relations = sorted(
        {f.relation for fs in bio_facts for f in fs if 1 <= len(f.relation.split()) <= 4}
    )
    for (name, topic, sentences, atomic), facts in zip(bios, bio_facts, strict=True):
        split = "dev" if bucket(topic, "bio-dev") < 38 else "train"
        by_sentence: dict[int, list[Fact]] = defaultdict(list)
        starts, at = [], 0
        for sentence in sentences:
            starts.append(at)
            at += len(sentence) + 1
        for fact in facts:
            if fact.span is not None:
                i = max(j for j, start in enumerate(starts) if start <= fact.span.start)
                by_sentence[i].append(fact)
        others = [f for fs in atomic for f in fs]
        for i, sentence in enumerate(sentences):
            if len(sentence) < 20:
                continue
            premise = sentence
            if i and rng.random() < 0.35:
                premise = f"{sentences[i - 1]} {sentence}"
            positives = [(h, "bio-atomic") for h in rng.sample(atomic[i], min(3, len(atomic[i])))]
            own = by_sentence.get(i, [])
            for fact in rng.sample(own, min(2, len(own))):
                positives.append((fact_hypothesis(fact), "bio-fact"))
                if fact.qualifiers:
                    unit = rng.choice(fact.units())
                    positives.append((unit_hypothesis(unit), "bio-unit"))
            for hypothesis, source in positives:
                yield pair(premise, hypothesis, ENTAILED, split, f"{source}:{name}")
                yield from _negatives(
                    rng, mutate, premise, hypothesis, spans_of, subject_end_of, split, name
                )
            # Another sentence's fact of the same bio: the same subject's other events.
            elsewhere = [f for j, fs in enumerate(atomic) if j != i for f in fs]
            picks = [
                f
                for f in rng.sample(elsewhere, min(4, len(elsewhere)))
                if overlap(f, premise) < 0.5
            ]
            for hypothesis in picks[:2]:
                yield pair(premise, hypothesis, NEUTRAL, split, f"bio-other-event:{name}")
            if others and rng.random() < 0.3:
                far = rng.choice(all_atomic)
                if overlap(far, premise) < 0.4:
                    yield pair(premise, far, NEUTRAL, split, f"bio-other-bio:{name}")
            # Another relation between the same subject and object ("buried in" for "born in").
            if own and rng.random() < 0.6:
                fact = rng.choice(own)
                swapped = _relation_swap(rng, fact, relations, premise)
                if swapped is not None:
                    yield pair(premise, swapped, NEUTRAL, split, f"bio-relation-swap:{name}")
            # A qualifier moved from another fact of the bio.
            movable = [f for j, fs in by_sentence.items() if j != i for f in fs if f.qualifiers]
            if own and movable and rng.random() < 0.5:
                base = rng.choice(own)
                moved = rng.choice(rng.choice(movable).qualifiers)
                hypothesis = fact_hypothesis(base, [moved])
                if moved.value.lower() not in premise.lower():
                    year_clash = bool(YEAR.search(premise)) and bool(YEAR.search(moved.value))
                    label = CONTRADICTED if year_clash else NEUTRAL
                    yield pair(premise, hypothesis, label, split, f"bio-moved-qualifier:{name}")


LEXICON = ROOT / "src" / "triqua" / "core" / "reading" / "data" / "lexicon.json"
_GROUPS = [
    {w for phrase in group for w in phrase.lower().split()}
    for group in json.loads(LEXICON.read_text(encoding="utf-8"))["relation_groups"]
]


def synonyms(one: set[str], other: set[str]) -> bool:
    """True when the two relations' words meet in a relation group of the lexicon."""

    def stems(words: set[str]) -> set[str]:
        return {w[:4] for w in words}

    a, b = stems(one), stems(other)
    return any(a & stems(g) and b & stems(g) for g in _GROUPS)


def _relation_swap(
    rng: random.Random, fact: Fact, relations: list[str], premise: str
) -> str | None:
    """The fact with a relation it does not state: same subject and object, other verb."""
    if not fact.object or not relations:
        return None
    own = content_words(fact.relation)
    for _ in range(8):
        relation = rng.choice(relations)
        words = content_words(relation)
        if synonyms(own, words):  # "received" for "won" would be a paraphrase, not a swap
            continue
        if words and not words & own and not words & content_words(premise):
            swapped = fact.model_copy(update={"relation": relation, "qualifiers": []})
            return fact_hypothesis(swapped)
    return None


def _negatives(
    rng: random.Random,
    mutate: Mutator,
    premise: str,
    hypothesis: str,
    spans_of: dict[str, list[tuple[int, int, str]]],
    subject_end_of: dict[str, int],
    split: str,
    name: str,
) -> Iterator[dict[str, object]]:
    """At most two mutated, false versions of a true hypothesis."""
    made = 0
    kinds = ["year", "number", "negate", "entity"]
    rng.shuffle(kinds)
    for kind in kinds:
        if made >= 2 or rng.random() < 0.35:
            continue
        changed: str | None = None
        label = CONTRADICTED
        if kind == "year":
            changed = mutate.year(hypothesis)
        elif kind == "number":
            changed = mutate.number(hypothesis)
        elif kind == "negate":
            changed = mutate.negate(hypothesis)
        elif hypothesis in spans_of:
            found = mutate.entity(hypothesis, spans_of[hypothesis], subject_end_of[hypothesis])
            if found:
                changed, label = found
        if changed and changed != hypothesis:
            made += 1
            yield pair(premise, changed, label, split, f"bio-{kind}:{name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "training" / "build" / "pairs.jsonl")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    claims = list(dict.fromkeys(json.loads(line)["claim"] for line in FCB.open(encoding="utf-8")))
    tuned = [c for c in claims if fcb_half(c) == "tune"]
    decomposed = dict(zip(tuned, get_decomposer().decompose_many(tuned), strict=True))
    nli = list(nli_pairs())
    fcb = [p for p in fcb_pairs(decomposed) if p["source"] == "fcb:completely-support"]
    statements = true_statements(nli, ((str(p["hypothesis"]), str(p["split"])) for p in fcb))
    rows = [*fcb_pairs(decomposed), *bio_pairs(rng), *nli, *hard_pairs(statements, rng)]
    seen: set[tuple[str, str]] = set()
    unique = []
    for row in [*rows, *value_pairs(args.seed)]:
        key = (str(row["premise"]), str(row["hypothesis"]))
        if key not in seen and row["hypothesis"]:
            seen.add(key)
            unique.append(row)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as out:
        for row in unique:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    counts = Counter((r["split"], r["label"]) for r in unique)
    sources = Counter(str(r["source"]).split(":")[0] for r in unique)
    print(f"{len(unique)} pairs -> {args.out}")
    print("split x label:", dict(sorted(counts.items())))
    print("sources:", dict(sources.most_common()))


if __name__ == "__main__":
    main()
