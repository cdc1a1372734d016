"""Hard pairs: a premise holding a statement's words with another meaning (triqua's venv).

The value gates of the verifier read five shapes of text that state a fact's words without
stating the fact; the judge learns them from these pairs, built from true statements of the
shared data (the hypotheses the shared NLI pairs label entailed, and the Factcheck-Bench
claims its passages completely support), never from the evaluation sets:

- ``negation``: the statement with "not" after its auxiliary ("X is not Y") contradicts it;
- ``other_clause``: "X <another statement's predicate>, but Y <the predicate>" holds every
  word of "X <the predicate>" and gives the predicate to Y (neutral);
- ``other_entity``: "Y <the predicate>, and X <another predicate>" (neutral);
- ``conjunction``: the statement's closing prepositional phrase moved to another sentence
  about the subject ("X <other predicate> in P. X <predicate without it> in Q."; neutral);
- ``namesake``: a person's given name changed to another person's ("Emily Brontë" for
  "Charlotte Brontë"; neutral either way).

Each pair inherits the split of the statement it comes from (test statements are skipped).

Usage: imported by ``prepare.py``; ``python training/hard_pairs.py [--limit N]`` prints a
sample.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from triqua.nlp.pipeline import load_nlp

ENTAILED, NEUTRAL, CONTRADICTED = 0, 1, 2
KINDS = ("negation", "other_clause", "other_entity", "conjunction", "namesake")
_AUXILIARIES = frozenset(
    {"is", "are", "was", "were", "has", "have", "had", "can", "could", "will", "would"}
)
_SUBJECTS = frozenset({"nsubj", "nsubjpass"})


@dataclass(frozen=True)
class Statement:
    """A true statement split where a sentence about another subject can reuse it."""

    text: str
    split: str
    subject: str  # the subject's words as written
    predicate: str  # what follows the subject, without the closing stop
    auxiliary: int  # character offset after the root's auxiliary (-1: none)
    tail: str  # a closing prepositional phrase of the root ("in Ulm"), or ""
    person: tuple[str, str] | None  # (given name, surname) of a two-word person subject


def statements(rows: Iterable[tuple[str, str]], limit: int) -> list[Statement]:
    """The parsed statements among ``(text, split)`` rows: one sentence with a subject."""
    nlp = load_nlp()
    kept: list[Statement] = []
    chosen = [(t.strip(), s) for t, s in rows if s != "test" and 4 <= len(t.split()) <= 25]
    for doc, (text, split) in zip(nlp.pipe(t for t, _ in chosen), chosen, strict=True):
        root = next(doc.sents).root
        if len(list(doc.sents)) != 1:
            continue
        subjects = [c for c in root.children if c.dep_ in _SUBJECTS]
        if not subjects or subjects[0].pos_ == "PRON":
            continue
        span = doc[subjects[0].left_edge.i : subjects[0].right_edge.i + 1]
        if span.start != 0:
            continue
        predicate = doc[span.end :].text.rstrip(" .!?")
        aux = [c for c in root.children if c.dep_ in ("aux", "auxpass")]
        head = aux[0] if aux else root
        auxiliary = (
            head.idx + len(head.text) - span.end_char
            if head.text.lower() in _AUXILIARIES and "not" not in predicate.split()
            else -1
        )
        preps = [c for c in root.children if c.dep_ == "prep" and c.i > root.i]
        last = preps[-1] if preps else None
        tail = ""
        if last is not None and last.right_edge.i >= len(doc) - 2:
            tail = doc[last.i : last.right_edge.i + 1].text
        names = [t.text for t in span if t.ent_type_ == "PERSON"]
        person = (names[0], names[-1]) if len(names) == 2 else None
        kept.append(Statement(text, split, span.text, predicate, auxiliary, tail, person))
        if len(kept) >= limit:
            break
    return kept


def true_statements(
    nli: Iterable[dict[str, object]], claims: Iterable[tuple[str, str]]
) -> list[tuple[str, str]]:
    """``(statement, split)`` of the NLI hypotheses labelled entailed and of ``claims``.

    ``claims``: Factcheck-Bench claims their passage completely supports, with their split.
    """
    found = [(str(r["hypothesis"]), str(r["split"])) for r in nli if r["label"] == ENTAILED]
    return found + [(c, s) for c, s in claims if s != "test"]


def _sentence(subject: str, predicate: str) -> str:
    return f"{subject[:1].upper()}{subject[1:]} {predicate}."


def hard_pairs(
    rows: Iterable[tuple[str, str]], rng: random.Random, limit: int = 6000
) -> Iterator[dict[str, object]]:
    """Pairs of the five kinds from true ``(statement, split)`` rows, labelled as above.

    At most ``limit`` statements are read, a seeded sample of every source.
    """
    shuffled = list(rows)
    rng.shuffle(shuffled)
    found = statements(shuffled, limit)
    people = sorted({s.person[0] for s in found if s.person})
    by_preposition: dict[str, list[Statement]] = {}
    for s in found:
        if s.tail:  # another statement's closing phrase with the same preposition
            by_preposition.setdefault(s.tail.split()[0].lower(), []).append(s)
    for k, s in enumerate(found):
        other = found[rng.randrange(len(found))]
        if other.subject.lower() == s.subject.lower() or other.split != s.split:
            other = found[(k + 1) % len(found)]
        if other.subject.lower() == s.subject.lower() or other.predicate == s.predicate:
            continue  # the other statement must hold another subject and another predicate
        own = _sentence(s.subject, s.predicate)
        if s.auxiliary > 0:
            cut = s.auxiliary
            negated = f"{s.subject} {s.predicate[:cut].strip()} not {s.predicate[cut:].strip()}."
            yield _pair(negated, own, CONTRADICTED, s.split, "negation")
        clause = f"{_sentence(s.subject, other.predicate)[:-1]}, but {other.subject} {s.predicate}."
        yield _pair(clause, own, NEUTRAL, s.split, "other_clause")
        entity = f"{_sentence(other.subject, s.predicate)[:-1]}, and {s.subject} {other.predicate}."
        yield _pair(entity, own, NEUTRAL, s.split, "other_entity")
        partners = by_preposition.get(s.tail.split()[0].lower(), []) if s.tail else []
        tailed = partners[rng.randrange(len(partners))] if partners else s
        if tailed.tail.lower() != s.tail.lower():
            core = s.predicate[: s.predicate.rfind(s.tail)].strip()
            lead = tailed.predicate[: tailed.predicate.rfind(tailed.tail)].strip()
            if core and lead and lead.lower() != core.lower() and tailed.split == s.split:
                first = _sentence(s.subject, f"{lead} {s.tail}")
                second = _sentence(s.subject, f"{core} {tailed.tail}")
                yield _pair(f"{first} {second}", own, NEUTRAL, s.split, "conjunction")
        if s.person and len(people) > 1:
            given = rng.choice([p for p in people if p != s.person[0]])
            namesake = s.subject.replace(s.person[0], given, 1)
            yield _pair(_sentence(namesake, s.predicate), own, NEUTRAL, s.split, "namesake")
            yield _pair(own, _sentence(namesake, s.predicate), NEUTRAL, s.split, "namesake")


def _pair(premise: str, hypothesis: str, label: int, split: str, kind: str) -> dict[str, object]:
    return {
        "premise": premise,
        "hypothesis": hypothesis,
        "label": label,
        "split": split,
        "source": f"hard-{kind}:{kind}",
    }


def main() -> None:
    from nli import nli_pairs

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=200)
    args = parser.parse_args()
    rows = [
        (str(r["hypothesis"]), str(r["split"]))
        for r in nli_pairs()
        if r["label"] == ENTAILED and str(r["source"]).startswith("nli-fever")
    ]
    for row in hard_pairs(rows, random.Random(13), args.limit):
        print(row["label"], row["source"], "|", row["premise"], "=>", row["hypothesis"])


if __name__ == "__main__":
    main()
