"""The decomposition prompt: few-shot examples in the run's mode, property labels, dedup."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import triqua
from triqua.engines.llm import ExtractedFacts, facts_of
from triqua.engines.offline.decomposer_labels import BARE_PREPOSITIONS
from triqua.prompts import PromptMode, decompose_examples, decompose_few_shot, decompose_system
from triqua.schema import Chunk, Document, Span
from triqua.testing import ScriptedChatModel, fenced, passages

RONALDO = (
    "Ronaldo played for Corinthians, where he won the Campeonato Paulista and the Copa do Brasil."
)
MODES: tuple[PromptMode, ...] = ("plain", "question", "chunks", "question+chunks")


@pytest.mark.parametrize("mode", MODES)
def test_few_shot_examples_are_rendered_in_the_runs_mode(mode: PromptMode) -> None:
    pairs = decompose_few_shot(mode)
    users = [user for user, _ in pairs]
    assert all(user.startswith(f"Mode: {mode}.") for user in users)
    with_question = mode.startswith("question")
    assert all(("<<<QUESTION>>>" in user) is with_question for user in users)
    # Only examples that continue a previous chunk show one, and only in chunk modes.
    needs_context = sum("previous" in e for e in decompose_examples())
    previous = [user for user in users if "<<<PREVIOUS>>>" in user]
    assert len(previous) == (needs_context if mode.endswith("chunks") else 0)
    # An example whose pronoun needs context is left out where nothing could resolve it.
    assert len(pairs) == len(decompose_examples()) - (needs_context if mode == "plain" else 0)
    system = decompose_system(mode)
    assert set(re.findall(r"^Mode: ([a-z+]+)\.", system, flags=re.M)) == {mode}


@pytest.mark.parametrize("mode", MODES)
def test_few_shot_answers_are_in_the_compact_schema_and_keep_the_key_examples(
    mode: PromptMode,
) -> None:
    # The paper's dedup example and the question-mode example are kept; each answer parses
    # with the schema the model is given, into the same facts as the readable example file.
    texts = [e["text"] for e in decompose_examples()]
    assert RONALDO in texts and any(t.startswith("As of 2026, France") for t in texts)
    answers = [answer for _user, answer in decompose_few_shot(mode)]
    for answer, example in zip(answers, decompose_examples(), strict=True):
        parsed = ExtractedFacts.model_validate_json(answer)
        chunk = Chunk(index=0, text=example["text"], start=0, end=len(example["text"]))
        facts = facts_of(parsed, chunk)
        assert [(f.subject, f.relation, f.object) for f in facts] == [
            (f["subject"], f["relation"], f["object"]) for f in example["facts"]
        ]
        assert [[(q.label, q.value) for q in f.qualifiers] for f in facts] == [
            [(q["label"], q["value"]) for q in f["qualifiers"]] for f in example["facts"]
        ]
        assert all(f.span == Span(start=0, end=len(example["text"])) for f in facts)
        assert '"source_sentence"' not in answer and '"subject"' not in answer


def test_the_prompt_says_labels_are_properties_and_no_example_uses_a_preposition() -> None:
    assert "never a preposition" in decompose_system("plain")
    labels = [q["label"] for e in decompose_examples() for f in e["facts"] for q in f["qualifiers"]]
    assert labels and not [label for label in labels if label in BARE_PREPOSITIONS]


def _imitate_few_shot(tool: str, prompt: str) -> dict[str, Any]:
    """A model that answers as its few-shot examples do, and supports what has evidence."""
    if tool == "ExtractedFacts":
        real = fenced(prompt, "TEXT")
        decoder = json.JSONDecoder()
        for block in prompt.split("\nInput:\n")[1:]:
            if fenced(block, "TEXT") == real:
                answer, _ = decoder.raw_decode(block[block.index("Output:\n") + 8 :])
                return dict(answer)
        return {"facts": []}
    if tool == "Judgement":
        found = passages(prompt)
        if not found:
            return {"status": "insufficient_evidence", "rationale": "no evidence"}
        evidence_id, text = next(iter(found.items()))  # the whole passage is a verbatim quote
        return {
            "status": "supported",
            "evidence_ids": [evidence_id],
            "quote": text,
            "confidence": 0.9,
        }
    if tool == "RefinedQueries":
        return {"queries": []}
    raise AssertionError(f"unexpected schema {tool!r}")


def test_the_papers_dedup_example_counts_three_units_end_to_end() -> None:
    # TriQua's example: two facts, (Ronaldo, won, Campeonato Paulista | played for:
    # Corinthians) and (Ronaldo, won, Copa do Brasil | played for: Corinthians). Raw units:
    # 2 base triples + 2 qualifiers = 4; the shared qualifier counts once -> 3 units.
    model = ScriptedChatModel(responder=_imitate_few_shot)
    report = triqua.check(
        RONALDO, documents=[Document(text=RONALDO, source="ronaldo.txt")], model=model
    )
    assert [(r.fact.relation, r.fact.object) for r in report.records] == [
        ("won", "Campeonato Paulista"),
        ("won", "Copa do Brasil"),
    ]
    assert report.scores.units_raw == 4
    assert report.scores.units_total == 3
    assert report.scores.triqua_score == 1.0
    # The model saw the examples in this run's mode (plain: no question, one chunk).
    prompt = next(p for tool, p in model.calls if tool == "ExtractedFacts")
    assert set(re.findall(r"^Mode: ([a-z+]+)\.", prompt, flags=re.M)) == {"plain"}


def test_a_question_run_gets_question_mode_examples() -> None:
    model = ScriptedChatModel(responder=_imitate_few_shot)
    triqua.check(
        RONALDO,
        question="Tell me about Ronaldo.",
        documents=[Document(text=RONALDO, source="ronaldo.txt")],
        model=model,
    )
    prompt = next(p for tool, p in model.calls if tool == "ExtractedFacts")
    assert set(re.findall(r"^Mode: ([a-z+]+)\.", prompt, flags=re.M)) == {"question"}
