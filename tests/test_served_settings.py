"""Served graphs: a caller's context cannot redirect the operator's keys or read its files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from triqua.context import Context
from triqua.graph import ingest as ingest_module
from triqua.graph import main as main_module
from triqua.graph.main import build_graph
from triqua.graph.served import OPERATOR_SETTINGS, CallerContext, CallerRefusedError

from .conftest import CURIE

ROOT = Path(__file__).resolve().parents[1]
DOCS = ["Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie."]
EVIL = {"base_url": "http://evil.example", "model": "openai:gpt-4.1-mini"}


@pytest.fixture
def requests_sent(monkeypatch: pytest.MonkeyPatch) -> list[httpx.Request]:
    """Every HTTP request a model client sends, recorded and answered with a refusal."""
    sent: list[httpx.Request] = []

    def send(self: Any, request: httpx.Request, **_: Any) -> httpx.Response:
        sent.append(request)
        return httpx.Response(401, request=request, json={"error": {"message": "no"}})

    async def asend(self: Any, request: httpx.Request, **_: Any) -> httpx.Response:
        return send(self, request)

    monkeypatch.setattr(httpx.Client, "send", send)
    monkeypatch.setattr(httpx.AsyncClient, "send", asend)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-operator-secret")
    monkeypatch.delenv("TRIQUA_CALLER_SETTINGS", raising=False)
    monkeypatch.delenv("TRIQUA_BASE_URL", raising=False)
    return sent


def test_every_operator_setting_is_a_context_field() -> None:
    assert set(OPERATOR_SETTINGS) <= {f for f in Context.__dataclass_fields__}


def test_a_caller_base_url_is_refused_before_any_request(
    requests_sent: list[httpx.Request], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRIQUA_CALLER_SETTINGS", "model")
    with pytest.raises(CallerRefusedError, match=r"'base_url'.*TRIQUA_CALLER_SETTINGS=base_url"):
        main_module.graph.invoke({"text": CURIE, "documents": DOCS}, context=dict(EVIL))
    assert requests_sent == []


@pytest.mark.parametrize(
    ("setting", "variable"),
    [
        ({"model": "openai:gpt-4.1"}, "TRIQUA_MODEL"),
        ({"decompose_model": "anthropic:claude-sonnet-4-5"}, "TRIQUA_DECOMPOSE_MODEL"),
        ({"verify_model": "openai:gpt-4.1"}, "TRIQUA_VERIFY_MODEL"),
        ({"refine_model": "openai:gpt-4.1"}, "TRIQUA_REFINE_MODEL"),
        ({"retriever": "tavily"}, "TRIQUA_RETRIEVER"),
        ({"retriever": "chroma+serper"}, "TRIQUA_RETRIEVER"),
        ({"retriever": "instance:mine"}, "TRIQUA_RETRIEVER"),
    ],
)
def test_a_caller_cannot_choose_a_model_or_a_web_search_on_the_servers_keys(
    setting: dict[str, Any], variable: str, requests_sent: list[httpx.Request]
) -> None:
    (key,) = setting
    with pytest.raises(CallerRefusedError) as refused:
        main_module.graph.invoke({"text": CURIE, "documents": DOCS}, context=setting)
    message = str(refused.value)
    assert message.startswith(f"setting {key!r} is the server operator's")
    assert "paid with the server's keys" in message
    assert f"({variable})" in message and message.endswith(f"TRIQUA_CALLER_SETTINGS={key}")
    assert requests_sent == []


def test_every_refused_setting_is_named_in_one_message() -> None:
    with pytest.raises(CallerRefusedError) as refused:
        CallerContext(model="openai:gpt-4.1", retriever="brave", chroma_path="/srv")
    message = str(refused.value)
    assert message.startswith("settings 'model', 'retriever' and 'chroma_path' are the server")
    assert "models and web searches are paid with the server's keys" in message
    assert "'auto', 'supplied', 'closed_book' or 'chroma'" in message
    assert message.endswith("TRIQUA_CALLER_SETTINGS=model,retriever,chroma_path")


def test_a_caller_may_name_the_operators_own_model_and_search_and_the_local_retrievers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("TRIQUA_CALLER_SETTINGS", raising=False)
    monkeypatch.setenv("TRIQUA_MODEL", "openai:gpt-4.1-mini")
    monkeypatch.setenv("TRIQUA_RETRIEVER", "tavily")
    same = CallerContext(model="openai:gpt-4.1-mini", retriever="tavily")
    assert (same.model, same.retriever) == ("openai:gpt-4.1-mini", "tavily")
    blank = CallerContext(model="", verify_model=None, retriever="")
    assert (blank.model, blank.retriever) == ("openai:gpt-4.1-mini", "tavily")
    for local in ("auto", "supplied", "closed_book", "chroma"):
        assert CallerContext(retriever=local).retriever == local
    with pytest.raises(CallerRefusedError, match="'verify_model'"):
        CallerContext(verify_model="openai:gpt-4.1")
    monkeypatch.setenv("TRIQUA_CALLER_SETTINGS", "model,verify_model,retriever")
    opened = CallerContext(model="openai:o3", verify_model="openai:gpt-4.1", retriever="brave")
    assert (opened.model, opened.verify_model, opened.retriever) == (
        "openai:o3",
        "openai:gpt-4.1",
        "brave",
    )


def test_a_caller_may_lower_the_spending_limits_but_not_raise_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("TRIQUA_CALLER_SETTINGS", raising=False)
    monkeypatch.setenv("TRIQUA_MAX_SEARCHES", "20")
    assert CallerContext(max_calls=10, max_searches=5).max_searches == 5
    assert CallerContext(max_searches=20).max_searches == 20
    with pytest.raises(CallerRefusedError, match=r"'max_searches' may be lowered but not raised"):
        CallerContext(max_searches=21)
    with pytest.raises(CallerRefusedError, match=r"above the server's 10000.*TRIQUA_MAX_CALLS"):
        CallerContext(max_calls=10_001)
    monkeypatch.setenv("TRIQUA_CALLER_SETTINGS", "max_searches")
    assert CallerContext(max_searches=500).max_searches == 500


@pytest.mark.parametrize(
    "setting",
    [
        {"chroma_path": "/etc"},
        {"chroma_url": "http://10.0.0.1:8000"},
        {"cache_path": "/tmp/other.sqlite"},
        {"allow_paths": ["/"]},
        {"verifier": "nli:/srv/secret-model"},
        {"rerank_model": "openai:text-embedding-3-small"},
    ],
)
def test_caller_settings_naming_server_paths_or_endpoints_are_refused(
    setting: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TRIQUA_CALLER_SETTINGS", raising=False)
    with pytest.raises(CallerRefusedError, match=repr(next(iter(setting)))):
        CallerContext(**setting)


def test_caller_may_set_run_settings_and_the_harmless_values() -> None:
    context = CallerContext(delta=4, verifier="rules", rerank_model="minilm", max_facts=3)
    assert (context.delta, context.verifier, context.max_facts) == (4, "rules", 3)


def test_the_operator_environment_still_applies_and_its_own_value_is_accepted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TRIQUA_BASE_URL", "http://vllm.internal:8000/v1")
    assert CallerContext().base_url == "http://vllm.internal:8000/v1"
    assert CallerContext(base_url="http://vllm.internal:8000/v1").base_url.endswith("/v1")
    with pytest.raises(CallerRefusedError, match="base_url"):
        CallerContext(base_url="http://evil.example")
    blank = CallerContext(base_url=None, chroma_path="", allow_paths=[], rerank_model=None)
    assert blank.base_url == "http://vllm.internal:8000/v1"  # a form's blank field


def test_an_allowed_key_passes(
    requests_sent: list[httpx.Request], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRIQUA_CALLER_SETTINGS", "base_url, chroma_path, model")
    assert CallerContext(**EVIL).base_url == "http://evil.example"
    out = main_module.graph.invoke(
        {"text": CURIE, "documents": DOCS}, context={"base_url": "http://evil.example"}
    )
    assert out["report"].records
    with pytest.raises(CallerRefusedError, match="cache_path"):
        CallerContext(cache_path="/tmp/other.sqlite")


def test_in_process_invoke_with_the_same_context_works(
    requests_sent: list[httpx.Request],
) -> None:
    out = build_graph().invoke(
        {"text": CURIE, "documents": DOCS}, context={"base_url": "http://evil.example"}
    )
    assert out["report"].records  # the settings of the program that owns the keys apply


def test_a_graph_built_with_the_caller_guard_refuses_as_the_served_one(
    requests_sent: list[httpx.Request], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import triqua
    from triqua.graph.ingest import build_ingest_graph

    guarded = triqua.build_graph(caller_guard=True)
    assert guarded.context_schema is CallerContext
    for context in ({"model": "openai:gpt-4.1"}, {"retriever": "tavily"}, dict(EVIL)):
        with pytest.raises(triqua.CallerRefusedError):
            guarded.invoke({"text": CURIE, "documents": DOCS}, context=context)
    assert requests_sent == []
    out = guarded.invoke({"text": CURIE, "documents": DOCS}, context={"max_facts": 3})
    assert out["report"].records  # the run settings stay the caller's
    assert build_graph().context_schema is Context  # unguarded unless asked
    monkeypatch.setenv("TRIQUA_INGEST_ROOTS", str(tmp_path / "allowed"))
    with pytest.raises(CallerRefusedError, match="outside the folders in TRIQUA_INGEST_ROOTS"):
        build_ingest_graph(caller_guard=True).invoke({"paths": [str(ROOT)]}, context={})


def test_served_graphs_keep_describing_every_setting() -> None:
    schema = main_module.graph.get_context_jsonschema()
    assert schema is not None and set(Context.__dataclass_fields__) <= set(schema["properties"])
    assert ingest_module.graph.get_context_jsonschema() == schema


def test_served_ingest_refuses_a_path_outside_the_allowed_roots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRIQUA_INGEST_ROOTS", str(ROOT / "studio" / "corpus"))
    outside = tmp_path / "secret.md"
    outside.write_text("The operator's secret is 42.\n")
    sneaky = ROOT / "studio" / "corpus" / ".." / ".." / "README.md"
    for path in (outside, sneaky, Path("/etc")):
        with pytest.raises(CallerRefusedError, match="outside the folders in TRIQUA_INGEST_ROOTS"):
            ingest_module.graph.invoke({"paths": [str(path)]}, context={})
    monkeypatch.delenv("TRIQUA_INGEST_ROOTS")
    with pytest.raises(CallerRefusedError, match="sets no TRIQUA_INGEST_ROOTS"):
        ingest_module.graph.invoke({"paths": [str(ROOT / "studio" / "corpus")]}, context={})


def test_served_ingest_reads_an_allowed_root_into_the_operator_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("chromadb")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "page.md").write_text("The Danube flows through Vienna.\n")
    monkeypatch.setenv("TRIQUA_INGEST_ROOTS", str(corpus))
    monkeypatch.setenv("TRIQUA_CHROMA_PATH", str(tmp_path / "chroma"))
    monkeypatch.setenv("TRIQUA_COLLECTION", "served")
    out = ingest_module.graph.invoke({"paths": [str(corpus)], "collection": "served"}, context={})
    assert out["summary"]["chunks_added"] > 0
    assert (tmp_path / "chroma").is_dir()  # the operator's store, from its environment
    with pytest.raises(CallerRefusedError, match="chroma_path"):
        ingest_module.graph.invoke(
            {"paths": [str(corpus)]}, context={"chroma_path": str(tmp_path / "x")}
        )


def test_served_ingest_writes_only_the_operators_collection_unless_callers_may_choose(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("chromadb")
    from triqua.graph.ingest import DEFAULT_COLLECTION, build_ingest_graph

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "page.md").write_text("The Danube flows through Vienna.\n")
    store = tmp_path / "chroma"
    monkeypatch.setenv("TRIQUA_INGEST_ROOTS", str(corpus))
    monkeypatch.setenv("TRIQUA_CHROMA_PATH", str(store))
    monkeypatch.delenv("TRIQUA_COLLECTION", raising=False)
    monkeypatch.delenv("TRIQUA_CALLER_SETTINGS", raising=False)
    paths = {"paths": [str(corpus)]}

    def written(given: dict[str, Any], context: dict[str, Any] | None = None) -> set[str]:
        out = ingest_module.graph.invoke({**paths, **given}, context=context or {})
        assert out["summary"]["chunks_added"] + out["summary"]["files"][0]["chunks"] > 0
        return {row["name"] for row in out["collections"]}

    for given, context in (({"collection": "other"}, {}), ({}, {"collection": "other"})):
        with pytest.raises(CallerRefusedError, match="TRIQUA_CALLER_SETTINGS=collection") as no:
            ingest_module.graph.invoke({**paths, **given}, context=context)
        assert f"server's collection '{DEFAULT_COLLECTION}'" in str(no.value)
    assert not store.exists()  # refused before the store was opened
    assert written({}) == {DEFAULT_COLLECTION}  # none named: the operator's default
    assert written({"collection": DEFAULT_COLLECTION}) == {DEFAULT_COLLECTION}
    monkeypatch.setenv("TRIQUA_COLLECTION", "kb-2026")  # the operator names its collection
    assert written({}, {"collection": "kb-2026"}) == {DEFAULT_COLLECTION, "kb-2026"}
    with pytest.raises(CallerRefusedError, match="server's collection 'kb-2026'"):
        ingest_module.graph.invoke({**paths, "collection": DEFAULT_COLLECTION}, context={})
    with pytest.raises(ValueError, match="invalid collection name 'my docs'"):
        ingest_module.graph.invoke({**paths, "collection": "my docs"}, context={})
    monkeypatch.setenv("TRIQUA_CALLER_SETTINGS", "collection")  # callers may choose
    assert "other" in written({"collection": "other"})
    with pytest.raises(ValueError, match=r"invalid collection name '\.\./x'"):
        ingest_module.graph.invoke({**paths, "collection": "../x"}, context={})
    monkeypatch.delenv("TRIQUA_CALLER_SETTINGS")
    mine = build_ingest_graph().invoke({**paths, "collection": "mine"})  # in-process: any name
    assert "mine" in {row["name"] for row in mine["collections"]}


@pytest.mark.parametrize(
    "setting",
    [
        {"max_input_chars": 10**10},
        {"max_evidence_bytes": 10**12},
        {"max_facts": 10**9},
        {"max_concurrency": 10**6},
        {"max_results": 10**6},
        {"candidates": 10**6},
        {"reverify_rounds": 10**6},
        {"max_output_retries": 10**6},
        {"retry_wait": 1e9},
        {"model_timeout": 1e9},
        {"model_timeout": 0},  # 0: no limit, above any server limit
        {"search_timeout": 0},
        {"max_sentence_chars": 0},
    ],
)
def test_a_caller_cannot_raise_the_servers_resource_limits(
    setting: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TRIQUA_CALLER_SETTINGS", raising=False)
    with pytest.raises(CallerRefusedError, match=rf"{next(iter(setting))!r} may be lowered"):
        CallerContext(**setting)
    monkeypatch.setenv("TRIQUA_CALLER_SETTINGS", next(iter(setting)))
    assert CallerContext(**setting)


def test_a_caller_may_lower_the_resource_limits() -> None:
    context = CallerContext(max_input_chars=1_000, model_timeout=5, candidates=3, retry_wait=0)
    assert (context.max_input_chars, context.model_timeout, context.candidates) == (1_000, 5, 3)


@pytest.mark.parametrize(
    "setting",
    [
        {"max_calls": float("nan")},
        {"max_searches": float("nan")},
        {"max_calls": "999999"},
        {"max_searches": [1]},
        {"max_facts": {"n": 1}},
        {"model_timeout": float("nan")},
        {"max_calls": True},
        {"retriever": ["tavily"]},
        {"retriever": {"tavily": 1}},
        {"verifier": ["nli:/srv/model"]},
    ],
)
def test_a_caller_setting_of_the_wrong_type_is_refused_not_crashed_or_unlimited(
    setting: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TRIQUA_CALLER_SETTINGS", raising=False)
    with pytest.raises(CallerRefusedError, match=repr(next(iter(setting)))):
        CallerContext(**setting)


@pytest.mark.parametrize("name", ["max_calls", "max_searches", "model_timeout", "max_facts"])
def test_a_nan_limit_is_refused_in_process_too(name: str) -> None:
    with pytest.raises(ValueError, match=name):
        Context(**{name: float("nan")}).validate()


@pytest.mark.parametrize(
    "given",
    [
        {"paths": {"studio": 1}},
        {"paths": [["studio/corpus"]]},
        {"paths": [7]},
        {"paths": ["studio/corpus"], "chunk_size": "50"},
        {"paths": ["studio/corpus"], "chunk_overlap": [1]},
    ],
)
def test_served_ingest_input_of_the_wrong_type_is_refused_by_name(
    given: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRIQUA_INGEST_ROOTS", str(ROOT / "studio" / "corpus"))
    key = next(k for k in given if k != "paths") if len(given) > 1 else "paths"
    with pytest.raises(ValueError, match=rf"ingest: '{key}' must be"):
        ingest_module.graph.invoke(given, context={})


def test_served_ingest_reads_one_path_given_as_a_string(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRIQUA_INGEST_ROOTS", str(tmp_path / "corpus"))
    # One string is one path, not a list of its characters ("/" would be named, not it).
    with pytest.raises(CallerRefusedError, match=r"path '/etc' is outside"):
        ingest_module.graph.invoke({"paths": "/etc"}, context={})


def test_served_check_searches_only_the_operators_collection_unless_callers_may_choose(
    requests_sent: list[httpx.Request], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("chromadb")
    from triqua.graph.served import SERVED_COLLECTION
    from triqua.tools.ingest import ingest_paths

    page = tmp_path / "page.md"
    page.write_text("Marie Curie won the Nobel Prize in Physics in 1903.\n")
    store = tmp_path / "chroma"
    for name in ("kb-2026", "private"):
        ingest_paths([page], name, path=store)
    monkeypatch.setenv("TRIQUA_CHROMA_PATH", str(store))
    monkeypatch.setenv("TRIQUA_COLLECTION", "kb-2026")
    guarded = build_graph(caller_guard=True)
    chroma = {"retriever": "chroma"}

    def corpus(graph: Any, context: dict[str, Any]) -> str | None:
        return graph.invoke({"text": CURIE}, context={**chroma, **context})["report"].spec.corpus

    for graph in (main_module.graph, guarded):
        with pytest.raises(CallerRefusedError, match="TRIQUA_CALLER_SETTINGS=collection") as no:
            graph.invoke({"text": CURIE}, context={**chroma, "collection": "private"})
        assert "server's collection 'kb-2026'" in str(no.value)
        for where in ({"chroma_path": str(tmp_path / "other")}, {"chroma_url": "http://10.0.0.1"}):
            with pytest.raises(CallerRefusedError, match=repr(next(iter(where)))):
                graph.invoke({"text": CURIE}, context={**chroma, **where})
        assert corpus(graph, {}) == "kb-2026"  # none named: the operator's
        assert corpus(graph, {"collection": "kb-2026"}) == "kb-2026"
    monkeypatch.delenv("TRIQUA_COLLECTION")  # the served ingest's default, then
    assert CallerContext().collection == SERVED_COLLECTION
    with pytest.raises(CallerRefusedError, match=f"server's collection '{SERVED_COLLECTION}'"):
        CallerContext(collection="kb-2026")
    monkeypatch.setenv("TRIQUA_CALLER_SETTINGS", "collection")  # callers may choose
    assert corpus(guarded, {"collection": "private"}) == "private"
    assert CallerContext().collection is None
    assert build_graph().context_schema is Context  # in-process: any collection
