"""Serper and Brave retrievers: real ``requests`` calls against a stubbed HTTP layer (responses)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
import responses
from typer.testing import CliRunner

from triqua.cli import app
from triqua.schema.retriever_kinds import kind_of
from triqua.tools import CombinedRetriever, RetrieverUnavailable, SearchBudget
from triqua.tools.brave import BRAVE_URL, BraveRetriever
from triqua.tools.factory import build_retriever
from triqua.tools.serper import SERPER_URL, SerperRetriever
from triqua.tools.web_http import HttpSearchRetriever, site_operators

from .conftest import CURIE

KEY = "SECRET-web-test-key-0123456789"
RESULTS = [
    ("https://en.wikipedia.org/wiki/Eiffel_Tower", "Completed in 1889.", "Eiffel"),
    ("https://www.britannica.com/topic/Eiffel-Tower", "Built for the 1889 fair.", "Britannica"),
    ("https://example.com/x", "Third result.", "Example"),
]


@dataclass(frozen=True)
class Api:
    """How one service is called and answers."""

    cls: type[HttpSearchRetriever]
    method: str
    url: str
    key_header: str
    key_envs: tuple[str, ...]
    answer: Callable[[list[tuple[str, str, str]]], dict[str, Any]]

    def sent(self, http: responses.RequestsMock, i: int = 0) -> dict[str, Any]:
        """The request's parameters: the JSON body (POST) or the query string (GET)."""
        request = http.calls[i].request
        if self.method == "POST":
            assert isinstance(request.body, str | bytes)
            return dict(json.loads(request.body))
        query = parse_qs(urlsplit(request.url or "").query)
        return {name: values[0] for name, values in query.items()}


SERPER = Api(
    SerperRetriever,
    "POST",
    SERPER_URL,
    "X-API-KEY",
    ("SERPER_API_KEY",),
    lambda rows: {
        "searchParameters": {"q": "q", "type": "search"},
        "organic": [
            {"title": t, "link": u, "snippet": s, "position": i + 1}
            for i, (u, s, t) in enumerate(rows)
        ],
    },
)
BRAVE = Api(
    BraveRetriever,
    "GET",
    BRAVE_URL,
    "X-Subscription-Token",
    ("BRAVE_API_KEY", "BRAVE_SEARCH_API_KEY"),
    lambda rows: {
        "type": "search",
        "web": {
            "type": "search",
            "results": [
                {"title": t, "url": u, "description": s.replace("1889", "<strong>1889</strong>")}
                for u, s, t in rows
            ],
        },
    },
)


@pytest.fixture(params=[SERPER, BRAVE], ids=["serper", "brave"])
def api(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Api:
    for name in (*SERPER.key_envs, *BRAVE.key_envs):
        monkeypatch.delenv(name, raising=False)
    result: Api = request.param
    return result


@pytest.fixture
def http() -> Iterator[responses.RequestsMock]:
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        yield mock


def _web(api: Api, **options: Any) -> HttpSearchRetriever:
    options = {"api_key": KEY, "backoff_base": 0.0, "timeout": 5, **options}
    return api.cls(**options)


def _stub(api: Api, http: responses.RequestsMock, **kwargs: Any) -> None:
    http.add(api.method, api.url, **kwargs)


def test_results_become_ranked_evidence(api: Api, http: responses.RequestsMock) -> None:
    _stub(api, http, json=api.answer(RESULTS))
    result = _web(api).search("Eiffel Tower completed", k=2)
    assert result.error is None and result.searched
    assert [e.source for e in result.evidence] == [RESULTS[0][0], RESULTS[1][0]]
    first = result.evidence[0]
    assert (first.title, first.text, first.rank) == ("Eiffel", "Completed in 1889.", 1)
    assert first.retriever == api.cls.name and first.retrieved_at is not None
    assert first.document_id.startswith("web-") and len(first.content_hash) == 64
    assert http.calls[0].request.headers[api.key_header] == KEY
    assert api.sent(http)["q"] == "Eiffel Tower completed"


def test_an_empty_answer_is_no_evidence_and_no_error(
    api: Api, http: responses.RequestsMock
) -> None:
    answer = api.answer([])
    if api is BRAVE:
        del answer["web"]  # Brave leaves the section out when nothing is found
    _stub(api, http, json=answer)
    result = _web(api).search("q", k=3)
    assert result.evidence == [] and result.error is None and result.searched


def test_domains_and_as_of_go_into_the_request(api: Api, http: responses.RequestsMock) -> None:
    _stub(api, http, json=api.answer(RESULTS))
    web = _web(
        api,
        include_domains=["wikipedia.org", "britannica.com"],
        exclude_domains=["example.com"],
        as_of=date(2020, 5, 1),
    )
    web.search("Eiffel", k=3)
    sent = api.sent(http)
    assert sent["q"] == "Eiffel (site:wikipedia.org OR site:britannica.com) -site:example.com"
    if api is SERPER:
        assert sent["tbs"] == "cdr:1,cd_min:1/1/1970,cd_max:5/1/2020"
    else:
        assert sent["freshness"] == "1970-01-01to2020-05-01"
    assert "as_of=2020-05-01" in web.revision and web.revision.startswith(api.cls.name + "/")


def test_result_count_is_asked_of_the_api(api: Api, http: responses.RequestsMock) -> None:
    _stub(api, http, json=api.answer(RESULTS))
    _web(api, max_results=15).search("q", k=12)
    sent = api.sent(http)
    if api is SERPER:
        assert sent["num"] == 20  # Google pages by ten
    else:
        assert sent["count"] == "12"


def test_source_policy_is_enforced_on_results_too(api: Api, http: responses.RequestsMock) -> None:
    _stub(api, http, json=api.answer(RESULTS))
    web = _web(api, include_domains=["wikipedia.org", "example.com"])
    web.exclude_domains = ["example.com"]
    result = web.search("q", k=5)
    assert [e.source for e in result.evidence] == [RESULTS[0][0]]


@pytest.mark.parametrize("status", [401, 403])
def test_bad_key_is_recorded_without_retry(
    api: Api, http: responses.RequestsMock, status: int
) -> None:
    _stub(api, http, status=status, json={"message": "Unauthorized"})
    result = _web(api).search("q", k=3)
    assert result.evidence == [] and result.searched
    assert result.error is not None and f"HTTP {status}" in result.error
    assert "key is wrong" in result.error and api.key_envs[0] in result.error
    assert len(http.calls) == 1


def test_rate_limit_is_retried_with_backoff_then_recorded(
    api: Api, http: responses.RequestsMock, monkeypatch: pytest.MonkeyPatch
) -> None:
    delays: list[float] = []
    monkeypatch.setattr("triqua.tools.web_http.time.sleep", delays.append)
    _stub(api, http, status=429, json={"message": "Too many requests"})
    budget = SearchBudget(5)
    result = _web(api, backoff_base=0.5).search("q", k=3, budget=budget)
    assert (
        result.error
        == f"{api.cls.name}: HTTP 429 — rate or usage limit reached; gave up after 3 tries"
    )
    assert len(http.calls) == 3 and delays == [0.5, 1.0] and budget.used == 1


def test_rate_limit_then_success_returns_evidence(api: Api, http: responses.RequestsMock) -> None:
    _stub(api, http, status=429, json={})
    _stub(api, http, json=api.answer(RESULTS))
    result = _web(api).search("q", k=1)
    assert result.error is None and len(result.evidence) == 1 and len(http.calls) == 2


@pytest.mark.parametrize("status", [500, 502, 503])
def test_server_errors_are_retried_then_recorded(
    api: Api, http: responses.RequestsMock, status: int
) -> None:
    _stub(api, http, status=status, body="upstream broke")
    result = _web(api).search("q", k=3)
    assert result.error == f"{api.cls.name}: HTTP {status} — server error; gave up after 3 tries"
    assert len(http.calls) == 3


def test_timeout_is_recorded_without_retry(api: Api, http: responses.RequestsMock) -> None:
    _stub(api, http, body=requests.exceptions.ReadTimeout("read timed out"))
    result = _web(api).search("q", k=3)
    assert result.error == f"{api.cls.name}: timed out after 5 s" and result.searched
    assert len(http.calls) == 1


def test_outage_is_retried_then_recorded(api: Api, http: responses.RequestsMock) -> None:
    _stub(api, http, body=requests.exceptions.ConnectionError("connection refused"))
    result = _web(api).search("q", k=3)
    assert result.error is not None and "cannot connect" in result.error
    assert "gave up after 3 tries" in result.error and len(http.calls) == 3


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("<html>not json</html>", "malformed JSON"),
        ("[1, 2, 3]", "not a JSON object"),
        ('{"other": 1}', "no results list"),
    ],
)
def test_malformed_responses_are_recorded(
    api: Api, http: responses.RequestsMock, body: str, message: str
) -> None:
    _stub(api, http, body=body, status=200, content_type="application/json")
    result = _web(api).search("q", k=3)
    assert result.evidence == [] and result.error is not None and message in result.error
    assert len(http.calls) == 1


def test_results_without_url_or_text_are_recorded(api: Api, http: responses.RequestsMock) -> None:
    answer = api.answer([("https://a.org/", "", "empty")])
    _stub(api, http, json=answer)
    result = _web(api).search("q", k=3)
    field = "snippet" if api is SERPER else "description"
    assert (
        result.error == f"{api.cls.name}: malformed response (1 result(s) without url or {field})"
    )


def test_bad_request_is_not_retried(api: Api, http: responses.RequestsMock) -> None:
    _stub(api, http, status=400, json={"message": "Query is too long"})
    result = _web(api).search("q", k=3)
    assert result.error == f"{api.cls.name}: HTTP 400 — bad request" and len(http.calls) == 1


def test_budget_is_spent_once_per_search_and_refuses_when_empty(
    api: Api, http: responses.RequestsMock
) -> None:
    _stub(api, http, json=api.answer(RESULTS))
    web = _web(api)
    budget = SearchBudget(2)
    assert web.search("a", k=1, budget=budget).searched
    assert web.search("b", k=1, budget=budget).searched
    refused = web.search("c", k=1, budget=budget)
    assert not refused.searched and refused.note is not None and "budget" in refused.note
    assert len(http.calls) == 2 and budget.used == 2 and web.calls == 2


def test_missing_key_is_one_line_naming_the_variable(
    api: Api, http: responses.RequestsMock
) -> None:
    web = api.cls(backoff_base=0.0)
    with pytest.raises(RetrieverUnavailable) as info:
        web.check_available()
    message = str(info.value)
    assert "\n" not in message and all(name in message for name in api.key_envs)
    budget = SearchBudget(3)
    result = web.search("q", k=1, budget=budget)
    assert not result.searched and result.error == message
    assert len(http.calls) == 0 and budget.used == 0


def test_key_is_read_from_each_environment_variable(
    api: Api, http: responses.RequestsMock, monkeypatch: pytest.MonkeyPatch
) -> None:
    _stub(api, http, json=api.answer(RESULTS))
    for name in api.key_envs:
        monkeypatch.setenv(name, f"{name}-value")
        web = api.cls()
        web.check_available()
        web.search("q", k=1)
        assert http.calls[-1].request.headers[api.key_header] == f"{name}-value"
        monkeypatch.delenv(name)


def test_key_never_appears_in_errors_logs_or_repr(
    api: Api, http: responses.RequestsMock, caplog: pytest.LogCaptureFixture
) -> None:
    _stub(api, http, status=400, body=f"bad key {KEY}")
    web = _web(api)
    with caplog.at_level(logging.INFO):
        result = web.search("q", k=1)
    assert KEY not in (result.error or "") and KEY not in caplog.text
    assert KEY not in repr(web) and "api_key=set" in repr(web)


def test_a_failure_repeated_by_every_search_is_logged_once(
    api: Api, http: responses.RequestsMock, caplog: pytest.LogCaptureFixture
) -> None:
    _stub(api, http, status=401, json={})
    web = _web(api)
    with caplog.at_level(logging.WARNING):
        errors = {web.search(q, k=1).error for q in ("a", "b", "c")}
    assert len(errors) == 1
    assert sum("HTTP 401" in r.getMessage() for r in caplog.records) == 1


def test_site_operators() -> None:
    assert site_operators([], []) == ""
    assert site_operators(["a.org"], []) == "site:a.org"
    assert site_operators([], ["b.com", "c.net"]) == "-site:b.com -site:c.net"


@pytest.mark.parametrize("name", ["serper", "brave"])
def test_the_factory_builds_each_kind_and_its_chroma_combination(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    kind = kind_of(name)
    assert kind.web and kind.cacheable and kind_of(f"chroma+{name}").chroma
    monkeypatch.setenv(SERPER.key_envs[0] if name == "serper" else BRAVE.key_envs[1], KEY)
    web = build_retriever(name, search_timeout=7, as_of=date(2021, 1, 2), max_results=4)
    assert web.name == name and web.revision.endswith("as_of=2021-01-02")
    web.check_available()
    combined = build_retriever(f"chroma+{name}", collection="wiki", chroma_path="unused")
    assert isinstance(combined, CombinedRetriever) and f"then {name}/" in combined.revision


@pytest.mark.slow
@pytest.mark.parametrize("api", [SERPER, BRAVE], ids=["serper", "brave"], indirect=True)
def test_the_cli_says_in_one_line_which_variable_is_missing(api: Api) -> None:
    result = CliRunner().invoke(app, ["check", CURIE, "--retriever", api.cls.name])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in result.output
    assert all(name in lines[0] for name in api.key_envs)
