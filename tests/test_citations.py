"""Citation checks: parsing markers and source lists, mapping claims, judging each link."""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path
from typing import Any

import pytest

import triqua
from triqua.citations import (
    CitationSource,
    CitedText,
    check_citations,
    claim_keys,
    parse_citations,
    resolve_source,
)
from triqua.engines.llm.engine import LLMJudge
from triqua.metrics import citation_completeness, link_correctness
from triqua.schema import CitationPolicy, Document, Fact, Report, Span, Status
from triqua.testing import ScriptedChatModel, best_quote, fenced, passages, shown_text

PHYSICS = "Marie Curie won the Nobel Prize in Physics in 1903."
WARSAW = "Marie Curie was born in Warsaw."
PARIS = "Paris is the capital of France."

FACTS = {
    PHYSICS: {
        "subject": "Marie Curie",
        "relation": "won",
        "object": "Nobel Prize in Physics",
        "qualifiers": [{"label": "point in time", "value": "1903"}],
        "source_sentence": PHYSICS,
    },
    WARSAW: {
        "subject": "Marie Curie",
        "relation": "was born in",
        "object": "Warsaw",
        "qualifiers": [],
        "source_sentence": WARSAW,
    },
    PARIS: {
        "subject": "Paris",
        "relation": "is capital of",
        "object": "France",
        "qualifiers": [],
        "source_sentence": PARIS,
    },
}


def strict_judge(prompt: str) -> dict[str, Any]:
    """Supported only when the object and every qualifier value occur in the evidence.

    Each unit cites and quotes the passage that states its value, so support spread over
    two sources is grounded unit by unit.
    """
    fact = Fact.parse(fenced(prompt, "FACT"))
    found = passages(prompt)
    units = []
    for unit in fact.units():
        value = unit.object if unit.kind == "base" else unit.value or ""
        stating = next((i for i, text in found.items() if value.lower() in text.lower()), None)
        if stating is None:
            return {"status": "insufficient_evidence", "rationale": "not stated", "confidence": 0.5}
        quote = best_quote(found[stating], f"{unit.subject} {value}")
        units.append(
            {"unit": unit.text, "status": "supported", "evidence_ids": [stating], "quote": quote}
        )
    return {
        "status": "supported",
        "unit_verdicts": units,
        "evidence_ids": list(dict.fromkeys(u["evidence_ids"][0] for u in units)),
        "confidence": 0.9,
    }


def respond(tool: str, prompt: str) -> dict[str, Any]:
    if tool == "ExtractedFacts":
        text = shown_text(prompt)
        return {"facts": [fact for sentence, fact in FACTS.items() if sentence in text]}
    if tool == "Judgement":
        return strict_judge(prompt)
    raise AssertionError(f"unexpected schema {tool!r}")


@pytest.fixture
def docs_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "curie.md").write_text(
        "Marie Curie won the Nobel Prize in Physics in 1903, with Pierre Curie.\n", "utf-8"
    )
    # Topically close: the same person and prize, but neither the claim's field nor its year.
    (folder / "close.md").write_text(
        "Marie Curie won the Nobel Prize in Chemistry in 1911 for polonium and radium.\n", "utf-8"
    )
    return tmp_path


PARIS_DOC = Document(text="Paris is the capital of France.", source="https://example.org/paris")


def run(text: str, base: Path) -> tuple[CitedText, Report]:
    """Parse the text and run the whole pipeline on the part to check."""
    cited = parse_citations(text)
    report = triqua.check(
        cited.text,
        documents=[PARIS_DOC, Document(text=(base / "docs" / "curie.md").read_text("utf-8"))],
        model=ScriptedChatModel(responder=respond),
        chunk_size=0,
    )
    return cited, report


def judge() -> tuple[LLMJudge, ScriptedChatModel]:
    model = ScriptedChatModel(responder=respond)
    return LLMJudge(model), model


CITED = (
    f"{PHYSICS[:-1]} [1, 2]. {WARSAW[:-1]} [2]. {PARIS[:-1]} [3][4].\n\n"
    "Sources:\n[1] docs/curie.md\n[2] docs/close.md\n"
    "[3] https://example.org/paris\n[4] Paris guide, https://example.org/missing\n"
)


def test_parse_removes_markers_and_the_source_list() -> None:
    cited = parse_citations(CITED)
    assert cited.text == f"{PHYSICS} {WARSAW} {PARIS}"
    assert [m.keys for m in cited.markers] == [["1", "2"], ["2"], ["3"], ["4"]]
    assert [(s.key, s.kind, s.target) for s in cited.sources.values()] == [
        ("1", "path", "docs/curie.md"),
        ("2", "path", "docs/close.md"),
        ("3", "url", "https://example.org/paris"),
        ("4", "url", "https://example.org/missing"),
    ]
    # Each marker keeps where it stood in the original and where it was cut from the text.
    first = cited.markers[0]
    assert CITED[first.start : first.end] == " [1, 2]"
    assert cited.text[first.position] == "."


@pytest.mark.parametrize(
    "text",
    [
        "Paris is the capital of France.[1]\n\n[1]: https://example.org/paris\n",
        "Paris is the capital of France [^1].\n\n[^1]: https://example.org/paris",
        "Paris is the capital of France [1].\n\n## References\n\n1. https://example.org/paris\n",
        "Paris is the capital of France [1].\n\n**Sources**\n- [1] <https://example.org/paris>",
    ],
)
def test_parse_accepts_common_source_list_forms(text: str) -> None:
    cited = parse_citations(text)
    assert cited.text == PARIS
    assert cited.sources["1"].target == "https://example.org/paris"
    assert [m.keys for m in cited.markers] == [["1"]]


def test_parse_expands_ranges_and_leaves_other_brackets_alone() -> None:
    text = "In [2024] the [docs](https://x.org) say A [2-4].\n\n[2] a.md\n[3] b.md\n[4] c.md"
    cited = parse_citations(text)
    assert cited.text == "In [2024] the [docs](https://x.org) say A."
    assert [m.keys for m in cited.markers] == [["2", "3", "4"]]


def test_parse_keeps_a_references_section_that_is_not_a_list() -> None:
    text = "Paris is the capital of France.\n\nReferences\nSee the annual report for details."
    cited = parse_citations(text)
    assert cited.text == text and not cited.has_citations


def test_claim_keys_take_markers_in_or_right_after_the_sentence() -> None:
    cited = parse_citations("A won B [1] in 1903 [2]. C is D.[3] E is F.\n\n[1] a\n[2] b\n[3] c")
    text = cited.text
    assert text == "A won B in 1903. C is D. E is F."

    def fact(sentence: str) -> Fact:
        start = text.index(sentence)
        return Fact(subject="x", relation="y", object="z", span=Span(start=start, end=start + 4))

    assert claim_keys(cited, fact("A won B in 1903.")) == ["1", "2"]
    assert claim_keys(cited, fact("C is D.")) == ["3"]
    assert claim_keys(cited, fact("E is F.")) == []
    unplaced = Fact(subject="x", relation="y", object="z", source_text="C is D.")
    assert claim_keys(cited, unplaced) == ["3"]


@pytest.mark.slow
def test_citation_metrics_from_a_real_run(docs_dir: Path) -> None:
    cited, report = run(CITED, docs_dir)
    assert [r.claim_id for r in report.records] == ["f1", "f2", "f3"]
    checker, model = judge()
    result = check_citations(report, cited, checker, documents=[PARIS_DOC], base_dir=docs_dir)
    by_claim = {c.claim_id: c for c in result.claims}
    assert by_claim["f1"].keys == ["1", "2"] and by_claim["f1"].supported
    assert by_claim["f2"].keys == ["2"] and not by_claim["f2"].supported
    assert by_claim["f3"].keys == ["3", "4"] and by_claim["f3"].supported
    links = {(link.claim_id, link.key): link for link in result.links}
    assert links["f1", "1"].supports
    # The topically close source is judged, and does not support the claim.
    assert links["f1", "2"].available and not links["f1", "2"].supports
    assert links["f1", "2"].verdict is not None
    assert links["f1", "2"].verdict.status is Status.INSUFFICIENT
    assert not links["f3", "4"].available
    assert "never fetched" in (links["f3", "4"].reason or "")
    assert result.completeness == pytest.approx(2 / 3)
    # 5 links, 2 supporting; the unavailable one stays in the denominator, counted apart.
    assert result.link_correctness == pytest.approx(2 / 5)
    assert result.judged_link_correctness == pytest.approx(2 / 4)
    assert result.unavailable_links == 1 and result.unavailable_rate == pytest.approx(1 / 5)
    assert result.usage.model_calls == 4 == len(model.calls)
    weighted = check_citations(
        report,
        cited,
        checker,
        documents=[PARIS_DOC],
        base_dir=docs_dir,
        weights={"f1": 1.0, "f2": 3.0, "f3": 1.0},
    )
    assert weighted.completeness == pytest.approx(2 / 5)


def test_sources_that_support_only_jointly(tmp_path: Path) -> None:
    (tmp_path / "prize.md").write_text("Marie Curie won the Nobel Prize in Physics.", "utf-8")
    year = "Marie Curie won it in 1903."
    (tmp_path / "year.md").write_text(year, "utf-8")
    text = f"{PHYSICS[:-1]} [1][2].\n\n[1] prize.md\n[2] year.md\n"
    cited, report = run(text, _with_docs(tmp_path))
    result = check_citations(report, cited, judge()[0], base_dir=tmp_path)
    (claim,) = result.claims
    assert claim.supported
    assert claim.joint_verdict is not None and claim.joint_verdict.status is Status.SUPPORTED
    assert result.completeness == 1.0
    # Neither source states the whole claim alone (year.md leaves the prize to "it"); link
    # correctness counts every source that contributes support (the contract), not only one
    # that supports the whole claim alone.
    prize, year_link = result.links
    assert not prize.supports and not year_link.supports
    share = sum(link.contributes for link in result.links) / len(result.links)
    assert result.link_correctness == share


def test_completeness_reads_the_cited_sources_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from triqua.cli import app

    name = _cli_model(tmp_path, monkeypatch)
    (tmp_path / "unrelated.md").write_text("Bananas are rich in potassium.\n")
    (tmp_path / "other.md").write_text(PHYSICS + "\n")  # supports it, but is not cited
    (tmp_path / "answer.md").write_text(f"{PHYSICS[:-1]} [1].\n\n[1] unrelated.md\n")
    args = ["check", "-f", "answer.md", "-e", "other.md", "--citations", "-m", name]
    result = CliRunner().invoke(app, [*args, "--no-store", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    (claim,) = payload["citations"]["claims"]
    assert claim["verdict"]["status"] == "supported"  # the one verdict reads the -e file too
    assert claim["support"] == "unsupported"  # what it cites does not support it
    assert payload["citations"]["completeness"] == 0.0
    assert payload["citations"]["link_correctness"] == 0.0


def _with_docs(base: Path) -> Path:
    (base / "docs").mkdir(exist_ok=True)
    (base / "docs" / "curie.md").write_text(PHYSICS, "utf-8")
    return base


def test_missing_sources_and_uncited_claims(docs_dir: Path) -> None:
    text = f"{PARIS[:-1]} [5]. {WARSAW}\n\n[1] https://example.org/paris\n"
    cited, report = run(text, docs_dir)
    result = check_citations(report, cited, judge()[0], documents=[PARIS_DOC])
    (link,) = result.links
    assert link.key == "5" and link.target is None and not link.available
    assert any("missing from the source list: 5" in note for note in result.notes)
    uncited = next(c for c in result.claims if c.keys == [])
    assert uncited.checkable and not uncited.supported
    assert result.completeness == 0.0  # both checkable claims lack support
    assert result.link_correctness == 0.0 and result.unavailable_rate == 1.0
    assert result.judged_link_correctness is None  # no link could be judged


def test_no_citations_means_undefined_metrics(docs_dir: Path) -> None:
    cited, report = run(f"{PARIS} {PHYSICS}", docs_dir)
    assert not cited.has_citations and report.records
    checker, model = judge()
    result = check_citations(report, cited, checker)
    assert result.completeness is None and result.link_correctness is None
    assert result.links == [] and model.calls == []
    assert any("cites no sources" in note for note in result.notes)


def test_urls_are_never_fetched(monkeypatch: pytest.MonkeyPatch, docs_dir: Path) -> None:
    def no_network(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("network access attempted")

    cited, report = run(f"{PARIS[:-1]} [1].\n\n[1] https://example.org/elsewhere\n", docs_dir)
    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    result = check_citations(report, cited, judge()[0])
    assert result.unavailable_links == 1 and result.completeness == 0.0


def test_long_documents_are_cut_into_matching_passages(tmp_path: Path) -> None:
    filler = "\n\n".join(f"Paragraph {i} is about gardening and tomatoes." for i in range(200))
    (tmp_path / "long.md").write_text(f"{filler}\n\n{PHYSICS}\n\n{filler}", "utf-8")
    (source,) = parse_citations(f"{PHYSICS[:-1]} [1].\n\n[1] long.md").sources.values()
    docs, reason = resolve_source(source, base_dir=tmp_path)
    assert reason is None and len(docs) == 1 and len(docs[0].text) > 4000
    text = f"{PHYSICS[:-1]} [1].\n\n[1] long.md"
    cited, report = run(text, _with_docs(tmp_path))
    result = check_citations(report, cited, judge()[0], base_dir=tmp_path, max_passages=2)
    (link,) = result.links
    assert 1 <= len(link.evidence) <= 2 and link.supports
    assert PHYSICS in link.evidence[0].text


def test_unreadable_paths_are_unavailable_with_the_reason(tmp_path: Path) -> None:
    (source,) = parse_citations("A [1].\n\n[1] nowhere/missing.md").sources.values()
    docs, reason = resolve_source(source, base_dir=tmp_path)
    assert docs == [] and reason is not None and "no such file" in reason


@pytest.mark.parametrize(
    ("cited", "says"),
    [
        (".env", "a hidden file or folder"),
        (".secret/notes.md", "a hidden file or folder"),
        ("notes-link.md", "a hidden file or folder"),  # a link to .env
        ("config/credentials", "not a text, Markdown, HTML or JSONL file"),
    ],
)
def test_a_cited_hidden_or_unsupported_file_is_never_read(
    tmp_path: Path, cited: str, says: str
) -> None:
    secret = "Marie Curie won the Nobel Prize in 1903. API token: hunter2-x9"
    (tmp_path / ".env").write_text(secret, "utf-8")
    (tmp_path / ".secret").mkdir()
    (tmp_path / ".secret" / "notes.md").write_text(secret, "utf-8")
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "credentials").write_text(secret, "utf-8")
    (tmp_path / "notes-link.md").symlink_to(tmp_path / ".env")
    (source,) = parse_citations(f"Marie Curie won the prize [1].\n\n[1] {cited}").sources.values()
    docs, reason = resolve_source(source, base_dir=tmp_path)
    assert docs == [] and reason is not None and says in reason


def test_a_cited_file_in_a_hidden_base_folder_is_read(tmp_path: Path) -> None:
    home = tmp_path / ".project"  # the folder of the checked text may itself be hidden
    home.mkdir()
    (home / "source.md").write_text(PHYSICS, "utf-8")
    (source,) = parse_citations(f"{PHYSICS[:-1]} [1].\n\n[1] source.md").sources.values()
    docs, reason = resolve_source(source, base_dir=home)
    assert reason is None and [d.text for d in docs] == [PHYSICS]


def test_completeness_and_link_correctness_are_pure_shares() -> None:
    assert citation_completeness([]) is None
    assert citation_completeness([True, False, True]) == pytest.approx(2 / 3)
    assert citation_completeness([True, False], [0.0, 0.0]) is None
    assert citation_completeness([True, False], [3.0, 1.0]) == pytest.approx(0.75)
    with pytest.raises(ValueError, match="2 claims but 1 weights"):
        citation_completeness([True, False], [1.0])
    with pytest.raises(ValueError, match="non-negative"):
        citation_completeness([True], [-1.0])
    assert link_correctness([]) is None
    assert link_correctness([True, False, False, False]) == 0.25


def unit_judge(prompt: str) -> dict[str, Any]:
    """Judge unit by unit: supported where a passage states the value, contradicted where a
    passage states the fact's object with another year, else insufficient."""
    fact = Fact.parse(fenced(prompt, "FACT"))
    found = passages(prompt)
    units = []
    for unit in fact.units():
        value = unit.object if unit.kind == "base" else unit.value or ""
        stating = next((i for i, text in found.items() if value.lower() in text.lower()), None)
        if stating is not None:
            quote = best_quote(found[stating], f"{unit.subject} {value}")
            units.append(
                {
                    "unit": unit.text,
                    "status": "supported",
                    "evidence_ids": [stating],
                    "quote": quote,
                }
            )
            continue
        other = next(
            (
                i
                for i, text in found.items()
                if unit.label == "point in time"
                and fact.object in text
                and re.search(r"\d{4}", text)
            ),
            None,
        )
        status = "contradicted" if other else "insufficient_evidence"
        units.append(
            {"unit": unit.text, "status": status, "evidence_ids": [other] if other else []}
        )
    return {"status": "insufficient_evidence", "unit_verdicts": units, "confidence": 0.9}


def unit_checker() -> LLMJudge:
    def respond(tool: str, prompt: str) -> dict[str, Any]:
        assert tool == "Judgement"
        return unit_judge(prompt)

    return LLMJudge(ScriptedChatModel(responder=respond))


def test_a_contradicting_source_blocks_completeness_and_unavailable_links_count(
    docs_dir: Path,
) -> None:
    (docs_dir / "docs" / "wrong.md").write_text(
        "Marie Curie won the Nobel Prize in Physics in 1911.", "utf-8"
    )
    text = (
        f"{PHYSICS[:-1]} [1][2]. {WARSAW[:-1]} [3]. {PARIS[:-1]} [4].\n\n"
        "[1] docs/curie.md\n[2] docs/wrong.md\n"
        "[3] https://example.org/missing\n[4] https://example.org/paris\n"
    )
    cited, report = run(text, docs_dir)
    result = check_citations(
        report, cited, unit_checker(), documents=[PARIS_DOC], base_dir=docs_dir
    )
    by_claim = {c.claim_id: c for c in result.claims}
    links = {(link.claim_id, link.key): link for link in result.links}
    assert links["f1", "1"].supports and links["f1", "2"].contradicts
    # Hand count: f1 has a supporting and a contradicting source -> contradicted (credit 0);
    # f2 cites only an unreadable source -> unsupported (0); f3 -> complete (1).
    assert [by_claim[c].support for c in ("f1", "f2", "f3")] == [
        "contradicted",
        "unsupported",
        "complete",
    ]
    assert not by_claim["f1"].supported
    assert result.completeness == pytest.approx(1 / 3)
    # 4 links: 2 support, 1 contradicts, 1 unavailable (kept in the denominator).
    assert result.link_correctness == pytest.approx(2 / 4)
    assert result.judged_link_correctness == pytest.approx(2 / 3)
    assert result.unavailable_links == 1 and result.unavailable_rate == pytest.approx(1 / 4)
    assert result.contradicting_links == 1
    assert result.claims_by_support == {"contradicted": 1, "unsupported": 1, "complete": 1}


def test_partial_support_earns_the_partial_weight(tmp_path: Path) -> None:
    (tmp_path / "prize.md").write_text("Marie Curie won the Nobel Prize in Physics.", "utf-8")
    text = f"{PHYSICS[:-1]} [1]. {PARIS[:-1]} [2].\n\n[1] prize.md\n[2] https://example.org/paris\n"
    cited, report = run(text, _with_docs(tmp_path))
    result = check_citations(
        report, cited, unit_checker(), documents=[PARIS_DOC], base_dir=tmp_path
    )
    physics, paris = result.claims
    # The source states the prize but not the year: 1 of the claim's 2 units. By default
    # completeness is 0 or 1 (the evidence contract): partial support earns nothing.
    assert physics.support == "partial" and physics.credit == 0.0
    assert physics.supported_units == ["(Marie Curie, won, Nobel Prize in Physics)"]
    assert paris.support == "complete" and paris.credit == 1.0
    assert result.completeness == pytest.approx((0.0 + 1.0) / 2)
    assert result.policy == CitationPolicy() and CitationPolicy().partial_weight == 0.0
    halves = check_citations(
        report,
        cited,
        unit_checker(),
        documents=[PARIS_DOC],
        base_dir=tmp_path,
        policy=CitationPolicy(partial_weight=0.5),
    )
    assert halves.claims[0].credit == 0.5
    assert halves.completeness == pytest.approx((0.5 + 1.0) / 2)
    stricter = check_citations(
        report,
        cited,
        unit_checker(),
        documents=[PARIS_DOC],
        base_dir=tmp_path,
        policy=CitationPolicy(partial_weight=0.2),
        weights={"f1": 3.0, "f2": 1.0},
    )
    assert stricter.completeness == pytest.approx((3 * 0.2 + 1 * 1.0) / 4)


def test_the_citation_weights_flag_scores_partial_support(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from triqua.cli import app

    (tmp_path / "prize.md").write_text("Marie Curie won the Nobel Prize in Physics.", "utf-8")
    (tmp_path / "answer.md").write_text(f"{PHYSICS[:-1]} [1].\n\n[1] prize.md\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    args = ["check", "-f", "answer.md", "--citations", "--json", "--no-store"]
    completeness = {}
    for weights in ("complete=1,partial=0.25", "partial=0"):
        result = CliRunner().invoke(app, [*args, "--citation-weights", weights])
        assert result.exit_code == 0, result.output
        payload = json.loads(result.stdout)
        assert payload["citations"]["claims"][0]["support"] == "partial"
        assert (
            payload["spec"]["citations"]["partial_weight"]
            == payload["citations"]["policy"]["partial_weight"]
        )
        completeness[weights] = payload["citations"]["completeness"]
    assert completeness == {"complete=1,partial=0.25": 0.25, "partial=0": 0.0}


def test_credits_outside_zero_one_are_refused() -> None:
    assert citation_completeness([1.0, 0.5, 0.0]) == pytest.approx(0.5)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        citation_completeness([1.5])


def _cli_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A scripted model (facts of FACTS, units judged by ``unit_judge``) registered by name."""
    from triqua.engines.factory import register_model

    def respond_units(tool: str, prompt: str) -> dict[str, Any]:
        return unit_judge(prompt) if tool == "Judgement" else respond(tool, prompt)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")  # rich wraps the tables at the terminal's width
    # The citation checks are read under the strict rule: the shipped judge reads "Marie
    # Curie won Nobel Prize in Physics in 1903" as contradicted by the sentence stating it.
    monkeypatch.setenv("TRIQUA_GROUNDING", "strict")
    return register_model("citations-cli", ScriptedChatModel(responder=respond_units))


def test_with_other_evidence_each_claim_has_one_verdict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from triqua.cli import app

    name = _cli_model(tmp_path, monkeypatch)
    (tmp_path / "wrong.md").write_text("Marie Curie won the Nobel Prize in Physics in 1911.")
    (tmp_path / "other.md").write_text("Bananas are rich in potassium.\n")
    (tmp_path / "answer.md").write_text(f"{PHYSICS[:-1]} [1].\n\n[1] wrong.md\n")
    args = ["check", "-f", "answer.md", "-e", "other.md", "--citations", "-m", name, "--no-store"]
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    (record,) = payload["records"]
    (claim,) = payload["citations"]["claims"]
    # The -e file says nothing of the claim, its cited source contradicts the year: one
    # judgement on both together, the same in the report and in the citation check.
    assert claim["support"] == "contradicted"
    assert record["verdict"] == claim["verdict"]
    assert "contradicted" in {u["status"] for u in record["verdict"]["unit_verdicts"]}
    assert payload["citations"]["run_evidence"] is True
    assert {e["source"] for e in record["evidence"]} >= {"wrong.md"}
    assert record["history"], "the run's own verdict (on the -e file alone) is kept as history"
    table = CliRunner().invoke(app, args)
    assert table.exit_code == 0, table.output
    status = Status(record["verdict"]["status"]).value.split("_")[0]
    rows = [line for line in table.stdout.splitlines() if "│ f1 │" in line]
    assert len(rows) == 2 and all(status in row for row in rows), table.stdout  # facts, cites
    assert "[1] wrong.md" in table.stdout and "[1] contradicts" in table.stdout
    assert "(contradicted)" in table.stdout and "citations: completeness 0.0%" in table.stdout
    # The sentence view agrees with the fact it holds: its one sentence is contradicted.
    assert "sentences 1: 0 supported · 1 contradicted · 0 insufficient" in table.stdout


def test_the_citation_table_has_a_row_per_claim_with_each_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from triqua.cli import app

    name = _cli_model(tmp_path, monkeypatch)
    (tmp_path / "curie.md").write_text("Marie Curie won the Nobel Prize in Physics in 1903.")
    (tmp_path / "answer.md").write_text(
        f"{PHYSICS[:-1]} [1]. {WARSAW[:-1]} [2].\n\n[1] curie.md\n[2] https://example.org/none\n"
    )
    args = ["check", "-f", "answer.md", "--citations", "-m", name, "--no-store"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "[1] curie.md" in out and "[1] supports" in out and "(complete)" in out
    assert "[2] https://example.org/none" in out and "[2] unavailable (URL not among" in out
    assert "Marie Curie was born in Warsaw." in out and "(unsupported)" in out


def test_a_jsonl_records_url_matches_a_cited_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from triqua.cli import app
    from triqua.tools.documents import load_documents

    name = _cli_model(tmp_path, monkeypatch)
    line = {"text": PHYSICS, "url": "https://example.org/curie", "title": "Curie"}
    (tmp_path / "ev.jsonl").write_text(json.dumps(line) + "\n")
    (doc,) = load_documents([tmp_path / "ev.jsonl"])
    assert doc.url == "https://example.org/curie" and doc.source.endswith("ev.jsonl#1")
    target = CitationSource(key="1", target="https://example.org/curie/", kind="url", line="")
    assert resolve_source(target, [doc]) == ([doc], None)
    (tmp_path / "answer.md").write_text(f"{PHYSICS[:-1]} [1].\n\n[1] https://example.org/curie\n")
    args = ["check", "-f", "answer.md", "-e", "ev.jsonl", "--citations", "-m", name]
    result = CliRunner().invoke(app, [*args, "--no-store", "--json"])
    assert result.exit_code == 0, result.output
    citations = json.loads(result.stdout)["citations"]
    (link,) = citations["links"]
    assert link["available"] and link["reason"] is None
    assert citations["unavailable_links"] == 0 and citations["claims"][0]["support"] == "complete"
