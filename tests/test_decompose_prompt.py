"""The decomposition prompt: few-shot examples in the run's mode, property labels, dedup."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import triqua
from triqua.engines.llm.engine import ExtractedFacts, LLMDecomposer, facts_of
from triqua.engines.offline.labels import BARE_PREPOSITIONS
from triqua.prompts import (
    PromptMode,
    decompose_examples,
    decompose_few_shot,
    decompose_system,
    decompose_user_prompt,
)
from triqua.schema import Chunk, Document, Span
from triqua.testing import ScriptedChatModel, fenced, numbered_decomposition, passages

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
    shown = [e for e in decompose_examples() if mode != "plain" or "previous" not in e]
    for answer, example in zip(answers, shown, strict=True):
        parsed = ExtractedFacts.model_validate_json(answer)
        chunk = Chunk(index=0, text=example["text"], start=0, end=len(example["text"]))
        facts = facts_of(parsed, chunk)
        assert [(f.subject, f.relation, f.object) for f in facts] == [
            (f["subject"], f["relation"], f["object"]) for f in example["facts"]
        ]
        assert [[(q.label, q.value) for q in f.qualifiers] for f in facts] == [
            [(q["label"], q["value"]) for q in f["qualifiers"]] for f in example["facts"]
        ]
        text = example["text"]
        assert [f.span for f in facts] == [
            Span(
                start=text.index(f["source_sentence"]),
                end=text.index(f["source_sentence"]) + len(f["source_sentence"]),
            )
            for f in example["facts"]
        ]
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


@pytest.mark.slow
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


@pytest.mark.slow
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


TWO = "Marie Curie was born in Warsaw.  She won the Nobel Prize\nin Physics in 1903."
OFFSET = 40  # the chunk's start in the full text


def _chunk(text: str = TWO) -> Chunk:
    return Chunk(index=2, text=text, start=OFFSET, end=OFFSET + len(text))


def test_the_text_is_shown_as_numbered_sentences_and_rows_cite_them() -> None:
    user = decompose_user_prompt(TWO, question=None, previous_chunk=None, chunked=False)
    assert fenced(user, "TEXT") == (
        "1 Marie Curie was born in Warsaw.\n2 She won the Nobel Prize in Physics in 1903."
    )
    parsed = ExtractedFacts.model_validate(
        {"f": [[2, "Marie Curie", "won", "Nobel Prize in Physics", "point in time", "1903"]]}
    )
    (fact,) = facts_of(parsed, _chunk())
    # The exact sentence of the full text, newline and all, whatever the prompt showed.
    at = TWO.index("She")
    assert fact.span == Span(start=OFFSET + at, end=OFFSET + len(TWO))
    assert fact.source_text == TWO[at:]
    assert [(q.label, q.value) for q in fact.qualifiers] == [("point in time", "1903")]


def test_a_sentence_number_that_is_no_sentence_places_the_fact_by_its_words() -> None:
    parsed = ExtractedFacts.model_validate(
        {"f": [[9, "Marie Curie", "was born in", "Warsaw"], [0, "Rome", "is", "old"]]}
    )
    placed, unplaced = facts_of(parsed, _chunk())
    assert placed.span == Span(start=OFFSET, end=OFFSET + len("Marie Curie was born in Warsaw."))
    assert placed.source_text == "Marie Curie was born in Warsaw."
    # Nothing of the text shares a word with it: the fact is kept on the whole chunk.
    assert unplaced.span == Span(start=OFFSET, end=OFFSET + len(TWO))


@pytest.mark.parametrize(
    "row", [["x", "Marie Curie", "won"], [1, "Marie Curie"], [1, "Marie Curie", "won", 1903]]
)
def test_a_malformed_row_fails_the_answer(row: list[Any]) -> None:
    with pytest.raises(ValueError, match="fact row"):
        ExtractedFacts.model_validate({"f": [row]})


def test_answers_that_copy_the_sentence_are_still_read() -> None:
    # A model answering in an earlier form (no row numbers) still gets exact spans.
    long_form = {
        "facts": [
            {
                "subject": "Marie Curie",
                "relation": "won",
                "object": "Nobel Prize in Physics",
                "qualifiers": [{"label": "point in time", "value": "1903"}],
                "source_sentence": "She won the Nobel Prize\nin Physics in 1903.",
            }
        ]
    }
    grouped = {
        "sentences": [
            {
                "sentence": "She won the Nobel Prize\nin Physics in 1903.",
                "facts": [{"s": "Marie Curie", "r": "won", "o": "Nobel Prize in Physics"}],
            }
        ]
    }
    for answer in (long_form, grouped):
        (fact,) = facts_of(ExtractedFacts.model_validate(answer), _chunk())
        assert fact.span == Span(start=OFFSET + TWO.index("She"), end=OFFSET + len(TWO))


def test_the_scripted_model_answers_with_sentence_numbers() -> None:
    model = ScriptedChatModel(responder=_imitate_few_shot)
    triqua.check(RONALDO, documents=[Document(text=RONALDO, source="r.txt")], model=model)
    # The examples' answers are rows; the scripted model turns a copied-sentence answer into
    # rows from the prompt, and leaves it as it is when asked not to.
    prompt = next(p for tool, p in model.calls if tool == "ExtractedFacts")
    answer = {"facts": [dict(f) for f in decompose_examples()[0]["facts"]]}
    rows = numbered_decomposition(answer, prompt)
    assert rows == {
        "f": [
            [1, "Ronaldo", "won", "Campeonato Paulista", "played for", "Corinthians"],
            [1, "Ronaldo", "won", "Copa do Brasil", "played for", "Corinthians"],
        ]
    }
    assert numbered_decomposition(
        {"facts": [{**answer["facts"][0], "source_sentence": "?"}]}, prompt
    )["facts"]


def test_the_decomposer_reads_rows_and_survives_a_bad_sentence_number() -> None:
    def rows(tool: str, prompt: str) -> dict[str, Any]:
        assert tool == "ExtractedFacts"
        return {
            "f": [
                [1, "Marie Curie", "was born in", "Warsaw"],
                [7, "Marie Curie", "won", "Nobel Prize"],
            ]
        }

    decomposer = LLMDecomposer(ScriptedChatModel(responder=rows), max_retries=0)
    result = decomposer.decompose(_chunk(), previous_chunk=None, question=None, chunked=False)
    assert result.error is None
    born, won = result.facts
    assert born.source_text == "Marie Curie was born in Warsaw."
    # Sentence 7 does not exist: the fact lands on the sentence holding its words.
    assert won.source_text == TWO[TWO.index("She") :]
    assert result.undecomposed == []
