"""Cost accounting: token estimates, usage per role, prices from files, money per role."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import triqua
from triqua.core.budget.costs import (
    ModelPrice,
    Prices,
    cost_summary,
    estimate_tokens,
    load_prices,
    prices_from_env,
)
from triqua.engines.llm.engine import Judgement, schema_tokens
from triqua.schema import FactualitySpec, Report, Usage
from triqua.testing import ScriptedChatModel

from .conftest import CURIE, make_responder

# About per-fact verification calls (counted, faulted or stalled one by one).
pytestmark = pytest.mark.usefixtures("per_fact_verification")

DOCS = ["Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie."]


def hand_report(retriever: str = "tavily/0.8 depth=basic") -> Report:
    spec = FactualitySpec(
        retriever=retriever,
        models={"decompose": "ChatOpenAI:gpt-4o-mini", "verify": "ChatOpenAI:gpt-4o"},
    )
    return Report(
        spec=spec,
        usage_by_role={
            "search": Usage(search_calls=4),
            "verify": Usage(model_calls=2, input_tokens=2_000_000, output_tokens=100_000),
            "decompose": Usage(model_calls=1, input_tokens=500_000, output_tokens=1_000_000),
        },
    )


PRICES = Prices(
    models={
        "openai:gpt-4o-mini": ModelPrice(input_per_million=0.15, output_per_million=0.6),
        "gpt-4o": ModelPrice(input_per_million=2.5, output_per_million=10.0),
    },
    searches={"tavily": 0.01},
)


def test_estimate_tokens_counts_wordpieces() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("hello world") == 2
    # A rare word is split into several word pieces, so tokens exceed words.
    assert estimate_tokens("antidisestablishmentarianism") > 1


@pytest.mark.slow
def test_provider_usage_is_used_when_reported(scripted: Any) -> None:
    report = triqua.check(CURIE, documents=DOCS, model=scripted())
    assert report.usage.tokens_estimated is False
    verify = report.usage_by_role["verify"]
    assert verify.model_calls == 1
    assert verify.output_tokens == 20  # what the scripted provider reports per call


def test_tokens_are_estimated_with_the_tokenizer_when_usage_is_missing() -> None:
    model = ScriptedChatModel(responder=make_responder(), usage=False)
    report = triqua.check(CURIE, documents=DOCS, model=model)
    verify = report.usage_by_role["verify"]
    assert verify.tokens_estimated and report.usage.tokens_estimated
    (verify_prompt,) = [p for tool, p in model.calls if tool == "Judgement"]
    # The estimate counts the prompt's messages (the recorded prompt joins the same messages)
    # and the output schema sent with them.
    assert verify.input_tokens == estimate_tokens(verify_prompt) + schema_tokens(Judgement)
    assert schema_tokens(Judgement) > 100
    assert verify.output_tokens > 0  # the raw structured answer was counted


def test_cost_summary_without_prices_lists_roles_in_order() -> None:
    summary = cost_summary(hand_report())
    assert [r.role for r in summary.roles] == ["decompose", "verify", "search"]
    assert summary.model_calls == 3 and summary.search_calls == 4
    assert summary.input_tokens == 2_500_000 and summary.output_tokens == 1_100_000
    assert summary.cost is None and summary.currency is None
    assert all(r.cost is None for r in summary.roles)
    assert summary.roles[2].model == "tavily/0.8 depth=basic"


def test_cost_summary_prices_each_role() -> None:
    summary = cost_summary(hand_report(), PRICES)
    by_role = {r.role: r.cost for r in summary.roles}
    assert by_role["decompose"] == pytest.approx(0.5 * 0.15 + 1.0 * 0.6)
    assert by_role["verify"] == pytest.approx(2.0 * 2.5 + 0.1 * 10.0)
    assert by_role["search"] == pytest.approx(0.04)
    assert summary.cost == pytest.approx(0.675 + 6.0 + 0.04)
    assert summary.currency == "USD" and summary.unpriced == []


def test_unpriced_model_leaves_the_total_undefined() -> None:
    prices = Prices(models={"gpt-4o": PRICES.models["gpt-4o"]}, searches={"tavily": 0.01})
    summary = cost_summary(hand_report(), prices)
    assert summary.cost is None
    assert summary.unpriced == ["ChatOpenAI:gpt-4o-mini"]
    assert {r.role: r.cost is not None for r in summary.roles} == {
        "decompose": False,
        "verify": True,
        "search": True,
    }


def test_local_searches_need_no_price_unless_listed() -> None:
    summary = cost_summary(hand_report(retriever="supplied/bm25s"), PRICES)
    assert summary.unpriced == ["supplied/bm25s"]
    priced = cost_summary(
        hand_report(retriever="supplied/bm25s"),
        PRICES.model_copy(update={"searches": {"supplied": 0.0}}),
    )
    assert priced.unpriced == [] and priced.cost == pytest.approx(6.675)


def test_combined_retriever_uses_the_highest_price() -> None:
    prices = Prices(searches={"chroma": 0.0, "tavily": 0.008})
    assert prices.search_price("chroma:demo@minilm then tavily/0.8") == 0.008
    assert prices.search_price("supplied/bm25s") is None


def test_extra_usage_is_added_as_its_own_role() -> None:
    extra = {"cite": Usage(model_calls=1, input_tokens=1_000_000)}
    summary = cost_summary(hand_report(), PRICES, extra_usage=extra)
    cite = next(r for r in summary.roles if r.role == "cite")
    assert cite.model == "ChatOpenAI:gpt-4o"  # the verify model judges citations
    assert cite.cost == pytest.approx(2.5)
    assert summary.model_calls == 4


def test_prices_load_from_json_and_toml(tmp_path: Path) -> None:
    data = {
        "currency": "EUR",
        "models": {"gpt-4o": {"input_per_million": 2.5, "output_per_million": 10}},
        "searches": {"tavily": 0.008},
    }
    json_file = tmp_path / "prices.json"
    json_file.write_text(json.dumps(data), encoding="utf-8")
    toml_file = tmp_path / "prices.toml"
    toml_file.write_text(
        'currency = "EUR"\n[models."gpt-4o"]\ninput_per_million = 2.5\n'
        "output_per_million = 10\n[searches]\ntavily = 0.008\n",
        encoding="utf-8",
    )
    assert load_prices(json_file) == load_prices(toml_file)
    assert load_prices(toml_file).model_price("ChatOpenAI:gpt-4o") == ModelPrice(
        input_per_million=2.5, output_per_million=10
    )


def test_prices_come_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRIQUA_PRICES", raising=False)
    assert prices_from_env() is None
    path = tmp_path / "p.json"
    path.write_text('{"searches": {"tavily": 0.5}}', encoding="utf-8")
    monkeypatch.setenv("TRIQUA_PRICES", str(path))
    prices = prices_from_env()
    assert prices is not None and prices.searches == {"tavily": 0.5}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "malformed prices file"),
        ('{"models": {"m": {"input_per_million": -1, "output_per_million": 1}}}', "models.m"),
    ],
)
def test_bad_prices_files_are_clear_errors(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "prices.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=message) as info:
        load_prices(path)
    assert str(path) in str(info.value)
    with pytest.raises(ValueError, match="cannot read prices"):
        load_prices(tmp_path / "missing.json")
