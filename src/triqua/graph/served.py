"""The settings a caller of a served graph may give, and the files its ingest may read.

``langgraph.json`` serves the module attributes ``graph`` of :mod:`triqua.graph.main` and
:mod:`triqua.graph.ingest` (``langgraph dev``, a LangGraph server, Aegra). There a run's
``context`` comes from whoever calls the API, while the keys, files and stores belong to
the server's operator. Those graphs are built with :class:`CallerContext` as their context
schema: LangGraph turns a caller's ``context`` mapping into one before any node runs, and it
refuses the operator's settings (:data:`OPERATOR_SETTINGS`: which models and web searches
the operator's keys pay for, where model requests carrying the key go, which server paths
are read or written) and a spending limit raised above the operator's
(:data:`CALLER_CEILINGS`), unless the operator lets callers set them with
``TRIQUA_CALLER_SETTINGS``. Both graphs search and write only the operator's Chroma
collection (:func:`operator_collection`) unless that variable lists ``collection``.
The operator's own ``TRIQUA_*`` variables still apply.
In-process use (``triqua.check``, ``build_graph()``, the CLI) builds a plain
:class:`~triqua.context.Context` and is not limited; ``build_graph(caller_guard=True)``
gives a program serving its own graph the same guard.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from triqua.context import DEFAULT_CANDIDATES, Context
from triqua.tools.chroma_names import check_collection_name

__all__ = [
    "CALLER_CEILINGS",
    "CALLER_SETTINGS_ENV",
    "COLLECTION_KEY",
    "INGEST_ROOTS_ENV",
    "OPERATOR_SETTINGS",
    "SERVED_COLLECTION",
    "CallerContext",
    "CallerRefusedError",
    "check_caller_collection",
    "check_ingest_paths",
    "operator_collection",
]

#: Names settings a caller may set beyond the default ones (comma-separated keys).
CALLER_SETTINGS_ENV = "TRIQUA_CALLER_SETTINGS"
#: Folders (``os.pathsep``-separated) that the served ingest graph may read from.
INGEST_ROOTS_ENV = "TRIQUA_INGEST_ROOTS"

#: The key of ``TRIQUA_CALLER_SETTINGS`` that lets callers choose the Chroma collection the
#: served check graph searches and the served ingest graph writes.
COLLECTION_KEY = "collection"
#: The served graphs' collection when the operator names none with ``TRIQUA_COLLECTION``.
SERVED_COLLECTION = "triqua-studio"

#: Retrievers a caller may choose: none of them searches the web on the operator's key.
_LOCAL_RETRIEVERS = ("auto", "supplied", "closed_book", "chroma")
#: The same, as the refusal lists them.
_LOCAL_CHOICES = ", ".join(map(repr, _LOCAL_RETRIEVERS[:-1])) + f" or {_LOCAL_RETRIEVERS[-1]!r}"

#: Settings only the operator gives a served graph, each with the values a caller may still
#: name (None: none). The models and web searches are paid with the operator's keys;
#: endpoints receive the operator's model key or reach the server's network; the others
#: name files or folders on the server (an NLI checker or reranker named by folder is read
#: from disk).
OPERATOR_SETTINGS: dict[str, frozenset[Any] | None] = {
    "model": None,
    "decompose_model": None,
    "verify_model": None,
    "refine_model": None,
    "retriever": frozenset(_LOCAL_RETRIEVERS),
    "base_url": None,
    "chroma_url": None,
    "chroma_path": None,
    "cache_path": None,
    "allow_paths": None,
    "verifier": frozenset({"shipped", "rules"}),
    "rerank_model": frozenset({None, "minilm"}),
}


#: Limits a caller may lower but not raise above the operator's own: what the operator's
#: keys pay for (calls, searches, retries, results per query) and what the server's memory
#: and time hold (input and evidence size, facts, concurrency, waits). True marks a limit
#: where 0 means "no limit", the highest value of all.
CALLER_CEILINGS: dict[str, bool] = {
    "max_calls": False,
    "max_searches": False,
    "max_output_retries": False,
    "reverify_rounds": False,
    "max_results": False,
    "candidates": False,
    "max_input_chars": False,
    "max_evidence_bytes": False,
    "max_facts": False,
    "max_concurrency": False,
    "retry_wait": False,
    "model_timeout": True,
    "search_timeout": True,
    "max_sentence_chars": True,
}


class CallerRefusedError(ValueError):
    """A served graph's caller asked for what only the operator may set or read.

    A ``ValueError``, so LangGraph's server shows its message to the caller.
    """


def caller_settable() -> frozenset[str]:
    """The operator settings that ``TRIQUA_CALLER_SETTINGS`` lets callers set."""
    listed = os.environ.get(CALLER_SETTINGS_ENV, "")
    return frozenset(key.strip() for key in listed.split(",") if key.strip())


@dataclass(kw_only=True)
class CallerContext(Context):
    """A served run's settings, given by its API caller: the operator's settings are refused.

    A value equal to the operator's own (its default or ``TRIQUA_*`` variable) is accepted:
    only a value that differs would redirect the run. An empty one (None, "" or [], as a
    settings form sends for a field left blank) stands for the operator's.
    """

    def __post_init__(self) -> None:
        """Refuse the operator settings the caller changed, naming them and how to allow them."""
        allowed = caller_settable()
        operator = Context()
        refused: list[str] = []
        for key, harmless in OPERATOR_SETTINGS.items():
            value = getattr(self, key)
            if key in allowed:
                continue
            if value is None or value == "" or value == []:
                setattr(self, key, getattr(operator, key))
                continue
            if value != getattr(operator, key) and (
                harmless is None or not isinstance(value, str) or value not in harmless
            ):
                refused.append(key)
        if refused:
            raise CallerRefusedError(_refusal(refused))
        if COLLECTION_KEY not in allowed:
            self.collection = check_caller_collection(self.collection)
        for key, zero_unlimited in CALLER_CEILINGS.items():
            if key in allowed:
                continue
            value = getattr(self, key)
            if value is None and key != "candidates":  # blank: the operator's
                value = getattr(operator, key)
                setattr(self, key, value)
            if value is not None and not _is_number(value):
                raise CallerRefusedError(
                    f"setting {key!r} must be a number, got {value!r} ({type(value).__name__})"
                )
            if _limit(key, value, zero_unlimited) > _limit(
                key, getattr(operator, key), zero_unlimited
            ):
                raise CallerRefusedError(
                    f"setting {key!r} may be lowered but not raised above the server's "
                    f"{getattr(operator, key)} by a caller of the served graph; the operator can "
                    f"raise it {_where(key)} or let callers set it with "
                    f"{CALLER_SETTINGS_ENV}={key}"
                )
        super().__post_init__()


def _is_number(value: Any) -> bool:
    """Whether ``value`` is a real number (not a bool, not NaN) a limit can be compared with."""
    return isinstance(value, int | float) and not isinstance(value, bool) and not math.isnan(value)


def _limit(key: str, value: float | None, zero_unlimited: bool) -> float:
    """The limit ``value`` sets: its number, a default's for ``candidates``, inf for "none"."""
    if value is None:  # only candidates: the search retrievers' default
        return DEFAULT_CANDIDATES
    return math.inf if zero_unlimited and value == 0 else value


def _where(key: str) -> str:
    """How the operator raises ``key``: in the server's environment, or in its own code."""
    env = Context.__dataclass_fields__[key].metadata.get("env")
    return f"in the server's environment ({env})" if env else "in a Context built in its own code"


def _refusal(keys: list[str]) -> str:
    """Why the caller's ``keys`` are refused, and how the operator sets or opens them."""
    names = " and ".join(", ".join(map(repr, keys)).rsplit(", ", 1))
    setting = "setting" if len(keys) == 1 else "settings"
    are = "is" if len(keys) == 1 else "are"
    paid = [noun for noun in dict.fromkeys(_paid(key) for key in keys) if noun]
    why = f" ({' and '.join(paid)} are paid with the server's keys)" if paid else ""
    if "retriever" in keys:
        why += f"; a caller may choose the retriever {_LOCAL_CHOICES}"
    where = ", ".join(_env_name(key) for key in keys)
    return (
        f"{setting} {names} {are} the server operator's and cannot be set by a caller of "
        f"the served graph{why}; the operator can set {'it' if len(keys) == 1 else 'them'} in "
        f"the server's environment ({where}) or let callers set "
        f"{'it' if len(keys) == 1 else 'them'} with {CALLER_SETTINGS_ENV}={','.join(keys)}"
    )


def _paid(key: str) -> str:
    """What a refused setting would have spent on the operator's keys ('' for none)."""
    if key.endswith("model") and key != "rerank_model":
        return "models"
    return "web searches" if key == "retriever" else ""


def _env_name(key: str) -> str:
    """How the operator sets ``key``: its ``TRIQUA_*`` variable, or the settings in code."""
    env = Context.__dataclass_fields__[key].metadata.get("env")
    return str(env) if env else "a Context built in the server's own code"


def check_ingest_paths(paths: list[str]) -> list[Path]:
    """The caller's ``paths`` resolved, each inside a folder of ``TRIQUA_INGEST_ROOTS``.

    Raises:
        CallerRefusedError: a path outside every root (symbolic links resolved), or no root set.
    """
    roots = [
        Path(root).expanduser().resolve()
        for root in os.environ.get(INGEST_ROOTS_ENV, "").split(os.pathsep)
        if root.strip()
    ]
    resolved = [Path(p).expanduser().resolve() for p in paths]
    for path, given in zip(resolved, paths, strict=True):
        if not any(path.is_relative_to(root) for root in roots):
            where = (
                f"outside the folders in {INGEST_ROOTS_ENV}"
                if roots
                else f"refused: the server sets no {INGEST_ROOTS_ENV}"
            )
            raise CallerRefusedError(
                f"ingest: path {given!r} is {where}; the operator lets callers ingest from a "
                f"folder with {INGEST_ROOTS_ENV}=/path/to/folder"
            )
    return resolved


def operator_collection() -> str:
    """The Chroma collection of the served graphs: ``TRIQUA_COLLECTION``, else the default."""
    return Context().collection or SERVED_COLLECTION


def check_caller_collection(name: object) -> str:
    """The collection a served run searches or writes: the operator's, or ``name`` if allowed.

    A caller of the served graphs reads and writes only the operator's collection
    (:func:`operator_collection`; a blank ``name`` stands for it) unless
    ``TRIQUA_CALLER_SETTINGS`` lists ``collection``: another collection in the operator's
    store may hold what other callers ingested, or what the operator keeps to itself.

    Raises:
        ValueError: ``name`` is not a name Chroma accepts.
        CallerRefusedError: ``name`` is another collection and callers may not choose one.
    """
    operator = operator_collection()
    if name is None or name == "":
        return operator
    chosen = check_collection_name(name)
    if chosen == operator or COLLECTION_KEY in caller_settable():
        return chosen
    raise CallerRefusedError(
        f"collection {chosen!r} is the server operator's choice, not a caller's: the served "
        f"graphs search and write only the server's collection {operator!r}; the operator "
        f"can name it with TRIQUA_COLLECTION or let callers choose one with "
        f"{CALLER_SETTINGS_ENV}={COLLECTION_KEY}"
    )
