"""What the web-search retrievers share (Tavily, Serper, Brave).

:class:`WebSearchRetriever` holds the rules: one unit of the run's search budget per search
that reaches the network (its bounded retries of 429, 5xx and connection failures spend
nothing more, so a run makes at most ``max_searches × max_attempts`` HTTP requests; a search
refused by the budget, or skipped for want of a key, spends nothing), a per-request timeout,
failures returned as recorded errors and logged once, the source policy enforced on the
results even when the API was asked to apply it, and results as ranked
:class:`~triqua.schema.Evidence` with the URL as source. A subclass makes one call
(``_call``, sorting failures into :class:`TransientError` and :class:`FatalError`) and says
where the results are in the answer (``_hits``). :class:`HttpSearchRetriever` makes that
call with ``requests`` for the services that have no client of their own worth using.

The requests are made with ``requests`` (already a dependency) against the documented REST
endpoints rather than with langchain-community's ``GoogleSerperAPIWrapper`` /
``BraveSearchWrapper``: langchain-community is not installed here and is heavy (SQLAlchemy,
aiohttp, numpy, dataclasses-json), and both wrappers call ``requests`` without a timeout
and raise on any HTTP failure with the status only in message text, so a stalled search
would hold a worker thread and 401, 429 and 5xx could not be told apart.

API keys come from the caller or the environment and never appear in a message, a log line
or ``repr``.
"""

from __future__ import annotations

import importlib.metadata
import logging
import os
import threading
import time
from abc import abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, ClassVar
from urllib.parse import urlsplit

import requests

from triqua.core.text.intake import evidence_text
from triqua.schema import Evidence, sha256_text
from triqua.schema.redaction import redact, register_secret
from triqua.tools.base import (
    Retriever,
    RetrieverUnavailable,
    SearchBudget,
    SearchResult,
    budget_refused,
    check_k,
)

__all__ = [
    "FatalError",
    "Hit",
    "HttpSearchRetriever",
    "Request",
    "TransientError",
    "WebSearchRetriever",
    "hits_of",
    "site_operators",
]


class TransientError(Exception):
    """A failure worth retrying (rate limit, server error, connection failure)."""


class FatalError(Exception):
    """A failure that retrying will not fix."""


@dataclass(frozen=True)
class Request:
    """One HTTP search request: method, URL, headers, query parameters and JSON body."""

    method: str
    url: str
    headers: dict[str, str]
    params: dict[str, Any] | None = None
    json: dict[str, Any] | None = None


@dataclass(frozen=True)
class Hit:
    """One result of a search, as the API gave it."""

    url: object
    text: object
    title: object = None
    score: object = None


def hits_of(
    items: object,
    url: str,
    text: str,
    *,
    score: str | None = None,
    clean: Callable[[object], object] | None = None,
) -> list[Hit] | None:
    """The results list of an answer as hits (None when it is not a list).

    Args:
        items: The answer's results (a list of JSON objects when well formed).
        url: Field of a result holding its URL.
        text: Field holding its text (snippet).
        score: Field holding its score, if the API gives one.
        clean: Applied to the text and title (e.g. to remove markup).
    """
    if not isinstance(items, list):
        return None
    tidy = clean or (lambda value: value)
    return [
        Hit(
            item.get(url),
            tidy(item.get(text)),
            tidy(item.get("title")),
            item.get(score) if score else None,
        )
        if isinstance(item, dict)
        else Hit(None, None)
        for item in items
    ]


def site_operators(include: Sequence[str], exclude: Sequence[str]) -> str:
    """Google-style ``site:`` operators for a domain policy ('' for none).

    Included domains are OR-ed (``(site:a OR site:b)``); excluded ones each get ``-site:``.
    """
    parts = []
    if include:
        sites = " OR ".join(f"site:{d}" for d in include)
        parts.append(f"({sites})" if len(include) > 1 else sites)
    parts.extend(f"-site:{d}" for d in exclude)
    return " ".join(parts)


def _host_matches(host: str, domain: str) -> bool:
    """True when ``host`` is ``domain`` or one of its subdomains."""
    domain = domain.lower().strip().removeprefix("*.").split("/")[0]
    return bool(domain) and (host == domain or host.endswith("." + domain))


class WebSearchRetriever(Retriever):
    """A web search API: snippets as evidence, URL as source, bounded retries."""

    uses_budget = True
    #: Environment variables read for the key, in order (the first names it in messages).
    key_envs: ClassVar[tuple[str, ...]] = ()
    #: Most results one request may ask for.
    max_per_request: ClassVar[int] = 20
    #: Name of the service in messages ("Serper", "Brave Search").
    service: ClassVar[str] = ""
    #: The field of a result that holds its text, in messages.
    text_field: ClassVar[str] = "text"

    def __init__(
        self,
        *,
        api_key: str | None = None,
        max_results: int = 5,
        include_domains: Sequence[str] = (),
        exclude_domains: Sequence[str] = (),
        as_of: date | None = None,
        timeout: float = 20.0,
        max_attempts: int = 3,
        backoff_base: float = 1.0,
    ) -> None:
        """Configure the search; nothing is sent until the first ``search``.

        Args:
            api_key: The key; defaults to the first of ``key_envs`` that is set.
            max_results: Most results per search (also capped by each call's ``k``).
            include_domains: Only these domains (and subdomains) may serve as evidence.
            exclude_domains: These domains (and subdomains) never serve as evidence.
            as_of: Keep to pages published on or before this date, where the API can.
            timeout: Seconds per HTTP request.
            max_attempts: Tries per search for retryable failures (429, 5xx, no connection).
            backoff_base: First retry delay in seconds; doubles on each retry.
        """
        super().__init__()
        if not 1 <= max_results <= self.max_per_request:
            raise ValueError(f"max_results must be in 1..{self.max_per_request}, got {max_results}")
        if max_attempts < 1:
            raise ValueError(f"max_attempts must be >= 1, got {max_attempts}")
        if backoff_base < 0:
            raise ValueError(f"backoff_base must be >= 0, got {backoff_base}")
        self._api_key = api_key or next(
            (os.environ[name] for name in self.key_envs if os.environ.get(name)), None
        )
        register_secret(self._api_key)
        self.max_results = max_results
        self.include_domains = [d for d in include_domains if d]
        self.exclude_domains = [d for d in exclude_domains if d]
        self.as_of = as_of
        self.timeout = timeout
        self.max_attempts = max_attempts
        self.backoff_base = backoff_base
        self._warned: set[str] = set()  # failure messages already logged
        # Logged under the subclass's module (``triqua.tools.tavily``...), as it always was.
        self._logger = logging.getLogger(type(self).__module__)

    def __repr__(self) -> str:
        key = "set" if self._api_key else "missing"
        return f"{type(self).__name__}(revision={self.revision!r}, api_key={key})"

    @property
    def _no_key(self) -> str:
        names = self.key_envs[0] + "".join(f" (or {name})" for name in self.key_envs[1:])
        return f"{self.name}: no API key; set the {names} environment variable"

    def check_available(self) -> None:
        """Raise :class:`RetrieverUnavailable` when no API key is configured."""
        if not self._api_key:
            raise RetrieverUnavailable(self._no_key)

    def describe(self) -> str:
        """Where this retriever looks."""
        return f"the web ({self.service} search)"

    @abstractmethod
    def _call(self, query: str, k: int) -> dict[str, Any]:
        """One search of at most ``k`` results: the JSON answer.

        Raises:
            TransientError: for a failure worth retrying.
            FatalError: for any other failure.
        """

    @abstractmethod
    def _hits(self, raw: dict[str, Any]) -> list[Hit] | None:
        """The results in a response (None when the response has no results list)."""

    def _redact(self, text: str) -> str:
        """Remove the API key from text that came from elsewhere (e.g. a server message)."""
        return redact(text.replace(self._api_key, "***") if self._api_key else text)

    def _fetch(self, query: str, k: int) -> dict[str, Any]:
        """Search with bounded exponential back-off on retryable failures."""
        for attempt in range(1, self.max_attempts + 1):
            try:
                return self._call(query, k)
            except TransientError as exc:
                if attempt == self.max_attempts:
                    tries = "try" if attempt == 1 else "tries"
                    raise FatalError(f"{exc}; gave up after {attempt} {tries}") from None
                delay = self.backoff_base * 2 ** (attempt - 1)
                self._logger.info("%s: %s; retry %d in %.1f s", self.name, exc, attempt, delay)
                time.sleep(delay)
        raise AssertionError("unreachable: the loop returns or raises")

    def _allowed(self, url: str) -> bool:
        """Apply the source policy to a result URL (the API's own filter is not trusted alone)."""
        host = (urlsplit(url).hostname or "").lower()
        if not host:
            return False
        if any(_host_matches(host, d) for d in self.exclude_domains):
            return False
        return not self.include_domains or any(_host_matches(host, d) for d in self.include_domains)

    def _to_evidence(self, raw: dict[str, Any], k: int) -> SearchResult:
        """Turn a response into ranked evidence."""
        hits = self._hits(raw)
        if hits is None:
            return SearchResult(error=f"{self.name}: malformed response (no results list)")
        evidence: list[Evidence] = []
        malformed = 0
        for hit in hits:
            url, text = hit.url, hit.text
            if not isinstance(url, str) or not isinstance(text, str) or not text.strip():
                malformed += 1
                continue
            if not self._allowed(url) or len(evidence) >= k:
                continue
            evidence.append(
                Evidence.build(
                    document_id="web-" + sha256_text(url)[:16],
                    text=evidence_text(text),
                    retriever=self.name,
                    source=url,
                    title=hit.title if isinstance(hit.title, str) else None,
                    score=float(hit.score) if isinstance(hit.score, int | float) else None,
                    rank=len(evidence) + 1,
                )
            )
        error = None
        if malformed and not evidence:
            error = (
                f"{self.name}: malformed response ({malformed} result(s) without url or "
                f"{self.text_field})"
            )
        return SearchResult(evidence=evidence, error=error)

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        """Search the web; failures are returned in ``error``, never raised."""
        check_k(k)
        if not self._api_key:
            return SearchResult(searched=False, error=self._no_key)
        if budget is not None and not budget.try_spend():
            return budget_refused()
        self._count_call()
        try:
            raw = self._fetch(query, k)
        except FatalError as exc:
            message = self._redact(f"{self.name}: {exc}")
            # Said once per retriever: an outage fails every fact's search the same way, and
            # each fact's verdict records it anyway.
            if message not in self._warned:
                self._warned.add(message)
                self._logger.warning("%s", message)
            return SearchResult(error=message)
        return self._to_evidence(raw, k)


class HttpSearchRetriever(WebSearchRetriever):
    """A web search API called with ``requests``: the subclass builds the request."""

    #: The API's own version label, part of ``revision``.
    api_label: ClassVar[str] = ""

    def __init__(self, *, endpoint: str | None = None, **options: Any) -> None:
        """Configure the search (``options``: :class:`WebSearchRetriever`'s).

        Args:
            endpoint: Another URL for the API (a proxy or a test server).
            **options: ``api_key``, ``max_results``, domains, ``as_of``, ``timeout``...
        """
        super().__init__(**options)
        self.endpoint = endpoint
        self._session: requests.Session | None = None
        self._session_lock = threading.Lock()
        version = importlib.metadata.version("requests")
        as_of_part = f" as_of={self.as_of.isoformat()}" if self.as_of else ""
        self.revision = f"{self.name}/{self.api_label} requests={version}{as_of_part}"

    @abstractmethod
    def _request(self, query: str, count: int, api_key: str) -> Request:
        """The HTTP request for one search of ``count`` results."""

    def _query(self, query: str) -> str:
        """The query with the domain policy as ``site:`` operators appended."""
        sites = site_operators(self.include_domains, self.exclude_domains)
        return f"{query} {sites}" if sites else query

    def _get_session(self) -> requests.Session:
        """The HTTP session, made on first use (it pools connections)."""
        with self._session_lock:
            if self._session is None:
                self._session = requests.Session()
            return self._session

    def _call(self, query: str, k: int) -> dict[str, Any]:
        """One HTTP search; sorts failures into retryable and not."""
        assert self._api_key is not None  # search() returns before this without a key
        req = self._request(query, min(k, self.max_results), self._api_key)
        key_env = self.key_envs[0]
        try:
            response = self._get_session().request(
                req.method,
                req.url,
                headers=req.headers,
                params=req.params,
                json=req.json,
                timeout=self.timeout,
            )
        except requests.Timeout:
            raise FatalError(f"timed out after {self.timeout:g} s") from None
        except requests.ConnectionError:
            raise TransientError(f"cannot connect to the {self.service} API") from None
        except requests.RequestException as exc:
            raise FatalError(f"request failed ({type(exc).__name__})") from None
        status = response.status_code
        if status in (401, 403):
            raise FatalError(
                f"HTTP {status} — the API key is wrong or not allowed this request ({key_env})"
            )
        if status == 429:
            raise TransientError("HTTP 429 — rate or usage limit reached")
        if status >= 500:
            raise TransientError(f"HTTP {status} — server error")
        if status in (400, 422):
            raise FatalError(f"HTTP {status} — bad request")
        if status != 200:
            raise FatalError(f"HTTP {status} — unexpected response")
        try:
            raw = response.json()
        except ValueError:
            raise FatalError("malformed JSON in the response") from None
        if not isinstance(raw, dict):
            raise FatalError("malformed response (not a JSON object)")
        return raw
