"""``check_cited``: check a text that cites its sources, then each claim against what it cites."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any

from triqua.citations.judging import check_citations, with_citation_verdicts
from triqua.citations.parsing import parse_citations
from triqua.citations.sources import resolve_source
from triqua.context import Context
from triqua.schema import Document, Report
from triqua.schema.citations import CitationReport

#: ``check_cited`` arguments that go into the check's request, not its run.
_REQUEST_KEYS = ("question", "spec_overrides", "case_id")


def check_cited(
    text: str,
    *,
    documents: Sequence[Document | str | dict[str, Any]] | None = None,
    base_dir: str | Path | None = None,
    weights: Mapping[str, float] | None = None,
    **check_kwargs: Any,
) -> tuple[Report, CitationReport]:
    """Check a text that cites its sources: the facts, then each claim against what it cites.

    The source list is taken out of the text before checking; without other evidence, the
    readable cited sources are the run's documents. Each claim then gets one verdict, its
    citation judgement (see :func:`with_citation_verdicts`), saved as the run's next
    revision when the run is stored. ``check_kwargs`` go to :func:`triqua.check` (model,
    retriever, store, …).
    """
    from triqua.api import make_context, make_request, run_request
    from triqua.engines.factory import resolve_engines

    cited = parse_citations(text)
    context_keys = {f.name for f in dataclass_fields(Context)}
    settings = {k: v for k, v in check_kwargs.items() if k in context_keys and k != "model"}
    context = make_context(check_kwargs.get("context"), model=check_kwargs.get("model"), **settings)
    other_evidence = bool(documents) or context.retriever != "auto"
    if not other_evidence:
        # No evidence given: the cited sources that can be read are the run's documents.
        documents = [
            d
            for source in cited.sources.values()
            for d in resolve_source(source, (), base_dir, context.allow_paths)[0]
        ]
    # The check's one request (documents converted once) and its run.
    given = {k: check_kwargs.pop(k) for k in _REQUEST_KEYS if k in check_kwargs}
    run = {k: v for k, v in check_kwargs.items() if k not in {"context", *context_keys}}
    request = make_request(cited.text, context, documents=documents or None, **given)
    report = run_request(request, **run)
    citations = check_citations(
        report,
        cited,
        resolve_engines(context).judge,
        documents=list(request.documents),
        base_dir=base_dir,
        weights=weights,
        allow_paths=context.allow_paths,
        policy=report.spec.citations,
        supported_threshold=context.supported_threshold(),
        run_evidence=other_evidence,
    )
    judged = with_citation_verdicts(report, citations)
    if judged is not report:
        _store_revision(judged, check_kwargs.get("store"))
    return judged, citations


def _store_revision(report: Report, store: Any) -> None:
    """Save ``report`` as its run's next revision when the run was saved (``store``)."""
    from triqua.store import resolve_store

    runs = resolve_store(store)
    if runs is None:
        return
    try:
        runs.append_report(report)
    except ValueError:  # the run was not saved there (a cached report): nothing to revise
        return
