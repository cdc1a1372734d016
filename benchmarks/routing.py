"""Routing benchmark: how often sentences route complex on real text, and what routing costs.

Part 1, real text: the FActScore ChatGPT biographies (``/work/shared/data``, or
``TRIQUA_DATA``), decomposed by the offline engine. Every sentence's element graph is
measured (diameter and component distributions, share of sentences and facts routed
complex and why), then the first ``--bios`` biographies are checked under each routing
setting with the offline engine, each against its own human-labelled supported atomic facts
as supplied evidence: re-verify trigger rate, rounds and searches per fact, and how many
verdicts differ between settings.

Part 2, scripted: settings ``auto`` (route by element-graph complexity), ``always_element``
(every fact verified unit by unit with re-verification) and ``never_reverify``. A scripted model of
fixed behaviour answers every role, so call counts are exact; verdict agreement between
settings is reported for the scripted model and for the offline engine.

Run: ``.venv/bin/python benchmarks/routing.py [--bios N] [--delta D]``
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections import Counter
from typing import Any

from shared_data import data_dir

import triqua
from triqua.evals.guard import COMPLEX_SHARE
from triqua.schema import Report, Status
from triqua.testing import ScriptedChatModel, fenced, shown_text
from triqua.testing import passages as evidence_passages

SIMPLE_BIOS = {
    "Ada Lovelace": ("was born in", "London", "worked with", "Charles Babbage", "English"),
    "Alan Turing": ("was born in", "Maida Vale", "worked at", "Bletchley Park", "British"),
    "Grace Hopper": ("was born in", "New York City", "worked on", "the Harvard Mark I", "American"),
    "Niels Bohr": ("was born in", "Copenhagen", "founded", "the Niels Bohr Institute", "Danish"),
    "Lise Meitner": ("was born in", "Vienna", "worked with", "Otto Hahn", "Austrian"),
    "Enrico Fermi": ("was born in", "Rome", "built", "Chicago Pile-1", "Italian"),
    "Rosalind Franklin": ("was born in", "London", "worked at", "King's College London", "British"),
    "Srinivasa Ramanujan": ("was born in", "Erode", "worked with", "G. H. Hardy", "Indian"),
}

COMPLEX = [
    {
        "sentence": "In 1903 in Stockholm, Marie Curie won the Nobel Prize in Physics with Pierre "
        "Curie for research on radiation, according to the Nobel Foundation.",
        "fact": ("Marie Curie", "won", "Nobel Prize in Physics"),
        "qualifiers": [
            ("point in time", "1903"),
            ("location", "Stockholm"),
            ("together with", "Pierre Curie"),
            ("cause", "research on radiation"),
            ("according to", "Nobel Foundation"),
        ],
        "docs": [
            "Marie Curie won the Nobel Prize in Physics in 1903 together with Pierre Curie.",
            "The Nobel Foundation credits Marie Curie for research on radiation.",
            "Marie Curie received the prize in Stockholm.",
        ],
    },
    {
        "sentence": "From 2002 to 2007, Ronaldo played for Real Madrid in Madrid, "
        "excluding a loan, after leaving Inter Milan.",
        "fact": ("Ronaldo", "played for", "Real Madrid"),
        "qualifiers": [
            ("start time", "2002"),
            ("end time", "2007"),
            ("location", "Madrid"),
            ("excluding", "loan"),
            ("after", "Inter Milan"),
        ],
        "docs": [
            "Ronaldo played for Real Madrid from 2002 to 2007.",
            "Ronaldo joined Real Madrid in Madrid after Inter Milan.",
        ],
    },
    {
        "sentence": "As of 2025, France has a population of 64.5 million excluding overseas "
        "departments according to INSEE, in mainland Europe.",
        "fact": ("France", "has population", "64.5 million"),
        "qualifiers": [
            ("point in time", "2025"),
            ("excluding", "overseas departments"),
            ("according to", "INSEE"),
            ("location", "mainland Europe"),
        ],
        "docs": [
            "As of 2025, France has a population of 64.5 million, excluding overseas departments.",
            "INSEE counts the population of France in mainland Europe.",
        ],
    },
]


def build_texts() -> tuple[list[str], list[str], dict[str, list[dict[str, Any]]]]:
    """Texts, the evidence corpus, and the scripted decomposition table by sentence."""
    texts, corpus, table = [], [], {}
    for person, (r1, o1, r2, o2, nat) in SIMPLE_BIOS.items():
        sentences = [
            f"{person} {r1} {o1}.",
            f"{person} {r2} {o2}.",
            f"{person} was {nat}.",
            f"{person} enjoyed playing chess.",  # unverifiable: no evidence anywhere
        ]
        table[sentences[0]] = [_fact(person, r1, o1)]
        table[sentences[1]] = [_fact(person, r2, o2)]
        table[sentences[2]] = [_fact(person, "was", nat)]
        table[sentences[3]] = [_fact(person, "enjoyed playing", "chess")]
        texts.append(" ".join(sentences))
        corpus.append(f"{person} {r1} {o1}. {person} {r2} {o2}. {person} was {nat}.")
    for item in COMPLEX:
        s, r, o = item["fact"]
        table[item["sentence"]] = [_fact(s, r, o, item["qualifiers"])]
        texts.append(item["sentence"])
        corpus.extend(item["docs"])
    return texts, corpus, table


def _fact(s: str, r: str, o: str, qualifiers: Any = ()) -> dict[str, Any]:
    return {
        "subject": s,
        "relation": r,
        "object": o,
        "qualifiers": [{"label": label, "value": value} for label, value in qualifiers],
    }


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"\w+", text.lower()) if len(w) > 2}


def lexical_judge(prompt: str) -> dict[str, Any]:
    """Support a unit when one passage holds the subject and every word of the unit's value."""
    fact = fenced(prompt, "FACT")
    passages = re.findall(
        r"<<<EVIDENCE id=(ev-[0-9a-f]+)>>>\n(.*?)\n<<<END EVIDENCE>>>", prompt, re.S
    )
    subject = fact[1 : fact.index(",")]
    listed = re.findall(r"^- (\(.*\))$", prompt, flags=re.M)
    units = listed or re.findall(r"\([^()]*\)", fact)

    def value(unit: str) -> str:
        parts = [p.strip() for p in unit.strip("()").split(",")]
        return parts[-1]

    verdicts, ids = [], []
    texts = evidence_passages(prompt)  # without their [source] header: quotable text
    for unit in units:
        found = [
            pid
            for pid, text in passages
            if _words(subject) <= _words(text) and _words(value(unit)) <= _words(text)
        ]
        verdict = {"unit": unit, "status": "supported" if found else "insufficient_evidence"}
        if found:  # a verbatim quote of the passage, as the grounding rule requires
            verdict |= {"evidence_ids": found[:1], "quote": texts[found[0]]}
        verdicts.append(verdict)
        ids.extend(found[:1])
    missing = [v["unit"] for v in verdicts if v["status"] != "supported"]
    answer: dict[str, Any] = {
        "status": "insufficient_evidence" if missing else "supported",
        "error_spans": [value(u) for u in missing],
        "evidence_ids": sorted(set(ids)),
    }
    if ids and not missing:
        answer["quote"] = " ".join(texts[i] for i in dict.fromkeys(ids))
    if listed:
        answer["unit_verdicts"] = verdicts
    return answer


def scripted_model(table: dict[str, list[dict[str, Any]]]) -> ScriptedChatModel:
    """The fixed-behaviour model answering decomposition, verification and refinement."""

    def respond(tool: str, prompt: str) -> dict[str, Any]:
        if tool == "ExtractedFacts":
            text = shown_text(prompt)
            return {"facts": [f for s, facts in table.items() if s in text for f in facts]}
        if tool == "Judgement":
            return lexical_judge(prompt)
        units = re.findall(r"^- (\(.*\))$", prompt, flags=re.M)
        subject = fenced(prompt, "FACT")[1:].split(",")[0]
        return {"queries": [f"{subject} {u.strip('()').split(',')[-1].strip()}" for u in units]}

    return ScriptedChatModel(responder=respond)


def run_setting(texts: list[str], corpus: list[str], routing: str, **settings: Any) -> list[Report]:
    """Check every text with one routing setting."""
    return [
        triqua.check(  # no cache: every call is counted as it would be on a fresh run
            text,
            documents=corpus,
            routing=routing,
            chunk_size=0,
            cache=False,
            max_results=2,
            **settings,
        )
        for text in texts
    ]


def summarise(reports: list[Report]) -> dict[str, float]:
    """Calls per fact, searches per fact and the re-verify trigger rate over all reports."""
    facts = sum(len(r.records) for r in reports)
    triggered = sum(1 for r in reports for rec in r.records if rec.rejudged)
    return {
        "facts": facts,
        "model_calls_per_fact": sum(r.usage.model_calls for r in reports) / facts,
        "verify_calls_per_fact": sum(
            r.usage_by_role.get("verify", triqua.schema.Usage()).model_calls for r in reports
        )
        / facts,
        "searches_per_fact": sum(r.usage.search_calls for r in reports) / facts,
        "trigger_rate": triggered / facts,
        "score": sum(r.scores.units_supported for r in reports)
        / max(1, sum(r.scores.units_total for r in reports)),
    }


def verdicts(reports: list[Report], simple_only: bool) -> list[str]:
    """Fact statuses in order (optionally only facts without qualifiers)."""
    return [
        rec.verdict.status.value
        for r in reports
        for rec in r.records
        if not (simple_only and rec.fact.qualifiers)
    ]


def agreement(a: list[str], b: list[str]) -> float:
    """Share of positions where two verdict lists agree."""
    return sum(x == y for x, y in zip(a, b, strict=True)) / len(a) if a else float("nan")


DATA = data_dir()
SETTINGS = ("auto", "always_element", "never_reverify")


def load_bios() -> list[dict[str, Any]]:
    """Annotated ChatGPT biographies: the answer and its human-labelled atomic facts."""
    path = DATA / "factscore_labeled" / "ChatGPT.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [r for r in rows if r.get("annotations")]


def supported_facts(bio: dict[str, Any]) -> list[str]:
    """The human atomic facts labelled supported: this bio's evidence."""
    return [
        f["text"]
        for sentence in bio["annotations"]
        for f in sentence.get("human-atomic-facts") or []
        if f.get("label") == "S"
    ]


def graph_statistics(bios: list[dict[str, Any]], delta: int) -> None:
    """Decompose every bio offline and print its sentences' element-graph statistics."""
    from triqua.core.plan.routing import Thresholds, group_by_sentence, sentence_features
    from triqua.engines.elements import sentence_element_graphs
    from triqua.engines.offline.decompose.decomposer import get_decomposer

    started = time.perf_counter()
    facts_of = get_decomposer().decompose_many([b["output"] for b in bios])
    elapsed = time.perf_counter() - started
    diameters: Counter[int] = Counter()
    components: Counter[int] = Counter()
    reasons: Counter[str] = Counter()
    by_delta: Counter[int] = Counter()
    sentences = complex_sentences = facts = complex_facts = 0
    # The rules that are not ElementCheck's, each measured: sentences whose decision it flips
    # (mention_links joins elements of the facts' graph, so it is measured on that graph).
    parse = Thresholds(delta=delta, elements="parse")
    by_facts = Thresholds(delta=delta)
    flipped: Counter[str] = Counter()
    began = time.perf_counter()
    groups = [[[found[i] for i in g] for g in group_by_sentence(found)] for found in facts_of]
    # One call per bio: pronouns and short names resolve within their own text.
    graphs = iter(
        [
            graph
            for gs in groups
            for graph in sentence_element_graphs([m[0].source_text for m in gs])
        ]
    )
    parse_seconds = time.perf_counter() - began
    connected_within: Counter[bool] = Counter()
    disconnected_examples: list[str] = []
    for found_groups in groups:
        for members in found_groups:
            group = members
            graph = next(graphs)
            features = sentence_features(members, parse, graph)
            facts_graph = sentence_features(members, by_facts)
            flipped["elements=facts"] += facts_graph["decision"] != features["decision"]
            capped = sentence_features(members, Thresholds(delta=delta, max_qualifiers=3), graph)
            flipped["max_qualifiers=3"] += capped["decision"] != features["decision"]
            linked = sentence_features(members, Thresholds(delta=delta, mention_links=True))
            flipped["mention_links (facts graph)"] += linked["decision"] != facts_graph["decision"]
            sentences += 1
            facts += len(group)
            diameter, parts = int(features["diameter"]), int(features["components"])
            diameters[diameter] += 1
            components[parts] += 1
            if parts == 1:
                connected_within[diameter <= delta] += 1
            elif len(disconnected_examples) < 3:
                disconnected_examples.append(members[0].source_text.strip())
            for d in range(1, 7):
                by_delta[d] += diameter > d or parts > 1
            if features["decision"] == "complex":
                complex_sentences += 1
                complex_facts += len(group)
                for reason in str(features["reason"]).split("; "):
                    reasons[re.sub(r"\d+", "N", reason)] += 1
    print(
        f"{len(bios)} ChatGPT bios decomposed offline in {elapsed:.1f} s; element graphs "
        f"parsed from their sentences in {parse_seconds:.1f} s"
    )
    print(
        f"sentences with facts: {sentences}; routed complex at δ={delta}: {complex_sentences} "
        f"({complex_sentences / sentences:.1%}); facts {facts}, complex {complex_facts} "
        f"({complex_facts / facts:.1%}); the cost guard assumes {COMPLEX_SHARE:.1%} "
        "(triqua.evals.guard.COMPLEX_SHARE)"
    )
    print(
        "diameter:   "
        + "  ".join(f"{d}: {n} ({n / sentences:.0%})" for d, n in sorted(diameters.items()))
    )
    print("components: " + "  ".join(f"{c}: {n}" for c, n in sorted(components.items())))
    print("reasons:    " + "; ".join(f"{r}: {n}" for r, n in reasons.most_common()))
    print(
        "decisions each optional rule would change (off by default): "
        + "; ".join(f"{o}: {n}/{sentences}" for o, n in flipped.items())
    )
    print(
        "complex share of sentences by δ: "
        + "  ".join(f"δ={d}: {n / sentences:.1%}" for d, n in sorted(by_delta.items()))
    )
    connected = sum(connected_within.values())
    within = connected_within[True] / max(1, connected)
    disconnected = sentences - connected
    share = complex_sentences / max(1, sentences)
    print(
        f"connected graphs with diameter ≤ {delta}: {connected_within[True]} of {connected} "
        f"({within:.1%}; ElementCheck reports 73.0%); disconnected graphs: {disconnected} "
        f"of {sentences}"
    )
    for example in disconnected_examples:
        print(f"  disconnected, e.g.: {example}")
    targets = {
        "diameter ≤ δ for 65–80% of connected graphs": 0.65 <= within <= 0.80,
        "20–45% of sentences routed complex": 0.20 <= share <= 0.45,
        "sentences routed complex by disconnection": disconnected > 0,
    }
    print("targets: " + "; ".join(f"{k}: {'met' if v else 'NOT met'}" for k, v in targets.items()))
    print()


def element_counts(reports: list[Report]) -> None:
    """Element-level verification: complex sentences judged element by element, and how."""
    sentences = [s for r in reports for s in r.sentences if s.route == "complex"]
    verified = [s for s in sentences if s.elements]
    claims = [c for s in verified for c in s.elements]
    judged = Counter(c.judged.value for c in claims)
    units = {
        (rec.claim_id, u.unit): u.status
        for r in reports
        for rec in r.records
        for u in rec.verdict.unit_verdicts
    }
    resolved = sum(
        c.judged is not Status.INSUFFICIENT
        and units.get((rec.claim_id, c.unit)) is Status.INSUFFICIENT
        for r in reports
        for rec in r.records
        for c in rec.elements
    )
    agree = sum(c.judged is c.status for c in claims)
    print(
        f"element-level verification: {len(verified)} of {len(sentences)} complex sentences, "
        f"{len(claims)} element claims ({', '.join(f'{k}: {v}' for k, v in judged.items())}); "
        f"{agree} agree with their fact's unit verdict; {resolved} decide a unit the fact's "
        "verdict left insufficient"
    )


def check_bios(bios: list[dict[str, Any]], delta: int) -> None:
    """Check bios under each routing setting (offline engine) and compare."""
    results: dict[str, list[Report]] = {}
    for routing in SETTINGS:
        started = time.perf_counter()
        results[routing] = [
            triqua.check(
                bio["output"],
                documents=supported_facts(bio),
                routing=routing,
                delta=delta,
                cache=False,
            )
            for bio in bios
        ]
        print(f"  {routing}: {time.perf_counter() - started:.1f} s")
    print(
        f"{'setting':<16}{'facts':>6}{'complex':>9}{'entered':>9}{'trigger':>9}{'rounds/f':>10}"
        f"{'search/f':>10}{'calls/f':>9}{'unit score':>12}"
    )
    for routing in SETTINGS:
        reports = results[routing]
        records = [rec for r in reports for rec in r.records]
        n = max(1, len(records))
        s = summarise(reports) if records else {}
        print(
            f"{routing:<16}{len(records):>6}"
            f"{sum(rec.route == 'complex' for rec in records) / n:>9.2f}"
            f"{sum(bool(rec.rounds) for rec in records) / n:>9.2f}"
            f"{sum(rec.rejudged for rec in records) / n:>9.2f}"
            f"{sum(len(rec.rounds) for rec in records) / n:>10.2f}"
            f"{sum(r.usage.search_calls for r in reports) / n:>10.2f}"
            f"{s.get('model_calls_per_fact', 0.0):>9.2f}{s.get('score', 0.0):>12.3f}"
        )
    auto = {(i, rec.claim_id): rec for i, r in enumerate(results["auto"]) for rec in r.records}
    for other in ("always_element", "never_reverify"):
        changed: Counter[str] = Counter()
        for i, report in enumerate(results[other]):
            for rec in report.records:
                mine = auto.get((i, rec.claim_id))
                if mine is not None and mine.verdict.status != rec.verdict.status:
                    changed[f"{mine.verdict.status.value}->{rec.verdict.status.value}"] += 1
        total = sum(changed.values())
        print(
            f"verdicts differing auto vs {other}: {total} of {len(auto)} "
            f"({total / max(1, len(auto)):.1%}) "
            + ", ".join(f"{k}: {v}" for k, v in changed.most_common())
        )
    element_counts(results["auto"])
    entered = [rec for r in results["auto"] for rec in r.records if rec.rounds]
    changed = sum(
        (mine := auto.get((i, rec.claim_id))) is not None
        and mine.verdict.status != rec.verdict.status
        for i, report in enumerate(results["never_reverify"])
        for rec in report.records
        if rec.route == "complex"
    )
    resolved = sum(
        any(
            u.status.value != "insufficient_evidence"
            for rnd in rec.rounds
            for u in rnd.unit_verdicts
        )
        for rec in entered
    )
    print(
        f"auto: {len(entered)} facts entered a round, {resolved} with a unit resolved by a "
        f"round, {changed} verdicts changed by re-verification "
        f"({changed / max(1, len(entered)):.1%} of those that entered; the trigger rate counts "
        "facts a round judged, ClaimRecord.rejudged)"
    )
    if entered:
        example = entered[0].rounds[0]
        print(f"  e.g. claim: {example.claim!r}\n  queries: {example.queries}")
    print()


def main() -> None:
    """Print the figures: graph statistics and routed checks on bios, then the scripted set."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bios", type=int, default=20, help="bios checked per setting")
    parser.add_argument("--delta", type=int, default=3)
    parser.add_argument("--skip-scripted", action="store_true")
    parser.add_argument("--graphs-only", action="store_true", help="part 1's graphs only")
    args = parser.parse_args()
    bios = load_bios()
    graph_statistics(bios, args.delta)
    if args.graphs_only:
        return
    print(f"checking {args.bios} bios with the offline engine, each against its supported facts")
    check_bios(bios[: args.bios], args.delta)
    if args.skip_scripted:
        return
    texts, corpus, table = build_texts()
    settings = ["auto", "always_element", "never_reverify"]
    print(f"{len(texts)} texts ({len(SIMPLE_BIOS)} biographies, {len(COMPLEX)} qualified)\n")
    for engine in ("scripted", "offline"):
        results = {}
        started = time.perf_counter()
        for routing in settings:
            extra: dict[str, Any] = {}
            if engine == "scripted":
                extra["model"] = scripted_model(table)
            results[routing] = run_setting(texts, corpus, routing, **extra)
        elapsed = time.perf_counter() - started
        print(f"engine: {engine}  ({elapsed:.1f} s for all settings)")
        header = f"{'setting':<16}{'facts':>6}{'calls/fact':>12}{'verify/fact':>13}"
        print(header + f"{'search/fact':>13}{'trigger':>9}{'unit score':>12}")
        for routing in settings:
            s = summarise(results[routing])
            print(
                f"{routing:<16}{s['facts']:>6}{s['model_calls_per_fact']:>12.2f}"
                f"{s['verify_calls_per_fact']:>13.2f}{s['searches_per_fact']:>13.2f}"
                f"{s['trigger_rate']:>9.2f}{s['score']:>12.3f}"
            )
        base = summarise(results["always_element"])
        routed = summarise(results["auto"])
        if base["model_calls_per_fact"]:
            ratio = routed["model_calls_per_fact"] / base["model_calls_per_fact"]
            print(f"calls ratio auto / always_element: {ratio:.2f}")
        for other in ("always_element", "never_reverify"):
            simple = agreement(verdicts(results["auto"], True), verdicts(results[other], True))
            every = agreement(verdicts(results["auto"], False), verdicts(results[other], False))
            print(f"agreement auto vs {other}: simple facts {simple:.2f}, all facts {every:.2f}")
        print()


if __name__ == "__main__":
    main()
