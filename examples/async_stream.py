"""triqua from async code: ``await triqua.acheck(...)``, and streaming progress events.

Per-fact events come from the verification subgraph, so stream with ``subgraphs=True``;
``triqua.cli._progress.ProgressTracker`` folds the events into counts and a running score.

Runs offline: a scripted model answers triqua's roles (see ``_fake.py``).
Run: ``python examples/async_stream.py``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from _fake import DOCUMENTS, QUESTION, TEXT, triqua_model

import triqua
from triqua.cli._progress import ProgressTracker


async def main() -> dict[str, Any]:
    model = triqua_model()
    report = await triqua.acheck(TEXT, question=QUESTION, documents=DOCUMENTS, model=model)
    print(f"acheck: TriQuaScore {report.score:.2f} over {len(report.records)} facts\n")

    graph = triqua.build_graph()
    tracker = ProgressTracker()
    events: list[dict[str, Any]] = []
    async for namespace, event in graph.astream(
        {"text": TEXT, "question": QUESTION, "documents": DOCUMENTS},
        context=triqua.make_context(model=model),
        stream_mode="custom",
        subgraphs=True,
    ):
        if not isinstance(event, dict):
            continue
        tracker.update(event)
        events.append(event)
        where = namespace[-1].split(":")[0] if namespace else "main"
        print(f"{where:<12} {event['event']:<17} {tracker.describe()}")
    return {"report": report, "events": events, "tracker": tracker}


if __name__ == "__main__":
    asyncio.run(main())
