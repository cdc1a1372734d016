"""Tavily web search as a retriever, through the official ``tavily-python`` client.

The budget, retry, error and source-policy rules are those of every web search
(:class:`~triqua.tools.web_http.WebSearchRetriever`). The API key comes from the caller or
``TAVILY_API_KEY`` and never appears in a message, a log line or ``repr``.

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
import threading
from collections.abc import Sequence
from datetime import date
from typing import Any, Literal

import requests
from tavily import TavilyClient
from tavily.errors import (
    BadRequestError,
    ForbiddenError,
    InvalidAPIKeyError,
    UsageLimitExceededError,
)
from tavily.errors import TimeoutError as TavilyTimeout

from triqua.tools.web_http import FatalError, Hit, TransientError, WebSearchRetriever, hits_of

__all__ = ["TAVILY_KEY_ENV", "TavilyRetriever"]

TAVILY_KEY_ENV = "TAVILY_API_KEY"
#: Tavily returns at most 20 results per search.
TAVILY_MAX_RESULTS = 20

SearchDepth = Literal["basic", "advanced", "fast", "ultra-fast"]
TimeRange = Literal["day", "week", "month", "year"]


class TavilyRetriever(WebSearchRetriever):
    """Web search with Tavily: snippets as evidence, URL as source, bounded retries."""

    name = "tavily"
    key_envs = (TAVILY_KEY_ENV,)
    max_per_request = TAVILY_MAX_RESULTS
    service = "Tavily"
    text_field = "content"

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
        super().__init__(
            api_key=api_key,
            max_results=max_results,
            include_domains=include_domains,
            exclude_domains=exclude_domains,
            as_of=as_of,
            timeout=timeout,
            max_attempts=max_attempts,
            backoff_base=backoff_base,
        )
        self.search_depth = search_depth
        self.topic = topic
        self.time_range = time_range
        self.api_base_url = api_base_url
        self._client: TavilyClient | None = None
        self._client_lock = threading.Lock()
        version = importlib.metadata.version("tavily-python")
        as_of_part = f" end_date={as_of.isoformat()}" if as_of else ""
        self.revision = f"tavily/{version} depth={search_depth}{as_of_part}"

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

    def _call(self, query: str, k: int) -> dict[str, Any]:
        """One HTTP search; sorts failures into retryable and not."""
        try:
            raw = self._get_client().search(query, **self._params(k))
        except InvalidAPIKeyError:
            raise FatalError(
                f"HTTP 401 — the API key is wrong or missing ({TAVILY_KEY_ENV})"
            ) from None
        except ForbiddenError:
            raise FatalError(
                f"HTTP 403 — the API key is wrong or not allowed this request ({TAVILY_KEY_ENV})"
            ) from None
        except BadRequestError as exc:
            raise FatalError(f"HTTP 400 — bad request: {exc}".rstrip(": ")) from None
        except UsageLimitExceededError:
            raise TransientError("HTTP 429 — rate or usage limit reached") from None
        except TavilyTimeout:
            raise FatalError(f"timed out after {self.timeout:g} s") from None
        except requests.JSONDecodeError:
            raise FatalError("malformed JSON in the response") from None
        except requests.HTTPError as exc:
            status = exc.response.status_code if exc.response is not None else 0
            if status >= 500:
                raise TransientError(f"HTTP {status} — server error") from None
            raise FatalError(f"HTTP {status} — unexpected response") from None
        except requests.ConnectionError:
            raise TransientError("cannot connect to the Tavily API") from None
        except requests.RequestException as exc:
            raise FatalError(f"request failed ({type(exc).__name__})") from None
        except (AttributeError, TypeError):
            # The client assumes a JSON object; anything else breaks inside it.
            raise FatalError("malformed response (not a JSON object)") from None
        except Exception as exc:
            # A run must survive any failure of one search; the type names what went wrong.
            raise FatalError(f"unexpected error ({type(exc).__name__})") from None
        return raw

    def _hits(self, raw: dict[str, Any]) -> list[Hit] | None:
        """Tavily's results: ``url``, ``content``, ``title`` and ``score``."""
        return hits_of(raw.get("results"), "url", "content", score="score")
