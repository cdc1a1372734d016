"""A larger dev set of true supports for the default grounding rule, with why each is refused.

**FActScore bios** (``factscore_labeled/``, the dev topics of ``training/prepare.py``: the
judge never trained on them): each human atomic fact labelled supported ("S") is stated by
the bio sentence it was written from. The fact (its opening "He"/"She"/"His"/"Her" read as
the bio's subject, as a checked text's decomposer resolves it) is decomposed by the offline
decomposer; each unit is a true support when a judge cites that sentence, in the whole bio,
under the bio's title.

**Factcheck-Bench tune half** (``--fcb``): completely-supported claims whose evidence has
at most three sentences (so the whole passage is one cited window): each unit of the
claim's facts is a true support of the whole passage quoted.

For each, the default rule (``--grounding judged``) is applied at the card's thresholds and
a refusal is counted by its cause: the value gate, statement gate or judge bar that refused.
The rule's downgrade rate on this set is the dev figure for changes to the shared readers;
the annotated and held figures stay those of ``grounding_rule.py``.

Usage: python benchmarks/grounding_dev.py [--fcb] [--limit N] [--show CAUSE] [--examples N]
[--dump FILE] [--vetoes] [--curve [--fcb]]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections import Counter, defaultdict
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from offline_verdicts import DATA, half_of
from shared_data import data_file, require

from triqua.core.grounding.rule import check_quote
from triqua.core.reading.titles import heading
from triqua.engines.offline.decompose.decomposer import get_decomposer
from triqua.engines.second_opinion import EntailmentReader, reader_for
from triqua.schema import FactUnit, Status
from triqua.sentences import sentence_spans

BIOS = ("ChatGPT", "InstructGPT", "PerplexityAI")

#: Causes of a refusal, by the start of the reason the rule records.
CAUSES = (
    ("values", "quote lacks value"),
    ("date of another event", "to another event"),
    ("value slot", "governs"),
    ("life dates", "life dates"),
    ("restrictor", "restricts it"),
    ("rival restrictor", "instead"),
    ("role rival", "gives the role"),
    ("relation slot", "in the relation's slot"),
    ("negation", "negates it"),
    ("disowning label", "disowns"),
    ("keyword list", "list of keywords"),
    ("antonym", "opposite of its object"),
    ("split relation", "in different sentences"),
    ("judge, words across sentences", "only across sentences"),
    ("judge, no word written", "does not write the unit's words, and the entailment judge"),
    ("quote not found", "quote not found"),
    ("clause: object given to another", "gives the object to"),
    ("clause: relation given to another", "gives the relation to"),
    ("clause: inside a frame", "inside a frame"),
    ("clause: object across clauses", "across clauses"),
    ("rival count", "writes '"),
    ("a question", "quotes a question"),
    ("no sentence touched", "touches no sentence"),
)


def cause(reason: str) -> str:
    """The cause a refusal's reason names ("clause gate" for the statement gates' others)."""
    for name, marker in CAUSES:
        if marker in reason:
            return name
    return f"other: {reason[:60]}"


def dev_topic(topic: str) -> bool:
    """True for a bio topic of the judge's dev split (``training/prepare.py``'s bucket)."""
    return hashlib.sha1(("bio-dev" + topic).encode("utf-8")).digest()[0] < 38


_OPENING = re.compile(r"^(He|She|They)\b|^(His|Her|Their)\b")


def named(atomic: str, topic: str) -> str:
    """The atomic fact with an opening pronoun read as the bio's subject.

    The subject is the topic's name before any comma: "Rennie Fritchie, Baroness Fritchie"
    is a page title adding her peerage, and "She" is Rennie Fritchie.
    """
    match = _OPENING.match(atomic)
    if match is None:
        return atomic
    name = topic.split(",", 1)[0].strip()
    if match.group(1):
        return name + atomic[match.end() :]
    return f"{name}'s" + atomic[match.end() :]


Case = tuple[str, FactUnit, str, str, str, str]  # (set, unit, quote, passage, title, source)


def bio_cases(limit: int) -> list[Case]:
    """True supports from the FActScore dev topics' supported atomic facts."""
    rows = []
    for name in BIOS:
        path = require(data_file(f"factscore_labeled/{name}.jsonl"))
        for line in path.open(encoding="utf-8"):
            row = json.loads(line)
            if row.get("annotations") and dev_topic(row["topic"]):
                rows.append(row)
    found: list[tuple[str, str, str, str]] = []  # (atomic, sentence, passage, topic)
    for row in rows:
        sentences = [a["text"] for a in row["annotations"]]
        passage = " ".join(sentences)
        for annotation in row["annotations"]:
            for atomic in annotation.get("human-atomic-facts") or []:
                if atomic["label"] == "S" and len(sentence_spans(annotation["text"])) <= 1:
                    text = named(atomic["text"], row["topic"])
                    found.append((text, annotation["text"], passage, row["topic"]))
    if limit:
        found = found[:limit]
    facts = get_decomposer().decompose_many([f[0] for f in found])
    return [
        ("bios", unit, sentence, passage, topic, atomic)
        for (atomic, sentence, passage, topic), fs in zip(found, facts, strict=True)
        for fact in fs
        for unit in fact.units()
    ]


def fcb_cases(limit: int) -> list[Case]:
    """True supports from the Factcheck-Bench tune half's short completely-supporting passages."""
    rows = [json.loads(line) for line in require(DATA).open(encoding="utf-8")]
    rows = [
        r
        for r in rows
        if r["stance"] == "completely-support"
        and half_of(r["claim"]) == "tune"
        and len(sentence_spans(r["evidence"])) <= 3
    ]
    if limit:
        rows = rows[:limit]
    facts = get_decomposer().decompose_many([r["claim"] for r in rows])
    return [
        ("fcb", unit, r["evidence"], r["evidence"], "", r["claim"])
        for r, fs in zip(rows, facts, strict=True)
        for fact in fs
        for unit in fact.units()
    ]


def vetoed_entailments(limit: int, bar: float = 0.8) -> Counter[str]:
    """Factcheck-Bench tune units a window entails by the bare judge, yet the rule refuses.

    Each completely-supported tune claim's units are read against every window of one or
    two sentences of its passage by the judge alone (no gate); a window it entails at
    ``bar`` or more is one a judge would quote. A unit whose every such window the rule
    refuses is counted by the cause of the refusal: a gate's false veto, most often.
    """
    rows = [json.loads(line) for line in require(DATA).open(encoding="utf-8")]
    rows = [
        r for r in rows if r["stance"] == "completely-support" and half_of(r["claim"]) == "tune"
    ]
    rows = rows[:limit] if limit else rows
    facts = get_decomposer().decompose_many([r["claim"] for r in rows])
    reader = reader_for("shipped")
    assert isinstance(reader, EntailmentReader)
    causes: Counter[str] = Counter()
    for row, fs in zip(rows, facts, strict=True):
        passage = row["evidence"]
        spans = sentence_spans(passage)[:12]
        windows = [passage[a:b] for a, b in spans] + [
            passage[a:d] for (a, _), (_, d) in pairwise(spans)
        ]
        for unit in (u for fact in fs for u in fact.units()):
            read = [(reader.entailment([w], unit, row["claim"]), w) for w in windows]
            quoted = [w for p, w in read if p >= bar]
            if not quoted:
                continue
            causes["entailed by the bare judge"] += 1
            reasons = []
            for window in quoted:
                outcome = check_quote(
                    unit, Status.SUPPORTED, ["e"], window, {"e": passage}, source=row["claim"],
                    reader=reader,
                )  # fmt: skip
                if outcome.ok:
                    break
                reasons.append(outcome.reason or "")
            else:
                why = cause(reasons[0])
                causes[why] += 1
                print(f"  {why}: {unit.text} <- {quoted[0][:200]!r}: {reasons[0]}")
    return causes


def dev_downgrades(limit: int = 0, fcb: bool = True) -> dict[tuple[float, float], int]:
    """Dev true supports downgraded at each pair of the default rule's thresholds.

    The bios' units and (``fcb``) the Factcheck-Bench tune half's: each quote is read once
    (``grounding_curve.StatedRecorder``: vetoed, written, or the judge's readings), so every
    (some words written, none written) pair is a count; a tie on the annotated tune half
    may be broken here.
    """
    from grounding_curve import STATED_CURVE, StatedRecorder

    reader = reader_for("shipped")
    assert isinstance(reader, EntailmentReader)
    recorder = StatedRecorder(reader)
    reads = []
    for _, unit, quote, passage, title, source in bio_cases(limit) + (
        fcb_cases(limit) if fcb else []
    ):
        before = {"e": heading(title, opens_document=True)} if title else None
        reads.append(
            recorder.read(unit, ["e"], quote, {"e": passage}, source=source, read_before=before)
        )
    return {
        (some, none): sum(1 for r in reads if r is None or not r.supports(some, none))
        for some in STATED_CURVE
        for none in STATED_CURVE
    }


def dev_curve(limit: int, fcb: bool) -> None:
    """Print :func:`dev_downgrades` for each pair, beside the card's own pair."""
    reader = reader_for("shipped")
    assert isinstance(reader, EntailmentReader)
    counts = dev_downgrades(limit, fcb)
    shipped = (reader.judged_some_threshold, reader.judged_threshold)
    sets = "bios and Factcheck-Bench tune" if fcb else "bios"
    print(f"{sets}: true supports downgraded; the card's thresholds {shipped}")
    print(f"{'some':>6} {'none':>6} {'downgraded':>11}")
    for (some, none), down in counts.items():
        if some <= none:
            mark = " <- card" if (some, none) == shipped else ""
            print(f"{some:>6} {none:>6} {down:>11}{mark}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fcb", action="store_true", help="the Factcheck-Bench tune set too")
    parser.add_argument("--limit", type=int, default=0, help="atomic facts / rows per set")
    parser.add_argument("--show", default="", help="print the refusals of causes starting so")
    parser.add_argument("--examples", type=int, default=0, help="refusals shown per cause")
    parser.add_argument("--dump", type=Path, help="write every refusal to this file")
    parser.add_argument(
        "--vetoes", action="store_true", help="tune units the bare judge entails, refused"
    )
    parser.add_argument("--curve", action="store_true", help="the bios' downgrades per threshold")
    args = parser.parse_args()
    if args.curve:
        dev_curve(args.limit, args.fcb)
        return
    if args.vetoes:
        for why, count in vetoed_entailments(args.limit).most_common():
            print(f"{count:>5}  {why}")
        return
    dumped: list[str] = []
    reader = reader_for("shipped")
    cases = bio_cases(args.limit) + (fcb_cases(args.limit) if args.fcb else [])
    totals: Counter[str] = Counter()
    refused: dict[str, Counter[str]] = defaultdict(Counter)
    shown: dict[str, list[str]] = defaultdict(list)
    for name, unit, quote, passage, title, source in cases:
        totals[name] += 1
        outcome = check_quote(
            unit, Status.SUPPORTED, ["e"], quote, {"e": passage}, source=source,
            reader=reader, read_before={"e": heading(title, opens_document=True)},
        )  # fmt: skip
        if outcome.ok:
            continue
        why = cause(outcome.reason or "")
        refused[name][why] += 1
        dumped.append(f"{name}\t{why}\t{unit.text}\t{quote[:200]!r}\t{outcome.reason}")
        if (args.show and why.startswith(args.show)) or len(shown[why]) < args.examples:
            shown[why].append(f"{unit.text} <- {quote[:160]!r}: {outcome.reason}")
    for name, total in totals.items():
        down = sum(refused[name].values())
        print(f"{name}: {down}/{total} true supports downgraded ({down / max(1, total):.1%})")
        for why, count in refused[name].most_common():
            print(f"  {count:>5}  {why}")
    if args.dump:
        args.dump.write_text("\n".join(sorted(dumped)) + "\n", encoding="utf-8")
    for why, lines in shown.items():
        print(f"\n--- {why}")
        for line in lines:
            print("  ", line)


if __name__ == "__main__":
    main()
