"""A small calibrated scorer that decides paraphrased support when the rules do not.

The rules decide values and polarity: a rival number, date or name contradicts, a value
missing from the window never supports, and a negated sentence never supports an
affirmative fact. When they leave a fact's base undecided, every aligned sentence that
passes those hard gates (``values_present``) is scored by a logistic model over a few
features that transfer between claim sets: MiniLM cosine, content-word coverage of the
object, key words, whether the relation word occurs, how the sentence names the subject.
The best sentence supports the base when its score reaches the model's threshold, and the
verdict says so ("aligned by scorer 0.74").

The weights are fitted on the tune half of the shared Factcheck-Bench file only
(``benchmarks/fit_offline_scorer.py``) and shipped in ``data/scorer.json`` with their
revision, which is part of the verifier revision, so caches never answer with verdicts
of other weights. Plain numpy: no fitting library is loaded at inference.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from triqua.engines.offline.align import (
    Token,
    analyse,
    has_stem,
    values_relation,
)
from triqua.engines.offline.binding import REFERS
from triqua.engines.offline.fact_match import (
    FactParts,
    holds_key_words,
    polarity_differs,
    relation_stated,
    restrictors_stated,
    sentence_relation_hit,
)
from triqua.engines.offline.findings import Finding, Sentence
from triqua.engines.offline.names import name_word_in
from triqua.engines.offline.once import once
from triqua.engines.offline.qualifiers import judge_qualifier
from triqua.engines.offline.rules import antonym_in, roles_differ, substitution
from triqua.schema import Fact, Status

__all__ = [
    "FEATURES",
    "ScorerModel",
    "by_scorer",
    "eligible",
    "fact_words",
    "features",
    "fitting_rows",
    "get_scorer",
    "values_present",
]

_PATH = Path(__file__).parent / "data" / "scorer.json"

#: The features the model reads, in the order of its weights. Few and general on purpose:
#: object coverage, key words, the relation word, values and the window's words were
#: tried and added nothing on the tune half once these three were in.
FEATURES = ("cosine", "subject_named", "passage_coverage")


@dataclass(frozen=True)
class ScorerModel:
    """Logistic weights over ``FEATURES`` and the probability that counts as support."""

    revision: str
    weights: tuple[float, ...]
    bias: float
    threshold: float

    def score(self, values: Mapping[str, float]) -> float:
        """Probability that the sentence states the fact, from its feature values."""
        z = self.bias + sum(
            w * values[name] for w, name in zip(self.weights, FEATURES, strict=True)
        )
        return 1.0 / (1.0 + math.exp(-z))


def load_scorer(path: Path = _PATH) -> ScorerModel:
    """Read and check the shipped weights.

    Raises:
        RuntimeError: when the file is missing, unreadable or fitted on other features.
    """
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        weights = {str(k): float(v) for k, v in raw["weights"].items()}
        if set(weights) != set(FEATURES):
            raise ValueError(f"weights for {sorted(weights)}, expected {list(FEATURES)}")
        return ScorerModel(
            revision=str(raw["revision"]),
            weights=tuple(weights[name] for name in FEATURES),
            bias=float(raw["bias"]),
            threshold=float(raw["threshold"]),
        )
    except (OSError, KeyError, ValueError) as exc:
        raise RuntimeError(f"offline verifier scorer {path} is unreadable: {exc}") from exc


@once
def get_scorer() -> ScorerModel:
    """The shipped scorer, read once per process."""
    return load_scorer()


def values_present(fact: Fact, parts: FactParts, sentence: Sentence) -> bool:
    """The hard gates: True when the sentence may state the fact at all.

    It carries every number and date of the object and qualifiers and every name word of
    them, replaces no word of the object, is negated exactly when the fact is, holds no
    antonym of the object, and does not give the relation to someone else.
    """
    info = sentence.info
    if polarity_differs(parts, info) or antonym_in(parts.object, info):
        return False
    hit = sentence_relation_hit(parts, info)
    if (
        isinstance(hit, Token)
        and sentence.subject != REFERS
        and roles_differ(parts.subject, parts.object, info, hit)
    ):
        return False
    values = [parts.object] + [analyse(q.value) for q in fact.qualifiers]
    for value in values:
        if values_relation(value, info, set(), set())[0] != "match":
            return False
        if not all(name_word_in(t, info) for t in value.content if t.is_capitalised):
            return False
    if restrictors_stated(parts, info)[0] != "ok":  # "once", "the first", "only"
        return False
    return substitution(parts.object, info) is None


def eligible(fact: Fact, parts: FactParts, sentence: Sentence) -> bool:
    """True when the scorer may judge the sentence at all.

    It speaks about the subject, states the relation (its word, a synonym of the lexicon,
    or a paraphrase very close to the fact: ``relation_stated``), keeps some
    of the fact's key words (similarity alone never supports) and passes
    ``values_present``.
    """
    return (
        sentence.subject > 0
        and relation_stated(parts, sentence)
        and holds_key_words(parts, sentence)
        and values_present(fact, parts, sentence)
    )


def fact_words(fact: Fact, parts: FactParts) -> frozenset[str]:
    """Stems of the fact's content words: subject, relation, object and qualifier values."""
    infos = [
        parts.subject,
        parts.relation,
        parts.object,
        *(analyse(q.value) for q in fact.qualifiers),
    ]
    return frozenset(t.stem for info in infos for t in info.content)


def _share(words: frozenset[str], stems: frozenset[str]) -> float:
    """Share of ``words`` found among ``stems`` (exactly or by derivation); 1.0 for none."""
    return sum(has_stem(stems, w) for w in words) / len(words) if words else 1.0


def features(
    fact: Fact,
    parts: FactParts,
    sentence: Sentence,
    by_place: Mapping[tuple[int, int], Sentence],
) -> dict[str, float]:
    """The scorer's feature values for one fact and one aligned sentence (each in [0, 1]).

    The sentence's MiniLM cosine to the fact, whether it names the subject in full (not
    by surname or "she"), and the share of the fact's words its whole passage holds: a
    passage that supports a fact usually states most of its words, one about something
    else does not.
    """
    words = fact_words(fact, parts)
    passage = frozenset().union(
        *(s.info.stems for (p, _), s in by_place.items() if p == sentence.passage)
    )
    return {
        "cosine": max(0.0, sentence.cosine),
        "subject_named": 1.0 if sentence.subject >= 1.0 else 0.0,
        "passage_coverage": _share(words, passage),
    }


def by_scorer(
    fact: Fact,
    parts: FactParts,
    top: Sequence[Sentence],
    base: Finding,
    bound: list[Sentence],
    by_place: Mapping[tuple[int, int], Sentence],
    model: ScorerModel | None = None,
) -> tuple[Finding, list[Sentence]]:
    """Support an undecided base by the scorer, values checked by rules first.

    Every aligned sentence that passes the hard gates (``eligible``) is scored; the best
    one supports the base when its score reaches the threshold.
    Otherwise the finding records the best score seen.
    """
    model = model or get_scorer()
    scored = [
        (model.score(features(fact, parts, s, by_place)), s)
        for s in top
        if eligible(fact, parts, s)
    ]
    if not scored:
        return base, bound
    scored.sort(key=lambda pair: -pair[0])
    best, sentence = scored[0]
    base.similar = best
    if best < model.threshold:
        return base, bound
    finding = Finding(
        Status.SUPPORTED, sentence, None, f"aligned by scorer {best:.2f}", sentence.score
    )
    return finding, [s for p, s in scored if p >= model.threshold]


def fitting_rows(
    fact: Fact,
    parts: FactParts,
    top: list[Sentence],
    by_place: dict[tuple[int, int], Sentence],
) -> list[tuple[dict[str, float], bool]]:
    """For fitting: the features of every sentence the scorer would judge for an open base.

    Each comes with whether all the fact's qualifiers are then stated in that sentence's
    window, so a fitting script can simulate claim verdicts for any weights.
    """
    rows = []
    for sentence in top:
        if not eligible(fact, parts, sentence):
            continue
        held = Finding(Status.SUPPORTED, sentence)
        qualified = all(
            judge_qualifier(fact, parts, q.label, q.value, held, [sentence], top, by_place).status
            == Status.SUPPORTED
            for q in fact.qualifiers
        )
        rows.append((features(fact, parts, sentence, by_place), qualified))
    return rows
