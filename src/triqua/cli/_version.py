"""``triqua --version``: the package, the offline engine's revisions and the spec version.

These are the strings recorded in every report, so a result can be matched to the code
that produced it.
"""

from __future__ import annotations


def version_lines() -> list[str]:
    """One 'name value' line each: package, report schema, spec, offline engine parts."""
    from triqua import __version__
    from triqua.engines.revisions import (
        DECOMPOSER_REVISION,
        ELEMENT_GRAPH_REVISION,
        verifier_revision,
    )
    from triqua.models.revisions import MODEL_REVISION
    from triqua.schema import REPORT_SCHEMA_VERSION, FactualitySpec

    return [
        f"triqua {__version__}",  # the code that runs, installed or not
        f"report schema {REPORT_SCHEMA_VERSION}",
        f"factuality spec {FactualitySpec().version}",
        f"offline decomposer {DECOMPOSER_REVISION}",
        f"offline verifier {verifier_revision()}",
        f"element graph {ELEMENT_GRAPH_REVISION}",
        f"embeddings {MODEL_REVISION}",
    ]
