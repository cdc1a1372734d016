"""Claim verification with given evidence: triqua (decompose, verify, aggregate) vs direct.

Each row holds a claim, one evidence passage and a gold label. triqua decomposes the claim
into facts, verifies every fact against the passage and aggregates: the claim is supported
only when all its units are, contradicted when any unit is, insufficient evidence otherwise.
The direct baseline judges the whole claim as one fact against the same passage, without
decomposition. Both are scored with per-class precision, recall and F1, macro F1, balanced
accuracy and the confusion matrix; beside the 3-way view, a binary supported-vs-not view,
ElementCheck's Coverage and Overall, and a calibration table of each system's confidence
(``claims_summary``).

The rows and their labels are read by ``claims_data``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from triqua.core.budget.usage import total_usage
from triqua.core.verdicts.scoring import combined_status, label_units, score_facts
from triqua.core.verdicts.settling import settle
from triqua.evals.claims_data import ClaimRow
from triqua.evals.setup import EvalSetup, stamp_settings
from triqua.evals.slices import NO_FACT, NO_QUALIFIER, qualifier_labels
from triqua.schema import Document, Evidence, Fact, Span, Status, Usage, Verdict

__all__ = [
    "ClaimOutcome",
    "claim_confidence",
    "claim_status",
    "direct_facts",
    "verify_claims",
]


def claim_status(pairs: Sequence[tuple[Fact, Verdict]]) -> Status:
    """A claim's verdict from its facts' verdicts, unit by unit (``combined_status``)."""
    return combined_status(pairs)


def claim_confidence(pairs: Sequence[tuple[Fact, Verdict]], status: Status) -> float | None:
    """Confidence in a claim's verdict ``status``, from the facts that decide it.

    Supported needs every checkable fact, so it is as confident as the least confident of
    them; contradicted or insufficient needs one fact whose units carry that status, so it
    is as confident as the most confident such fact. ``None`` when no fact decides it or a
    deciding fact has no confidence.
    """
    deciding = []
    for fact, verdict in pairs:
        statuses = {s for _, s in label_units(fact, verdict) if s is not Status.NOT_CHECKABLE}
        if status is Status.SUPPORTED:
            if statuses:
                deciding.append(verdict.confidence)
        elif status in statuses:
            deciding.append(verdict.confidence)
    known = [c for c in deciding if c is not None]
    if not deciding or len(known) < len(deciding):
        return None
    return min(known) if status is Status.SUPPORTED else max(known)


_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})
_VERB_DEPS = frozenset({"aux", "auxpass", "neg"})


def direct_facts(claims: Sequence[str]) -> list[Fact]:
    """One fact per claim whose base triple holds the whole claim (no decomposition).

    The subject is the grammatical subject of the first sentence, the relation its main verb
    with auxiliaries and negation, and the object everything else in the claim, so no word
    of the claim is dropped and no qualifier is split off.
    """
    from triqua.nlp.pipeline import load_nlp

    nlp = load_nlp()
    facts = []
    for claim, doc in zip(claims, nlp.pipe(claims, batch_size=64), strict=True):
        text = claim.strip()
        subject, relation, taken = "", "", []
        sentence = next(iter(doc.sents), None)
        if sentence is not None:
            root = sentence.root
            head = next((c for c in root.children if c.dep_ in _SUBJECT_DEPS), None)
            if head is not None:
                left, right = head.left_edge.idx, head.right_edge.idx + len(head.right_edge)
                subject = claim[left:right]
                verbs = sorted(
                    [root, *(c for c in root.children if c.dep_ in _VERB_DEPS)], key=lambda t: t.i
                )
                relation = " ".join(t.text for t in verbs)
                taken = [(left, right)] + [(t.idx, t.idx + len(t)) for t in verbs]
        if not subject:
            facts.append(Fact(subject=text, relation="", object="", source_text=claim))
            continue
        kept = "".join(ch for i, ch in enumerate(claim) if not any(a <= i < b for a, b in taken))
        obj = " ".join(kept.split()).strip(" ,;:")
        start = len(claim) - len(claim.lstrip())
        facts.append(
            Fact(
                subject=subject,
                relation=relation,
                object=obj,
                span=Span(start=start, end=start + len(text)),
                source_text=text,
            )
        )
    return facts


class ClaimOutcome(BaseModel):
    """triqua's and the direct baseline's verdicts on one row."""

    index: int
    gold: str
    triqua: str
    direct: str
    triqua_score: float | None = None
    triqua_confidence: float | None = None
    direct_confidence: float | None = None
    facts: int = 0
    reverified: int | None = Field(
        default=None,
        description="triqua's facts a re-verification round judged again; None when its "
        "path never runs it (offline: one passage, nothing new to search).",
    )
    model_calls: int = Field(default=0, description="triqua's model calls (not the baseline's).")
    search_calls: int = 0
    route: str = Field(
        default=NO_FACT,
        description="'complex' when any of triqua's facts took the element-level route, "
        "'simple' when none did, '(no fact)' when the claim yielded none.",
    )
    qualifier_labels: list[str] = Field(
        default_factory=list, description="Normalised qualifier labels of triqua's facts."
    )
    mode: str = Field(default="", description="triqua's decomposition mode for the claim.")
    spec_hash: str | None = Field(
        default=None,
        description="The spec hash of triqua's check run of this row; None offline, where "
        "no run is made.",
    )
    stamp_settings: bool | None = Field(
        default=None,
        description="Whether that run's spec is the evaluation's stamp but for the row's "
        "own evidence (its corpus snapshot); None without a run.",
    )
    error: str | None = None


def _decompose(claims: Sequence[str], setup: EvalSetup) -> dict[str, list[Fact]]:
    """Facts of each distinct claim, chunked as a check chunks (offline: one spaCy batch)."""
    from triqua.evals.diagnostics import decompose_texts

    distinct = list(dict.fromkeys(claims))
    facts, _, _ = decompose_texts([(c, None) for c in distinct], setup)
    return dict(zip(distinct, facts, strict=True))


def _routes(facts: list[Fact], setup: EvalSetup) -> list[bool]:
    """Whether each fact takes the complex route, by its sentence's element graph."""
    from triqua.core.plan.routing import Thresholds, route_facts
    from triqua.engines.elements import sentence_element_graphs

    thresholds = Thresholds.of(setup.context)
    return [r == "complex" for r, _ in route_facts(facts, thresholds, sentence_element_graphs)]


def _judge(
    fact: Fact, evidence: list[Evidence], setup: EvalSetup, complex_route: bool
) -> tuple[Verdict, Usage]:
    """Verify one fact as the verify node does: per unit on the complex route, then settle."""
    units = fact.units() if complex_route else None
    judge = setup.resources.engines.judge
    result = judge.verify(fact, evidence, units=units)
    verdict = settle(
        fact, result.verdict, evidence, reader=judge.reader, grounding=setup.context.grounding
    )
    return verdict, result.usage


def _evidence(row: ClaimRow, setup: EvalSetup) -> list[Evidence]:
    # The passages are at most ~1,000 characters, so the supplied retriever (5 passages of
    # 600 characters) would hand the judge all of it; one passage of the whole text is that.
    return [
        Evidence.build(
            document_id=f"row-{row.index}",
            text=row.evidence,
            source=f"row {row.index}",
            retriever=setup.resources.retriever.revision,
            start=0,
            end=len(row.evidence),
        )
    ]


def _row_search(row: ClaimRow) -> Callable[[str, int], list[Evidence]]:
    """BM25 over the row's passage, as the check's supplied retriever reads it.

    The run's stamp names the supplied retriever and its top-k; each fact gets what that
    retriever returns for its query (passages sharing no word with it are not passed on).
    A passage of at most ~1,000 characters is one or two 600-character passages, so the
    reranker a check adds could only reorder them.
    """
    from triqua.tools.supplied import SuppliedRetriever

    retriever = SuppliedRetriever([Document(text=row.evidence, source=f"row {row.index}")])

    def search(query: str, k: int) -> list[Evidence]:
        return list(retriever.search(query, k).evidence)

    return search


def verify_claims(
    rows: Sequence[ClaimRow],
    setup: EvalSetup,
    *,
    workers: int = 1,
    progress: Callable[[ClaimOutcome], None] | None = None,
) -> tuple[list[ClaimOutcome], Usage]:
    """Verify every row with triqua and with the direct baseline; outcomes in input order.

    The offline engine decomposes all claims in one batch and verifies each fact against
    what the stamped retriever (BM25 top-k over the row's passage) returns for its query,
    without the graph (with one evidence passage, re-verification would search the same
    passage again and reach the same verdicts). Chat models run each claim through the
    check graph, ``workers`` at once, where the supplied retriever passes on only passages
    sharing words with the fact; the direct baseline is always given the whole passage.
    """
    facts_of = _decompose([r.claim for r in rows], setup) if setup.offline else {}
    direct_of = dict(
        zip(
            dict.fromkeys(r.claim for r in rows),
            direct_facts(list(dict.fromkeys(r.claim for r in rows))),
            strict=True,
        )
    )

    def run(row: ClaimRow) -> tuple[ClaimOutcome, Usage]:
        outcome, usage = _verify_row(row, setup, facts_of, direct_of[row.claim])
        if progress is not None:
            progress(outcome)
        return outcome, usage

    if workers <= 1:
        done = [run(row) for row in rows]
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            done = list(pool.map(run, rows))
    return [outcome for outcome, _ in done], total_usage(usage for _, usage in done)


@dataclass
class _TriquaRun:
    """What triqua made of one row: its facts' verdicts and routes, and what it spent.

    Attributes:
        pairs: Each fact with its verdict.
        routes: Whether each fact took the complex route.
        usage: What triqua spent on the row (so far, when it failed).
        reverified: Facts judged again by re-verification (the check graph only).
        spec_hash: The check's spec hash (the check graph only).
        same: Whether the check ran the stamped settings (the check graph only).
    """

    pairs: list[tuple[Fact, Verdict]] = field(default_factory=list)
    routes: list[bool] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    reverified: int | None = None
    spec_hash: str | None = None
    same: bool | None = None


def _run_offline(row: ClaimRow, facts: list[Fact], setup: EvalSetup, ran: _TriquaRun) -> None:
    """Verify the row's decomposed facts on what BM25 finds in its passage, without the graph."""
    ran.routes = _routes(facts, setup)
    search = _row_search(row)
    for fact, complex_route in zip(facts, ran.routes, strict=True):
        found = search(fact.query(), setup.context.max_results)
        verdict, spent = _judge(fact, found, setup, complex_route)
        ran.pairs.append((fact, verdict))
        ran.usage = ran.usage + spent


def _run_graph(row: ClaimRow, setup: EvalSetup, ran: _TriquaRun) -> None:
    """Check the row's claim through the check graph, its passage supplied as a document."""
    from triqua.api import check

    document = Document(text=row.evidence, source=f"row {row.index}")
    report = check(row.claim, documents=[document], context=setup.context)
    ran.pairs = [(r.fact, r.verdict) for r in report.records]
    ran.routes = [r.route == "complex" for r in report.records]
    ran.reverified = sum(1 for r in report.records if r.rejudged)
    ran.spec_hash = report.spec.hash
    ran.same = stamp_settings(report.spec, setup.spec)
    ran.usage = ran.usage + report.usage


def _verify_row(
    row: ClaimRow, setup: EvalSetup, facts_of: dict[str, list[Fact]], direct_fact: Fact
) -> tuple[ClaimOutcome, Usage]:
    """One row judged by triqua and by the direct baseline, and what both spent.

    A row whose check raised ``ValueError`` is a failed outcome carrying the error's first
    line; what was spent before it still counts.
    """
    evidence = _evidence(row, setup)
    ran = _TriquaRun()
    try:
        if setup.offline:
            _run_offline(row, facts_of[row.claim], setup, ran)
        else:
            _run_graph(row, setup, ran)
        direct, spent = _judge(direct_fact, evidence, setup, _routes([direct_fact], setup)[0])
    except ValueError as exc:
        failed = ClaimOutcome(
            index=row.index,
            gold=row.gold,
            triqua="",
            direct="",
            error=str(exc).splitlines()[0] if str(exc) else type(exc).__name__,
        )
        return failed, ran.usage
    return _outcome(row, setup, ran, [(direct_fact, direct)]), ran.usage + spent


def _outcome(
    row: ClaimRow,
    setup: EvalSetup,
    ran: _TriquaRun,
    direct_pairs: list[tuple[Fact, Verdict]],
) -> ClaimOutcome:
    """The row's outcome: both systems' claim verdicts and confidences, triqua's facts."""
    from triqua.evals.diagnostics import decomposition_mode

    pairs = ran.pairs
    triqua_status = claim_status(pairs)
    direct_status = claim_status(direct_pairs)
    return ClaimOutcome(
        index=row.index,
        gold=row.gold,
        triqua=triqua_status.value,
        direct=direct_status.value,
        triqua_score=score_facts(pairs).triqua_score,
        triqua_confidence=claim_confidence(pairs, triqua_status),
        direct_confidence=claim_confidence(direct_pairs, direct_status),
        facts=len(pairs),
        reverified=ran.reverified,
        spec_hash=ran.spec_hash,
        stamp_settings=ran.same,
        model_calls=ran.usage.model_calls,
        search_calls=ran.usage.search_calls,
        route=("complex" if any(ran.routes) else "simple") if pairs else NO_FACT,
        qualifier_labels=[
            label
            for label in dict.fromkeys(q for f, _ in pairs for q in qualifier_labels(f))
            if label != NO_QUALIFIER
        ],
        mode=decomposition_mode(row.claim, None, setup),
    )
