"""A cache of whole reports, checked before any graph work: a repeated check costs a lookup.

The key is the hash of the input (text, question, supplied documents, spec overrides),
everything the run's ``FactualitySpec`` is frozen from (the settings and the retriever kind)
and the revisions of what answers: each role's model and engine revision, the prompt files
and triqua's own code. A hit is the earlier report under the new run's id, with no model
call and no search in its usage and a note naming the run it came from.

Cached only where the call cache would also serve every answer (see
:mod:`triqua.runtime.caches.call_cache`): supplied documents (their text is in the key),
closed book and web search. Chroma and registered retrievers are not, because their
revisions do not name their content. Reports with failures or errors are never stored, so
a failed run is tried again. ``cache=False``
(``--no-cache``) neither reads nor writes.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from triqua.context import Context
from triqua.runtime.caches.call_cache import cache_key, open_cache, prompts_revision
from triqua.runtime.resources import model_keys, retriever_kind
from triqua.schema import Document, Fact, Report, Usage, utc_now
from triqua.schema.retriever_kinds import kind_of

__all__ = [
    "REPORT_CACHE_NOTE",
    "cached_report",
    "code_revision",
    "report_key",
    "store_report",
    "through_cache",
]

REPORT_CACHE_NOTE = "served from the report cache"
#: Settings that change how fast a run is or where its cache lives, never what it finds.
_NOT_IN_KEY = frozenset({"cache", "cache_path", "max_concurrency"})
#: Libraries whose versions shape retrieval (BM25 index, web search client).
_LIBRARIES = ("bm25s", "tavily-python")


@functools.cache
def code_revision() -> str:
    """Hash of triqua's own files (code, prompts, lexicons): an edit or upgrade misses.

    Computed once per process (a few milliseconds).
    """
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    for name in _LIBRARIES:
        try:
            digest.update(f"{name}={importlib.metadata.version(name)}".encode())
        except importlib.metadata.PackageNotFoundError:
            digest.update(f"{name}=none".encode())
    return digest.hexdigest()[:16]


def _engine_revisions(context: Context) -> dict[str, list[str]]:
    """Each role's model (with the settings that shape its answers) and engine revision."""
    from triqua.engines.factory import engine

    return {key.role: [key.model_id, engine(key).revision] for key in model_keys(context)}


def report_key(
    context: Context,
    text: Any,
    question: str | None,
    documents: Sequence[Document],
    spec_overrides: dict[str, Any] | None,
    facts: Sequence[Fact] | None = None,
) -> str | None:
    """The run's report-cache key, or None when the run is not one the cache serves.

    Given ``facts`` (``triqua verify``) are part of the key; a check's key is unchanged.

    None as well when an input or a setting is not usable: the graph then reports the
    problem as it always does.
    """
    if not context.cache or not isinstance(text, str):
        return None
    kind = retriever_kind(context, bool(documents))
    if not kind_of(kind).cacheable:
        return None
    try:
        engines = _engine_revisions(context)
    except ValueError:  # e.g. an unknown model: the run itself says so
        return None
    settings = {k: v for k, v in asdict(context).items() if k not in _NOT_IN_KEY}
    given = [] if facts is None else [[f.model_dump(mode="json") for f in facts]]
    return cache_key(
        "report",
        code_revision(),
        prompts_revision(),
        engines,
        kind,
        settings,
        spec_overrides,
        text,
        question,
        [d.model_dump(mode="json") for d in documents],
        *given,
    )


def cached_report(
    context: Context, key: str, run_id: str, case_id: str | None = None
) -> Report | None:
    """The report stored under ``key``, as run ``run_id`` made no call; None on a miss.

    The caller's ``case_id`` (not part of the key) replaces the stored records' one.
    """
    value = open_cache(context.cache_path).get(key)
    if value is None:
        return None
    try:
        stored = Report.model_validate_json(value)
    except ValueError:  # written by another layout: a miss
        return None
    records = [
        r.model_copy(
            update={
                "usage": Usage(),
                "case_id": case_id or "",
                "response_id": run_id if r.response_id == stored.run_id else r.response_id,
            }
        )
        for r in stored.records
    ]
    per_fact = 0.0 if records else None
    return stored.model_copy(
        update={
            "run_id": run_id,
            "created_at": utc_now(),
            "records": records,
            "usage": Usage(),
            "usage_by_role": {role: Usage() for role in stored.usage_by_role},
            "model_calls_per_fact": per_fact,
            "search_calls_per_fact": per_fact,
            "notes": [
                *stored.notes,
                f"{REPORT_CACHE_NOTE} (first checked as run {stored.run_id} "
                f"at {stored.created_at.isoformat(timespec='seconds')})",
            ],
        }
    )


async def through_cache(
    context: Context,
    key: str | None,
    run_id: str,
    case_id: str | None,
    run: Callable[[], Awaitable[Report]],
) -> tuple[Report, bool]:
    """The report of ``run``, or an identical earlier check's; True when it came from the cache.

    The one way a check passes through the cache: looked up before ``run`` is awaited (a hit
    costs one lookup and no graph work), kept after it (unless something failed). ``key``
    None: not cached, ``run`` runs.
    """
    hit = cached_report(context, key, run_id, case_id) if key else None
    if hit is not None:
        return hit, True
    report = await run()
    if key:
        store_report(context, key, report)
    return report, False


def store_report(context: Context, key: str, report: Report) -> bool:
    """Keep ``report`` under ``key`` unless something in it failed; True when kept."""
    if report.failures or report.errors or report.failed_chunks:
        return False
    open_cache(context.cache_path).put(key, "report", report.model_dump_json())
    return True
