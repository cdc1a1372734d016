"""FActScore biographies: triqua's score per bio against the human FActScore of that bio.

The gold score of a bio is S / (S + NS + IR) over its human-labelled atomic facts. triqua
checks the bio's text (question "Tell me a bio of TOPIC", chunked) against a knowledge
source the caller names, and the evaluation reports Pearson, Spearman and MAE between
triqua's scores (TriQuaScore, claim-level, no-dedup) and the gold scores. Bios the model
declined carry no annotations and are reported as ineligible; bios whose triqua score is
undefined are reported and left out of the correlations. Beside them: VeriScore-style F1@K
over the checked bios, and the re-verify trigger rate and calls per fact.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, Field

from triqua.api import check
from triqua.engines.llm.coverage import RequestedCoverage, RequestedCoverageJudge
from triqua.evals.setup import EvalSetup, stamp_settings
from triqua.evals.stats import f1_at_k, pearson_spearman_mae, per_fact_rates
from triqua.schema import Document, Report, Status, Usage
from triqua.schema.retriever_kinds import KINDS
from triqua.support.jsonl import read_jsonl

__all__ = [
    "BIO_FOLDER",
    "VARIANTS",
    "Bio",
    "BioResult",
    "KnowledgeSource",
    "check_bios",
    "load_bios",
    "summarize_bios",
]

#: Folder of the labelled biographies inside the data folder.
BIO_FOLDER = "factscore_labeled"
#: Score variants compared with the gold score: report field -> display name.
VARIANTS = {
    "triqua_score": "TriQuaScore",
    "claim_level_score": "claim-level",
    "no_dedup_score": "no-dedup",
}

BioStatus = Literal["scored", "declined", "no_gold", "no_evidence", "undefined", "error"]


@dataclass(frozen=True)
class Bio:
    """One labelled biography: the answer text and its human atomic-fact labels."""

    topic: str
    text: str
    question: str
    annotated: bool
    labels: tuple[str, ...] = ()
    sentences: tuple[str, ...] = ()

    @property
    def gold_score(self) -> float | None:
        """S / (S + NS + IR) over the human atomic facts; None when there are none."""
        if not self.labels:
            return None
        return sum(label == "S" for label in self.labels) / len(self.labels)


def _question(record: dict[str, Any], topic: str) -> str:
    """The question the bio answers, from the record's ``input`` ("Question: ...")."""
    raw = str(record.get("input") or "").strip()
    raw = re.sub(r"^question:\s*", "", raw, flags=re.IGNORECASE)
    return raw or f"Tell me a bio of {topic}."


def _bio(record: Any) -> Bio:
    """One FActScore record as a bio; ``ValueError`` says why it is not one."""
    try:
        topic = str(record["topic"])
        annotations = record.get("annotations")
        labels: list[str] = []
        sentences: list[str] = []
        for item in annotations or []:
            sentences.append(str(item.get("text") or ""))
            labels += [str(f["label"]) for f in item.get("human-atomic-facts") or []]
        return Bio(
            topic=topic,
            text=str(record.get("output") or ""),
            question=_question(record, topic),
            annotated=annotations is not None,
            labels=tuple(labels),
            sentences=tuple(sentences),
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"not a FActScore record ({exc!r})") from None


def load_bios(path: Path, problems: list[str] | None = None) -> list[Bio]:
    """Read a FActScore labelled JSONL file (one record per line).

    Args:
        path: The JSONL file.
        problems: Receives ``"<path>:<line>: <why>"`` for each bad line, which is skipped;
            without it, the first bad line is raised.

    Raises:
        ValueError: ``"<path>:<line>: <why>"`` for a malformed record (without ``problems``).
    """

    def strict(message: str) -> None:
        raise ValueError(message)

    report = problems.append if problems is not None else strict
    return [bio for _, bio in read_jsonl(path, report, parse=_bio)]


def _slug(topic: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", topic.casefold()).strip("_")


@dataclass(frozen=True)
class KnowledgeSource:
    """Where triqua looks for evidence about each topic, and how the results should call it."""

    kind: Literal["closed_book", "search", "evidence_dir", "evidence_answers"]
    label: str
    settings: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None
    texts: dict[str, str] | None = None

    @classmethod
    def closed_book(cls) -> KnowledgeSource:
        """No evidence: the judge's own knowledge (none, for the offline engine)."""
        return cls("closed_book", "closed book (no evidence)", {"retriever": "closed_book"})

    @classmethod
    def search(cls, retriever: str, collection: str | None = None) -> KnowledgeSource:
        """A searched source: 'chroma' (needs a collection), a web search, or both.

        Raises:
            ValueError: for another retriever, or a Chroma retriever without a collection.
        """
        kind = KINDS.get(retriever)
        if kind is None or not kind.searches:
            raise ValueError(f"retriever {retriever!r} is not a searched knowledge source")
        if kind.chroma and not collection:
            raise ValueError(f"retriever {retriever!r} needs --collection")
        names = {
            "chroma": f"Chroma collection {collection!r}",
            "tavily": "Tavily web search",
            "serper": "Google web search (Serper)",
            "brave": "Brave web search",
        }
        label = " then ".join(names[part] for part in retriever.split("+"))
        settings: dict[str, Any] = {"retriever": retriever}
        if collection:
            settings["collection"] = collection
        return cls("search", label, settings)

    @classmethod
    def evidence_dir(cls, folder: Path) -> KnowledgeSource:
        """Supplied files per topic: ``folder/<topic>.txt`` or ``.md`` (or a slug of it).

        Raises:
            ValueError: when the folder does not exist.
        """
        if not folder.is_dir():
            raise ValueError(f"{folder}: no such folder")
        return cls(
            "evidence_dir", f"supplied files in {folder}", {"retriever": "supplied"}, path=folder
        )

    @classmethod
    def evidence_answers(cls, path: Path) -> KnowledgeSource:
        """Another model's answers to the same questions, used as proxy evidence per topic.

        Only answers that model did not decline are used. Such an answer is retrieval
        grounded at best, never ground truth: the results say so.
        """
        texts = {b.topic: b.text for b in load_bios(path) if b.annotated and b.text.strip()}
        label = (
            f"{path.stem} answers to the same questions, used as proxy evidence "
            "(a retrieval-grounded model answer, NOT ground truth)"
        )
        return cls("evidence_answers", label, {"retriever": "supplied"}, path=path, texts=texts)

    @property
    def short_label(self) -> str:
        """A few words naming the source (for figure captions)."""
        if self.kind == "evidence_answers" and self.path is not None:
            return f"evidence: {self.path.stem} answers (proxy, not ground truth)"
        if self.kind == "evidence_dir":
            return "evidence: supplied files"
        return self.label

    @property
    def supplied(self) -> bool:
        """True when evidence is supplied per topic (so a topic may have none)."""
        return self.kind in ("evidence_dir", "evidence_answers")

    def documents_for(self, topic: str) -> list[Document] | None:
        """Evidence documents about ``topic``; None when this source has none for it."""
        if self.texts is not None:
            text = self.texts.get(topic)
            return [Document(text=text, source=f"{self.path}#{topic}")] if text else None
        if self.path is None:
            return None
        from triqua.tools.documents import load_documents

        for stem in dict.fromkeys((topic, _slug(topic))):
            for suffix in (".txt", ".md"):
                file = self.path / f"{stem}{suffix}"
                if file.is_file():
                    return load_documents([file])
        return None

    def example_documents(self) -> list[Document]:
        """Some evidence of this source, to build the spec's retriever (supplied kinds)."""
        if self.texts:
            topic = next(iter(self.texts))
            return self.documents_for(topic) or []
        if self.path is not None:
            from triqua.tools.documents import load_documents

            files = sorted([*self.path.glob("*.txt"), *self.path.glob("*.md")])
            if not files:
                raise ValueError(f"{self.path}: no .txt or .md evidence files")
            return load_documents(files[:1])
        return []


class BioResult(BaseModel):
    """What happened to one bio, with its gold and predicted scores."""

    topic: str
    status: BioStatus
    gold: float | None = None
    triqua_score: float | None = None
    claim_level_score: float | None = None
    no_dedup_score: float | None = None
    facts: int = 0
    facts_checkable: int = Field(default=0, description="Facts whose verdict is not not-checkable.")
    facts_supported: int = 0
    reverified: int = Field(default=0, description="Facts a re-verification round judged again.")
    model_calls: int = 0
    search_calls: int = 0
    units: int = 0
    units_raw: int = 0
    abstained_all: bool = False
    spec_hash: str = ""
    stamp_settings: bool | None = Field(
        default=None,
        description="Whether the bio's run has the evaluation's stamp settings but for its "
        "own evidence (corpus snapshot); None when the bio was not checked.",
    )
    requested: RequestedCoverage | None = Field(
        default=None,
        description="Whether the bio addresses its question (checked bios, with a chat model).",
    )
    error: str | None = None


@dataclass
class BioOutcome:
    """A bio's result, its report when it was checked and the coverage judge's usage."""

    bio: Bio
    result: BioResult
    report: Report | None = None
    coverage_usage: Usage = field(default_factory=Usage)


def _judge_coverage(outcome: BioOutcome, coverage: RequestedCoverageJudge | None) -> BioOutcome:
    """Judge whether a checked bio addresses its question (requested-content coverage)."""
    if coverage is None or outcome.report is None:
        return outcome
    requested, usage = coverage.judge(outcome.bio.question, outcome.bio.text)
    outcome.result.requested = requested
    outcome.coverage_usage = usage
    return outcome


def _check_one(bio: Bio, source: KnowledgeSource, setup: EvalSetup) -> BioOutcome:
    gold = bio.gold_score
    if not bio.annotated:
        return BioOutcome(bio, BioResult(topic=bio.topic, status="declined"))
    if gold is None:
        return BioOutcome(bio, BioResult(topic=bio.topic, status="no_gold"))
    documents = source.documents_for(bio.topic) if source.supplied else None
    if source.supplied and documents is None:
        return BioOutcome(bio, BioResult(topic=bio.topic, status="no_evidence", gold=gold))
    try:
        report = check(bio.text, question=bio.question, documents=documents, context=setup.context)
    except ValueError as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return BioOutcome(bio, BioResult(topic=bio.topic, status="error", gold=gold, error=message))
    scores = report.scores
    verdicts = [r.verdict.status for r in report.records]
    result = BioResult(
        topic=bio.topic,
        status="undefined" if scores.triqua_score is None else "scored",
        gold=gold,
        triqua_score=scores.triqua_score,
        claim_level_score=scores.claim_level_score,
        no_dedup_score=scores.no_dedup_score,
        facts=scores.facts_total,
        facts_checkable=sum(s is not Status.NOT_CHECKABLE for s in verdicts),
        facts_supported=sum(s is Status.SUPPORTED for s in verdicts),
        reverified=sum(1 for r in report.records if r.rejudged),
        model_calls=report.usage.model_calls,
        search_calls=report.usage.search_calls,
        units=scores.units_total,
        units_raw=scores.units_raw,
        abstained_all=bool(verdicts) and all(s is Status.INSUFFICIENT for s in verdicts),
        spec_hash=report.spec.hash,
        stamp_settings=stamp_settings(report.spec, setup.spec),
    )
    return BioOutcome(bio, result, report)


def check_bios(
    bios: Sequence[Bio],
    source: KnowledgeSource,
    setup: EvalSetup,
    *,
    workers: int = 1,
    progress: Callable[[BioOutcome], None] | None = None,
    coverage: RequestedCoverageJudge | None = None,
) -> list[BioOutcome]:
    """Check every eligible bio against ``source``; results come back in input order.

    Args:
        bios: The bios to evaluate (declined ones are reported, not checked).
        source: The knowledge source; its settings must already be in ``setup``.
        setup: The run's settings and spec (see :func:`triqua.evals.setup.prepare_eval`).
        workers: Bios checked at once (threads; useful with chat models).
        progress: Called with each outcome as it finishes.
        coverage: Judges whether each checked bio addresses its question; None: not judged.
    """

    def run(bio: Bio) -> BioOutcome:
        outcome = _judge_coverage(_check_one(bio, source, setup), coverage)
        if progress is not None:
            progress(outcome)
        return outcome

    if workers <= 1:
        return [run(bio) for bio in bios]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(run, bios))


def summarize_bios(results: Sequence[BioResult], *, k: float | None = None) -> dict[str, Any]:
    """Counts per status, mean scores, correlations with the gold score, F1@K and costs.

    Correlations use the scored bios only (undefined, declined, erroneous and evidence-less
    bios are counted, not scored). F1@K (VeriScore-style, over facts: supported facts out of
    checkable ones) covers every checked bio, an undefined one scoring 0; ``k`` defaults to
    the median number of checkable facts per checked bio. Trigger rate and calls per fact
    count the facts of every checked bio.
    """
    counts = dict.fromkeys(get_args(BioStatus), 0)
    for result in results:
        counts[result.status] += 1
    scored = [r for r in results if r.status == "scored"]
    gold = [float(r.gold) for r in scored if r.gold is not None]
    eligible_gold = [r.gold for r in results if r.gold is not None]
    variants: dict[str, Any] = {}
    for name in VARIANTS:
        predicted: list[float | None] = [getattr(r, name) for r in scored]
        stats = pearson_spearman_mae(predicted, gold)
        defined = [p for p in predicted if p is not None]
        stats["mean"] = sum(defined) / len(defined) if defined else None
        variants[name] = stats
    checked = [r for r in results if r.status in ("scored", "undefined")]
    f1 = f1_at_k([r.facts_supported for r in checked], [r.facts_checkable for r in checked], k)
    f1["topics"] = [r.topic for r in checked]
    cost = per_fact_rates(
        sum(r.facts for r in checked),
        reverified=sum(r.reverified for r in checked),
        model_calls=sum(r.model_calls for r in checked),
        search_calls=sum(r.search_calls for r in checked),
    )
    return {
        "bios": len(results),
        "counts": counts,
        "abstained_all": sum(r.abstained_all for r in scored),
        "mean_gold_eligible": (sum(eligible_gold) / len(eligible_gold)) if eligible_gold else None,
        "mean_gold_scored": (sum(gold) / len(gold)) if gold else None,
        "variants": variants,
        "f1_at_k": f1,
        "cost": cost,
    }
