"""The frozen spec says what the run resolved; overrides may describe it, never contradict it."""

from __future__ import annotations

import pytest

import triqua
from triqua.schema import Mode

from .conftest import CURIE

DOCS = ["Marie Curie won the Nobel Prize in Physics in 1903."]


def test_spec_records_the_resolved_mode_and_retriever() -> None:
    supplied = triqua.check(CURIE, documents=DOCS)
    assert supplied.spec.mode is Mode.SUPPLIED_CONTEXT
    assert supplied.spec.retriever.startswith("supplied")
    assert supplied.spec.authority == "the supplied documents"
    closed = triqua.check(CURIE)
    assert closed.spec.mode is Mode.CLOSED_BOOK
    assert closed.spec.retriever != supplied.spec.retriever


@pytest.mark.parametrize(
    ("override", "match"),
    [
        ({"mode": "closed_book"}, "spec_overrides\\['mode'\\] = 'closed_book' contradicts"),
        ({"retriever": "tavily"}, "spec_overrides\\['retriever'\\]"),
        ({"verdict_policy": {"delta": 9}}, "verdict_policy"),
        ({"budget": {"max_searches": 1}}, "budget"),
    ],
)
def test_an_override_contradicting_the_run_is_an_error(override: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        triqua.check(CURIE, documents=DOCS, spec_overrides=override)


def test_overrides_that_describe_or_restate_the_run_are_kept() -> None:
    report = triqua.check(
        CURIE,
        documents=DOCS,
        delta=4,
        spec_overrides={
            "authority": "the lab notebook",
            "corpus": "notebook-2024-05",
            "mode": "supplied_context",
            "verdict_policy": {"delta": 4},
        },
    )
    assert report.spec.authority == "the lab notebook"
    assert report.spec.corpus == "notebook-2024-05"
    assert report.spec.verdict_policy.delta == 4
    assert all(r.spec_hash == report.spec.hash for r in report.records)


def test_the_grounding_rule_cannot_be_switched_off_and_removed_fields_are_unknown() -> None:
    with pytest.raises(ValueError, match="supported_requires_evidence"):
        triqua.check(
            CURIE,
            documents=DOCS,
            spec_overrides={"verdict_policy": {"supported_requires_evidence": False}},
        )
    for override in (
        {"aggregation": {"abstention": "exclude"}},
        {"claim_policy": {"use_question": False}},
    ):
        with pytest.raises(ValueError, match="unknown spec field"):
            triqua.check(CURIE, documents=DOCS, spec_overrides=override)


def test_spec_policies_follow_the_settings() -> None:
    report = triqua.check(
        CURIE,
        documents=DOCS,
        delta=5,
        max_qualifiers=2,
        routing="never_reverify",
        max_results=3,
        chunk_size=120,
        as_of="2024-01-31",
    )
    policy = report.spec.verdict_policy
    assert (policy.delta, policy.max_qualifiers, policy.reverify_rounds) == (5, 2, 0)
    assert report.spec.budget.max_results == 3
    assert report.spec.claim_policy.chunk_size == 120
    assert str(report.spec.as_of) == "2024-01-31"


def test_the_spec_names_the_element_graph_builder_that_routed() -> None:
    """``elements='parse'`` names the builder's revision, so two graph versions differ."""
    from triqua.engines.elements import ELEMENT_GRAPH_REVISION

    parsed = triqua.check(CURIE, documents=DOCS, cache=False)
    assert parsed.spec.verdict_policy.elements == "parse"
    assert parsed.spec.models["elements"] == ELEMENT_GRAPH_REVISION
    assert ELEMENT_GRAPH_REVISION.startswith("element-graph/")
    from_facts = triqua.check(CURIE, documents=DOCS, elements="facts", cache=False)
    assert "elements" not in from_facts.spec.models  # the facts' graph: the decomposer's
    other = parsed.spec.model_copy(
        update={"models": {**parsed.spec.models, "elements": "element-graph/1"}}
    )
    assert other.hash != parsed.spec.hash
