"""Run in a child process by test_durable: a durable check whose judge blocks on one fact.

Usage: ``python -m tests.durable_child RUN_ID MARKER [STORE]``. The judge writes MARKER and
sleeps when asked about Marie Curie, so the test can kill the process while that fact is
pending. STORE (default: the default file) may be a ``postgresql://`` URL: the checkpoints
then go to that database too.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import triqua
from triqua.testing import ScriptedChatModel

from .conftest import CURIE, FRANCE, PARIS, default_judgement, make_responder

TEXT = f"{FRANCE} {CURIE} {PARIS}"
DOCS = [
    "France had a population of 64.5 million in 2025, excluding overseas departments.",
    "Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie.",
    "Paris is the capital and largest city of France.",
]
BLOCKED = "Marie Curie"
SETTINGS: dict[str, Any] = {"cache": False, "chunk_size": 0}


def main(run_id: str, marker: Path, store: str | bool = True) -> None:
    def judge(fact: str, prompt: str) -> dict[str, Any] | str:
        if BLOCKED in fact:
            marker.write_text("blocked", encoding="utf-8")
            time.sleep(600)  # until killed
        return default_judgement(fact, prompt)

    model = ScriptedChatModel(responder=make_responder(judge))
    triqua.check(
        TEXT, documents=DOCS, model=model, durable=True, run_id=run_id, store=store, **SETTINGS
    )


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]), *sys.argv[3:4])
