"""Tavily retriever: the real ``tavily-python`` client against a stubbed HTTP layer (responses)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from datetime import date

import pytest
import requests
import responses

from triqua.tools import RetrieverUnavailable, SearchBudget
from triqua.tools.tavily import TavilyRetriever

URL = "https://api.tavily.com/search"
KEY = "tvly-SECRET-test-key-0123456789"


def _response(*results: dict[str, object]) -> dict[str, object]:
    """A /search response in the shape Tavily returns."""
    return {
        "query": "q",
        "follow_up_questions": None,
        "answer": None,
        "images": [],
        "results": list(results),
        "response_time": 0.42,
        "request_id": "req-123",
    }


def _result(url: str, content: str, score: float = 0.9, title: str = "T") -> dict[str, object]:
    return {"title": title, "url": url, "content": content, "score": score, "raw_content": None}


OK = _response(
    _result("https://en.wikipedia.org/wiki/Eiffel_Tower", "Completed in 1889.", 0.93, "Eiffel"),
    _result("https://www.britannica.com/topic/Eiffel-Tower", "Built for the 1889 fair.", 0.81),
    _result("https://example.com/x", "Third result.", 0.5),
)


@pytest.fixture
def web() -> TavilyRetriever:
    return TavilyRetriever(api_key=KEY, backoff_base=0.0, max_attempts=3, timeout=5)


@pytest.fixture
def http() -> Iterator[responses.RequestsMock]:
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        yield mock


def _body(http: responses.RequestsMock, i: int = 0) -> dict[str, object]:
    body = http.calls[i].request.body
    assert isinstance(body, str | bytes)
    return dict(json.loads(body))


def test_results_become_ranked_evidence(web: TavilyRetriever, http: responses.RequestsMock) -> None:
    http.post(URL, json=OK)
    result = web.search("Eiffel Tower completed", k=2)
    assert result.error is None and result.searched
    assert [e.source for e in result.evidence] == [
        "https://en.wikipedia.org/wiki/Eiffel_Tower",
        "https://www.britannica.com/topic/Eiffel-Tower",
    ]
    first = result.evidence[0]
    assert (first.title, first.text, first.score, first.rank) == (
        "Eiffel",
        "Completed in 1889.",
        0.93,
        1,
    )
    assert first.retriever == "tavily" and first.retrieved_at is not None
    assert first.document_id.startswith("web-") and len(first.content_hash) == 64
    request = http.calls[0].request
    assert request.headers["Authorization"] == f"Bearer {KEY}"
    body = _body(http)
    assert body["query"] == "Eiffel Tower completed"
    assert body["max_results"] == 2 and body["search_depth"] == "basic"


def test_domain_options_and_as_of_go_into_the_request(http: responses.RequestsMock) -> None:
    http.post(URL, json=OK)
    web = TavilyRetriever(
        api_key=KEY,
        include_domains=["wikipedia.org", "britannica.com"],
        exclude_domains=["example.com"],
        as_of=date(2020, 5, 1),
        search_depth="advanced",
        max_results=3,
    )
    web.search("q", k=10)
    body = _body(http)
    assert body["include_domains"] == ["wikipedia.org", "britannica.com"]
    assert body["exclude_domains"] == ["example.com"]
    assert body["end_date"] == "2020-05-01"
    assert body["search_depth"] == "advanced" and body["max_results"] == 3
    assert "end_date=2020-05-01" in web.revision


def test_source_policy_is_enforced_on_results_too(http: responses.RequestsMock) -> None:
    http.post(URL, json=OK)
    web = TavilyRetriever(api_key=KEY, include_domains=["wikipedia.org", "example.com"])
    web.exclude_domains = ["example.com"]
    result = web.search("q", k=5)
    assert [e.source for e in result.evidence] == ["https://en.wikipedia.org/wiki/Eiffel_Tower"]
    assert [e.rank for e in result.evidence] == [1]


@pytest.mark.parametrize(("status", "detail"), [(401, "Unauthorized"), (403, "Forbidden")])
def test_bad_key_is_reported_without_retry(
    web: TavilyRetriever, http: responses.RequestsMock, status: int, detail: str
) -> None:
    http.post(URL, status=status, json={"detail": {"error": detail}})
    result = web.search("q", k=3)
    assert result.evidence == [] and result.searched
    assert result.error is not None and f"HTTP {status}" in result.error
    assert "key is wrong" in result.error and "TAVILY_API_KEY" in result.error
    assert len(http.calls) == 1


def test_rate_limit_is_retried_with_backoff_then_recorded(
    http: responses.RequestsMock, monkeypatch: pytest.MonkeyPatch
) -> None:
    delays: list[float] = []
    monkeypatch.setattr("triqua.tools.web_http.time.sleep", delays.append)
    web = TavilyRetriever(api_key=KEY, backoff_base=0.5, max_attempts=3)
    http.post(URL, status=429, json={"detail": {"error": "Too many requests"}})
    budget = SearchBudget(5)
    result = web.search("q", k=3, budget=budget)
    assert result.error == "tavily: HTTP 429 — rate or usage limit reached; gave up after 3 tries"
    assert len(http.calls) == 3 and delays == [0.5, 1.0]
    assert budget.used == 1


def test_rate_limit_then_success_returns_evidence(
    web: TavilyRetriever, http: responses.RequestsMock
) -> None:
    http.post(URL, status=429, json={"detail": {"error": "slow down"}})
    http.post(URL, json=OK)
    result = web.search("q", k=1)
    assert result.error is None and len(result.evidence) == 1
    assert len(http.calls) == 2


@pytest.mark.parametrize("status", [500, 502, 503])
def test_server_errors_are_retried_then_recorded(
    web: TavilyRetriever, http: responses.RequestsMock, status: int
) -> None:
    http.post(URL, status=status, body="upstream broke")
    result = web.search("q", k=3)
    assert result.error == f"tavily: HTTP {status} — server error; gave up after 3 tries"
    assert len(http.calls) == 3


def test_timeout_is_recorded_without_retry(
    web: TavilyRetriever, http: responses.RequestsMock
) -> None:
    http.post(URL, body=requests.exceptions.ReadTimeout("read timed out"))
    result = web.search("q", k=3)
    assert result.error == "tavily: timed out after 5 s"
    assert len(http.calls) == 1


def test_outage_is_retried_then_recorded(
    web: TavilyRetriever, http: responses.RequestsMock
) -> None:
    http.post(URL, body=requests.exceptions.ConnectionError("connection refused"))
    result = web.search("q", k=3)
    assert result.error is not None and "cannot connect" in result.error
    assert "gave up after 3 tries" in result.error and len(http.calls) == 3


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("<html>not json</html>", "malformed JSON"),
        ("[1, 2, 3]", "not a JSON object"),
        ('{"results": "nope"}', "no results list"),
        ('{"results": [{"title": "no url"}, 7]}', "2 result(s) without url or content"),
    ],
)
def test_malformed_responses_are_recorded(
    web: TavilyRetriever, http: responses.RequestsMock, body: str, message: str
) -> None:
    http.post(URL, body=body, status=200, content_type="application/json")
    result = web.search("q", k=3)
    assert result.evidence == []
    assert result.error is not None and message in result.error
    assert len(http.calls) == 1


def test_bad_request_is_not_retried(web: TavilyRetriever, http: responses.RequestsMock) -> None:
    http.post(URL, status=400, json={"detail": {"error": "Query is too long"}})
    result = web.search("q", k=3)
    assert result.error == "tavily: HTTP 400 — bad request: Query is too long"
    assert len(http.calls) == 1


def test_budget_is_spent_once_per_search_and_refuses_when_empty(
    web: TavilyRetriever, http: responses.RequestsMock
) -> None:
    http.post(URL, json=OK)
    budget = SearchBudget(2)
    assert web.search("a", k=1, budget=budget).searched
    assert web.search("b", k=1, budget=budget).searched
    refused = web.search("c", k=1, budget=budget)
    assert not refused.searched and refused.evidence == [] and refused.error is None
    assert refused.note is not None and "budget" in refused.note
    assert len(http.calls) == 2 and budget.used == 2 and web.calls == 2


def test_missing_key_makes_it_unavailable_and_sends_nothing(
    http: responses.RequestsMock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    web = TavilyRetriever()
    with pytest.raises(RetrieverUnavailable, match="TAVILY_API_KEY"):
        web.check_available()
    budget = SearchBudget(3)
    result = web.search("q", k=1, budget=budget)
    assert not result.searched and result.error is not None and "no API key" in result.error
    assert len(http.calls) == 0 and budget.used == 0


def test_key_is_read_from_the_environment(
    http: responses.RequestsMock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", KEY)
    http.post(URL, json=OK)
    web = TavilyRetriever()
    web.check_available()
    web.search("q", k=1)
    assert http.calls[0].request.headers["Authorization"] == f"Bearer {KEY}"


def test_key_never_appears_in_errors_logs_or_repr(
    http: responses.RequestsMock, caplog: pytest.LogCaptureFixture
) -> None:
    web = TavilyRetriever(api_key=KEY, backoff_base=0.0, max_attempts=2)
    caplog.set_level(logging.DEBUG)
    errors = []
    for status in (400, 401, 403, 429, 500):
        http.reset()
        http.post(URL, status=status, json={"detail": {"error": f"bad key {KEY}"}})
        errors.append(web.search("q", k=1).error)
    http.reset()
    http.post(URL, body=requests.exceptions.ConnectionError(f"refused for {KEY}"))
    errors.append(web.search("q", k=1).error)
    assert all(errors)
    assert not any(KEY in str(e) for e in errors)
    assert "***" in str(errors[0])
    assert KEY not in caplog.text and KEY not in repr(web)
    assert "tavily:" in caplog.text


def test_asearch_runs_the_same_search(web: TavilyRetriever, http: responses.RequestsMock) -> None:
    http.post(URL, json=OK)
    result = asyncio.run(web.asearch("q", k=3))
    assert len(result.evidence) == 3 and len(http.calls) == 1


def test_as_tool_renders_web_evidence(web: TavilyRetriever, http: responses.RequestsMock) -> None:
    http.post(URL, json=OK)
    text = web.as_tool().invoke({"query": "Eiffel", "k": 1})
    assert "source=https://en.wikipedia.org/wiki/Eiffel_Tower" in text
    assert "Completed in 1889." in text and "title='Eiffel'" in text


def test_a_failure_repeated_by_every_search_is_logged_once(
    web: TavilyRetriever, http: responses.RequestsMock, caplog: pytest.LogCaptureFixture
) -> None:
    http.post(URL, body=requests.exceptions.ConnectionError("refused"))
    caplog.set_level(logging.WARNING, logger="triqua.tools.tavily")
    errors = [web.search(f"q{i}", k=1).error for i in range(4)]
    assert all(errors) and len(set(errors)) == 1  # each fact still records it
    warnings = [r for r in caplog.records if r.name == "triqua.tools.tavily"]
    assert len(warnings) == 1
