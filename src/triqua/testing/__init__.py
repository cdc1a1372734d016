"""Test doubles for triqua and for agents that embed it: scripted chat models, fault injection.

``ScriptedChatModel`` (``triqua.testing.scripted``) answers from the prompt, never from call
order; ``triqua.testing.faults`` fails on purpose at set rates; ``triqua.testing.endpoint``
serves a responder as a loopback OpenAI-compatible endpoint (for other processes too).
"""

from triqua.testing.scripted import (
    BatchFact,
    BatchPrompt,
    Responder,
    ScriptedChatModel,
    batch_prompts,
    batch_responder,
    best_quote,
    compact_verdict,
    dumps,
    fenced,
    numbered_decomposition,
    passages,
    read_batch_prompt,
    schema_name,
    shown_parts,
    shown_text,
)

__all__ = [
    "BatchFact",
    "BatchPrompt",
    "Responder",
    "ScriptedChatModel",
    "batch_prompts",
    "batch_responder",
    "best_quote",
    "compact_verdict",
    "dumps",
    "fenced",
    "numbered_decomposition",
    "passages",
    "read_batch_prompt",
    "schema_name",
    "shown_parts",
    "shown_text",
]
