"""Prompt templates and few-shot examples, kept as data files beside this module.

Candidate text, questions and evidence are always fenced between markers so that
instructions inside them are treated as data (see ``fence``).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, Literal

PromptMode = Literal["question+chunks", "question", "chunks", "plain"]


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


def prompt_mode(*, has_question: bool, chunked: bool) -> PromptMode:
    """Pick one of the four decomposition modes (question × chunking)."""
    if has_question:
        return "question+chunks" if chunked else "question"
    return "chunks" if chunked else "plain"


def decompose_user_prompt(
    text: str, *, question: str | None, previous_chunk: str | None, chunked: bool
) -> str:
    """Build the user message for one decomposition call in the matching prompt mode."""
    mode = prompt_mode(has_question=bool(question), chunked=chunked)
    parts = [f"Mode: {mode}."]
    if question:
        parts.append("The text answers this question; use it to resolve references.")
        parts.append(fence("QUESTION", question))
    if chunked:
        parts.append(
            "The text is one chunk of a longer text. The previous chunk is context only: "
            "extract facts from the TEXT chunk alone."
        )
        parts.append(fence("PREVIOUS", previous_chunk or "(none: this is the first chunk)"))
    parts.append(fence("TEXT", text))
    return "\n\n".join(parts)


def decompose_few_shot(mode: PromptMode) -> list[tuple[str, str]]:
    """Few-shot (user, assistant-json) pairs rendered in ``mode``."""
    pairs = []
    for example in decompose_examples():
        question = example.get("question") if mode.startswith("question") else None
        chunked = mode in ("question+chunks", "chunks")
        user = decompose_user_prompt(
            example["text"],
            question=question,
            previous_chunk=example.get("previous"),
            chunked=chunked,
        )
        pairs.append((user, json.dumps({"facts": example["facts"]}, ensure_ascii=False)))
    return pairs
