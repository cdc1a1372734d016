"""Prompt templates and few-shot examples, kept as data files beside this module.

Candidate text, questions and evidence are always fenced between markers so that
instructions inside them are treated as data (see ``fence``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any, Literal, NamedTuple

PromptMode = Literal["question+chunks", "question", "chunks", "plain"]


def compact_schema(schema: dict[str, Any]) -> None:
    """Trim a model's JSON schema as sent with every call: what the prompt already says goes.

    Used as ``json_schema_extra``: the docstring, property defaults and the ``string`` type
    beside an ``enum`` are dropped (parsing still applies the model's defaults and types).
    """
    schema.pop("description", None)
    for prop in schema.get("properties", {}).values():
        prop.pop("default", None)
        prop.pop("description", None)
        if "enum" in prop:
            prop.pop("type", None)


@cache
def load_text(name: str) -> str:
    """Read a prompt file shipped in this package."""
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


@cache
def decompose_examples() -> list[dict[str, Any]]:
    """The decomposition few-shot examples."""
    data: list[dict[str, Any]] = json.loads(load_text("decompose_examples.json"))
    return data


def fence(tag: str, body: str, **attrs: str) -> str:
    """Wrap ``body`` in data markers; marker look-alikes inside the body are neutralised."""
    cleaned = body.replace("<<<", "‹‹‹").replace(">>>", "›››")
    attr_text = "".join(f" {k}={v}" for k, v in attrs.items())
    return f"<<<{tag}{attr_text}>>>\n{cleaned}\n<<<END {tag}>>>"


def as_of_line(as_of: str) -> str:
    """The judge's date line: claims are judged as of ``as_of`` (an ISO date)."""
    return (
        f"Date: judge the facts as of {as_of}. A fact about the present holds only if the "
        "evidence shows it held on that date; evidence dated later does not count against it."
    )


def prompt_mode(*, has_question: bool, chunked: bool) -> PromptMode:
    """Pick one of the four decomposition modes (question × chunking)."""
    if has_question:
        return "question+chunks" if chunked else "question"
    return "chunks" if chunked else "plain"


def numbered_sentences(
    text: str, spans: Sequence[tuple[int, int]] | None = None, first: int = 1
) -> str:
    """``text`` one sentence a line, each after its number (from ``first``), whitespace collapsed.

    The decomposition answer cites a sentence by this number instead of copying it; the
    engine maps the number back to the sentence's exact span (``spans``, as
    :func:`triqua.sentences.sentence_spans` gives them, computed when not given).
    """
    if spans is None:
        from triqua.sentences import sentence_spans

        spans = sentence_spans(text)
    return "\n".join(f"{n} {' '.join(text[s:e].split())}" for n, (s, e) in enumerate(spans, first))


class PromptPart(NamedTuple):
    """One chunk as a decomposition prompt shows it: its text, its PREVIOUS, its sentences."""

    text: str
    previous: str | None = None
    spans: Sequence[tuple[int, int]] | None = None


def decompose_user_prompt(
    text: str,
    *,
    question: str | None,
    previous_chunk: str | None,
    chunked: bool,
    spans: Sequence[tuple[int, int]] | None = None,
) -> str:
    """Build the user message for one chunk's decomposition call in the matching prompt mode.

    What the question and the previous chunk are for is said once, in the system prompt
    (``decompose_system.md``), not in every message and every few-shot example; the first
    chunk of a chunked text has no PREVIOUS block. TEXT is shown as numbered sentences
    (:func:`numbered_sentences`, of ``spans`` when given).
    """
    part = PromptPart(text, previous_chunk, spans)
    return decompose_parts_prompt([part], question=question, chunked=chunked)


def decompose_parts_prompt(
    parts: Sequence[PromptPart], *, question: str | None, chunked: bool
) -> str:
    """The user message for consecutive chunks decomposed in one call, as TriQua shows them.

    Each chunk is its own TEXT block after its own PREVIOUS block (the chunk before it; none
    for the text's first chunk, and none outside the chunk modes), so several chunks share a
    call's prompt and schema while each is read exactly as in a call of its own. Sentence
    numbers run on across the TEXT blocks, so an answer row names one sentence of one chunk.
    """
    from triqua.sentences import sentence_spans

    mode = prompt_mode(has_question=bool(question), chunked=chunked)
    blocks = [f"Mode: {mode}."]
    if question:
        blocks.append(fence("QUESTION", question))
    number = 1
    for part in parts:
        spans = part.spans if part.spans is not None else sentence_spans(part.text)
        if chunked and part.previous:
            blocks.append(fence("PREVIOUS", part.previous))
        blocks.append(fence("TEXT", numbered_sentences(part.text, spans, number)))
        number += len(spans)
    return "\n\n".join(blocks)


def compact_answer(facts: list[dict[str, Any]]) -> dict[str, Any]:
    """Facts in the long form (``subject``, ..., ``source_sentence``) grouped by sentence text.

    The earlier answer form (each sentence copied once, its facts with fields ``s``, ``r``,
    ``o``, ``q``), still accepted from a model; :func:`numbered_answer` is the one asked for.
    Consecutive facts of one sentence share its group.
    """
    groups: list[dict[str, Any]] = []
    for fact in facts:
        sentence = fact.get("source_sentence", "")
        item = {
            "s": fact["subject"],
            "r": fact["relation"],
            "o": fact.get("object", ""),
            "q": [[q["label"], q["value"]] for q in fact.get("qualifiers") or []],
        }
        if groups and groups[-1]["sentence"] == sentence:
            groups[-1]["facts"].append(item)
        else:
            groups.append({"sentence": sentence, "facts": [item]})
    return {"sentences": groups}


def numbered_answer(facts: list[dict[str, Any]], sentences: Sequence[str]) -> dict[str, Any]:
    """Facts in the long form as the model answers them: one row per fact, citing its sentence.

    Each row is ``[sentence number, subject, relation, object, label, value, …]``: the
    sentence by its number among ``sentences`` (as :func:`numbered_sentences` shows them),
    qualifiers as flat label, value pairs, so no sentence is copied and no field is named.

    Raises:
        ValueError: when a fact's ``source_sentence`` is none of ``sentences``.
    """
    lines = [" ".join(text.split()) for text in sentences]
    rows: list[list[str | int]] = []
    cursor = 0  # a sentence the text repeats: the occurrence at or after the last one cited
    for fact in facts:
        sentence = " ".join(str(fact.get("source_sentence", "")).split())
        if sentence not in lines:
            raise ValueError(f"source sentence {sentence!r} is not one of the numbered sentences")
        at = lines.index(sentence, cursor) if sentence in lines[cursor:] else lines.index(sentence)
        cursor = at
        row: list[str | int] = [at + 1, fact["subject"], fact["relation"]]
        row.append(fact.get("object", ""))
        for q in fact.get("qualifiers") or []:
            row.extend([q["label"], q["value"]])
        rows.append(row)
    return {"f": rows}


def shown_sentences(prompt: str) -> list[str]:
    """The numbered sentences of a decomposition prompt's input, in order.

    The input is the last "Mode:" message (few-shot examples before it carry the same
    markers); its TEXT blocks are read in order, one per chunk it shows.
    """
    body = prompt[prompt.rfind("Mode: ") :]
    lines: list[str] = []
    start = body.find("<<<TEXT>>>\n")
    while start >= 0:
        end = body.find("\n<<<END TEXT>>>", start)
        if end < 0:
            break
        block = body[start + len("<<<TEXT>>>\n") : end]
        lines += [line.partition(" ")[2] for line in block.splitlines() if line.strip()]
        start = body.find("<<<TEXT>>>\n", end)
    return lines


def decompose_few_shot(mode: PromptMode) -> list[tuple[str, str]]:
    """Few-shot (user, assistant-json) pairs rendered in ``mode``, the run's prompt mode.

    Each example is shown as the model will see the real input: with its question only in
    the question modes, and with its previous chunk only in the chunk modes (an example
    without one is a first chunk). An example whose references need its previous chunk is
    left out of the plain mode, where nothing could resolve them.

    Raises:
        ValueError: when an example lacks the question a question mode shows.
    """
    with_question = mode.startswith("question")
    chunked = mode.endswith("chunks")
    pairs = []
    for example in decompose_examples():
        question = example.get("question") if with_question else None
        if with_question and not question:
            raise ValueError(f"decomposition example {example['text']!r} has no question")
        if "previous" in example and not (question or chunked):
            continue
        user = decompose_user_prompt(
            example["text"],
            question=question,
            previous_chunk=example.get("previous"),
            chunked=chunked,
        )
        answer = numbered_answer(example["facts"], shown_sentences(user))
        pairs.append((user, json.dumps(answer, ensure_ascii=False, separators=(",", ":"))))
    return pairs


@cache
def decompose_system(mode: PromptMode) -> str:
    """The decomposition system prompt with its few-shot examples rendered in ``mode``."""
    examples = [f"Input:\n{user}\nOutput:\n{answer}" for user, answer in decompose_few_shot(mode)]
    notes: dict[str, str] = json.loads(load_text("decompose_modes.json"))
    system = load_text("decompose_system.md").replace("{mode_note}", notes[mode])
    return system + "\n\nExamples:\n\n" + "\n\n".join(examples)
