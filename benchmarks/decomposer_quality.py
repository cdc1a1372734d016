"""Offline decomposer quality on shared real text: recall and junk, before vs after.

Decomposes the FActScore ChatGPT bios and the Factcheck-Bench claims (``/work/shared/data``)
twice, each in a subprocess: with a baseline's sources and with this checkout's. The
baseline is a git revision of this repository (``--baseline-rev``, default ``8419dd8``, the
last commit before the decomposer's recall and hygiene work), exported with ``git archive``;
``--baseline-src`` points at a source folder instead. For each it prints the share of sentences with
at least one fact, facts per sentence, facts per second, and the junk-fact rate broken down:

- junk argument: subject or object is a bare number, unit or determiner phrase
  (``hygiene.is_junk_argument``, applied to both runs' strings alike);
- preposition label: a qualifier labelled with a bare preposition ("in", "for");
- PP subject: the subject is written in its sentence inside a prepositional phrase (a
  preposition stands between the clause start and the subject, as in "Together with A and
  B, she ..." -> subject B).

Run: ``PYTHONPATH=src python benchmarks/decomposer_quality.py [--bios 60 --claims 600]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shared_data import data_dir

DATA = data_dir()
_PREPOSITIONS = re.compile(
    r"\b(with|in|on|at|for|from|by|of|to|into|after|before|during|under|over|among|"
    r"between|through|about|against|without|alongside|besides|including)\b",
    re.IGNORECASE,
)


def load_texts(bios: int, claims: int) -> list[str]:
    """The first ``bios`` ChatGPT bios and ``claims`` distinct Factcheck-Bench claims."""
    texts: list[str] = []
    with (DATA / "factscore_labeled" / "ChatGPT.jsonl").open() as fh:
        for line in fh:
            record = json.loads(line)
            if record.get("annotations") and len(texts) < bios:
                texts.append(record["output"])
    seen: set[str] = set()
    with (DATA / "factcheck_bench" / "subtask3_claim_evidence_stance.jsonl").open() as fh:
        for line in fh:
            claim = json.loads(line)["claim"].strip()
            if claim and claim not in seen and len(seen) < claims:
                seen.add(claim)
                texts.append(claim)
    return texts


def _use_sources(src: str) -> None:
    """Import ``triqua`` from ``src``, ahead of an editable install's import hook."""
    sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in type(f).__name__.lower()]
    sys.path.insert(0, src)
    for name in [m for m in sys.modules if m == "triqua" or m.startswith("triqua.")]:
        del sys.modules[name]


def _decomposer() -> tuple[Any, Callable[[], Any]]:
    """The offline decomposer and its spaCy loader, where the imported sources keep them.

    The decomposer moved into ``engines.offline.decompose`` after the default baseline: a
    baseline from before has ``RuleDecomposer`` and ``load_nlp`` in ``engines.offline``.
    """
    try:
        from triqua.engines.offline.decompose.decomposer import get_decomposer

        try:
            from triqua.nlp.pipeline import load_nlp
        except ModuleNotFoundError:  # revisions before triqua.nlp
            from triqua.engines.offline.nlp import load_nlp  # type: ignore[no-redef]
    except ModuleNotFoundError:
        from triqua.engines.offline.decomposer import (  # type: ignore[import-not-found]
            RuleDecomposer,
            load_nlp,
        )

        return RuleDecomposer(), load_nlp
    return get_decomposer(), load_nlp


def emit(path: Path, src: str) -> None:
    """Child mode: decompose the texts in ``path`` and print facts and sentences as JSON."""
    _use_sources(src)
    import triqua

    print(f"triqua from {triqua.__file__}", file=sys.stderr)
    decomposer, load_nlp = _decomposer()
    texts = json.loads(path.read_text())
    load_nlp()
    decomposer.decompose("Warm up the parser.")
    started = time.perf_counter()
    results = decomposer.decompose_many(texts)
    elapsed = time.perf_counter() - started
    nlp = load_nlp()
    out = []
    for text, facts in zip(texts, results, strict=True):
        sentences = [
            (s.start_char, s.end_char)
            for s in nlp(text).sents
            if any(ch.isalnum() for ch in s.text)
        ]
        out.append(
            {
                "sentences": sentences,
                "facts": [
                    {
                        "subject": f.subject,
                        "relation": f.relation,
                        "object": f.object,
                        "labels": [q.label for q in f.qualifiers],
                        "span": [f.span.start, f.span.end] if f.span else None,
                        "source": f.source_text,
                    }
                    for f in facts
                ],
            }
        )
    print(json.dumps({"seconds": elapsed, "source": triqua.__file__, "texts": out}))


def pp_subject(subject: str, source: str) -> bool:
    """True when the subject appears in its sentence only after a clause-initial preposition."""
    at = source.find(subject)
    if at <= 0:
        return False
    clause_start = max(source.rfind(sep, 0, at) for sep in (",", ";", ":", "(")) + 1
    return bool(_PREPOSITIONS.search(source[clause_start:at]))


def measure(result: dict[str, object]) -> dict[str, float]:
    """Figures of one run's output."""
    from triqua.engines.offline.decompose.hygiene import is_junk_argument
    from triqua.engines.offline.labels import BARE_PREPOSITIONS

    texts = result["texts"]
    assert isinstance(texts, list)
    sentences = covered = facts = junk_arg = prep_label = pp = any_junk = 0
    for text in texts:
        spans = [tuple(f["span"]) for f in text["facts"] if f["span"]]
        for start, end in text["sentences"]:
            sentences += 1
            covered += any(s < end and start < e for s, e in spans)
        for f in text["facts"]:
            facts += 1
            bad_arg = is_junk_argument(f["subject"], "subject") or is_junk_argument(
                f["object"], "object"
            )
            bad_label = any(label.lower() in BARE_PREPOSITIONS for label in f["labels"])
            bad_pp = pp_subject(f["subject"], f["source"])
            junk_arg += bad_arg
            prep_label += bad_label
            pp += bad_pp
            any_junk += bad_arg or bad_label or bad_pp
    seconds = float(result["seconds"])  # type: ignore[arg-type]
    return {
        "sentences": sentences,
        "facts": facts,
        "sentences with >=1 fact": covered / max(sentences, 1),
        "facts per sentence": facts / max(sentences, 1),
        "junk-fact rate": any_junk / max(facts, 1),
        "  junk argument": junk_arg / max(facts, 1),
        "  preposition label": prep_label / max(facts, 1),
        "  PP subject": pp / max(facts, 1),
        "facts/s": facts / seconds if seconds else 0.0,
    }


def run(src: str, texts_path: Path) -> dict[str, object]:
    """Run the child mode with ``src`` first on the import path; its parsed output."""
    env = {**os.environ, "PYTHONPATH": src}
    done = subprocess.run(
        [sys.executable, __file__, "--emit", str(texts_path), "--src", src],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def _export(root: Path, rev: str, into: Path) -> str:
    """Write the ``src`` folder of revision ``rev`` into ``into``; the path of its copy."""
    into.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", rev, "src"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return str(into / "src")


def main() -> None:
    """Print before/after figures side by side."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bios", type=int, default=60)
    parser.add_argument("--claims", type=int, default=600)
    parser.add_argument("--baseline-rev", default="8419dd8")
    parser.add_argument("--baseline-src", help="a source folder to use instead of a revision")
    parser.add_argument("--emit", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--src", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.emit:
        emit(args.emit, args.src)
        return
    root = Path(__file__).resolve().parents[1]
    here = str(root / "src")
    texts = load_texts(args.bios, args.claims)
    with tempfile.TemporaryDirectory() as tmp:
        texts_path = Path(tmp) / "texts.json"
        texts_path.write_text(json.dumps(texts))
        baseline = args.baseline_src or _export(root, args.baseline_rev, Path(tmp) / "base")
        base_run, after_run = run(baseline, texts_path), run(here, texts_path)
    assert base_run["source"] != after_run["source"], "both runs imported the same sources"
    before, after = measure(base_run), measure(after_run)
    print(f"{len(texts)} texts: {args.bios} FActScore ChatGPT bios + {args.claims} Factcheck-Bench")
    print(f"baseline: {args.baseline_src or args.baseline_rev}   after: {here}")
    print(f"{'figure':28} {'before':>10} {'after':>10}")
    for key in before:
        b, a = before[key], after[key]
        if key in {"sentences", "facts"}:
            print(f"{key:28} {int(b):>10} {int(a):>10}")
        elif key == "facts/s":
            print(f"{key:28} {b:>10.0f} {a:>10.0f}   ratio {a / b if b else 0:.2f}")
        else:
            print(f"{key:28} {b:>10.3f} {a:>10.3f}")


if __name__ == "__main__":
    main()
