"""Run-time settings of a check, read by the graph's nodes through LangGraph's ``Runtime``.

Every field has a description so LangGraph Studio shows it as a setting. Environment
variables (``TRIQUA_*``) only provide defaults; an explicit value always wins.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any, Literal, get_args

from triqua.support import cores
from triqua.support.settings import setting

RoutingMode = Literal["auto", "always_element", "never_reverify"]
ElementsMode = Literal["parse", "facts"]
#: Grounding rules: "judged" (the cited window writes the unit's words or the entailment
#: judge reads it as entailing the unit; value gates veto), "judge" (the judge alone decides,
#: value gates veto) or "strict" (the cited sentence must state the unit's words; the judge
#: reads paraphrase).
GroundingMode = Literal["judged", "judge", "strict"]

#: Default of ``max_evidence_bytes``: 20 MB of evidence text.
DEFAULT_MAX_EVIDENCE_BYTES = 20_000_000
#: Default largest input text, in characters.
DEFAULT_MAX_INPUT_CHARS = 2_000_000
#: Default of ``max_calls``: model calls per run.
DEFAULT_MAX_CALLS = 10_000
#: Default of ``model_timeout``: seconds one model call may take.
DEFAULT_MODEL_TIMEOUT = 60.0
#: Default of ``search_timeout``: seconds one search may take.
DEFAULT_SEARCH_TIMEOUT = 20.0
#: Default of ``max_sentence_chars``: far above any sentence written to be read.
DEFAULT_MAX_SENTENCE_CHARS = 5_000
#: Default of ``candidates`` for search retrievers: passages reranked per query (TriQua's 10).
DEFAULT_CANDIDATES = 10


@dataclass(kw_only=True)
class Context:
    """Settings of one triqua run: models per role, retrieval, routing thresholds and limits."""

    model: str | None = setting(
        None,
        "Chat model for every LLM role, as 'provider:model' "
        "(e.g. 'openai:gpt-4.1-mini'). Unset: the offline engine answers every role.",
        env="TRIQUA_MODEL",
    )
    decompose_model: str | None = setting(
        None, "Chat model for decomposition only (overrides `model`).", env="TRIQUA_DECOMPOSE_MODEL"
    )
    verify_model: str | None = setting(
        None, "Chat model for verification only (overrides `model`).", env="TRIQUA_VERIFY_MODEL"
    )
    refine_model: str | None = setting(
        None,
        "Chat model for re-verify query refinement (overrides `model`).",
        env="TRIQUA_REFINE_MODEL",
    )
    verifier: str = setting(
        "shipped",
        "Entailment judge of the offline verifier, also the second opinion on an LLM's "
        "'supported': 'shipped' (packaged, offline), 'rules' (none: the rules alone, "
        "no second opinion) or 'nli:<model folder or Hugging Face Hub id>' (an "
        "exported NLI or MiniCheck-style ONNX cross-encoder).",
        env="TRIQUA_VERIFIER",
    )
    grounding: GroundingMode = setting(
        "judged",
        "Grounding rule for a cited 'supported': 'judged' (the quoted window writes the "
        "unit's words or the entailment judge finds it entailing the unit, and no gate "
        "fires), 'judge' (the judge alone, at its card's grounding threshold; no gate fires) "
        "or 'strict' (the cited sentence states the unit's words; the judge reads paraphrase "
        "only). With verifier 'rules' there is no judge: strict.",
        env="TRIQUA_GROUNDING",
    )
    base_url: str | None = setting(
        None,
        "OpenAI-compatible endpoint (vLLM, llama.cpp server) for models.",
        env="TRIQUA_BASE_URL",
    )
    temperature: float = setting(0.0, "Sampling temperature for chat models.")
    retriever: str = setting(
        "auto",
        "Evidence source: 'auto' (supplied documents when given, else closed "
        "book), 'supplied', 'closed_book', 'chroma', a web search ('tavily', 'serper', "
        "'brave'), Chroma then the web ('chroma+tavily', 'chroma+serper', 'chroma+brave'), or "
        "'instance:NAME' for a retriever registered with triqua.register_retriever.",
        env="TRIQUA_RETRIEVER",
    )
    collection: str | None = setting(
        None, "Chroma collection to search (retriever 'chroma').", env="TRIQUA_COLLECTION"
    )
    chroma_path: str | None = setting(
        None,
        "Directory of the embedded Chroma store (default: user data).",
        env="TRIQUA_CHROMA_PATH",
    )
    chroma_url: str | None = setting(
        None, "URL of a Chroma server; when set, used instead of embedded.", env="TRIQUA_CHROMA_URL"
    )
    chunk_size: int = setting(
        300, "Characters per chunk for decomposition (0: no chunking).", env="TRIQUA_CHUNK_SIZE"
    )
    decompose_batch_chars: int = setting(
        4_000,
        "Characters of consecutive chunks decomposed in one model call "
        "(the prompt and schema are paid once per call); 0: one call per chunk. The "
        "offline engine makes no calls and always decomposes chunk by chunk.",
        env="TRIQUA_DECOMPOSE_BATCH_CHARS",
    )
    keep_uncheckworthy: bool = setting(
        False,
        "Check sentences classed not check-worthy (opinions, questions, "
        "hedges, instructions, meta-statements) like any other; by default their facts "
        "are dropped and they are only listed in the report.",
    )
    verify_batch: int = setting(
        16,
        "Facts judged in one model call: whole source sentences packed in text order, "
        "their evidence pooled and cut to each fact's best sentences; 1: one call per "
        "fact. The offline engine always judges fact by fact.",
        env="TRIQUA_VERIFY_BATCH",
    )
    delta: int = setting(3, "Element-graph diameter above which a fact is complex (δ).")
    max_qualifiers: int = setting(
        0,
        "Qualifier count above which a fact is complex whatever its element graph (0: no "
        "limit; not an ElementCheck rule, off by default).",
    )
    elements: ElementsMode = setting(
        "parse",
        "Where a sentence's element graph comes from: 'parse' reads its entities, values "
        "and dates (nodes) and the relations between them (edges) from the text's "
        "dependency parse, coreferent mentions merged (ElementCheck); 'facts' takes the "
        "subjects, objects and qualifier values of the facts decomposed from it.",
        env="TRIQUA_ELEMENTS",
    )
    mention_links: bool = setting(
        False,
        "Join an element to a longer element naming it ('Pensacola' in 'Pensacola, "
        "Florida') before measuring a sentence's graph (not an ElementCheck rule, off by "
        "default).",
    )
    routing: RoutingMode = setting(
        "auto",
        "'auto' routes by complexity; 'always_element' verifies every fact "
        "unit by unit; 'never_reverify' skips re-verification.",
    )
    reverify_rounds: int = setting(2, "Re-verification rounds allowed per complex fact.")
    max_searches: int = setting(
        50, "Searches allowed per run (web search and Chroma).", env="TRIQUA_MAX_SEARCHES"
    )
    max_results: int = setting(5, "Evidence passages kept per query.")
    candidates: int | None = setting(
        None,
        "Passages fetched per query before reranking keeps the best "
        "max_results. Unset: 10 for search retrievers (Chroma, web, custom); supplied "
        "documents fetch max_results and are not reranked.",
    )
    requested_coverage: bool = setting(
        True,
        "With a question and a chat model, judge whether the text addresses what was asked "
        "(one more call; recorded in the report, not part of the score).",
    )
    rerank: bool = setting(
        True,
        "Rerank search candidates against the fact's query (False: keep "
        "the retriever's top max_results in its order).",
    )
    rerank_model: str | None = setting(
        None,
        "Reranking model: 'minilm' (packaged, offline; the default), "
        "'provider:model' (a LangChain embeddings model) or 'instance:NAME' (a "
        "registered Embeddings or Reranker).",
        env="TRIQUA_RERANK_MODEL",
    )
    max_concurrency: int = setting(
        8,
        "Model calls and searches in flight at once; chunks and verification batches "
        "processed at once.",
        env="TRIQUA_MAX_CONCURRENCY",
    )
    max_output_retries: int = setting(2, "Retries of a model call on malformed output.")
    retry_wait: float = setting(
        1.0,
        "Seconds of back-off before the first retry of a model call; it "
        "doubles each retry, plus up to as much random jitter.",
    )
    model_timeout: float = setting(
        DEFAULT_MODEL_TIMEOUT,
        "Seconds one model call may take (each retry gets as long again); "
        "given to the provider client and enforced around the call. 0: no limit.",
        env="TRIQUA_MODEL_TIMEOUT",
    )
    search_timeout: float = setting(
        DEFAULT_SEARCH_TIMEOUT,
        "Seconds one search may take, every retriever; a search that "
        "takes longer is recorded as timed out. 0: no limit.",
        env="TRIQUA_SEARCH_TIMEOUT",
    )
    max_input_chars: int = setting(
        DEFAULT_MAX_INPUT_CHARS, "Largest input text accepted, in characters."
    )
    max_sentence_chars: int = setting(
        DEFAULT_MAX_SENTENCE_CHARS,
        "Longest sentence decomposed, in characters; a longer one is not checked and the "
        "report's notes name it (0: no limit).",
        env="TRIQUA_MAX_SENTENCE_CHARS",
    )
    max_facts: int = setting(
        5_000,
        "Most facts verified in one run; decomposition stops once this many are found.",
        env="TRIQUA_MAX_FACTS",
    )
    # Evidence size, model calls and the paths evidence may be read from (with max_facts,
    # max_input_chars and max_searches above, the limits a run enforces and reports).
    max_evidence_bytes: int = setting(
        DEFAULT_MAX_EVIDENCE_BYTES,
        "Most bytes of evidence a run reads (files and supplied texts "
        "together), checked while reading, before the index is built.",
        env="TRIQUA_MAX_EVIDENCE_BYTES",
    )
    max_calls: int = setting(
        DEFAULT_MAX_CALLS,
        "Most model calls per run; once reached, the facts left are "
        "recorded insufficient_evidence ('model call limit reached'). The offline "
        "engine and cache hits make no model calls.",
        env="TRIQUA_MAX_CALLS",
    )
    allow_paths: list[str] = setting(
        [],
        "Folders that evidence paths found in data (batch files, cited "
        "sources) may point into, beyond the data file's folder and the current folder.",
    )
    as_of: str | None = setting(None, "ISO date the claims are judged at.")
    language: str = setting(
        "auto",
        "Language of the text: 'auto' detects it (the offline engine refuses text that is "
        "clearly not English); a code such as 'en' is taken as given.",
    )
    include_domains: list[str] = setting([], "Web search: only these domains.")
    exclude_domains: list[str] = setting([], "Web search: never these domains.")
    decision: str | None = setting(None, "What the score will be used for (recorded in the spec).")
    case_population: str | None = setting(
        None, "Which texts the run's cases stand for (recorded in the spec)."
    )
    cost_false_supported: float | None = setting(
        None,
        "Cost of a false 'supported'. With cost_false_contradicted (either "
        "alone: the other is 1) it sets the abstention threshold cfs / (cfs + cfc): a "
        "'supported' less confident than that is withheld as insufficient_evidence.",
    )
    cost_false_contradicted: float | None = setting(
        None, "Cost of a false 'contradicted' (see cost_false_supported)."
    )
    citation_complete_weight: float = setting(
        1.0, "Citation completeness credit of a fully supported claim."
    )
    citation_partial_weight: float = setting(
        0.0,
        "Citation completeness credit of a claim its cited sources "
        "support in part (some units, not all); 0: completeness is 0 or 1, as the "
        "evidence contract scores it.",
    )
    cache: bool = setting(
        True,
        "Reuse earlier model answers and web searches for identical inputs "
        "(False: always ask again).",
    )
    cache_path: str | None = setting(
        None, "SQLite file of the cache (default: user data/cache.sqlite)."
    )

    def __post_init__(self) -> None:
        """Register secrets carried in endpoint URLs, so no record or log can show them."""
        from triqua.schema.redaction import register_url_secrets

        register_url_secrets(self.base_url)
        register_url_secrets(self.chroma_url)

    def model_for(self, role: Literal["decompose", "verify", "refine"]) -> str | None:
        """The model configured for ``role``, falling back to ``model``; None means offline."""
        specific = {
            "decompose": self.decompose_model,
            "verify": self.verify_model,
            "refine": self.refine_model,
        }[role]
        return specific or self.model

    def rerank_candidates(self, kind: str) -> int | None:
        """Candidates reranked per query for retriever ``kind``; None: no reranking stage.

        Search retrievers fetch ``candidates`` (default 10); supplied documents keep their
        own default (no reranking unless ``candidates`` is set); closed book searches nothing.
        """
        from triqua.schema.retriever_kinds import kind_of

        if not self.rerank or kind == "auto" or not kind_of(kind).passages:
            return None
        if not kind_of(kind).searches:
            return self.candidates
        return self.candidates or DEFAULT_CANDIDATES

    def cache_location(self) -> str | None:
        """Where answers and searches are cached: a path, '' (the default file) or None (off)."""
        return (self.cache_path or "") if self.cache else None

    def failure_costs(self) -> tuple[float, float] | None:
        """(false supported, false contradicted) costs; None when neither is set."""
        if self.cost_false_supported is None and self.cost_false_contradicted is None:
            return None
        return (
            1.0 if self.cost_false_supported is None else float(self.cost_false_supported),
            1.0 if self.cost_false_contradicted is None else float(self.cost_false_contradicted),
        )

    def supported_threshold(self) -> float | None:
        """Least confidence a "supported" verdict needs (None: no failure costs, no threshold)."""
        from triqua.schema.spec import bayes_threshold

        costs = self.failure_costs()
        return bayes_threshold(*costs) if costs else None

    def workers(self) -> int:
        """Tasks (chunks, verification batches) at once: ``max_concurrency``, capped offline.

        The offline verifier's work is CPU-bound (one ONNX thread per call), so threads beyond
        the cores only contend; model calls wait on the network, so they are not capped.
        """
        if self.model_for("decompose") is not None or self.model_for("verify") is not None:
            return self.max_concurrency
        return max(1, min(self.max_concurrency, cores.available_cores()))

    def validate(self) -> None:
        """Raise ``ValueError`` with a clear message when a setting is out of range."""
        for name in (
            "max_searches",
            "max_calls",
            "reverify_rounds",
            "delta",
            "max_qualifiers",
            "max_output_retries",
            "retry_wait",
            "model_timeout",
            "search_timeout",
            "max_sentence_chars",
            "chunk_size",
            "decompose_batch_chars",
        ):
            if not _at_least(getattr(self, name), 0):
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)!r}")
        for name in (
            "max_results",
            "max_concurrency",
            "max_input_chars",
            "max_facts",
            "max_evidence_bytes",
            "verify_batch",
        ):
            if not _at_least(getattr(self, name), 1):
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)!r}")
        if self.candidates is not None and not _at_least(self.candidates, 1):
            raise ValueError(f"candidates must be >= 1, got {self.candidates}")
        costs = self.failure_costs()
        if costs is not None and (min(costs) < 0 or sum(costs) == 0 or sum(costs) == math.inf):
            raise ValueError(
                "failure costs (cost_false_supported, cost_false_contradicted) must be "
                f"finite, >= 0 and not both zero, got {costs[0]} and {costs[1]}"
            )
        complete, partial = self.citation_complete_weight, self.citation_partial_weight
        if not 0 <= partial <= complete <= 1 or complete == 0:
            raise ValueError(
                "citation weights need 0 <= partial <= complete <= 1 and complete > 0, got "
                f"complete={complete}, partial={partial}"
            )
        for name, mode in (("elements", ElementsMode), ("grounding", GroundingMode)):
            if getattr(self, name) not in get_args(mode):
                allowed = ", ".join(get_args(mode))
                raise ValueError(f"{name} must be one of {allowed}, got {getattr(self, name)!r}")
        if not isinstance(self.allow_paths, list | tuple) or not all(
            isinstance(p, str) and p for p in self.allow_paths
        ):
            raise ValueError(f"allow_paths must be a list of folders, got {self.allow_paths!r}")

    @classmethod
    def from_mapping(cls, values: dict[str, Any] | None) -> Context:
        """Build a context from a plain mapping, rejecting unknown keys with a clear error."""
        values = dict(values or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"unknown setting(s): {', '.join(unknown)}")
        return cls(**values)


def _at_least(value: Any, least: int) -> bool:
    """Whether ``value`` is a number >= ``least``: False for NaN, text and other types."""
    return isinstance(value, int | float) and value >= least
