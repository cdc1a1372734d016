"""Helpers shared by commands: one-line errors, output checks, shared options."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from triqua.context import (
    DEFAULT_MAX_CALLS,
    DEFAULT_MAX_EVIDENCE_BYTES,
    DEFAULT_MODEL_TIMEOUT,
    DEFAULT_SEARCH_TIMEOUT,
)


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print a one-line error to stderr and return the exit to raise."""
    from triqua.schema.redaction import redact
    from triqua.support.wording import printable_text

    first = message.strip().splitlines()[0] if message.strip() else "failed"
    first = printable_text(redact(first))  # a message may quote data: a path, a line
    typer.echo(f"error: {first}", err=True)
    return typer.Exit(code)


#: The file name that stands for standard output in every option writing a file.
STDOUT = "-"


def is_stdout(path: Path | None) -> bool:
    """Whether an output option names standard output (``-``) rather than a file."""
    return path is not None and str(path) == STDOUT


def check_report_files(
    html: Path | None, md: Path | None, *, as_json: bool = False, summary: bool = False
) -> None:
    """Refuse report files that cannot be written, or two outputs on stdout, before a run.

    Raises:
        typer.Exit: 2 naming the file or the options that both ask for stdout.
    """
    piped = [name for name, path in (("--html", html), ("--md", md)) if is_stdout(path)]
    piped += [name for name, given in (("--json", as_json), ("--summary", summary)) if given]
    if len(piped) > 1 and any(is_stdout(path) for path in (html, md)):
        raise fail(f"{' and '.join(piped)} would all write to stdout: give one of them")
    for path, option in ((html, "--html"), (md, "--md")):
        if path is not None:
            check_output_file(path, option)


def check_output_file(path: Path, option: str) -> None:
    """Refuse an output path that cannot be written, before the run spends anything on it.

    ``-`` (stdout) is always accepted.
    """
    if is_stdout(path):
        return
    folder = path.expanduser().parent
    if path.is_dir():
        raise fail(f"{option} {path}: is a directory; give a file name")
    if not folder.is_dir():
        raise fail(f"{option} {path}: folder {folder} does not exist; create it first")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise fail(f"{option} {path}: cannot be written (no permission)")
    existed = path.exists()
    try:  # the only sure test: some folders (/proc, a read-only mount) refuse new files
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise fail(f"{option} {path}: cannot be written ({exc.strerror or exc})") from None
    if not existed:
        path.unlink(missing_ok=True)


def check_concurrency(concurrency: int) -> None:
    """Refuse a concurrency below 1 in one line."""
    if concurrency < 1:
        raise fail(f"--concurrency must be 1 or more, got {concurrency}")


# The text and report options of the commands that check one text (``check``, ``verify``;
# ``extract`` takes the text's).
FileOption = Annotated[Path | None, typer.Option("--file", "-f", help="Read the text from a file.")]
QuestionOption = Annotated[
    str | None, typer.Option("--question", "-q", help="The question the text answers.")
]
EvidenceOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--evidence",
        "-e",
        metavar="PATH",
        help="Evidence file or folder (repeatable; folders are walked).",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the machine-readable report.")]
QuietOption = Annotated[bool, typer.Option("--quiet", help="No notes on stderr.")]
NoCacheOption = Annotated[
    bool, typer.Option("--no-cache", help="Ask models and search engines again.")
]
StoreOption = Annotated[
    Path | None, typer.Option("--store", help="Run store file (default: user data).")
]
NoStoreOption = Annotated[bool, typer.Option("--no-store", help="Do not save the run.")]
HtmlOption = Annotated[
    Path | None,
    typer.Option(
        "--html",
        metavar="FILE",
        help="Also write a self-contained HTML report ('-': stdout, in place of the table).",
    ),
]
MdOption = Annotated[
    Path | None,
    typer.Option(
        "--md",
        metavar="FILE",
        help="Also write a Markdown report, for issues and PRs ('-': stdout, in place of the "
        "table).",
    ),
]

# Options shared by the commands that run checks (``check`` and ``batch``).
ModelOption = Annotated[
    str | None, typer.Option("--model", "-m", help="Chat model 'provider:model' for every role.")
]
RetrieverOption = Annotated[
    str | None,
    typer.Option(
        help="auto, supplied, closed_book, chroma, tavily, serper, brave, chroma+tavily, "
        "chroma+serper, chroma+brave."
    ),
]
CollectionOption = Annotated[str | None, typer.Option(help="Chroma collection to search.")]
ChromaUrlOption = Annotated[str | None, typer.Option(help="Chroma server URL (default: embedded).")]
ChunkSizeOption = Annotated[int | None, typer.Option(help="Characters per chunk (0: no chunking).")]
DecomposeBatchOption = Annotated[
    int | None,
    typer.Option(
        "--decompose-batch-chars",
        metavar="N",
        help="Characters of consecutive chunks decomposed in one model call, each chunk "
        "shown with its own previous chunk (0: one call per chunk; "
        "TRIQUA_DECOMPOSE_BATCH_CHARS). [default: 4000]",
    ),
]
VerifyBatchOption = Annotated[
    int | None,
    typer.Option(
        "--verify-batch",
        metavar="N",
        help="Facts judged in one model call, up to N: whole sentences packed in text "
        "order (1: one call per fact; TRIQUA_VERIFY_BATCH). [default: 16]",
    ),
]
# Run limits (Context fields of the same names). Left unset, the Context default applies
# (or its TRIQUA_* variable); the help shows the built-in default.
MaxSearchesOption = Annotated[
    int | None,
    typer.Option(
        help="Searches per check, every searching retriever (Chroma and web) "
        "(default: TRIQUA_MAX_SEARCHES or 50)."
    ),
]
MaxFactsOption = Annotated[
    int | None,
    typer.Option(help="Facts verified per check; the rest are skipped, noted (default: 5000)."),
]
MaxInputCharsOption = Annotated[
    int | None, typer.Option(help="Largest text accepted, in characters (default: 2000000).")
]
MaxSentenceCharsOption = Annotated[
    int | None,
    typer.Option(
        help="Longest sentence checked, in characters; a longer one is skipped and named in "
        "the report; 0: no limit (default: TRIQUA_MAX_SENTENCE_CHARS or 5000)."
    ),
]
MaxEvidenceBytesOption = Annotated[
    int | None,
    typer.Option(
        help="Most bytes of evidence read per check, checked while reading "
        f"(default: {DEFAULT_MAX_EVIDENCE_BYTES})."
    ),
]
MaxCallsOption = Annotated[
    int | None,
    typer.Option(
        help="Model calls per check; past it, facts end insufficient_evidence "
        f"('model call limit reached') (default: {DEFAULT_MAX_CALLS})."
    ),
]
ModelTimeoutOption = Annotated[
    float | None,
    typer.Option(
        min=0,
        help="Seconds one model call may take; each retry gets as long again, then the fact "
        "(or chunk) is recorded 'timed out' (default: TRIQUA_MODEL_TIMEOUT or "
        f"{DEFAULT_MODEL_TIMEOUT:g}; 0: no limit).",
    ),
]
SearchTimeoutOption = Annotated[
    float | None,
    typer.Option(
        min=0,
        help="Seconds one search may take, every retriever; a slower search is recorded "
        f"'timed out' (default: TRIQUA_SEARCH_TIMEOUT or {DEFAULT_SEARCH_TIMEOUT:g}; "
        "0: no limit).",
    ),
]
AllowPathOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--allow-path",
        metavar="DIR",
        help="Folder that evidence paths inside data files may point into (repeatable).",
    ),
]


# Routing, retrieval and model settings (Context fields: delta, routing, max_results, as_of,
# include_domains, exclude_domains, temperature).
DeltaOption = Annotated[
    int | None,
    typer.Option(
        "--delta",
        help="Element-graph diameter above which a sentence is complex (δ, default: 3).",
    ),
]
#: ``--routing`` values and the Context routing mode each means.
ROUTING = {
    "auto": "auto",
    "always": "always_element",
    "never": "never_reverify",
    "always_element": "always_element",
    "never_reverify": "never_reverify",
}
RoutingOption = Annotated[
    str | None,
    typer.Option(
        "--routing",
        metavar="auto|always|never",
        help="auto: route each sentence by its element graph; always: every fact unit by "
        "unit with re-verification; never: no re-verification (default: auto).",
    ),
]
TopKOption = Annotated[
    int | None, typer.Option("--top-k", help="Evidence passages kept per query (default: 5).")
]
CandidatesOption = Annotated[
    int | None,
    typer.Option(
        "--candidates",
        metavar="N",
        help="Passages fetched per query before reranking keeps the best --top-k "
        "(default: 10 for Chroma and web search; supplied documents: --top-k, not reranked).",
    ),
]
CoverageOption = Annotated[
    bool | None,
    typer.Option(
        "--coverage/--no-coverage",
        help="With --question and a chat model, judge whether the text addresses the "
        "question (requested-content coverage; one more call; default: on).",
    ),
]
RerankOption = Annotated[
    bool | None,
    typer.Option(
        "--rerank/--no-rerank",
        help="Rerank search candidates against each fact with the packaged MiniLM model "
        "(default: on); --no-rerank keeps the retriever's order.",
    ),
]
KeepUncheckworthyOption = Annotated[
    bool | None,
    typer.Option(
        "--keep-uncheckworthy",
        help="Also check sentences classed not check-worthy (opinions, questions, hedges, "
        "instructions, meta-statements); by default they are only listed.",
    ),
]
RerankModelOption = Annotated[
    str | None,
    typer.Option(
        "--rerank-model",
        metavar="MODEL",
        help="Reranking model: minilm (default, offline) or provider:model embeddings.",
    ),
]
GroundingOption = Annotated[
    str | None,
    typer.Option(
        "--grounding",
        metavar="RULE",
        help="Grounding rule for a cited 'supported': judged (default: the quoted window "
        "writes the unit's words or the entailment judge finds it entailing the unit, no "
        "gate fires), judge (the entailment judge alone decides, no gate fires) or strict "
        "(the quoted sentence states the unit's words, the judge reads paraphrase only).",
    ),
]
VerifierOption = Annotated[
    str | None,
    typer.Option(
        "--verifier",
        metavar="JUDGE",
        help="Entailment judge: shipped (default, offline), rules, or nli:FOLDER|HUB_ID.",
    ),
]
LanguageOption = Annotated[
    str | None,
    typer.Option(
        "--language",
        metavar="CODE",
        help="Language of the text (default auto: the offline engine, English only, refuses "
        "text that is clearly in another language; 'en' overrides the detection).",
    ),
]
AsOfOption = Annotated[
    str | None,
    typer.Option(
        "--as-of", metavar="YYYY-MM-DD", help="Date the claims are judged at (web search)."
    ),
]
AllowDomainOption = Annotated[
    list[str] | None,
    typer.Option(
        "--allow-domain", metavar="DOMAIN", help="Web search: only this domain (repeatable)."
    ),
]
BlockDomainOption = Annotated[
    list[str] | None,
    typer.Option(
        "--block-domain", metavar="DOMAIN", help="Web search: never this domain (repeatable)."
    ),
]
TemperatureOption = Annotated[
    float | None,
    typer.Option("--temperature", help="Sampling temperature of chat models (default: 0)."),
]

DecisionOption = Annotated[
    str | None,
    typer.Option("--decision", help="What the score will be used for (recorded in the spec)."),
]
CasePopulationOption = Annotated[
    str | None,
    typer.Option(
        "--case-population", help="Which texts the cases stand for (recorded in the spec)."
    ),
]
CostFalseSupportedOption = Annotated[
    float | None,
    typer.Option(
        "--cost-false-supported",
        min=0,
        help="Cost of a false 'supported' (the other cost defaults to 1). Sets the abstention "
        "threshold cfs/(cfs+cfc): a less confident 'supported' becomes insufficient.",
    ),
]
CostFalseContradictedOption = Annotated[
    float | None,
    typer.Option(
        "--cost-false-contradicted",
        min=0,
        help="Cost of a false 'contradicted' (see --cost-false-supported).",
    ),
]
CitationWeightsOption = Annotated[
    str | None,
    typer.Option(
        "--citation-weights",
        metavar="complete=W,partial=W",
        help="Citation completeness credit of fully and partly supported claims "
        "(default complete=1,partial=0: the contract scores 0 or 1).",
    ),
]
