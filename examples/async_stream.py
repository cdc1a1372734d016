"""triqua from async code: ``await triqua.acheck(...)``, and streaming progress events.

``acheck(on_event=...)`` calls a function with each progress event; the compiled graph
streams the same events with ``stream_mode="custom"``. Per-fact events come from the
verification subgraph, so stream with ``subgraphs=True``. Each event is a dict named by its
``event`` key: ``chunk_decomposed``, ``facts_found`` (``facts``), ``fact_verified`` (one per
fact: ``fact``, ``claim``, ``status``, ``units``, ``supported_units``) and ``scored``
(``score``). Below, the stream's events are folded into a running score.

Runs offline: a scripted model answers triqua's roles (see ``_fake.py``).
Run: ``python examples/async_stream.py``.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from _fake import DOCUMENTS, QUESTION, TEXT, triqua_model

import triqua


def percent(score: float | None) -> str:
    """A score as a percentage; "n/a" when nothing was checkable."""
    return "n/a" if score is None else f"{score:.1%}"


async def main() -> dict[str, Any]:
    model = triqua_model()
    called: Counter[str] = Counter()
    report = await triqua.acheck(
        TEXT,
        question=QUESTION,
        documents=DOCUMENTS,
        model=model,
        on_event=lambda event: called.update([event["event"]]),
    )
    print(f"acheck: TriQuaScore {percent(report.score)} over {len(report.records)} facts")
    print(f"acheck: on_event was called with {dict(called)}\n")

    graph = triqua.build_graph()
    events: list[dict[str, Any]] = []
    units = supported = 0
    score: float | None = None
    async for namespace, event in graph.astream(
        {"text": TEXT, "question": QUESTION, "documents": DOCUMENTS},
        context=triqua.make_context(model=model),
        stream_mode="custom",
        subgraphs=True,
    ):
        if not isinstance(event, dict):
            continue
        events.append(event)
        name = event["event"]
        if name == "facts_found":
            line = f"{event['facts']} facts to verify"
        elif name == "fact_verified":
            units += event["units"]
            supported += event["supported_units"]
            so_far = percent(supported / units if units else None)
            line = f"{event['fact']} {event['status']} · score so far {so_far}"
        elif name == "scored":
            score = event["score"]
            line = f"TriQuaScore {percent(score)}"
        else:
            line = ""
        where = namespace[-1].split(":")[0] if namespace else "main"
        print(f"{where:<12} {name:<17} {line}")
    return {"report": report, "called": called, "events": events, "score": score}


if __name__ == "__main__":
    asyncio.run(main())
