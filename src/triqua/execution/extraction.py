"""Extraction alone (``triqua extract``): the check graph's front, without verification.

The text is decomposed by the same engines, settings and rules as a check (the language
and input checks, check-worthiness, founded facts, ``max_facts``), so the facts it gives are
those a check would verify, numbered as a check numbers them. Nothing is stored: an
extraction is not a check run.
"""

from __future__ import annotations

from dataclasses import dataclass

from triqua.context import Context
from triqua.execution.check_run import refuse_language
from triqua.execution.runner import ainvoke, graph_input
from triqua.schema import ChunkFailure, Fact, NotCheckworthySentence, UnfoundedFact

__all__ = ["Extraction", "aextract"]


@dataclass(frozen=True)
class Extraction:
    """The facts of a text and what decomposition left out of them."""

    facts: list[Fact]
    #: Facts dropped because the text does not state them.
    unfounded: list[UnfoundedFact]
    #: Sentences set aside as not check-worthy (their facts are not in ``facts``).
    not_checkworthy: list[NotCheckworthySentence]
    #: Chunks not decomposed (an engine error, or a limit reached).
    failed_chunks: list[ChunkFailure]
    #: Facts past ``max_facts``.
    unverified: list[Fact]
    errors: list[str]
    notes: list[str]


async def aextract(text: str, *, question: str | None, context: Context) -> Extraction:
    """Decompose ``text`` as a check would, and return its facts in text order.

    Raises:
        ValueError: for text the run cannot take (empty, too long, a language the
            decomposer cannot read).
    """
    from triqua.core.text.inputs import validate_text
    from triqua.graph.main import extraction_graph

    validate_text(text, context)  # its length, cheap, before reading its language
    refuse_language(text, context)
    state = graph_input(text, question, None, None)
    out = await ainvoke(state, context=context, graph=extraction_graph())
    return Extraction(
        facts=[Fact.model_validate(task["fact"]) for task in out.get("tasks", [])],
        unfounded=out.get("unfounded_facts", []),
        not_checkworthy=[s for s in out.get("not_checkworthy", []) if not s.kept],
        failed_chunks=out.get("failed_chunks", []),
        unverified=out.get("unverified_facts", []),
        errors=out.get("errors", []),
        notes=out.get("notes", []),
    )
