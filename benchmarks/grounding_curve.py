"""The default grounding rule's curve: true supports downgraded against lies kept.

Under ``--grounding judge`` a cited window supports a unit when the entailment judge finds it
entailing the unit at the card's ``thresholds.grounding`` and no value gate fires. For every
annotated true support (``data/grounding_gold.jsonl``: the units both annotators ground, a
judge quoting their window) and every plausible lie (``triqua.testing.liars``), the best
entailment of a window no gate vetoes is read once, so each threshold of the curve is a count.
Used by ``grounding_rule.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from triqua.core.grounding.rule import check_quote
from triqua.engines.second_opinion import EntailmentReader, reader_for
from triqua.models import entailment as entailment_module
from triqua.schema import Fact, FactUnit, Qualifier, Status
from triqua.sentences import sentence_spans
from triqua.testing.liars import plausible_lies

GOLD = Path(__file__).parent / "data" / "grounding_gold.jsonl"
CARD = Path(entailment_module.__file__).parent / "data" / "entailment.json"


class Recorder:
    """A reader that records the probability, so every threshold can be tried.

    Under the strict rule it accepts whatever it reads; under the default rule it accepts
    nothing (its grounding threshold is above 1) and keeps the best probability read on a
    window no gate vetoed (``best``; None when every window was vetoed).
    """

    def __init__(self, inner: EntailmentReader) -> None:
        self.inner = inner
        self.revision = inner.revision
        self.threshold = self.paraphrase_threshold = 0.0
        self.grounding_threshold = 2.0
        self.last = 1.0
        self.best: float | None = None

    def entailment(self, premises: list[str], unit: FactUnit, source: str) -> float:
        self.last = self.inner.entailment(premises, unit, source)
        self.best = max(self.best or 0.0, self.last)
        return self.last

    def judged(self, *args: Any, source: str) -> float | None:
        """The best entailment of a quote's windows under the default rule (None: vetoed)."""
        self.best = None
        check_quote(*args, source=source, reader=self, grounding="judge")
        return self.best


def fact_units(fact: dict[str, Any]) -> list[FactUnit]:
    return Fact(
        subject=fact["subject"],
        relation=fact["relation"],
        object=fact["object"],
        qualifiers=[Qualifier(**q) for q in fact["qualifiers"]],
        source_text=fact["source_sentence"],
    ).units()


def _gold_rows() -> list[dict[str, Any]]:
    """The annotated units both annotators ground (true supports), with their windows."""
    rows = [json.loads(line) for line in GOLD.open(encoding="utf-8")]
    return [r for r in rows if all(isinstance(x["window"], list) for x in r["labels"])]


def gold_judged(recorder: Recorder) -> list[tuple[str, float | None, str]]:
    """Per annotated true support: its half, the best entailment of a window no gate vetoes
    among the annotators' windows (None: every window vetoed), its hypothesis."""
    out = []
    for row in _gold_rows():
        unit = fact_units(row["fact"] | {"source_sentence": row["fact"]["source_text"]})[
            row["unit_index"]
        ]
        passage = " ".join(row["sentences"])
        spans = sentence_spans(passage)
        best: float | None = None
        for label in row["labels"]:
            first, last = label["window"][0] - 1, label["window"][-1] - 1
            quote = passage[spans[first][0] : spans[last][1]]
            p = recorder.judged(
                unit, Status.SUPPORTED, ["e"], quote, {"e": passage},
                source=row["fact"]["source_text"],
            )  # fmt: skip
            if p is not None:
                best = max(best or 0.0, p)
        out.append((row["half"], best, row["hypothesis"]))
    return out


def cited_lies(seeds: int) -> Iterator[tuple[int, str, FactUnit, str, str, dict[str, str]]]:
    """Each plausible lie's false unit: (seed, source sentence, unit, quote, cited id, passages)."""
    for seed in range(seeds):
        told = plausible_lies(seed)
        passages = {str(i): d for i, d in enumerate(told.documents)}
        for sentence, fact in told.facts.items():
            quote = told.quotes[sentence]
            cited = next(i for i, d in passages.items() if quote in d)
            for unit in fact_units(fact):
                if unit.text in told.false_units:
                    yield seed, sentence, unit, quote, cited, passages


def lies_judged(recorder: Recorder, seeds: int) -> list[tuple[int, float | None, str]]:
    """Per plausible lie: its seed, the best entailment of its quote's unvetoed windows."""
    out = []
    for seed, sentence, unit, quote, cited, passages in cited_lies(seeds):
        p = recorder.judged(unit, Status.SUPPORTED, [cited], quote, passages, source=sentence)
        out.append((seed, p, f"seed {seed}: {unit.text} <- {quote!r}"))
    return out


#: Thresholds of the curve.
CURVE = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9)


def _below(entries: list[Any], t: float) -> int:
    """Entries the default rule refuses at threshold ``t`` (vetoed, or read below ``t``)."""
    return sum(1 for e in entries if e[1] is None or e[1] < t)


def judged_curve(seeds: int, write_card: bool) -> float:
    """Print the default rule's curve; return (and with ``write_card`` store) its choice."""
    reader = reader_for("shipped")
    assert isinstance(reader, EntailmentReader)
    recorder = Recorder(reader)
    gold = gold_judged(recorder)
    told = lies_judged(recorder, seeds)
    halves = {h: [g for g in gold if g[0] == h] for h in ("tune", "held")}
    dev = [x for x in told if x[0] % 2 == 0]
    print(f"default rule (judge {reader.revision}, card threshold {reader.grounding_threshold})")
    print(
        f"annotated true supports: tune {len(halves['tune'])}, held {len(halves['held'])}; "
        f"vetoed by a gate whatever the judge reads: {_below(gold, 0.0)}; plausible lies: "
        f"{len(told)} ({_below(told, 0.0)} vetoed by a gate)"
    )
    print(f"{'threshold':>9} {'downgraded':>11} {'':>5} {'':>8} {'lies kept':>10} {'':>6}")
    print(f"{'':>9} {'tune':>11} {'held':>5} {'all':>8} {'even seeds':>10} {'all':>6}")
    choice, fewest = CURVE[-1], len(halves["tune"]) + 1
    for t in CURVE:
        down = {h: _below(e, t) for h, e in halves.items()}
        kept_dev = len(dev) - _below(dev, t)
        kept = len(told) - _below(told, t)
        print(
            f"{t:>9} {down['tune']:>11} {down['held']:>5} {f'{_below(gold, t)}/{len(gold)}':>8} "
            f"{f'{kept_dev}/{len(dev)}':>10} {f'{kept}/{len(told)}':>6}"
        )
        if kept_dev * 120 <= len(dev) and down["tune"] <= fewest:
            choice, fewest = t, down["tune"]
    print(f"\nchosen on the tune half and even seeds: {choice}")
    print(
        f"at {choice}: {_below(gold, choice)}/{len(gold)} annotated true supports downgraded "
        f"(held half {_below(halves['held'], choice)}/{len(halves['held'])}), "
        f"{len(told) - _below(told, choice)}/{len(told)} plausible lies kept"
    )
    for _, p, text in told:
        if p is not None and p >= choice:
            print("   kept:", text, f"({p:.3f})")
    for half, p, text in gold:
        if p is None or p < choice:
            print(f"   downgraded: {half} {text}", "(vetoed)" if p is None else f"({p:.3f})")
    if write_card:
        card = json.loads(CARD.read_text(encoding="utf-8"))
        card["thresholds"]["grounding"] = choice
        CARD.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
        print(f"wrote thresholds.grounding = {choice} to {CARD}")
    return choice
