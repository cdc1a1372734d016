"""The judged grounding rules' curves: true supports downgraded against lies kept.

Under the default ``--grounding judged`` a cited window supports a unit when no gate fires
and it writes the unit's words or the entailment judge entails it (``stated_curve``, over
the card's ``judged_some`` and ``judged`` thresholds); under ``--grounding judge`` when the
entailment judge finds it entailing the unit at the card's ``thresholds.grounding`` and no
value gate fires (``judged_curve``). For every
annotated true support (``data/grounding_gold.jsonl``: the units both annotators ground, a
judge quoting their window) and every plausible lie (``triqua.testing.liars``), the best
entailment of a window no gate vetoes is read once, so each threshold of the curve is a count.
Used by ``grounding_rule.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from triqua.core.grounding.rule import check_quote
from triqua.core.grounding.stated import written
from triqua.core.reading.quotes import locate_quote
from triqua.engines.second_opinion import EntailmentReader, reader_for
from triqua.models import entailment as entailment_module
from triqua.schema import Fact, FactUnit, Qualifier, Status
from triqua.sentences import sentence_spans
from triqua.testing.liars import plausible_lies

GOLD = Path(__file__).parent / "data" / "grounding_gold.jsonl"
CARD = Path(entailment_module.__file__).parent / "data" / "entailment.json"


class Recorder:
    """A reader that records the probability, so every threshold can be tried.

    Under the strict rule it accepts whatever it reads; under the judge rule it accepts
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

    def entailment(self, premises: Sequence[str], unit: FactUnit, source: str) -> float:
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


def stored_spans(sentences: list[str]) -> list[tuple[int, int]]:
    """Offsets of each annotated sentence in the passage they make joined by spaces.

    The annotators' windows number the stored sentences, so a window is read from these and
    not from a fresh split (which may join two of them, "Sr., a pastor").
    """
    spans, at = [], 0
    for sentence in sentences:
        spans.append((at, at + len(sentence)))
        at += len(sentence) + 1
    return spans


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
        spans = stored_spans(row["sentences"])
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
    """Print the judge rule's curve; return (and with ``write_card`` store) its choice."""
    reader = reader_for("shipped")
    assert isinstance(reader, EntailmentReader)
    recorder = Recorder(reader)
    gold = gold_judged(recorder)
    told = lies_judged(recorder, seeds)
    halves = {h: [g for g in gold if g[0] == h] for h in ("tune", "held")}
    dev = [x for x in told if x[0] % 2 == 0]
    print(f"judge rule (judge {reader.revision}, card threshold {reader.grounding_threshold})")
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
            shown = text if half != "held" else "(withheld: a held row is counted, never shown)"
            print(f"   downgraded: {half} {shown}", "(vetoed)" if p is None else f"({p:.3f})")
    if write_card:
        card = json.loads(CARD.read_text(encoding="utf-8"))
        card["thresholds"]["grounding"] = choice
        CARD.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
        print(f"wrote thresholds.grounding = {choice} to {CARD}")
    return choice


class StatedRecorder:
    """Reads every unvetoed window under the default ("judged") rule and records it.

    Its "judged" thresholds are above 1, so the rule asks the judge of every window that no
    gate vetoes and that does not write all of the unit's words; each reading is kept with
    whether the window writes some of those words, so every pair of thresholds is a count.
    """

    def __init__(self, inner: EntailmentReader) -> None:
        self.inner = inner
        self.revision = inner.revision
        self.threshold = inner.threshold
        self.paraphrase_threshold = inner.paraphrase_threshold
        self.grounding_threshold = inner.grounding_threshold
        self.judged_threshold = self.judged_some_threshold = 2.0
        self.reads: list[tuple[float, bool]] = []

    def entailment(self, premises: Sequence[str], unit: FactUnit, source: str) -> float:
        p = self.inner.entailment(premises, unit, source)
        some = written(unit, premises[0])[1]
        self.reads.append((p, some))
        return p

    def read(
        self,
        unit: FactUnit,
        ids: list[str],
        quote: str,
        passages: dict[str, str],
        *,
        source: str,
        read_before: dict[str, str] | None = None,
    ) -> Read | None:
        """What the rule reads of a quote: None when a gate vetoes every window.

        ``read_before``: what a reader read before each passage (its title), as
        :func:`~triqua.core.grounding.rule.check_quote` takes it.
        """
        self.reads = []
        outcome = check_quote(
            unit, Status.SUPPORTED, ids, quote, passages, source=source, reader=self,
            grounding="judged", read_before=read_before,
        )  # fmt: skip
        if not (outcome.ok or self.reads):
            return None  # every window vetoed (or the quote not found)
        passage = next(passages[i] for i in ids if i in passages)
        span = locate_quote(passage, quote)
        spans = sentence_spans(passage) if span else []
        around = [(a, b) for a, b in spans if span and a < span[1] and span[0] < b]
        window = passage[around[0][0] : around[-1][1]] if around else quote
        if self.inner.refusal(unit, window):
            return None  # a statement gate refuses the cited sentences
        return Read(stated=outcome.ok, reads=tuple(self.reads))


@dataclass(frozen=True)
class Read:
    """One quote under the default rule: a window writes every word, or the judge's reads."""

    stated: bool
    reads: tuple[tuple[float, bool], ...]

    def supports(self, some: float, none: float) -> bool:
        """True when the rule at these thresholds keeps the support."""
        return self.stated or any(p >= (some if s else none) for p, s in self.reads)


def gold_stated(recorder: StatedRecorder) -> list[tuple[str, list[Read | None], str]]:
    """Per annotated true support: its half, each annotator window's reading, hypothesis."""
    out = []
    for row in _gold_rows():
        unit = fact_units(row["fact"] | {"source_sentence": row["fact"]["source_text"]})[
            row["unit_index"]
        ]
        passage = " ".join(row["sentences"])
        spans = stored_spans(row["sentences"])
        reads = []
        for label in row["labels"]:
            first, last = label["window"][0] - 1, label["window"][-1] - 1
            quote = passage[spans[first][0] : spans[last][1]]
            reads.append(
                recorder.read(unit, ["e"], quote, {"e": passage}, source=row["fact"]["source_text"])
            )
        out.append((row["half"], reads, row["hypothesis"]))
    return out


def lies_stated(recorder: StatedRecorder, seeds: int) -> list[tuple[int, list[Read | None], str]]:
    """Per plausible lie: its seed, the reading of its quote, the lie."""
    out = []
    for seed, sentence, unit, quote, cited, passages in cited_lies(seeds):
        read = recorder.read(unit, [cited], quote, passages, source=sentence)
        out.append((seed, [read], f"seed {seed}: {unit.text} <- {quote!r}"))
    return out


def _kept(entries: list[Any], some: float, none: float) -> int:
    """Entries the default rule keeps supported at these thresholds (any window of theirs)."""
    return sum(1 for e in entries if any(r is not None and r.supports(some, none) for r in e[1]))


#: Thresholds of the default rule's curve (some words written / none written).
STATED_CURVE = (0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.7, 0.9)


def stated_curve(seeds: int, write_card: bool, dev_seeds: int = 40) -> tuple[float, float]:
    """Print the default ("judged") rule's curve; return (and store) its two thresholds.

    Chosen on the annotated tune half and the lies of the even seeds below ``dev_seeds``:
    the fewest tune downgrades with at most 1 in 120 of those lies kept, the higher
    thresholds on a tie. The held half and the odd seeds' lies are reported, never chosen
    on; so are the lies of the first ``seeds`` seeds (the aim's 120).
    """
    reader = reader_for("shipped")
    assert isinstance(reader, EntailmentReader)
    recorder = StatedRecorder(reader)
    gold = gold_stated(recorder)
    told = lies_stated(recorder, max(seeds, dev_seeds))
    halves = {h: [g for g in gold if g[0] == h] for h in ("tune", "held")}
    lied = {
        "dev": [x for x in told if x[0] % 2 == 0 and x[0] < dev_seeds],
        "held": [x for x in told if x[0] % 2 and x[0] < dev_seeds],
        "aim": [x for x in told if x[0] < seeds],
    }
    stated = sum(1 for g in gold if any(r is not None and r.stated for r in g[1]))
    vetoed = sum(1 for g in gold if all(r is None for r in g[1]))
    print(f"default rule 'judged' (judge {reader.revision})")
    print(
        f"annotated true supports: tune {len(halves['tune'])}, held {len(halves['held'])}; "
        f"a window writes every word: {stated}; vetoed by a gate: {vetoed}; plausible lies: "
        f"dev (even seeds < {dev_seeds}) {len(lied['dev'])}, held (odd seeds) "
        f"{len(lied['held'])}, the aim's (seeds < {seeds}) {len(lied['aim'])}"
    )
    head = ("some", "none", "downgraded", "", "", "lies kept", "", "")
    print("{:>6} {:>6} {:>11} {:>5} {:>8} {:>9} {:>7} {:>7}".format(*head))
    head = ("", "", "tune", "held", "all", "dev", "held", "aim")
    print("{:>6} {:>6} {:>11} {:>5} {:>8} {:>9} {:>7} {:>7}".format(*head))
    best: tuple[int, float, float] | None = None
    for some in STATED_CURVE:
        for none in STATED_CURVE:
            down = {h: len(e) - _kept(e, some, none) for h, e in halves.items()}
            kept = {h: _kept(e, some, none) for h, e in lied.items()}
            if kept["dev"] * 120 <= len(lied["dev"]):
                key = (-down["tune"], none, some)
                if best is None or key > (-best[0], best[2], best[1]):
                    best = (down["tune"], some, none)
            if some <= none:
                cells = (
                    f"{down['tune'] + down['held']}/{len(gold)}",
                    *(f"{kept[h]}/{len(lied[h])}" for h in ("dev", "held", "aim")),
                )
                print(
                    f"{some:>6} {none:>6} {down['tune']:>11} {down['held']:>5} "
                    "{:>8} {:>9} {:>7} {:>7}".format(*cells)
                )
    assert best is not None
    _, some, none = best
    print(f"\nchosen on the tune half and even seeds: some words written {some}, none {none}")
    down_all = len(gold) - _kept(gold, some, none)
    down_tune = len(halves["tune"]) - _kept(halves["tune"], some, none)
    down_held = len(halves["held"]) - _kept(halves["held"], some, none)
    print(
        f"at ({some}, {none}): {down_all}/{len(gold)} annotated true supports downgraded "
        f"(tune {down_tune}/{len(halves['tune'])}, held {down_held}/{len(halves['held'])}); "
        f"plausible lies kept: dev {_kept(lied['dev'], some, none)}/{len(lied['dev'])}, "
        f"held {_kept(lied['held'], some, none)}/{len(lied['held'])}, the aim's "
        f"{_kept(lied['aim'], some, none)}/{len(lied['aim'])}"
    )
    for _, reads, text in told:
        if any(r is not None and r.supports(some, none) for r in reads):
            print("   kept:", text)
    for half, reads, text in gold:
        if not any(r is not None and r.supports(some, none) for r in reads):
            read = [max((p for p, _ in r.reads), default=0.0) for r in reads if r is not None]
            shown = f"(best read {max(read):.3f})" if read else "(vetoed)"
            print(f"   downgraded: {half} {text if half != 'held' else '(withheld)'}", shown)
    if write_card:
        card = json.loads(CARD.read_text(encoding="utf-8"))
        card["thresholds"]["judged"], card["thresholds"]["judged_some"] = none, some
        CARD.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
        print(f"wrote thresholds.judged = {none}, judged_some = {some} to {CARD}")
    return some, none
