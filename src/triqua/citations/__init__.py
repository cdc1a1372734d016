"""Citation checks: do the sources a text cites for a claim support that claim?

A text may carry ``[1]``-style markers and a source list at its end (lines such as
``[1] https://…`` or ``[2]: path/to/file.md``, or a "References"/"Sources" section).
:func:`parse_citations` removes the list and the markers, giving the text to check, and
remembers where each marker stood. After a run, :func:`check_citations` maps each claim to
the markers in or right after its sentence, judges the claim against each cited source alone
(and, when no single source does, against all of them together), and reports citation
completeness and link correctness (see :mod:`triqua.metrics`).

The package splits by concept: ``models`` (the types), ``parsing`` (markers and source list),
``sources`` (cited sources as evidence), ``judging`` (links, joint verdicts, the report) and
``run`` (:func:`check_cited`).

How a claim's links are scored (the run's :class:`~triqua.schema.CitationPolicy`): a claim
is *contradicted* when any of its cited sources (alone, or all together) contradicts it, and
is then never complete, whatever another source says; *complete* when one source, or all
together, supports every unit; *partial* when its sources support some units but not all;
else *unsupported* — judged on the cited sources only: evidence the claim does not cite
(``-e`` files, a corpus) joins the claim's one verdict but never its completeness.
Completeness credits complete claims ``complete_weight`` (1) and partial ones
``partial_weight`` (0 unless set: the evidence contract scores completeness 0 or 1). Link
correctness is the share of all links whose source contributes support (supports the claim
or some of its units, contradicts none): unavailable links stay in the denominator and are
also counted apart (``unavailable_links``, ``unavailable_rate``); ``judged_link_correctness``
leaves them out.

Local file paths are read; URLs are matched against supplied documents with that ``source``
and are never fetched (an unmatched URL is reported as unavailable).
"""

from triqua.citations.judging import check_citations, with_citation_verdicts
from triqua.citations.parsing import claim_keys, parse_citations
from triqua.citations.run import check_cited
from triqua.citations.sources import WHOLE_DOCUMENT_CHARS, resolve_source
from triqua.schema.citations import (
    CitationLink,
    CitationMarker,
    CitationReport,
    CitationSource,
    CitedText,
    ClaimCitation,
    Support,
)

__all__ = [
    "WHOLE_DOCUMENT_CHARS",
    "CitationLink",
    "CitationMarker",
    "CitationReport",
    "CitationSource",
    "CitedText",
    "ClaimCitation",
    "Support",
    "check_citations",
    "check_cited",
    "claim_keys",
    "parse_citations",
    "resolve_source",
    "with_citation_verdicts",
]
