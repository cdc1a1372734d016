"""Chroma as a retriever: embedded (``PersistentClient``) by default, a server when given a URL.

Searching and writing go through ``langchain_chroma.Chroma`` with triqua's MiniLM
``Embeddings``. The collection itself is opened (or created) with ``chromadb`` first, bound to
the MiniLM embedding function registered with Chroma as ``"triqua_minilm"``: Chroma persists
that name with the collection, so a persisted collection reopens with it, and a collection
made with Chroma's default embedding function (which would download a model) is refused
rather than searched with vectors from another model. ``langchain_chroma`` alone creates
collections with no embedding function and opens any collection without that check.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from triqua.core.budget.deadline import CallTimeoutError, call_with_deadline
from triqua.models.embeddings import MiniLMEmbeddings
from triqua.schema import Evidence, sha256_text
from triqua.tools.base import (
    CHROMA_MISSING,
    Retriever,
    RetrieverUnavailable,
    SearchBudget,
    SearchResult,
    budget_refused,
    check_k,
)
from triqua.tools.paths import default_chroma_path

try:  # the chroma extra
    import chromadb
    from chromadb.api import ClientAPI
    from chromadb.api.models.Collection import Collection
    from chromadb.config import Settings
    from chromadb.errors import ChromaError, NotFoundError
    from langchain_chroma import Chroma

    from triqua.tools.chroma_embedding import TriquaMiniLMEmbeddingFunction
except ModuleNotFoundError as exc:  # a one-line refusal wherever a retriever's is shown
    raise RetrieverUnavailable(CHROMA_MISSING) from exc

__all__ = [
    "ChromaRetriever",
    "OpenedCollection",
    "collection_snapshot",
    "open_client",
    "open_collection",
    "open_vector_store",
    "parse_server_url",
    "store_location",
]

_DEFAULT_PORTS = {"http": 8000, "https": 443}


def parse_server_url(url: str) -> tuple[str, int, bool]:
    """Split a Chroma server URL into ``(host, port, ssl)``; the port defaults to 8000 (http).

    Raises:
        ValueError: when the URL is not ``http(s)://host[:port]``.
    """
    parts = urlsplit(url if "://" in url else f"http://{url}")
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        raise ValueError(f"chroma: not a server URL (expected http(s)://host[:port]): {url!r}")
    try:
        port = parts.port or _DEFAULT_PORTS[parts.scheme]
    except ValueError:
        raise ValueError(f"chroma: bad port in server URL {url!r}") from None
    return parts.hostname, port, parts.scheme == "https"


def store_location(*, path: str | Path | None = None, url: str | None = None) -> str:
    """Where a client with these options keeps its data (for messages)."""
    if url:
        return url
    return str(Path(path).expanduser() if path else default_chroma_path())


#: Seconds a Chroma server may take to answer any one request (the default search timeout).
SERVER_TIMEOUT = 20.0


def open_client(
    *, path: str | Path | None = None, url: str | None = None, timeout: float | None = None
) -> ClientAPI:
    """Open a Chroma client: the server at ``url``, else the embedded store at ``path``.

    Every request to a server is bounded by ``timeout`` seconds (default
    :data:`SERVER_TIMEOUT`): its heartbeat is asked first with that bound, the client is
    built within it, and the client's HTTP session keeps it for every later request, so a
    server that accepts connections and never answers fails in the bound instead of
    holding the run (Chroma's own client waits for ever).

    Raises:
        RetrieverUnavailable: when the server cannot be reached or does not answer in time,
            or the store cannot be opened.
    """
    settings = Settings(anonymized_telemetry=False)
    if url:
        host, port, ssl = parse_server_url(url)
        seconds = timeout or SERVER_TIMEOUT
        _heartbeat(url, host, port, ssl, seconds)
        try:
            client = call_with_deadline(
                lambda: chromadb.HttpClient(host=host, port=port, ssl=ssl, settings=settings),
                seconds,
                f"chroma server {url}",
            )
        except CallTimeoutError:
            raise RetrieverUnavailable(
                f"chroma: the server at {url} did not answer within {seconds:g} s"
            ) from None
        except (ValueError, ChromaError, OSError, httpx.HTTPError) as exc:
            message = f"chroma: cannot reach the server at {url} ({exc})"
            raise RetrieverUnavailable(message) from None
        session = getattr(getattr(client, "_server", None), "_session", None)
        if isinstance(session, httpx.Client):
            session.timeout = httpx.Timeout(seconds)
        return client
    store = Path(path).expanduser() if path else default_chroma_path()
    try:
        store.mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(path=str(store), settings=settings)
    except (OSError, ValueError, ChromaError) as exc:
        raise RetrieverUnavailable(f"chroma: cannot open the store at {store} ({exc})") from None


@contextmanager
def server_answers(where: str, seconds: float | None) -> Iterator[None]:
    """Turn a server request that timed out or failed into :class:`RetrieverUnavailable`."""
    try:
        yield
    except httpx.TimeoutException:
        bound = seconds or SERVER_TIMEOUT
        raise RetrieverUnavailable(
            f"chroma: the server at {where} did not answer within {bound:g} s"
        ) from None
    except httpx.HTTPError as exc:
        raise RetrieverUnavailable(f"chroma: the server at {where} failed ({exc})") from None


def _heartbeat(url: str, host: str, port: int, ssl: bool, seconds: float) -> None:
    """Ask the server's heartbeat within ``seconds``; a silent or absent server is unavailable."""
    scheme = "https" if ssl else "http"
    try:
        httpx.get(f"{scheme}://{host}:{port}/api/v2/heartbeat", timeout=seconds).raise_for_status()
    except httpx.TimeoutException:
        raise RetrieverUnavailable(
            f"chroma: the server at {url} did not answer within {seconds:g} s"
        ) from None
    except httpx.HTTPError as exc:
        raise RetrieverUnavailable(f"chroma: cannot reach the server at {url} ({exc})") from None


def open_collection(client: ClientAPI, name: str, *, create: bool, where: str) -> Collection:
    """Open (or create) a collection bound to the MiniLM embedding function.

    Raises:
        RetrieverUnavailable: when it does not exist (and ``create`` is False) or was
            embedded with another embedding function.
        ValueError: when ``name`` is not a valid collection name.
    """
    embedder = TriquaMiniLMEmbeddingFunction()
    try:
        if create:
            return client.get_or_create_collection(name, embedding_function=embedder)  # type: ignore[arg-type]
        return client.get_collection(name, embedding_function=embedder)  # type: ignore[arg-type]
    except NotFoundError:
        raise RetrieverUnavailable(
            f"chroma: collection {name!r} not found in {where}; "
            "create it with `triqua ingest PATH... --collection NAME`"
        ) from None
    except ChromaError as exc:
        if "name" in str(exc).lower():
            raise ValueError(f"chroma: invalid collection name {name!r}: {exc}") from None
        raise RetrieverUnavailable(f"chroma: cannot open collection {name!r} ({exc})") from None
    except ValueError as exc:
        raise RetrieverUnavailable(
            f"chroma: collection {name!r} in {where} was not embedded with triqua's MiniLM "
            f"embedder; re-ingest it into a new collection ({exc})"
        ) from None


@dataclass(frozen=True)
class OpenedCollection:
    """An opened collection: LangChain's vector store over it, and the raw collection.

    The raw collection is kept for what the vector store does not offer: the chunk count
    and the distance space the collection was built with.
    """

    store: Chroma
    collection: Collection
    #: The collection's distance space (``cosine``, ``ip`` or ``l2``).
    space: str


def open_vector_store(
    client: ClientAPI, name: str, *, create: bool, where: str
) -> OpenedCollection:
    """Open (or create) a collection as a LangChain ``Chroma`` vector store embedding with MiniLM.

    Raises:
        RetrieverUnavailable: as :func:`open_collection`.
        ValueError: when ``name`` is not a valid collection name.
    """
    collection = open_collection(client, name, create=create, where=where)
    store = Chroma(
        client=client,
        collection_name=name,
        embedding_function=MiniLMEmbeddings(),
        create_collection_if_not_exists=False,
    )
    hnsw = (collection.configuration or {}).get("hnsw") or {}
    return OpenedCollection(store, collection, str(hnsw.get("space") or "cosine"))


#: Chunk ids fetched per page when hashing a collection (ids only: no texts or vectors).
_ID_PAGE = 10_000


def collection_snapshot(collection: Collection) -> tuple[int, str]:
    """The collection's chunk count and a SHA-256 over its sorted chunk ids.

    triqua's ingest derives each chunk id from the chunk's source, offsets and content hash,
    so the id hash changes whenever a chunk's content does; ids are read page by page with
    nothing else included, which keeps this cheap next to reading the texts.
    """
    count = collection.count()
    ids: list[str] = []
    for offset in range(0, count, _ID_PAGE):
        ids.extend(collection.get(limit=_ID_PAGE, offset=offset, include=[])["ids"])
    return len(ids), sha256_text("\n".join(sorted(ids)))


def _similarity(distance: float, space: str) -> float:
    """Similarity of unit vectors from Chroma's distance in ``space`` (cosine, ip or l2)."""
    if space == "l2":
        return 1.0 - distance / 2.0  # squared L2 of unit vectors is 2 - 2·cos
    return 1.0 - distance  # cosine and ip distances are both 1 - cos for unit vectors


def _int_or_none(value: Any) -> int | None:
    """Metadata value as an int, or None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class ChromaRetriever(Retriever):
    """Nearest passages in a Chroma collection, scored by cosine similarity."""

    name = "chroma"
    uses_budget = True
    #: The collection changes under the same name (re-ingest): never serve old results.
    cacheable = False

    def __init__(
        self,
        collection: str,
        *,
        path: str | Path | None = None,
        url: str | None = None,
        timeout: float | None = None,
    ) -> None:
        """Name the collection and where it lives; nothing is opened until first use.

        Args:
            collection: Collection name (made by ``triqua ingest``).
            path: Embedded store directory; defaults to ``default_chroma_path()``.
            url: A Chroma server (``http://host:port``); takes precedence over ``path``.
            timeout: Seconds a server may take per request (default ``SERVER_TIMEOUT``).
        """
        super().__init__()
        if url:
            parse_server_url(url)
        self.collection_name = collection
        self.path = path
        self.url = url
        self.timeout = timeout
        self.where = store_location(path=path, url=url)
        self.revision = f"chroma:{collection}@minilm"
        self._opened: OpenedCollection | None = None
        self._lock = threading.Lock()

    def _open(self) -> OpenedCollection:
        """The collection, opened once (thread-safe)."""
        with self._lock:
            if self._opened is None:
                client = open_client(path=self.path, url=self.url, timeout=self.timeout)
                self._opened = open_vector_store(
                    client, self.collection_name, create=False, where=self.where
                )
            return self._opened

    def snapshot(self) -> tuple[int, str]:
        """The collection's chunk count and id hash (:func:`collection_snapshot`).

        Raises:
            RetrieverUnavailable: when the store or the collection is missing.
        """
        return collection_snapshot(self._open().collection)

    def check_available(self) -> None:
        """Raise :class:`RetrieverUnavailable` when the store or the collection is missing."""
        self._open()

    def describe(self) -> str:
        """Where this retriever looks."""
        return f"the document collection {self.collection_name!r}"

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        """Top-``k`` passages by embedding similarity; failures go in ``error``.

        Each query spends one search of ``budget`` (``max_searches``); a spent budget
        answers without searching.
        """
        check_k(k)
        if budget is not None and not budget.try_spend():
            return budget_refused()
        self._count_call()
        try:
            opened = self._open()
            # Raw distances, scored below: LangChain's relevance functions map l2 distances
            # differently from the unit-vector similarity triqua's thresholds assume.
            with server_answers(self.where, self.timeout):  # a silent server: say its bound
                found = opened.store.similarity_search_with_score(query, k=k)
        except RetrieverUnavailable as exc:
            return SearchResult(error=str(exc))
        except Exception as exc:
            # A server outage or a broken store fails this query only, not the run.
            return SearchResult(error=f"chroma: query failed ({type(exc).__name__}: {exc})")
        evidence = []
        for rank, (document, distance) in enumerate(found, start=1):
            meta = dict(document.metadata or {})
            title = meta.get("title")
            evidence.append(
                Evidence.build(
                    document_id=str(meta.get("document_id") or document.id),
                    text=document.page_content or "",
                    retriever=self.name,
                    source=str(meta["source"]) if meta.get("source") else None,
                    title=title if isinstance(title, str) else None,
                    start=_int_or_none(meta.get("start")),
                    end=_int_or_none(meta.get("end")),
                    score=_similarity(float(distance), opened.space),
                    rank=rank,
                )
            )
        return SearchResult(evidence=evidence)
