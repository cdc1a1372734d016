"""Google results through Serper (serper.dev) as a retriever: ``--retriever serper``.

``POST https://google.serper.dev/search`` with the key in ``X-API-KEY`` and a JSON body; the
organic results' ``link`` is the source and ``snippet`` the text. The domain policy goes
into the query as ``site:`` / ``-site:`` operators, the as-of date as Google's custom date
range (``tbs=cdr:1,cd_min:…,cd_max:M/D/YYYY``); results are filtered by domain again here.
Plain ``requests``, not langchain-community's wrapper: see :mod:`triqua.tools.web_http`.
"""

from __future__ import annotations

from typing import Any

from triqua.tools.web_http import Hit, HttpSearchRetriever, Request, hits_of

__all__ = ["SERPER_KEY_ENV", "SERPER_URL", "SerperRetriever"]

SERPER_KEY_ENV = "SERPER_API_KEY"
SERPER_URL = "https://google.serper.dev/search"


class SerperRetriever(HttpSearchRetriever):
    """Web search with Google through Serper: snippets as evidence, URL as source."""

    name = "serper"
    key_envs = (SERPER_KEY_ENV,)
    max_per_request = 100
    service = "Serper"
    text_field = "snippet"
    api_label = "search"

    def _request(self, query: str, count: int, api_key: str) -> Request:
        # Google pages results by ten; fewer are cut here.
        body: dict[str, Any] = {"q": self._query(query), "num": min(100, -(-count // 10) * 10)}
        if self.as_of:
            end = self.as_of
            body["tbs"] = f"cdr:1,cd_min:1/1/1970,cd_max:{end.month}/{end.day}/{end.year}"
        return Request(
            "POST",
            self.endpoint or SERPER_URL,
            headers={"X-API-KEY": api_key, "Content-Type": "application/json"},
            json=body,
        )

    def _hits(self, raw: dict[str, Any]) -> list[Hit] | None:
        # Serper leaves "organic" out when nothing was found.
        organic = raw.get("organic", [] if "searchParameters" in raw else None)
        return hits_of(organic, "link", "snippet")
