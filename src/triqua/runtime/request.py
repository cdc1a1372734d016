"""A check's request: its settings and input, validated, converted and split once.

:func:`build_request` is the one place a check's input is made ready: the text is checked
(a string, not empty, within ``max_input_chars``, in a language the decomposer reads), the
documents are converted to :class:`~triqua.schema.Document` and held to
``max_evidence_bytes``, and the text is cut into its chunks (a sentence above
``max_sentence_chars`` a chunk of its own). The API builds it once per check; the run
carries it in the invocation config (:data:`REQUEST_KEY`), and the graph's ``prepare`` and
``split`` nodes take its work as done instead of doing it again. A graph invoked without
one (Studio, a LangGraph server, a resumed run) does that work itself, as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from triqua.context import Context
from triqua.schema import Chunk, Document, Fact

__all__ = ["REQUEST_KEY", "CheckRequest", "build_request", "refuse_language", "request_of"]

#: The invocation config's key (``configurable``) for the run's request.
REQUEST_KEY = "triqua_request"


def refuse_language(text: str, context: Context) -> None:
    """Refuse, before any work, text in a language the run's decomposer cannot read.

    Raises:
        ValueError: one line naming the language and how to check it.
    """
    from triqua.core.text.language import language_problem

    offline = context.model_for("decompose") is None
    problem = language_problem(text, context.language, offline_decomposer=offline)
    if problem:
        raise ValueError(problem)


@dataclass(frozen=True, eq=False)
class CheckRequest:
    """One check, ready to run: its settings, its valid text, documents and chunks.

    Built by :func:`build_request` only; everything after it (the run, the graph's nodes)
    trusts what it holds.
    """

    #: The run's settings, validated.
    context: Context
    #: The text to check (its facts' text when given facts are checked).
    text: str
    question: str | None
    #: The supplied documents, converted and within ``max_evidence_bytes`` (empty: none).
    documents: tuple[Document, ...]
    spec_overrides: dict[str, Any] | None
    #: The caller's id of this case (a batch line's id), kept in every record.
    case_id: str | None
    #: Facts to check as they are (``triqua verify``): the text is not decomposed.
    facts: tuple[Fact, ...] | None
    #: The text's chunks, in text order, offsets into ``text``.
    chunks: tuple[Chunk, ...]
    #: Indices of the chunks that are sentences over ``max_sentence_chars`` (not decomposed).
    long: tuple[int, ...]

    def graph_input(self, run_id: str) -> dict[str, Any]:
        """The check graph's input state for this request under ``run_id``."""
        state: dict[str, Any] = {
            "text": self.text,
            "question": self.question,
            "documents": list(self.documents) or None,
            "spec_overrides": self.spec_overrides,
            "run_id": run_id,
        }
        if self.case_id:
            state["case_id"] = self.case_id
        if self.facts is not None:
            state["given_facts"] = list(self.facts)
        return state

    def serves(self, state: Mapping[str, object]) -> bool:
        """Whether ``state`` is this request's run (its text, unedited), so its work holds."""
        return state.get("text") == self.text


def build_request(
    text: str,
    context: Context,
    *,
    question: str | None = None,
    documents: Sequence[Document | str | dict[str, Any]] | None = None,
    spec_overrides: dict[str, Any] | None = None,
    case_id: str | None = None,
    facts: Sequence[Fact] | None = None,
) -> CheckRequest:
    """The request of one check under ``context`` (already validated by ``make_context``).

    The checks run cheapest first: the text (its length included), its language, the
    documents, then their size.

    Raises:
        ValueError: for text the run cannot take (not a string, empty, too long, in a
            language the decomposer cannot read) or documents it cannot use.
    """
    from triqua.core.text.chunking import split_text
    from triqua.core.text.inputs import check_evidence_size, coerce_documents, validate_text
    from triqua.core.text.intake import normalise_text
    from triqua.core.text.long_sentences import chunks_to_check

    if not isinstance(text, str):
        validate_text(text, context)  # raises: the text is no string
    text = normalise_text(text)  # every reader sees the same words
    validate_text(text, context)  # its length, cheap, before reading its language
    refuse_language(text, context)
    converted = coerce_documents(documents)
    check_evidence_size(converted, context)
    long: list[int] = []
    if facts is not None:  # given facts are placed in chunks; nothing is decomposed
        chunks = split_text(text, context.chunk_size)
    else:
        chunks, long = chunks_to_check(text, context.chunk_size, context.max_sentence_chars)
    return CheckRequest(
        context=context,
        text=text,
        question=question,
        documents=tuple(converted),
        spec_overrides=spec_overrides,
        case_id=case_id,
        facts=tuple(facts) if facts is not None else None,
        chunks=tuple(chunks),
        long=tuple(long),
    )


def request_of(state: Mapping[str, object]) -> CheckRequest | None:
    """The request of the running invocation when ``state`` is its run (call inside a node).

    None outside triqua's runner, or when the state's text is not the request's (edited
    since, in Studio): the node then does the request's work itself.
    """
    from langgraph.config import get_config

    try:
        found = get_config().get("configurable", {}).get(REQUEST_KEY)
    except RuntimeError:  # not inside a graph invocation
        return None
    return found if isinstance(found, CheckRequest) and found.serves(state) else None
