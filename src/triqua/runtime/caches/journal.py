"""A durable run's journal of finished calls: a resumed run asks no model twice, cache or not.

A durable run checkpoints each verification batch once the batch is finished (see
:func:`triqua.graph.main.compiled_graph`); the model calls and searches a batch made before
the process died are kept by the call cache. With the cache off (``--no-cache``) they would
be made again on resume, so a durable run without the cache keeps its own journal: a call
cache file of its own (``journals/RUN_ID.sqlite`` in triqua's data directory), written as
each answer arrives and read only when the run is resumed. A first run therefore still asks
every question afresh, as ``--no-cache`` promises; only the run's own answers are reused.
The journal goes with the run's checkpoints (:func:`forget_journal`).
"""

from __future__ import annotations

import threading
from contextlib import suppress
from dataclasses import replace
from pathlib import Path

from triqua.context import Context
from triqua.runtime.caches.call_cache import ResultCache, close_cache, open_cache
from triqua.support.instances import PREFIX
from triqua.tools.paths import triqua_home

__all__ = ["RunJournal", "forget_journal", "journal_path", "journaled"]


def journal_path(run_id: str) -> Path:
    """The journal file of run ``run_id`` in triqua's data directory."""
    return triqua_home() / "journals" / f"{run_id}.sqlite"


class RunJournal(ResultCache):
    """A call cache that records every answer and serves them only once ``replay`` is set."""

    def __init__(self, path: str | Path) -> None:
        """Open (creating when missing) the journal at ``path``, not yet replaying."""
        super().__init__(path)
        self.replay = False
        self._replay_lock = threading.Lock()

    def start_replay(self) -> None:
        """Serve the recorded answers from now on (the run is being resumed)."""
        with self._replay_lock:
            self.replay = True

    def model_name(self, model_id: str) -> str:
        """The model id without its in-process name: a resumed run's model is the run's own.

        A model object passed to ``check`` is named afresh in every process
        (``instance:ChatX-<random>``); the process resuming the run names it differently.
        """
        if not model_id.startswith(PREFIX):
            return model_id
        name, _, settings = model_id.partition("|")
        return f"{name.rsplit('-', 1)[0]}|{settings}"

    def get(self, key: str) -> str | None:
        """The recorded answer under ``key`` when replaying, else None (ask the model)."""
        return super().get(key) if self.replay else None


def journaled(context: Context, run_id: str, *, resumed: bool) -> Context:
    """The settings a durable run's graph works with: the call cache, or else its journal.

    With the call cache on, it already keeps every finished call: ``context`` unchanged.
    Otherwise the run's calls go through its journal, replayed when ``resumed``.
    """
    if context.cache:
        return context
    path = journal_path(run_id)
    journal = open_cache(path, RunJournal)
    if resumed and isinstance(journal, RunJournal):
        journal.start_replay()
    return replace(context, cache=True, cache_path=str(path))


def forget_journal(run_id: str) -> None:
    """Close and delete run ``run_id``'s journal (its WAL files too), if it has one."""
    path = journal_path(run_id)
    close_cache(path)
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        with suppress(FileNotFoundError):
            leftover.unlink()
