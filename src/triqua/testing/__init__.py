"""Test doubles for triqua and for agents that embed it: scripted chat models, fault injection.

``ScriptedChatModel`` (``triqua.testing.scripted``) answers from the prompt, never from call
order; ``triqua.testing.faults`` fails on purpose at set rates; ``triqua.testing.endpoint``
serves a responder as a loopback OpenAI-compatible endpoint (for other processes too).
``triqua.testing.readers.EntailingReader`` entails every unit, so only the grounding rule's
value gates can refuse a quote.
"""

from triqua.testing.batches import (
    BatchFact,
    BatchPrompt,
    batch_prompts,
    batch_responder,
    compact_verdict,
    read_batch_prompt,
)
from triqua.testing.prompt_text import (
    best_quote,
    dumps,
    fenced,
    passages,
    shown_parts,
    shown_text,
)
from triqua.testing.scripted import (
    Responder,
    ScriptedChatModel,
    numbered_decomposition,
    schema_name,
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
