"""Performance benchmark: fan-out against the critical path, calls and tokens per fact, cache,
graph overhead, prompt size on FActScore bios, and the offline engine on 1 MB of text.

A scripted model with a fixed latency answers every role (a ``ScriptedChatModel`` whose
responder sleeps), so wall times measure triqua, not a provider. Tokens are counted with the
vendored MiniLM WordPiece tokenizer (``tokenizers``) on what is sent and returned; provider
tokenizers (BPE) count English within about 10-20 % of it.

Run: ``.venv/bin/python benchmarks/perf.py [--data ../shared/data] [--offline-mb 1.0]``
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tokenizers import Tokenizer

import triqua
from triqua.resources import register_retriever
from triqua.schema import Document, Report
from triqua.testing import ScriptedChatModel, fenced
from triqua.tools.base import Retriever, SearchBudget, SearchResult
from triqua.tools.supplied import SuppliedRetriever

LATENCY = 0.1  # seconds per model call
N_SIMPLE, N_COMPLEX = 36, 4
ROOT = Path(__file__).resolve().parents[1]
TOKENIZER = ROOT / "src/triqua/engines/offline/data/minilm_tokenizer.json"
SIMPLE = re.compile(r"(Person\d+) was born in (City\d+)\.")
COMPLEX = re.compile(
    r"In (\d{4}) in (Country\d+), (Person\d+) won the (Prize\d+) with (Partner\d+) "
    r"according to (Source\d+)\."
)
QUALIFIERS = ("point in time", "location", "together with", "according to")


def fixed_text() -> tuple[str, list[str], list[str]]:
    """The fixed 40-fact text (36 simple facts, 4 complex ones), its documents and source notes.

    The documents state every fact except who a complex fact's award is recorded by; the
    source notes state that, so it is found only by a re-verification round's refined query.
    """
    sentences, docs, notes = [], [], []
    for i in range(N_SIMPLE + N_COMPLEX):
        if i % 10 == 9:
            sentence = (
                f"In {1900 + i} in Country{i}, Person{i} won the Prize{i} with Partner{i} "
                f"according to Source{i}."
            )
            docs.append(f"In {1900 + i} in Country{i}, Person{i} won the Prize{i} with Partner{i}.")
            notes.append(f"The award to Person{i} is recorded by Source{i}.")
        else:
            sentence = f"Person{i} was born in City{i}."
            docs.append(sentence)
        sentences.append(sentence)
    return " ".join(sentences), docs, notes


class RoutedRetriever(Retriever):
    """BM25 over the documents for a fact's own query; over the source notes for a refined one.

    A fact's query names its relation ("won", "born"); refined queries name only the subject
    and the value sought, so a re-verification round finds new evidence, as on the web.
    """

    name = "perf"
    revision = "perf-routed/1"

    def __init__(self, docs: list[str], notes: list[str]) -> None:
        super().__init__()
        self.docs = SuppliedRetriever([Document(text=d) for d in docs])
        self.notes = SuppliedRetriever([Document(text=n) for n in notes])

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        self._count_call()
        own = re.search(r"\b(won|born)\b", query)
        return (self.docs if own else self.notes).search(query, k, budget=budget)


def evidence(docs: list[str], notes: list[str]) -> dict[str, Any]:
    """Settings that make a run search the fixed documents and notes."""
    name = register_retriever(f"perf-{time.monotonic_ns()}", RoutedRetriever(docs, notes))
    return {"retriever": name}


def tokenizer() -> Tokenizer:
    """The vendored MiniLM tokenizer, without truncation."""
    tok = Tokenizer.from_file(str(TOKENIZER))
    tok.no_truncation()
    tok.no_padding()
    return tok


class Meter:
    """Counts calls and tokens of what a scripted model is sent and returns."""

    def __init__(self, tok: Tokenizer) -> None:
        self.tok = tok
        self.calls = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.in_flight = 0
        self.peak_in_flight = 0
        self._lock = threading.Lock()

    def count(self, text: str) -> int:
        return len(self.tok.encode(text, add_special_tokens=False).ids)

    @contextmanager
    def call(self, prompt: str) -> Iterator[None]:
        tokens = self.count(prompt)
        with self._lock:
            self.calls += 1
            self.prompt_tokens += tokens
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
        try:
            yield
        finally:
            with self._lock:
                self.in_flight -= 1

    def returned(self, answer: Any) -> None:
        tokens = self.count(answer if isinstance(answer, str) else json.dumps(answer))
        with self._lock:
            self.completion_tokens += tokens


def answer(tool: str, prompt: str) -> dict[str, Any]:
    """Decompose by pattern; judge complex facts' last qualifier insufficient on the first pass."""
    if tool == "ExtractedFacts":
        text = fenced(prompt, "TEXT")
        facts = [
            {"subject": m[1], "relation": "was born in", "object": m[2], "source_sentence": m[0]}
            for m in SIMPLE.finditer(text)
        ]
        for m in COMPLEX.finditer(text):
            values = (m[1], m[2], m[5], m[6])
            facts.append(
                {
                    "subject": m[3],
                    "relation": "won",
                    "object": m[4],
                    "qualifiers": [
                        {"label": label, "value": value}
                        for label, value in zip(QUALIFIERS, values, strict=True)
                    ],
                    "source_sentence": m[0],
                }
            )
        return {"facts": facts}
    if tool == "Judgement":
        ids = re.findall(r"<<<EVIDENCE id=(ev-[0-9a-f]+)>>>", prompt)
        units = re.findall(r"^- (\(.*\))$", prompt, flags=re.M)
        first_pass = len(units) == 1 + len(QUALIFIERS)
        verdicts = [
            {
                "unit": unit,
                "status": "insufficient_evidence"
                if first_pass and unit.startswith("(according to")
                else "supported",
            }
            for unit in units
        ]
        pending = any(v["status"] != "supported" for v in verdicts)
        return {
            "status": "insufficient_evidence" if pending else "supported",
            "unit_verdicts": verdicts,
            "evidence_ids": ids[:1],
        }
    units = re.findall(r"^- (\(.*\))$", prompt, flags=re.M)
    subject = fenced(prompt, "FACT")[1:].split(",")[0]
    return {"queries": [f"{subject} {u.strip('()').split(',')[-1].strip()}" for u in units]}


def model(meter: Meter, latency: float) -> ScriptedChatModel:
    """A scripted model that takes ``latency`` seconds per call and meters what it sees."""

    def respond(tool: str, prompt: str) -> dict[str, Any]:
        with meter.call(prompt):
            if latency:
                time.sleep(latency)
            result = answer(tool, prompt)
        meter.returned(result)
        return result

    return ScriptedChatModel(responder=respond)


def timed(run: Callable[[], Report]) -> tuple[float, Report]:
    started = time.perf_counter()
    report = run()
    return time.perf_counter() - started, report


def fan_out(tok: Tokenizer) -> list[tuple[str, str, str, str]]:
    """Wall time against the critical path and a sequential run; calls, searches, tokens."""
    text, docs, notes = fixed_text()
    rows = []
    meter = Meter(tok)
    mdl = model(meter, LATENCY)
    settings: dict[str, Any] = {**evidence(docs, notes), "model": mdl, "cache": False}
    timed(lambda: triqua.check("Person0 was born in City0.", **settings))  # warm-up
    meter.__init__(tok)  # type: ignore[misc]
    wall, report = timed(lambda: triqua.check(text, max_concurrency=64, **settings))
    facts = len(report.records)
    assert facts == N_SIMPLE + N_COMPLEX, facts
    rounds = sum(len(r.rounds) for r in report.records)
    # decompose → verify, then refine → verify per judged round (searches are local, ~1 ms).
    chain = 2 + max(sum(2 if r.unit_verdicts else 1 for r in rec.rounds) for rec in report.records)
    critical = chain * LATENCY
    counts = f"{facts} / {N_COMPLEX} / {rounds}"
    rows.append(("facts / complex facts / re-verify rounds", counts, "", ""))
    rows.append(
        (f"critical path ({chain} sequential calls × 100 ms)", f"{critical * 1000:.0f} ms", "", "")
    )
    rows.append(
        (
            "wall time, max_concurrency=64",
            f"{wall * 1000:.0f} ms",
            f"{wall / critical:.2f}× critical path",
            "<= 1.25×",
        )
    )
    rows.append(("  peak model calls in flight", str(meter.peak_in_flight), "", ""))
    calls, searches = meter.calls, report.usage.search_calls
    prompt_t, completion_t = meter.prompt_tokens, meter.completion_tokens
    default_wall, _ = timed(lambda: triqua.check(text, **settings))
    rows.append(
        (
            "wall time, default max_concurrency=8",
            f"{default_wall * 1000:.0f} ms",
            f"{default_wall / critical:.2f}× critical path",
            "",
        )
    )
    seq_wall, _ = timed(lambda: triqua.check(text, max_concurrency=1, **settings))
    rows.append(
        (
            "wall time, sequential (max_concurrency=1)",
            f"{seq_wall * 1000:.0f} ms",
            f"{wall / seq_wall:.3f}× sequential ({seq_wall / wall:.1f}× faster)",
            "",
        )
    )
    rows.append(("model calls per fact (chunk_size=300)", f"{calls / facts:.3f}", "", "<= 1.3"))
    meter0 = Meter(tok)
    triqua.check(text, **evidence(docs, notes), model=model(meter0, 0.0), cache=False, chunk_size=0)
    unchunked = f"{meter0.calls / facts:.3f}"
    rows.append(("model calls per fact (chunk_size=0)", unchunked, "", "<= 1.3"))
    rows.append(("searches per fact", f"{searches / facts:.3f}", "", ""))
    rows.append(
        (
            "prompt + completion tokens per fact",
            f"{(prompt_t + completion_t) / facts:,.0f} ({prompt_t / facts:,.0f} + "
            f"{completion_t / facts:,.0f})",
            "",
            "",
        )
    )
    return rows


def cached_rerun(tok: Tokenizer) -> list[tuple[str, str, str, str]]:
    """A second identical run served from the cache: model calls and speed-up."""
    text, docs, notes = fixed_text()
    fields = triqua.Context.__dataclass_fields__
    if "cache" not in fields:
        return [("cached rerun", "n/a (no cache)", "", "")]
    with tempfile.TemporaryDirectory() as tmp:
        meter = Meter(tok)
        settings: dict[str, Any] = {
            **evidence(docs, notes),
            "model": model(meter, LATENCY),
            "cache": True,
            "cache_path": str(Path(tmp) / "cache.sqlite"),
            "max_concurrency": 64,
        }
        cold, _ = timed(lambda: triqua.check(text, **settings))
        cold_calls = meter.calls
        warm, report = timed(lambda: triqua.check(text, **settings))
        warm_calls = meter.calls - cold_calls
    return [
        ("cached rerun: model calls", str(warm_calls), f"of {cold_calls} cold", "0"),
        (
            "cached rerun: wall time",
            f"{warm * 1000:.0f} ms",
            f"{cold / warm:.1f}× faster than cold ({cold * 1000:.0f} ms)",
            ">= 50×",
        ),
        ("cached rerun: usage model calls", str(report.usage.model_calls), "", "0"),
    ]


def overhead() -> list[tuple[str, str, str, str]]:
    """Wall and CPU time per fact with a zero-latency model: what the graph itself costs."""
    text, docs, notes = fixed_text()
    mdl = ScriptedChatModel(responder=answer)
    settings: dict[str, Any] = {**evidence(docs, notes), "model": mdl, "cache": False}
    triqua.check(text, **settings)  # warm-up
    walls, cpus = [], []
    for _ in range(5):
        cpu = time.process_time()
        wall, report = timed(lambda: triqua.check(text, **settings))
        cpus.append((time.process_time() - cpu) / len(report.records))
        walls.append(wall / len(report.records))
    return [
        (
            "graph overhead per fact, zero-latency model: wall",
            f"{min(walls) * 1000:.1f} ms",
            f"median {sorted(walls)[2] * 1000:.1f} ms of 5 runs",
            "<= 5 ms",
        ),
        (
            "graph overhead per fact, zero-latency model: CPU",
            f"{min(cpus) * 1000:.1f} ms",
            f"median {sorted(cpus)[2] * 1000:.1f} ms (all threads)",
            "",
        ),
    ]


def factscore_tokens(tok: Tokenizer, data: Path) -> list[tuple[str, str, str, str]]:
    """Prompt tokens per FActScore ChatGPT bio, built with triqua's own message builders."""
    from triqua.engines.llm import LLMJudge, _decompose_system
    from triqua.nodes.split import split_text
    from triqua.prompts import decompose_user_prompt
    from triqua.schema import Evidence, Fact, sha256_text
    from triqua.tools.documents import split_passages

    path = data / "factscore_labeled" / "ChatGPT.jsonl"
    if not path.exists():
        return [("FActScore prompt tokens", f"n/a ({path} not found)", "", "")]
    bios = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    system = _decompose_system()
    count = Meter(tok).count
    judge = LLMJudge(ScriptedChatModel(responder=lambda tool, prompt: {}))
    pool = [p.text for bio in bios for p in split_passages(bio["output"], 600)]
    decompose_t, verify_bare_t, verify_t, n_facts, n_chunks = 0, 0, 0, 0, 0
    for index, bio in enumerate(bios):
        question = bio["input"].removeprefix("Question: ").strip()
        chunks = split_text(bio["output"], 300)
        n_chunks += len(chunks)
        for i, chunk in enumerate(chunks):
            user = decompose_user_prompt(
                chunk.text,
                question=question,
                previous_chunk=chunks[i - 1].text if i else None,
                chunked=len(chunks) > 1,
            )
            decompose_t += count(system) + count(user)
        atomic = [
            fact["text"]
            for sentence in bio.get("annotations") or []
            for fact in sentence.get("human-atomic-facts") or []
        ]
        for k, sentence in enumerate(atomic):
            rest = sentence.removeprefix(bio["topic"]).strip(" .")
            fact = Fact(subject=bio["topic"], relation="", object=rest)
            passages = [pool[(index * 7 + k * 5 + j) % len(pool)] for j in range(5)]
            evidence = [
                Evidence(
                    id=f"ev-{j}",
                    document_id=f"doc-{j}",
                    source=f"https://en.wikipedia.org/wiki/Page_{j}",
                    text=text,
                    content_hash=sha256_text(text),
                )
                for j, text in enumerate(passages)
            ]
            bare = judge.messages(fact, [], None, False)
            full = judge.messages(fact, evidence, None, False)
            verify_bare_t += sum(count(str(m.content)) for m in bare)
            verify_t += sum(count(str(m.content)) for m in full)
            n_facts += 1
    n = len(bios)
    return [
        (
            "FActScore ChatGPT bios: bios / chunks / facts",
            f"{n} / {n_chunks} / {n_facts}",
            f"{n_chunks / n:.1f} chunks, {n_facts / n:.1f} facts per bio",
            "",
        ),
        (
            "  decomposition prompt tokens per bio",
            f"{decompose_t / n:,.0f}",
            f"{count(system):,} of them system prompt per call",
            "",
        ),
        (
            "  verification prompt tokens per bio, no evidence",
            f"{verify_bare_t / n:,.0f}",
            f"{verify_bare_t / n_facts:,.0f} per fact",
            "",
        ),
        (
            "  total prompt tokens per bio (decomposition + verification, no evidence)",
            f"{(decompose_t + verify_bare_t) / n:,.0f}",
            "",
            "<= 3,000",
        ),
        (
            "  total with 5 evidence passages of <= 600 chars per fact",
            f"{(decompose_t + verify_t) / n:,.0f}",
            f"{(verify_t - verify_bare_t) / n_facts:,.0f} evidence tokens per fact",
            "",
        ),
    ]


def offline_text(size: int, data: Path) -> str:
    """``size`` characters of English prose: FActScore bios repeated, else generated sentences."""
    path = data / "factscore_labeled" / "ChatGPT.jsonl"
    if path.exists():
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
        base = "\n\n".join(r["output"] for r in rows)
    else:
        base = " ".join(f"Person{i} was born in City{i} in {1900 + i % 100}." for i in range(5000))
    return ((base + "\n\n") * (size // len(base) + 1))[:size]


def offline_child(size: int, data: Path) -> None:
    """Run the offline engine on ``size`` characters, closed book; print figures as JSON."""
    text = offline_text(size, data)
    started = time.perf_counter()
    from triqua.engines.offline.nlp import load_nlp

    load_nlp()
    loaded = time.perf_counter() - started
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    report = triqua.check(text, max_facts=1_000_000, cache=False)
    wall = time.perf_counter() - started
    rss_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        json.dumps(
            {
                "chars": len(text),
                "facts": len(report.records),
                "wall": wall,
                "load": loaded,
                "rss_before_mb": rss_before / 1024,
                "rss_peak_mb": rss_peak / 1024,
            }
        )
    )


def offline(megabytes: float, data: Path) -> list[tuple[str, str, str, str]]:
    """The offline engine on ``megabytes`` of text, in a child process for a clean peak RSS."""
    size = int(megabytes * 1_000_000)
    cmd = [sys.executable, __file__, "--offline-child", str(size), "--data", str(data)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    figures = json.loads(out.strip().splitlines()[-1])
    label = f"offline engine, {figures['chars'] / 1e6:.2f} MB closed book"
    return [
        (
            f"{label}: facts/s",
            f"{figures['facts'] / figures['wall']:.1f}",
            f"{figures['facts']:,} facts in {figures['wall']:.0f} s "
            f"({figures['chars'] / figures['wall'] / 1000:.1f} k chars/s)",
            "",
        ),
        (
            f"{label}: peak memory (RSS)",
            f"{figures['rss_peak_mb']:,.0f} MB",
            f"{figures['rss_before_mb']:,.0f} MB with spaCy loaded",
            "",
        ),
    ]


def machine() -> str:
    """One line on where the figures were measured."""
    return (
        f"{platform.node() or 'host'}: {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )


def print_table(rows: list[tuple[str, str, str, str]]) -> None:
    """A Markdown table of the figures."""
    print("| measure | value | ratio / detail | aim |")
    print("|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(cell.replace("|", "/") for cell in row) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--offline-mb", type=float, default=1.0, help="0 skips it")
    parser.add_argument("--offline-child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.offline_child:
        offline_child(args.offline_child, args.data)
        return
    tok = tokenizer()
    print(f"# triqua performance — {time.strftime('%Y-%m-%d')} — {machine()}\n")
    rows = fan_out(tok) + cached_rerun(tok) + overhead() + factscore_tokens(tok, args.data)
    if args.offline_mb > 0:
        rows += offline(args.offline_mb, args.data)
    print_table(rows)


if __name__ == "__main__":
    main()
