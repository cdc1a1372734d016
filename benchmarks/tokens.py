"""Tokens per FActScore ChatGPT bio, every part of every call counted: baseline vs this checkout.

Each bio goes through triqua's own LLM decomposer and judge with a recording model, so what
is counted is what the code sends: the system prompt, the user message, the output schema
sent with the call (as an OpenAI tool definition, JSON) and the answer. The answers are the
bios' human atomic facts, in the answer shape each revision's schema asks for, so completion
tokens compare like with like. Each fact's evidence is its top five of the bios' 600-character
passages by idf-weighted word overlap (evidence tokens shown apart), the same for both
revisions and every batch size. The baseline verifies one fact per call; this checkout
verifies at its default ``verify_batch``, each batch answered in the compact form (status,
cited sentence numbers, confidence; a row ``[f, s, e, c]`` where the schema asks for rows),
a per-fact call answered with status, passage id, quote, confidence.

A second table (this checkout only) counts verification at ``verify_batch`` 1, 3, 5, 8, 10, 16,
24 and 32: whole sentences' facts packed into one batched call (``LLMJudge.verify_batch``, the
message builder the graph uses), so calls, evidence and schema tokens compare like with like.

Tokens are counted with the vendored MiniLM WordPiece tokenizer (``tokenizers``), as
``benchmarks/perf.py`` and ``triqua.core.budget.costs.estimate_tokens`` do; provider BPE
tokenizers count English within about 10-20 % of it.

The baseline is a git revision (``--baseline-rev``, default ``b7571c1``: per-chunk calls,
five few-shot examples, the long per-fact schema), exported with ``git archive`` and run in a
child process, since two versions of one package cannot be imported in one process; this
checkout runs in a child the same way.

Run: ``PYTHONPATH=src python benchmarks/tokens.py [--baseline-rev REV] [--bios N]``.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import inspect
import json
import math
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from triqua.evals.data import eval_data_dir

ROOT = Path(__file__).resolve().parents[1]
DATA = eval_data_dir()
TOKENIZER = ROOT / "src/triqua/models/data/minilm_tokenizer.json"


def _use_sources(src: str) -> None:
    """Import ``triqua`` from ``src``, ahead of an editable install's import hook."""
    sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in type(f).__name__.lower()]
    sys.path.insert(0, src)
    for name in [m for m in sys.modules if m == "triqua" or m.startswith("triqua.")]:
        del sys.modules[name]


def _module(*names: str) -> Any:
    """The first module of ``names`` the imported sources have (modules moved over revisions).

    Raises:
        ImportError: when the sources have none of them.
    """
    for name in names:
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    raise ImportError(f"none of {', '.join(names)}")


def _facts_of(bio: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """(sentence, atomic fact texts) of each annotated sentence of the bio."""
    return [
        (s["text"], [f["text"] for f in s.get("human-atomic-facts") or []])
        for s in bio.get("annotations") or []
    ]


def _fact(topic: str, text: str, sentence: str) -> dict[str, Any]:
    """An atomic fact as a long-form triple: the bio's subject, the first word, the rest."""
    rest = text.removeprefix(topic).strip(" .")
    relation, _, obj = rest.partition(" ")
    return {
        "subject": topic,
        "relation": relation or "is",
        "object": obj,
        "qualifiers": [],
        "source_sentence": sentence,
    }


def child(src: str, data: Path, bios_limit: int) -> None:
    """Child mode: count one revision's tokens per role over the bios; print JSON."""
    _use_sources(src)
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from tokenizers import Tokenizer

    import triqua

    split_text = _module(
        "triqua.core.text.chunking",
        "triqua.core.chunking",  # revisions before the stage packages
        "triqua.nodes.split",  # revisions before the core package
    ).split_text
    llm = _module(
        "triqua.engines.llm.engine",
        "triqua.engines.llm",  # revisions before the stage packages
    )
    ExtractedFacts, LLMDecomposer, LLMJudge = llm.ExtractedFacts, llm.LLMDecomposer, llm.LLMJudge  # noqa: N806
    from triqua.schema import Fact
    from triqua.testing import ScriptedChatModel
    from triqua.tools.documents import split_passages

    try:  # this checkout: chunks batched up to decompose_batch_chars
        from triqua.context import Context

        batching = _module(
            "triqua.core.text.chunk_batches",
            "triqua.core.chunk_batches",  # revisions before the stage packages
        )
        merged_chunk, pack = batching.merged_chunk, batching.pack

        batch_chars = Context().decompose_batch_chars
    except ImportError:  # the baseline: one call per chunk
        batch_chars = 0

    tok = Tokenizer.from_file(str(TOKENIZER))
    tok.no_truncation()
    tok.no_padding()

    def count(text: str) -> int:
        return len(tok.encode(text, add_special_tokens=False).ids)

    properties = ExtractedFacts.model_json_schema()["properties"]
    compact = "sentences" in properties
    numbered = "f" in properties
    tally: Counter[str] = Counter()
    current: dict[str, Any] = {"tally": tally}

    class Recorder(ScriptedChatModel):
        """Records every message and the bound tool's schema; answers from ``current``."""

        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            bound = super().bind_tools(tools, **kwargs)
            bound._schema_json = json.dumps(convert_to_openai_tool(tools[0]))  # type: ignore[attr-defined]
            return bound

        def _generate(
            self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any
        ) -> Any:
            role = current["role"]
            tally[f"{role} calls"] += 1
            tally[f"{role} system"] += count(str(messages[0].content))
            user = str(messages[-1].content)
            tally[f"{role} user"] += count(user)
            if role == "decompose":  # every PREVIOUS block of the call (one per chunk shown)
                previous = re.findall(r"<<<PREVIOUS>>>\n(.*?)\n<<<END PREVIOUS>>>", user, re.S)
                tally["decompose previous"] += sum(count(p) for p in previous)
            tally[f"{role} schema"] += count(self._schema_json)  # type: ignore[attr-defined]
            result = super()._generate(messages, stop, run_manager, **kw)
            call = result.generations[0].message.tool_calls[0]["args"]
            tally[f"{role} completion"] += count(json.dumps(call, ensure_ascii=False))
            return result

    def respond(tool: str, prompt: str) -> dict[str, Any]:
        if tool == "Judgement":
            return current["verdict"]
        if tool in ("Verdicts", "BatchJudgement"):
            return {"v": current["verdicts"]}
        facts = [
            _fact(current["topic"], fact, sentence)
            for sentence, facts in current["sentences"]
            for fact in facts
        ]
        if numbered:  # rows citing the prompt's sentence numbers
            return {"f": _numbered_rows(facts, prompt)}
        if not compact:
            return {"facts": facts}
        from triqua.prompts import compact_answer

        return compact_answer(facts)

    # This checkout's scripted model would answer batches from per-fact answers: not here.
    fields = Recorder.model_fields
    split: dict[str, Any] = {"split_batches": False} if "split_batches" in fields else {}
    split |= {"number_sentences": False} if "number_sentences" in fields else {}
    model = Recorder(responder=respond, usage=False, **split)
    decomposer = LLMDecomposer(model, max_retries=0)
    judge = LLMJudge(model, max_retries=0)
    judge_system = count(
        str(judge.messages(Fact(subject="x", relation="y", object="z"), [], None, False)[0].content)
    )
    assert judge_system > 0
    path = data / "factscore_labeled" / "ChatGPT.jsonl"
    bios = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    bios = bios[:bios_limit] if bios_limit else bios
    pool = [p.text for bio in bios for p in split_passages(bio["output"], 600)]
    n_chunks = n_facts = 0
    for bio in bios:
        question = bio["input"].removeprefix("Question: ").strip()
        chunks = split_text(bio["output"], 300)
        n_chunks += len(chunks)
        current.update(role="decompose", topic=bio["topic"], sentences=_facts_of(bio))
        groups = pack(chunks, batch_chars) if batch_chars else [[c] for c in chunks]
        for members in groups:
            first = members[0].index
            chunk = members[0] if len(members) == 1 else merged_chunk(members, bio["output"])
            # A sentence counts for the call holding its start (one cut by a chunk boundary
            # too): the answer carries it once, as a model would.
            current["sentences"] = [
                (s, fs)
                for s, fs in _facts_of(bio)
                if chunk.start <= bio["output"].find(s) < chunk.end
            ]
            if "parts" in inspect.signature(decomposer.decompose).parameters:
                # As the graph calls it: chunk mode whenever the text has several chunks,
                # each chunk of the call shown after its own previous chunk.
                extra: dict[str, Any] = {"parts": members if len(members) > 1 else ()}
                chunked = len(chunks) > 1
            else:  # revisions before per-chunk PREVIOUS: chunk mode across calls only
                extra, chunked = {}, len(groups) > 1
            decomposer.decompose(
                chunk,
                previous_chunk=chunks[first - 1].text if first else None,
                question=question,
                chunked=chunked,
                **extra,
            )
        n_facts += sum(len(facts) for _, facts in _facts_of(bio))
    # Verification of every bio's facts, each with its top five passages (see _retrieve):
    # one call per fact in the baseline; in this checkout, batches of its default size.
    search = functools.cache(_retrieve(pool, 5))  # the same evidence everywhere
    size = _default_batch() if hasattr(judge, "verify_batch") else 1
    current["role"] = "verify"
    verify_batched(judge, bios, pool, search, size, count, current)
    tally_main = dict(tally)
    batching: dict[int, dict[str, int]] = {}
    if hasattr(judge, "verify_batch"):  # this checkout: verification with and without batches
        for size in BATCH_SIZES:
            tally.clear()
            current["role"] = "verify"
            verify_batched(judge, bios, pool, search, size, count, current)
            batching[size] = dict(tally)
    result = {
        "source": triqua.__file__,
        "bios": len(bios),
        "chunks": n_chunks,
        "facts": n_facts,
        "batch_chars": batch_chars,
        "verify_batch": size,
        "tally": tally_main,
        "batching": batching,
    }
    print(json.dumps(result))


#: Batch sizes measured (``verify_batch``); 1 is one call per fact.
BATCH_SIZES = (1, 3, 5, 8, 10, 16, 24, 32)


def _default_batch() -> int:
    """This checkout's default ``verify_batch`` (1 where there is none): the graph packs a
    response's facts into batches of up to that many."""
    from triqua.context import Context

    return max(1, getattr(Context(), "verify_batch", 1))


def _numbered_rows(facts: list[dict[str, Any]], prompt: str) -> list[list[Any]]:
    """Long-form facts as answer rows citing the prompt's numbered TEXT sentences.

    A fact's sentence is the numbered line holding the annotated sentence's start, else the
    line sharing the most words with it (the annotation's sentence split can differ from
    the prompt's)."""
    from triqua.prompts import shown_sentences

    lines = shown_sentences(prompt)
    rows = []
    for fact in facts:
        sentence = " ".join(fact["source_sentence"].split())
        words = set(_WORDS.findall(sentence.casefold()))
        number = next(
            (n for n, line in enumerate(lines, 1) if sentence[:40] in line or line in sentence),
            max(
                range(1, len(lines) + 1),
                key=lambda n: len(words & set(_WORDS.findall(lines[n - 1].casefold()))),
                default=1,
            ),
        )
        row = [number, fact["subject"], fact["relation"], fact["object"]]
        for q in fact["qualifiers"]:
            row += [q["label"], q["value"]]
        rows.append(row)
    return rows


_WORDS = re.compile(r"\w{3,}")


def _retrieve(pool: list[str], k: int) -> Any:
    """A BM25-like stand-in for retrieval over ``pool``: the ``k`` passages sharing the most
    idf-weighted words with a query. Facts of one sentence then find overlapping passages,
    as a real search for them does."""
    docs = [set(w.casefold() for w in _WORDS.findall(p)) for p in pool]
    df = Counter(w for d in docs for w in d)
    idf = {w: math.log(len(docs) / n) for w, n in df.items()}
    index: dict[str, list[int]] = {}
    for i, d in enumerate(docs):
        for w in d:
            index.setdefault(w, []).append(i)

    def search(query: str) -> list[int]:
        scores: Counter[int] = Counter()
        for w in {w.casefold() for w in _WORDS.findall(query)}:
            for i in index.get(w, []):
                scores[i] += idf[w]  # type: ignore[assignment]
        return [i for i, _ in sorted(scores.items(), key=lambda x: (-x[1], x[0]))[:k]]

    return search


def verify_batched(
    judge: Any,
    bios: list[dict[str, Any]],
    pool: list[str],
    search: Any,
    size: int,
    count: Any,
    current: Any,
) -> None:
    """Verify every bio's facts with batches of up to ``size`` facts of one sentence.

    Each fact's evidence is its top five passages of ``pool`` (see :func:`_retrieve`), the
    same for every batch size; a batch of one is a per-fact call, as in the graph. Evidence
    tokens are the user message's tokens less those of the same message without passages.
    """
    from triqua.schema import Evidence, Fact, sha256_text

    try:
        batching = _module(
            "triqua.core.plan.verify_batches",
            "triqua.core.verify_batches",  # revisions before the stage packages
        )
        BatchItem, batches_of = batching.BatchItem, batching.batches_of  # noqa: N806
    except ImportError:  # the baseline: no batches
        BatchItem = batches_of = None  # noqa: N806

    tally: Counter[str] = current["tally"]
    try:  # this checkout: one row per fact, [f, s, e, c]; earlier: objects
        Verdicts = _module(  # noqa: N806
            "triqua.engines.llm.batch_prompt",
            "triqua.engines.llm_batch_prompt",  # revisions before the stage packages
        ).Verdicts

        v = Verdicts.model_json_schema()["properties"]["v"]
        rows = v.get("items", {}).get("type") == "array"
    except ImportError:
        rows = False
    for bio in bios:
        texts = [text for _, facts in _facts_of(bio) for text in facts]
        facts = []
        for text in texts:
            rest = text.removeprefix(bio["topic"]).strip(" .")
            sentence = next(s for s, fs in _facts_of(bio) if text in fs)
            fact = Fact(subject=bio["topic"], relation="", object=rest, source_text=sentence)
            evidence = tuple(
                Evidence(
                    id=f"ev-{i}",
                    document_id=f"doc-{i}",
                    source=f"https://en.wikipedia.org/wiki/Page_{i}",
                    text=pool[i],
                    content_hash=sha256_text(pool[i]),
                )
                for i in search(text)
            )
            facts.append((text, fact, evidence))
        if size > 1 and batches_of is not None:
            batches = batches_of([fact for _, fact, _ in facts], size)
        else:
            batches = [[i] for i in range(len(facts))]
        for batch in batches:
            members = [facts[i] for i in batch]
            if size == 1:  # one call per fact, the long per-fact answer
                _, fact, evidence = members[0]
                bare = judge.messages(fact, [], None, False)
                full = judge.messages(fact, evidence, None, False)
                current["verdict"] = {
                    "status": "supported",
                    "evidence_ids": [evidence[0].id] if evidence else [],
                    "quote": _first_sentence(evidence[0].text) if evidence else None,
                    "confidence": 0.9,
                }
                judge.verify(fact, evidence)
            else:  # the compact answer: status, cited sentence numbers, confidence
                items = [BatchItem(fact=f, evidence=e) for _, f, e in members]
                empty = [BatchItem(fact=i.fact, evidence=()) for i in items]
                bare = judge.batch_messages(empty, False)
                full = judge.batch_messages(items, False)
                current["verdicts"] = [
                    [n, "supported", _first_line(full[-1].content, n), 0.9]
                    if rows
                    else {"f": n, "s": "supported", "e": _first_line(full[-1].content, n), "c": 0.9}
                    for n in range(1, len(items) + 1)
                ]
                judge.verify_batch(items)
            tally["verify evidence"] += count(str(full[-1].content)) - count(str(bare[-1].content))
            tally["verify facts"] += len(members)
            tally["verify passages"] += sum(len(e) for *_, e in members)
            tally["verify unique passages"] += len({p.id for *_, e in members for p in e})


def _first_sentence(text: str) -> str:
    """A passage's first sentence: the quote a per-fact answer copies."""
    return re.split(r"(?<=[.!?])\s+", text.strip(), maxsplit=1)[0]


def _first_line(prompt: Any, number: int) -> list[int]:
    """The first sentence number shown for fact ``number``'s first passage: what it cites."""
    text = str(prompt)
    row = re.search(rf"^F{number} .*\| passages (\w+)", text, re.M)
    if not row:
        return []
    at = re.search(rf"^{row.group(1)}( .*)?\n(\d+) ", text, re.M)
    return [int(at.group(2))] if at else []


def run_child(src: str, data: Path, bios: int) -> dict[str, Any]:
    """This script's child mode with ``src`` first on the import path; its parsed output."""
    done = subprocess.run(
        [sys.executable, __file__, "--child", src, "--data", str(data), "--bios", str(bios)],
        env={**os.environ, "PYTHONPATH": src},
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def _export(rev: str, into: Path) -> str:
    """The ``src`` folder of revision ``rev``, written into ``into``."""
    into.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "src"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return str(into / "src")


def rows(result: dict[str, Any]) -> dict[str, float]:
    """Per-bio figures of one child's tally."""
    t, n = result["tally"], result["bios"]
    figures: dict[str, float] = {}
    for role in ("decompose", "verify"):
        parts = {
            p: t.get(f"{role} {p}", 0) for p in ("calls", "system", "user", "schema", "completion")
        }
        figures[f"{role}: calls"] = parts["calls"] / n
        figures[f"{role}: system prompt"] = parts["system"] / n
        figures[f"{role}: user message"] = parts["user"] / n
        figures[f"{role}: schema"] = parts["schema"] / n
        figures[f"{role}: completion"] = parts["completion"] / n
        prompt = parts["system"] + parts["user"] + parts["schema"]
        figures[f"{role}: prompt incl. schema"] = prompt / n
        figures[f"{role}: total"] = (prompt + parts["completion"]) / n
    figures["decompose: of which previous-chunk context"] = t.get("decompose previous", 0) / n
    figures["verify: of which evidence"] = t.get("verify evidence", 0) / n
    figures["whole bio: total tokens"] = figures["decompose: total"] + figures["verify: total"]
    figures["whole bio: calls"] = figures["decompose: calls"] + figures["verify: calls"]
    figures["whole bio: calls per fact"] = figures["whole bio: calls"] * n / max(result["facts"], 1)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--bios", type=int, default=0, help="first N bios (0: all)")
    parser.add_argument("--baseline-rev", default="b7571c1")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.data, args.bios)
        return
    with tempfile.TemporaryDirectory() as tmp:
        base = run_child(_export(args.baseline_rev, Path(tmp) / "base"), args.data, args.bios)
        after = run_child(str(ROOT / "src"), args.data, args.bios)
    assert base["source"] != after["source"], "both runs imported the same sources"
    before_rows, after_rows = rows(base), rows(after)
    print(
        f"# Tokens per FActScore ChatGPT bio — {after['bios']} bios, "
        f"{after['chunks'] / after['bios']:.1f} chunks and {after['facts'] / after['bios']:.1f} "
        f"facts per bio; MiniLM WordPiece tokens; baseline {args.baseline_rev} vs this checkout "
        f"(decompose_batch_chars={after['batch_chars']})\n"
    )
    print("| per bio | baseline | now | now / baseline |")
    print("|---|---:|---:|---:|")
    for name, value in before_rows.items():
        now = after_rows[name]
        ratio = f"{now / value:.2f}×" if value else ""
        fmt = "{:,.2f}" if "calls" in name else "{:,.0f}"
        print(f"| {name} | {fmt.format(value)} | {fmt.format(now)} | {ratio} |")
    batching_rows(after)


def batching_rows(result: dict[str, Any]) -> None:
    """Print verification per bio at each batch size (this checkout, the same evidence)."""
    batching = result.get("batching") or {}
    if not batching:
        return
    n = result["bios"]
    print(
        "\n# Verification per bio by verify_batch — this checkout; each fact's evidence is its "
        "top 5 passages (idf-weighted word overlap) of the bios' 600-character passages\n"
    )
    print(
        "| verify_batch | calls | calls / fact | prompt incl. schema | of which evidence "
        "| completion | total | total vs 1 | passages shown / retrieved |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    first = None
    for size, t in sorted(batching.items(), key=lambda x: int(x[0])):
        prompt = t.get("verify system", 0) + t.get("verify user", 0) + t.get("verify schema", 0)
        total = prompt + t.get("verify completion", 0)
        first = first or total
        print(
            f"| {size} | {t.get('verify calls', 0) / n:.2f} "
            f"| {t.get('verify calls', 0) / max(t.get('verify facts', 1), 1):.2f} "
            f"| {prompt / n:,.0f} | {t.get('verify evidence', 0) / n:,.0f} "
            f"| {t.get('verify completion', 0) / n:,.0f} | {total / n:,.0f} "
            f"| {total / first:.2f}× "
            f"| {t.get('verify unique passages', 0) / max(t.get('verify passages', 1), 1):.2f} |"
        )


if __name__ == "__main__":
    main()
