"""The offline engine as triqua roles: rule-based decomposition and evidence alignment.

It answers every LLM role when no chat model is configured, deterministically and without
any key or download. It is honest about what it can judge: in closed book it has no
knowledge of its own, so every fact stays insufficient_evidence.
"""

from __future__ import annotations

from collections.abc import Sequence

from triqua.core.grounding.rule import MeaningReader
from triqua.engines.base import Decomposer, DecomposeResult, Judge, JudgeResult
from triqua.models.entailment import SHIPPED, check_judge_setting
from triqua.schema import Chunk, Evidence, Fact, FactUnit, Status, Usage, Verdict


class OfflineDecomposer(Decomposer):
    """Rule-based TriQua decomposition on spaCy's dependency parse."""

    calls_model = False

    def __init__(self) -> None:
        from triqua.engines.offline.decompose.decomposer import DECOMPOSER_REVISION

        self.revision = DECOMPOSER_REVISION

    def prepare(self, chunks: Sequence[Chunk]) -> None:
        """Plan the run's chunks, so each spaCy parse takes the next chunks along."""
        from triqua.engines.offline.decompose.decomposer import get_decomposer

        get_decomposer().plan([chunk.text for chunk in chunks])

    def decompose(
        self,
        chunk: Chunk,
        *,
        previous_chunk: str | None,
        question: str | None,
        chunked: bool,
        parts: Sequence[Chunk] = (),
    ) -> DecomposeResult:
        """Decompose one chunk on spaCy's parse; sentences with no fact go in ``undecomposed``.

        The rules read a merged chunk's ``parts`` as one text: their coreference carries
        across the parts' boundaries on its own. A short answer read with the question
        ("Paris." as "Alan Turing was born in Paris.") is noted in ``raw_output``.
        """
        from triqua.engines.offline.decompose.decomposer import get_decomposer

        found = get_decomposer().analyse(
            chunk.text,
            offset=chunk.start,
            chunk_index=chunk.index,
            previous_chunk=previous_chunk,
            question=question,
        )
        read_as = "\n".join(
            f"answer [{span.start}:{span.end}] read with the question as: {statement}"
            for span, statement in found.statements
        )
        return DecomposeResult(
            facts=found.facts,
            usage=Usage(),
            raw_output=read_as or None,
            undecomposed=found.undecomposed,
        )


class OfflineJudge(Judge):
    """Evidence-alignment verification: each unit judged on its own against evidence spans."""

    calls_model = False

    def __init__(self, judge: str = SHIPPED) -> None:
        """Judge with the entailment ``judge`` a setting names ("shipped", "rules", "nli:…").

        A model named by ``nli:`` is loaded now, so a wrong name fails before any fact is
        checked; the shipped judge loads on first use.

        Raises:
            ValueError: when ``judge`` is malformed or its model cannot be loaded.
        """
        from triqua.engines.offline.verify.verifier import get_verifier, verifier_revision

        check_judge_setting(judge)
        self.judge = judge
        self.revision = verifier_revision(judge)
        if judge.startswith("nli:"):
            get_verifier(judge)

    def warm_up(self) -> None:
        """Load the verifier's models (embedder, entailment judge, spaCy) now."""
        from triqua.engines.offline.verify.verifier import get_verifier

        get_verifier(self.judge).warm_up()

    def expect(self, facts: Sequence[Fact]) -> None:
        """Embed the facts' verifier queries now, in the background, not as each is judged.

        Each verification embeds its fact's query; announced as soon as a chunk is
        decomposed, the queries are embedded on a free core while the run still parses and
        routes (``SentenceVectors.expect``), and a fact judged later finds its vector ready.
        """
        from triqua.core.reading.fact_parts import fact_parts
        from triqua.models.vectors import sentence_vectors

        sentence_vectors().expect((fact_parts(fact).query for fact in facts), now=True)

    @property
    def reader(self) -> MeaningReader | None:  # type: ignore[override]
        """The verifier's entailment judge as the grounding rule's reader (None: "rules")."""
        from triqua.models.reader import reader_for

        return reader_for(self.judge, own=True)

    def verify(
        self,
        fact: Fact,
        evidence: Sequence[Evidence],
        *,
        units: Sequence[FactUnit] | None = None,
        closed_book: bool = False,
    ) -> JudgeResult:
        """Judge ``fact`` against ``evidence``; closed book yields insufficient evidence."""
        if closed_book:
            verdict = Verdict(
                status=Status.INSUFFICIENT,
                rationale="Closed book: the offline engine has no knowledge of its own.",
                basis="none",
                judge=self.revision,
            )
            return JudgeResult(verdict=verdict)
        from triqua.engines.offline.verify.verifier import get_verifier

        verdict = get_verifier(self.judge).verify(fact, list(evidence))
        if units is not None:
            wanted = {unit.text for unit in units}
            verdict = verdict.model_copy(
                update={"unit_verdicts": [u for u in verdict.unit_verdicts if u.unit in wanted]}
            )
        return JudgeResult(verdict=verdict)
