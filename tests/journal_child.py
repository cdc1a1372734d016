"""Run in a child process by test_journal: a durable check without the cache, killed mid-batch.

Usage: ``python -m tests.journal_child RUN_ID FOLDER [cached]`` (``cached``: with the call
cache on). The three facts share one
verification batch; its batched call is malformed, so each fact is judged in its own call,
side by side. Each finished judgement leaves ``FOLDER/done-N``; the call about Marie Curie
writes ``FOLDER/blocked`` and sleeps, so the test can kill the process while the batch (and
so its checkpoint) is unfinished but two of its calls are done.
"""

from __future__ import annotations

import sys
import time
import uuid
from pathlib import Path
from typing import Any

import triqua
from triqua.engines.factory import register_model
from triqua.testing import ScriptedChatModel

from .conftest import default_judgement, make_responder
from .durable_child import BLOCKED, DOCS, TEXT

#: The scripted model's registered name when the call cache is on (stable across processes).
MODEL_NAME = "instance:scripted"
#: One batch for all facts, a malformed batched call given up at once, no cache.
SETTINGS: dict[str, Any] = {
    "cache": False,
    "chunk_size": 0,
    "verify_batch": 16,
    "max_output_retries": 0,
    "retry_wait": 0.01,
}


def malformed_batches(respond: Any) -> Any:
    """``respond``, with every batched verify call answered by malformed output."""

    def answer(tool: str, prompt: str) -> dict[str, Any] | str:
        return "not a verdict" if tool == "Verdicts" else respond(tool, prompt)

    return answer


def main(run_id: str, folder: Path, *, cached: bool = False) -> None:
    def judge(fact: str, prompt: str) -> dict[str, Any] | str:
        if BLOCKED in fact:
            (folder / "blocked").write_text("blocked", encoding="utf-8")
            time.sleep(600)  # until killed
        answer = default_judgement(fact, prompt)
        (folder / f"done-{uuid.uuid4().hex}").write_text(fact, encoding="utf-8")
        return answer

    model = ScriptedChatModel(
        responder=malformed_batches(make_responder(judge)), split_batches=False
    )
    if cached:  # the call cache on, the model under a name both processes give it
        register_model(MODEL_NAME, model)
        settings = {**SETTINGS, "cache": True, "model": MODEL_NAME}
        triqua.check(TEXT, documents=DOCS, durable=True, run_id=run_id, **settings)
        return
    triqua.check(TEXT, documents=DOCS, model=model, durable=True, run_id=run_id, **SETTINGS)


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]), cached=sys.argv[3:4] == ["cached"])
