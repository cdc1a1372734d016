"""The run store: every check and every re-grade, kept append-only in SQLite or PostgreSQL.

Tables (rows are only ever inserted; see ``tables`` for the triggers that enforce it):

- ``runs``: one row per run: input text and its hash, question, settings, documents.
- ``records``: one row per fact: the ``ClaimRecord`` without evidence and verdicts.
- ``verdicts``: one row per fact and revision (0 for the check, +1 per re-grade), with the
  judge, the spec hash, the usage and the evidence revision the verdict was reached on.
- ``evidence``: one row per passage, per fact and per evidence revision.
- ``reports``: one row per revision: the frozen ``FactualitySpec`` and its hash, the scores
  and the rest of the report.
- ``outcomes``: runs that failed and cannot be resumed (``failed_at_start``: before their
  first step; ``failed``: a run that was not durable).

Only a run that never produced a report may be removed (``triqua runs prune``): its input row
and outcome. Everything of a run with a report stays.

The package splits by concept: ``tables`` (schema, triggers, upgrade), ``connection`` (the
file), ``writing`` and ``reading``; ``RunStore`` joins the two halves.
"""

from __future__ import annotations

import os
from pathlib import Path

from triqua.store.connection import default_store_path
from triqua.store.models import FAILED, FAILED_AT_START, RunSummary, StoredRun
from triqua.store.reading import RunReader
from triqua.store.tables import APPEND_ONLY_TABLES, SCHEMA_VERSION
from triqua.store.writing import RunWriter
from triqua.support.dbfiles import StoreError

__all__ = [
    "APPEND_ONLY_TABLES",
    "FAILED",
    "FAILED_AT_START",
    "SCHEMA_VERSION",
    "STORE_ENV",
    "STORE_URL_ENV",
    "RunStore",
    "RunSummary",
    "StoreError",
    "StoredRun",
    "default_store_path",
    "resolve_store",
]

#: Environment variable that makes the Python API save runs: '1' (default file) or a path.
STORE_ENV = "TRIQUA_STORE"
#: Environment variable naming a PostgreSQL run store (``postgresql://…``); wins over STORE_ENV.
STORE_URL_ENV = "TRIQUA_STORE_URL"


class RunStore(RunWriter, RunReader):
    """Append-only store of runs, their records, verdict revisions, evidence and reports.

    ``RunStore(path)`` keeps them in a SQLite file; ``RunStore("postgresql://…")`` in a
    PostgreSQL database (``store.postgres``; the ``postgres`` extra).
    """


def resolve_store(store: bool | str | Path | RunStore | None) -> RunStore | None:
    """The store a call asks for: an instance, a path, True (default file), False (none).

    None follows ``$TRIQUA_STORE_URL`` (a PostgreSQL store) when set, else ``$TRIQUA_STORE``:
    unset, '' or '0' saves nothing; '1' the default file; anything else is a path or a URL.
    """
    if isinstance(store, RunStore):
        return store
    if store is None and os.environ.get(STORE_URL_ENV, "").strip():
        return RunStore(os.environ[STORE_URL_ENV].strip())
    if store is None:
        setting = os.environ.get(STORE_ENV, "").strip()
        if setting.lower() in ("", "0", "false", "no"):
            return None
        return RunStore(None if setting.lower() in ("1", "true", "yes") else setting)
    if store is False:
        return None
    if store is True:
        return RunStore()
    return RunStore(store)
