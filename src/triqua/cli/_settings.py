"""The settings flags ``check`` and ``batch`` share, declared once.

A new setting flag is one option type in ``_common`` and one row of :data:`SETTINGS_FLAGS`;
:func:`settings_flags` gives it to every command that runs checks.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, get_args

from triqua.cli._common import (
    ROUTING,
    AllowDomainOption,
    AllowPathOption,
    AsOfOption,
    BlockDomainOption,
    CandidatesOption,
    CasePopulationOption,
    ChromaUrlOption,
    ChunkSizeOption,
    CitationWeightsOption,
    CollectionOption,
    CostFalseContradictedOption,
    CostFalseSupportedOption,
    CoverageOption,
    DecisionOption,
    DecomposeBatchOption,
    DeltaOption,
    GroundingOption,
    KeepUncheckworthyOption,
    LanguageOption,
    MaxCallsOption,
    MaxEvidenceBytesOption,
    MaxFactsOption,
    MaxInputCharsOption,
    MaxSearchesOption,
    MaxSentenceCharsOption,
    ModelTimeoutOption,
    RerankModelOption,
    RerankOption,
    RetrieverOption,
    RoutingOption,
    SearchTimeoutOption,
    TemperatureOption,
    TopKOption,
    VerifierOption,
    VerifyBatchOption,
    fail,
)
from triqua.context import GroundingMode

#: Each settings flag, in ``--help`` order: its parameter, its option type and the
#: ``Context`` field it sets (``citation_weights`` sets two, see :func:`given_settings`).
SETTINGS_FLAGS: tuple[tuple[str, Any, str], ...] = (
    ("retriever", RetrieverOption, "retriever"),
    ("collection", CollectionOption, "collection"),
    ("chroma_url", ChromaUrlOption, "chroma_url"),
    ("chunk_size", ChunkSizeOption, "chunk_size"),
    ("decompose_batch_chars", DecomposeBatchOption, "decompose_batch_chars"),
    ("verify_batch", VerifyBatchOption, "verify_batch"),
    ("max_searches", MaxSearchesOption, "max_searches"),
    ("max_facts", MaxFactsOption, "max_facts"),
    ("max_input_chars", MaxInputCharsOption, "max_input_chars"),
    ("max_sentence_chars", MaxSentenceCharsOption, "max_sentence_chars"),
    ("max_evidence_bytes", MaxEvidenceBytesOption, "max_evidence_bytes"),
    ("max_calls", MaxCallsOption, "max_calls"),
    ("model_timeout", ModelTimeoutOption, "model_timeout"),
    ("search_timeout", SearchTimeoutOption, "search_timeout"),
    ("allow_path", AllowPathOption, "allow_paths"),
    ("delta", DeltaOption, "delta"),
    ("routing", RoutingOption, "routing"),
    ("top_k", TopKOption, "max_results"),
    ("candidates", CandidatesOption, "candidates"),
    ("rerank", RerankOption, "rerank"),
    ("rerank_model", RerankModelOption, "rerank_model"),
    ("verifier", VerifierOption, "verifier"),
    ("grounding", GroundingOption, "grounding"),
    ("keep_uncheckworthy", KeepUncheckworthyOption, "keep_uncheckworthy"),
    ("coverage", CoverageOption, "requested_coverage"),
    ("as_of", AsOfOption, "as_of"),
    ("language", LanguageOption, "language"),
    ("allow_domain", AllowDomainOption, "include_domains"),
    ("block_domain", BlockDomainOption, "exclude_domains"),
    ("temperature", TemperatureOption, "temperature"),
    ("decision", DecisionOption, "decision"),
    ("case_population", CasePopulationOption, "case_population"),
    ("cost_false_supported", CostFalseSupportedOption, "cost_false_supported"),
    ("cost_false_contradicted", CostFalseContradictedOption, "cost_false_contradicted"),
    ("citation_weights", CitationWeightsOption, "citation_weights"),
)


def settings_flags(command: Callable[..., None]) -> Callable[..., None]:
    """``command`` with every settings flag in place of its ``flags`` parameter.

    Typer reads the returned function's signature, so each flag keeps its name, default and
    help. The command receives the flags' values as ``flags`` (``Context`` field name to
    value, None when not given) and checks them with :func:`given_settings` where it
    chooses, so its own argument checks keep their order.
    """
    signature = inspect.signature(command, eval_str=True)
    parameters: list[inspect.Parameter] = []
    for parameter in signature.parameters.values():
        if parameter.name != "flags":
            parameters.append(parameter)
            continue
        parameters += [
            inspect.Parameter(name, parameter.POSITIONAL_OR_KEYWORD, default=None, annotation=kind)
            for name, kind, _ in SETTINGS_FLAGS
        ]

    @functools.wraps(command)
    def with_flags(**values: Any) -> None:
        flags = {field: values.pop(name) for name, _, field in SETTINGS_FLAGS}
        command(**values, flags=flags)

    with_flags.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    return with_flags


#: ``--citation-weights`` keys and the settings they set.
_CITATION_WEIGHTS = {
    "complete": "citation_complete_weight",
    "partial": "citation_partial_weight",
}


def parse_citation_weights(text: str) -> dict[str, float]:
    """``"complete=1,partial=0.25"`` as the settings it sets.

    Raises:
        typer.Exit: with a one-line error for an unknown key or a value that is no number.
    """
    out: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        if not sep or key.strip() not in _CITATION_WEIGHTS:
            raise fail(f"--citation-weights takes complete=W,partial=W, got {part!r}")
        try:
            out[_CITATION_WEIGHTS[key.strip()]] = float(value)
        except ValueError:
            raise fail(
                f"--citation-weights: {key.strip()} must be a number, got {value!r}"
            ) from None
    if not out:
        raise fail("--citation-weights takes complete=W,partial=W")
    return out


def given_settings(**values: Any) -> dict[str, Any]:
    """The ``Context`` settings the user actually gave (options left unset are dropped).

    Paths (``allow_paths``) become strings, as ``Context`` keeps them; ``routing`` takes
    its short names; ``as_of`` must be an ISO date.

    Raises:
        typer.Exit: with a one-line error for a routing mode or date that is not valid.
    """
    given = {name: value for name, value in values.items() if value not in (None, [])}
    if "citation_weights" in given:
        given.update(parse_citation_weights(given.pop("citation_weights")))
    if "allow_paths" in given:
        given["allow_paths"] = [str(p) for p in given["allow_paths"]]
    if "routing" in given:
        if given["routing"] not in ROUTING:
            raise fail(f"--routing must be auto, always or never, got {given['routing']!r}")
        given["routing"] = ROUTING[given["routing"]]
    if "grounding" in given and given["grounding"] not in get_args(GroundingMode):
        raise fail(f"--grounding must be judged, judge or strict, got {given['grounding']!r}")
    if "as_of" in given:
        from datetime import date

        try:
            date.fromisoformat(given["as_of"])
        except ValueError as exc:
            raise fail(f"--as-of must be a date YYYY-MM-DD, got {given['as_of']!r}") from exc
    return given
