"""The ingest graph: seed a Chroma collection from files, so Studio can check against it.

It wraps :func:`triqua.tools.ingest.ingest_paths` and reads the store location from the same
``Context`` as the check graph (``collection``, ``chroma_path``, ``chroma_url``), so one set
of Studio settings serves both graphs.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from triqua.context import Context
from triqua.graph.served import (
    SERVED_COLLECTION,
    CallerContext,
    check_caller_collection,
    check_ingest_paths,
)
from triqua.nodes.common import context_of, emit
from triqua.state import IngestInput, IngestOutput, IngestState
from triqua.tools.chroma_names import check_collection_name
from triqua.tools.ingest import DEFAULT_CHUNK_SIZE, FileOutcome, ingest_paths, list_collections

#: Collection used when neither the input nor the context names one.
DEFAULT_COLLECTION = SERVED_COLLECTION


def _progress(outcome: FileOutcome, done: int, total: int) -> None:
    emit("file_ingested", path=outcome.path, status=outcome.status, done=done, total=total)


def ingest(state: IngestState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Ingest the given paths into the collection and list the store's collections."""
    context = context_of(runtime)
    paths = state.get("paths") or []
    if isinstance(paths, str):  # one path, not a list of its characters
        paths = [paths]
    if not paths:
        raise ValueError("ingest: give 'paths', e.g. [\"studio/corpus\"]")
    if not isinstance(paths, list) or not all(isinstance(p, str) and p for p in paths):
        raise ValueError(f"ingest: 'paths' must be a list of file or folder paths, got {paths!r}")
    for key in ("chunk_size", "chunk_overlap"):
        value = state.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError(f"ingest: '{key}' must be a whole number, got {value!r}")
    collection = state.get("collection") or context.collection or DEFAULT_COLLECTION
    if isinstance(context, CallerContext):  # served: the operator's collection and folders
        collection = check_caller_collection(collection)
        files = check_ingest_paths(paths)
    else:
        collection = check_collection_name(collection)
        files = [Path(p).expanduser().resolve() for p in paths]
    summary = ingest_paths(
        files,
        collection,
        chunk_size=state.get("chunk_size") or DEFAULT_CHUNK_SIZE,
        chunk_overlap=state.get("chunk_overlap") or 0,
        path=context.chroma_path,
        url=context.chroma_url,
        progress=_progress,
    )
    found = list_collections(path=context.chroma_path, url=context.chroma_url)
    return {
        "summary": {
            **asdict(summary),
            "chunks_added": summary.chunks_added,
            "problems": summary.problems,
            "text": str(summary),
        },
        "collections": [{"name": name, "chunks": count} for name, count in found],
    }


def build_ingest_graph(
    *, caller_guard: bool = False, **compile_kwargs: Any
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the ingest graph; ``compile_kwargs`` go to ``compile``.

    With ``caller_guard`` (serving it to others) a run's ``context`` mapping is read as a
    :class:`~triqua.graph.served.CallerContext`, its paths must lie inside the folders of
    ``TRIQUA_INGEST_ROOTS`` and it writes only into the operator's collection (unless
    ``TRIQUA_CALLER_SETTINGS`` lists ``collection``), as on the graph ``langgraph.json`` serves.
    """
    builder = StateGraph(
        IngestState, context_schema=Context, input_schema=IngestInput, output_schema=IngestOutput
    )
    builder.add_node("ingest", ingest)
    builder.add_edge(START, "ingest")
    builder.add_edge("ingest", END)
    graph = builder.compile(name="triqua_ingest", **compile_kwargs)
    return graph.copy(update={"context_schema": CallerContext}) if caller_guard else graph


#: The compiled ingest graph served by ``langgraph.json``: its callers' settings are limited,
#: their paths must lie in the operator's ``TRIQUA_INGEST_ROOTS`` and they write into the
#: operator's collection (:mod:`.served`).
graph = build_ingest_graph(caller_guard=True)
