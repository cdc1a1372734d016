"""Shared fixtures: scripted models keyed by prompt content, isolated data directories."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from triqua.testing import (
    ScriptedChatModel,
    batch_responder,
    best_quote,
    fenced,
    passages,
    shown_text,
)

if TYPE_CHECKING:
    from triqua.engines.offline.decompose.decomposer import RuleDecomposer
    from triqua.schema import Fact

FRANCE = "As of 2026, France has a population of 64.5 million, excluding overseas departments."
CURIE = "Marie Curie won the Nobel Prize in Physics in 1903."
PARIS = "Paris is the capital of France."

FACTS_BY_SENTENCE: dict[str, list[dict[str, Any]]] = {
    FRANCE: [
        {
            "subject": "France",
            "relation": "has population",
            "object": "64.5 million",
            "qualifiers": [
                {"label": "point in time", "value": "2026"},
                {"label": "excluding", "value": "overseas departments"},
            ],
            "source_sentence": FRANCE,
        }
    ],
    CURIE: [
        {
            "subject": "Marie Curie",
            "relation": "won",
            "object": "Nobel Prize in Physics",
            "qualifiers": [{"label": "point in time", "value": "1903"}],
            "source_sentence": CURIE,
        }
    ],
    PARIS: [
        {
            "subject": "Paris",
            "relation": "is capital of",
            "object": "France",
            "qualifiers": [],
            "source_sentence": PARIS,
        }
    ],
}

EVIDENCE_ID = re.compile(r"<<<EVIDENCE id=(ev-[0-9a-f]+)>>>")


def decompose_by_table(text: str) -> dict[str, Any]:
    """Facts for every occurrence of a known sentence in the fenced text, in text order."""
    found = sorted(
        (match.start(), sentence)
        for sentence in FACTS_BY_SENTENCE
        for match in re.finditer(re.escape(sentence), text)
    )
    return {"facts": [fact for _, sentence in found for fact in FACTS_BY_SENTENCE[sentence]]}


def default_judgement(fact: str, prompt: str) -> dict[str, Any]:
    """Judge by looking for the fact's words in the fenced evidence (a crude, honest judge).

    It cites the first passage and quotes its sentence closest to the fact (or unit), as the
    grounding rule asks; unrelated evidence then fails the rule, not the judge.
    """
    ids = EVIDENCE_ID.findall(prompt)
    if not ids:
        return {"status": "insufficient_evidence", "rationale": "no evidence"}
    passage = passages(prompt).get(ids[0], "")
    evidence = prompt[prompt.find("<<<EVIDENCE") :].lower()
    units = re.findall(r"^- (\(.*\))$", prompt, flags=re.M)
    if "2026" in fact and "2025" in evidence:
        return {
            "status": "contradicted",
            "wrong_components": ["(point in time, 2026)"],
            "error_spans": ["2026"],
            "unit_verdicts": [
                {
                    "unit": u,
                    "status": "contradicted" if "2026" in u else "supported",
                    "quote": best_quote(passage, fact),
                }
                for u in units
            ],
            "evidence_ids": ids[:1],
            "quote": best_quote(passage, fact),
            "confidence": 0.9,
        }
    return {
        "status": "supported",
        "unit_verdicts": [
            {"unit": u, "status": "supported", "quote": best_quote(passage, fact + " " + u)}
            for u in units
        ],
        "evidence_ids": ids[:1],
        "quote": best_quote(passage, fact),
        "confidence": 0.8,
    }


def make_responder(
    judge: Callable[[str, str], dict[str, Any] | str] = default_judgement,
) -> Callable[[str, str], dict[str, Any] | str]:
    """A responder answering each role from the prompt's fenced content."""

    def respond(tool: str, prompt: str) -> dict[str, Any] | str:
        if tool == "ExtractedFacts":
            return decompose_by_table(shown_text(prompt))
        if tool == "Judgement":
            return judge(fenced(prompt, "FACT"), prompt)
        if tool == "Verdicts":  # models built with split_batches=False
            return batch_responder(judge)(tool, prompt)
        if tool == "RefinedQueries":
            units = re.findall(r"^- (\(.*\))$", prompt, flags=re.M)
            round_index = re.search(r"Round (\d+)\.", prompt)
            suffix = (
                f" round {round_index.group(1)}"
                if round_index and round_index.group(1) != "1"
                else ""
            )
            return {"queries": [f"refined {u}{suffix}" for u in units]}
        if tool == "CoverageJudgement":
            # Every scripted answer addresses its question (tests of coverage script their own).
            return {"verdict": "addressed", "missing": [], "rationale": "scripted"}
        raise AssertionError(f"unexpected schema {tool!r}")

    return respond


@pytest.fixture
def scripted() -> Callable[..., ScriptedChatModel]:
    """Factory for scripted chat models."""

    def build(
        judge: Callable[[str, str], dict[str, Any] | str] = default_judgement,
    ) -> ScriptedChatModel:
        return ScriptedChatModel(responder=make_responder(judge))

    return build


@pytest.fixture
def per_fact_verification(monkeypatch: pytest.MonkeyPatch) -> None:
    """One verification call per fact (``verify_batch`` 1), for tests about per-fact calls.

    Modules that count, fault or stall the per-fact ``Judgement`` call use it; the default
    (batched) path is tested by every other module and, verdict for verdict against this
    one, by ``test_verify_batch.py``.
    """
    monkeypatch.setenv("TRIQUA_VERIFY_BATCH", "1")


@pytest.fixture(autouse=True)
def isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keep every test's data directory and settings away from the user's."""
    monkeypatch.setenv("TRIQUA_HOME", str(tmp_path_factory.mktemp("triqua-home")))
    for name in ("TRIQUA_MODEL", "TRIQUA_RETRIEVER", "TAVILY_API_KEY", "TRIQUA_COLLECTION"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def evidence(tmp_path: Path) -> Path:
    """An evidence file stating the Curie and France facts the CLI tests check."""
    path = tmp_path / "evidence.md"
    path.write_text(
        "Marie Curie won the Nobel Prize in Physics in 1903.\n\n"
        "France had a population of 64.5 million in 2025, excluding overseas departments.\n",
        encoding="utf-8",
    )
    return path


@pytest.fixture(scope="session")
def decomposer() -> RuleDecomposer:
    """The offline rule decomposer, loaded once for every test that reads its facts."""
    from triqua.engines.offline.decompose.decomposer import get_decomposer

    return get_decomposer()


def triples(facts: list[Fact]) -> set[tuple[str, str, str]]:
    """The (subject, relation, object) of each fact, to compare decompositions as sets."""
    return {(f.subject, f.relation, f.object) for f in facts}
