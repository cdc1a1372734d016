"""The shared pipeline parses the same on NumPy's BLAS as on BLIS, on the speed benchmark's text.

``offline_speed.py``'s run (bios checked against themselves) is replayed once with every text
given to the shared spaCy pipeline recorded; each recorded text is then parsed by the shared
pipeline (NumPy's BLAS, one BLAS thread) and by a second one built on thinc's default ops
(BLIS), and the two parses are compared token by token: text, tag, part of speech, lemma,
morphology, dependency label and head, entity label and boundary, sentence starts. The largest
difference between the two token vectors (``doc.tensor``) is shown too: floating-point
sums in another order differ in the last bits without changing a label. Each pipeline's CPU
time to parse all the texts one by one is measured ``--rounds`` times, the two alternately.

Run: ``.venv/bin/python benchmarks/blas_parses.py [--size 40] [--rounds 3]
[--data ../shared/data]``; exits 1 when a parse differs.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from offline_speed import bios_text
from shared_data import data_dir


def record_texts(size: int, data: Path) -> list[str]:
    """Every distinct text the shared pipeline parses while checking ``size`` chars of bios."""
    from spacy.language import Language

    import triqua
    from triqua.nlp.pipeline import load_nlp

    shared = load_nlp()
    seen: dict[str, None] = {}
    call, pipe = Language.__call__, Language.pipe

    def recording_call(self: Language, text: Any, *args: Any, **kwargs: Any) -> Any:
        if self is shared and isinstance(text, str):
            seen.setdefault(text)
        return call(self, text, *args, **kwargs)

    def recording_pipe(self: Language, texts: Iterable[Any], *args: Any, **kwargs: Any) -> Any:
        def noted() -> Iterator[Any]:
            for text in texts:
                if self is shared and isinstance(text, str):
                    seen.setdefault(text)
                yield text

        return pipe(self, noted(), *args, **kwargs)

    Language.__call__ = recording_call  # type: ignore[method-assign]
    Language.pipe = recording_pipe  # type: ignore[method-assign]
    try:
        text = bios_text(size, data)
        documents = [p for p in text.split("\n\n") if p.strip()]
        triqua.check(text, documents=documents, max_facts=1_000_000, cache=False)
    finally:
        Language.__call__ = call  # type: ignore[method-assign]
        Language.pipe = pipe  # type: ignore[method-assign]
    return list(seen)


def token_rows(doc: Any) -> list[tuple[Any, ...]]:
    """The labels of a parse, one tuple per token."""
    return [
        (
            t.text,
            t.tag_,
            t.pos_,
            t.lemma_,
            str(t.morph),
            t.dep_,
            t.head.i,
            t.ent_iob_,
            t.ent_type_,
            t.is_sent_start,
        )
        for t in doc
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=data_dir())
    parser.add_argument("--size", type=float, default=40, help="KB of bios")
    parser.add_argument("--rounds", type=int, default=3, help="timed parses of all texts each")
    args = parser.parse_args()
    import numpy as np
    from threadpoolctl import threadpool_info

    from triqua.nlp.pipeline import build_pipeline, load_nlp

    texts = record_texts(int(args.size * 1000), args.data)
    numpy_nlp, blis_nlp = load_nlp(), build_pipeline(numpy_blas=False)
    cpu: dict[str, list[float]] = {"NumPy BLAS": [], "BLIS": []}
    for _ in range(args.rounds):  # alternately, so that the machine's load falls on both
        for name, nlp in (("NumPy BLAS", numpy_nlp), ("BLIS", blis_nlp)):
            started = time.process_time()
            for text in texts:
                nlp(text)
            cpu[name].append(time.process_time() - started)
    differ, tokens, largest = [], 0, 0.0
    for text in texts:
        ours, theirs = numpy_nlp(text), blis_nlp(text)
        tokens += len(ours)
        if token_rows(ours) != token_rows(theirs):
            differ.append(text)
        if ours.tensor.size and ours.tensor.shape == theirs.tensor.shape:
            largest = max(largest, float(np.abs(ours.tensor - theirs.tensor).max()))
    blas = {
        (i["internal_api"], i["num_threads"]) for i in threadpool_info() if i["user_api"] == "blas"
    }
    print(f"BLAS libraries (api, threads): {sorted(blas)}")
    print(
        f"{len(texts)} texts, {tokens:,} tokens: {len(texts) - len(differ)} parse the same, "
        f"{len(differ)} differ; largest token-vector difference {largest:.2e}"
    )
    for name, seconds in cpu.items():
        print(f"{name}: " + ", ".join(f"{s:.2f}" for s in seconds) + " s CPU to parse them all")
    for text in differ[:5]:
        print(f"differs: {text[:120]!r}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
