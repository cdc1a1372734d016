"""Tavily web search as a retriever, through the official ``tavily-python`` client.

Budget: one unit of the run's search budget per search that reaches the network; the
bounded retries of that same search (429, 5xx, connection failures) spend nothing more, so
a run makes at most ``max_searches × max_attempts`` HTTP requests. A search refused by the
budget, or skipped for want of a key, spends nothing.

The API key comes from the caller or ``TAVILY_API_KEY`` and never appears in a message,
a log line or ``repr``.

Why the raw ``tavily-python`` client and not ``langchain_tavily.TavilySearch``: TavilySearch
(langchain-tavily 0.2) does not use tavily-python. It posts with ``requests.post`` and no
timeout, so a stalled connection holds a worker thread for good (the per-search deadline
of ``tools/bounded.py`` can only abandon it); it turns every HTTP failure into
``ValueError("Error <status>: ...")`` and then swallows all exceptions into
``{"error": exc}``, so 401/403, 429 and 5xx could only be told apart by parsing message text;
an error body that is not JSON fails while reading the error; and it raises
``ToolException`` for an empty result list, which is an ordinary answer here. The client
below has a per-request timeout and one exception class per failure, which is what the
budget, retry and error-recording rules need.
"""

from __future__ import annotations

import importlib.metadata
import logging
import os
import threading
import time
from collections.abc import Sequence
from datetime import date
from typing import Any, Literal
from urllib.parse import urlsplit

import requests
from tavily import TavilyClient
from tavily.errors import (
    BadRequestError,
    ForbiddenError,
    InvalidAPIKeyError,
    UsageLimitExceededError,
)
from tavily.errors import TimeoutError as TavilyTimeout

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

__all__ = ["TAVILY_KEY_ENV", "TavilyRetriever"]

logger = logging.getLogger(__name__)

TAVILY_KEY_ENV = "TAVILY_API_KEY"
#: Tavily returns at most 20 results per search.
TAVILY_MAX_RESULTS = 20

SearchDepth = Literal["basic", "advanced", "fast", "ultra-fast"]
TimeRange = Literal["day", "week", "month", "year"]

_NO_KEY = f"tavily: no API key; set the {TAVILY_KEY_ENV} environment variable"


class _TransientError(Exception):
    """A failure worth retrying (rate limit, server error, connection failure)."""


class _FatalError(Exception):
    """A failure that retrying will not fix."""


def _host_matches(host: str, domain: str) -> bool:
    """True when ``host`` is ``domain`` or one of its subdomains."""
    domain = domain.lower().strip().removeprefix("*.").split("/")[0]
    return bool(domain) and (host == domain or host.endswith("." + domain))


class TavilyRetriever(Retriever):
    """Web search with Tavily: snippets as evidence, URL as source, bounded retries."""

    name = "tavily"
    uses_budget = True

    def __init__(
        self,
        *,
        api_key: str | None = None,
        max_results: int = 5,
        search_depth: SearchDepth = "basic",
        topic: Literal["general", "news", "finance"] | None = None,
        include_domains: Sequence[str] = (),
        exclude_domains: Sequence[str] = (),
        as_of: date | None = None,
        time_range: TimeRange | None = None,
        timeout: float = 20.0,
        max_attempts: int = 3,
        backoff_base: float = 1.0,
        api_base_url: str | None = None,
    ) -> None:
        """Configure the search; nothing is sent until the first ``search``.

        Args:
            api_key: Tavily key; defaults to ``$TAVILY_API_KEY``.
            max_results: Most results per search (also capped by each call's ``k``).
            search_depth: Tavily search depth.
            topic: Tavily topic, or None for Tavily's default.
            include_domains: Only these domains (and subdomains) may serve as evidence.
            exclude_domains: These domains (and subdomains) never serve as evidence.
            as_of: Keep to pages published on or before this date (Tavily ``end_date``).
            time_range: Tavily's relative recency window.
            timeout: Seconds per HTTP request.
            max_attempts: Tries per search for retryable failures (429, 5xx, no connection).
            backoff_base: First retry delay in seconds; doubles on each retry.
            api_base_url: Another endpoint for the Tavily API (a proxy or a test server).
        """
        super().__init__()
        if not 1 <= max_results <= TAVILY_MAX_RESULTS:
            raise ValueError(f"max_results must be in 1..{TAVILY_MAX_RESULTS}, got {max_results}")
        if max_attempts < 1:
            raise ValueError(f"max_attempts must be >= 1, got {max_attempts}")
        if backoff_base < 0:
            raise ValueError(f"backoff_base must be >= 0, got {backoff_base}")
        self._api_key = api_key or os.environ.get(TAVILY_KEY_ENV) or None
        register_secret(self._api_key)
        self.max_results = max_results
        self.search_depth = search_depth
        self.topic = topic
        self.include_domains = [d for d in include_domains if d]
        self.exclude_domains = [d for d in exclude_domains if d]
        self.as_of = as_of
        self._warned: set[str] = set()  # failure messages already logged
        self.time_range = time_range
        self.timeout = timeout
        self.max_attempts = max_attempts
        self.backoff_base = backoff_base
        self.api_base_url = api_base_url
        self._client: TavilyClient | None = None
        self._client_lock = threading.Lock()
        version = importlib.metadata.version("tavily-python")
        as_of_part = f" end_date={as_of.isoformat()}" if as_of else ""
        self.revision = f"tavily/{version} depth={search_depth}{as_of_part}"

    def __repr__(self) -> str:
        key = "set" if self._api_key else "missing"
        return f"TavilyRetriever(revision={self.revision!r}, api_key={key})"

    def check_available(self) -> None:
        """Raise :class:`RetrieverUnavailable` when no API key is configured."""
        if not self._api_key:
            raise RetrieverUnavailable(_NO_KEY)

    def describe(self) -> str:
        """Where this retriever looks."""
        return "the web (Tavily search)"

    def _get_client(self) -> TavilyClient:
        """The client, made on first use (it holds a pooled HTTP session)."""
        with self._client_lock:
            if self._client is None:
                self._client = TavilyClient(
                    api_key=self._api_key, api_base_url=self.api_base_url, client_source="triqua"
                )
            return self._client

    def _params(self, k: int) -> dict[str, Any]:
        """Request parameters for one search of ``k`` results."""
        params: dict[str, Any] = {
            "max_results": min(k, self.max_results),
            "search_depth": self.search_depth,
            "include_answer": False,
            "include_raw_content": False,
            "timeout": self.timeout,
        }
        if self.topic:
            params["topic"] = self.topic
        if self.include_domains:
            params["include_domains"] = self.include_domains
        if self.exclude_domains:
            params["exclude_domains"] = self.exclude_domains
        if self.as_of:
            params["end_date"] = self.as_of.isoformat()
        if self.time_range:
            params["time_range"] = self.time_range
        return params

    def _redact(self, text: str) -> str:
        """Remove the API key from text that came from elsewhere (e.g. a server message)."""
        return redact(text.replace(self._api_key, "***") if self._api_key else text)

    def _call(self, query: str, k: int) -> dict[str, Any]:
        """One HTTP search; sorts failures into retryable and not."""
        try:
            raw = self._get_client().search(query, **self._params(k))
        except InvalidAPIKeyError:
            raise _FatalError(
                f"HTTP 401 — the API key is wrong or missing ({TAVILY_KEY_ENV})"
            ) from None
        except ForbiddenError:
            raise _FatalError(
                f"HTTP 403 — the API key is wrong or not allowed this request ({TAVILY_KEY_ENV})"
            ) from None
        except BadRequestError as exc:
            raise _FatalError(f"HTTP 400 — bad request: {exc}".rstrip(": ")) from None
        except UsageLimitExceededError:
            raise _TransientError("HTTP 429 — rate or usage limit reached") from None
        except TavilyTimeout:
            raise _FatalError(f"timed out after {self.timeout:g} s") from None
        except requests.JSONDecodeError:
            raise _FatalError("malformed JSON in the response") from None
        except requests.HTTPError as exc:
            status = exc.response.status_code if exc.response is not None else 0
            if status >= 500:
                raise _TransientError(f"HTTP {status} — server error") from None
            raise _FatalError(f"HTTP {status} — unexpected response") from None
        except requests.ConnectionError:
            raise _TransientError("cannot connect to the Tavily API") from None
        except requests.RequestException as exc:
            raise _FatalError(f"request failed ({type(exc).__name__})") from None
        except (AttributeError, TypeError):
            # The client assumes a JSON object; anything else breaks inside it.
            raise _FatalError("malformed response (not a JSON object)") from None
        except Exception as exc:
            # A run must survive any failure of one search; the type names what went wrong.
            raise _FatalError(f"unexpected error ({type(exc).__name__})") from None
        return raw

    def _fetch(self, query: str, k: int) -> dict[str, Any]:
        """Search with bounded exponential back-off on retryable failures."""
        for attempt in range(1, self.max_attempts + 1):
            try:
                return self._call(query, k)
            except _TransientError as exc:
                if attempt == self.max_attempts:
                    tries = "try" if attempt == 1 else "tries"
                    raise _FatalError(f"{exc}; gave up after {attempt} {tries}") from None
                delay = self.backoff_base * 2 ** (attempt - 1)
                logger.info("tavily: %s; retry %d in %.1f s", exc, attempt, delay)
                time.sleep(delay)
        raise AssertionError("unreachable: the loop returns or raises")

    def _allowed(self, url: str) -> bool:
        """Apply the source policy to a result URL (Tavily's own filter is not trusted alone)."""
        host = (urlsplit(url).hostname or "").lower()
        if not host:
            return False
        if any(_host_matches(host, d) for d in self.exclude_domains):
            return False
        return not self.include_domains or any(_host_matches(host, d) for d in self.include_domains)

    def _to_evidence(self, raw: dict[str, Any], k: int) -> SearchResult:
        """Turn Tavily's response into ranked evidence."""
        results = raw.get("results")
        if not isinstance(results, list):
            return SearchResult(error="tavily: malformed response (no results list)")
        evidence: list[Evidence] = []
        malformed = 0
        for item in results:
            url = item.get("url") if isinstance(item, dict) else None
            content = item.get("content") if isinstance(item, dict) else None
            if not isinstance(url, str) or not isinstance(content, str) or not content.strip():
                malformed += 1
                continue
            if not self._allowed(url) or len(evidence) >= k:
                continue
            score = item.get("score")
            title = item.get("title")
            evidence.append(
                Evidence.build(
                    document_id="web-" + sha256_text(url)[:16],
                    text=content,
                    retriever=self.name,
                    source=url,
                    title=title if isinstance(title, str) else None,
                    score=float(score) if isinstance(score, int | float) else None,
                    rank=len(evidence) + 1,
                )
            )
        error = None
        if malformed and not evidence:
            error = f"tavily: malformed response ({malformed} result(s) without url or content)"
        return SearchResult(evidence=evidence, error=error)

    def search(self, query: str, k: int, *, budget: SearchBudget | None = None) -> SearchResult:
        """Search the web; failures are returned in ``error``, never raised."""
        check_k(k)
        if not self._api_key:
            return SearchResult(searched=False, error=_NO_KEY)
        if budget is not None and not budget.try_spend():
            return budget_refused()
        self._count_call()
        try:
            raw = self._fetch(query, k)
        except _FatalError as exc:
            message = self._redact(f"tavily: {exc}")
            # Said once per retriever: an outage fails every fact's search the same way, and
            # each fact's verdict records it anyway.
            if message not in self._warned:
                self._warned.add(message)
                logger.warning("%s", message)
            return SearchResult(error=message)
        return self._to_evidence(raw, k)
