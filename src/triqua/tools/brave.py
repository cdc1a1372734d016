"""Brave Search as a retriever: ``--retriever brave``.

``GET https://api.search.brave.com/res/v1/web/search`` with the key in
``X-Subscription-Token``; the web results' ``url`` is the source and ``description`` (its
``<strong>`` markup removed) the text. The domain policy goes into the query as ``site:`` /
``-site:`` operators, the as-of date as ``freshness=1970-01-01to<as_of>``; results are
filtered by domain again here. Plain ``requests``, not langchain-community's wrapper: see
:mod:`triqua.tools.web_http`.
"""

from __future__ import annotations

import html
import re
from typing import Any

from triqua.tools.web_http import Hit, HttpSearchRetriever, Request, hits_of

__all__ = ["BRAVE_KEY_ENVS", "BRAVE_URL", "BraveRetriever"]

BRAVE_KEY_ENVS = ("BRAVE_API_KEY", "BRAVE_SEARCH_API_KEY")
BRAVE_URL = "https://api.search.brave.com/res/v1/web/search"

_TAG = re.compile(r"<[^>]{0,200}>")


def _plain(text: object) -> object:
    """Brave's HTML-marked snippet as plain text (anything else as it is)."""
    return html.unescape(_TAG.sub("", text)) if isinstance(text, str) else text


class BraveRetriever(HttpSearchRetriever):
    """Web search with Brave: descriptions as evidence, URL as source."""

    name = "brave"
    key_envs = BRAVE_KEY_ENVS
    max_per_request = 20
    service = "Brave Search"
    text_field = "description"
    api_label = "v1"

    def _request(self, query: str, count: int, api_key: str) -> Request:
        params: dict[str, Any] = {"q": self._query(query), "count": count}
        if self.as_of:
            params["freshness"] = f"1970-01-01to{self.as_of.isoformat()}"
        return Request(
            "GET",
            self.endpoint or BRAVE_URL,
            headers={"X-Subscription-Token": api_key, "Accept": "application/json"},
            params=params,
        )

    def _hits(self, raw: dict[str, Any]) -> list[Hit] | None:
        web = raw.get("web")
        if web is None and raw.get("type") == "search":
            return []  # Brave leaves "web" out when nothing was found
        results = web.get("results") if isinstance(web, dict) else None
        return hits_of(results, "url", "description", clean=_plain)
