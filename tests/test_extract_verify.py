"""Extraction and verification as separate steps: extract → edit → verify, as a check would."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.cli.demo import demo_files
from triqua.context import Context
from triqua.core.plan.given_facts import in_chunks, numbered, place_facts, read_facts
from triqua.engines.factory import register_model
from triqua.graph.main import build_graph
from triqua.schema import Chunk, Fact, Report, Span, Status
from triqua.testing import ScriptedChatModel, shown_text

from .conftest import CURIE, FRANCE, PARIS, decompose_by_table, make_responder

runner = CliRunner()

DOCS = [
    "France had a population of 64.5 million in 2025, excluding overseas departments.",
    "Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie.",
]


@pytest.fixture(scope="module")
def readme_example() -> tuple[str, list[str]]:
    """The README's example text (the demo's answer) and its corpus, as documents."""
    corpus, example = demo_files()
    return example, [path.read_text(encoding="utf-8") for path in corpus]


def verdicts(report: Report) -> list[tuple[str, str, Status]]:
    """Each record's id, fact string and verdict, in order."""
    return [(r.claim_id, r.fact.to_string(), r.verdict.status) for r in report.records]


# --- reading, numbering and placing given facts -------------------------------------------


def _line(**fields: Any) -> str:
    base = {"subject": "Marie Curie", "relation": "won", "object": "Nobel Prize in Physics"}
    return json.dumps({**base, **fields})


def test_given_ids_are_kept_and_missing_ones_get_the_next_free_number(tmp_path: Path) -> None:
    path = tmp_path / "facts.jsonl"
    path.write_text("\n".join([_line(id="f4"), _line(), "", _line(id="mine")]) + "\n")
    assert [f.id for f in read_facts(path, "facts.jsonl")] == ["f4", "f5", "mine"]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("not json", "invalid JSON"),
        ('["a", "b", "c"]', "expected a fact object, got list"),
        ('{"subject": "A", "relation": "is"}', "object: Field required"),
        (_line(object="  "), "object is empty"),
        (_line(qualifiers=[{"label": "point in time"}]), "qualifiers.0.value: Field required"),
        (_line(span={"start": -1, "end": 4}), "span.start"),
        (_line(id="f1"), "id 'f1' is given twice"),
    ],
)
def test_a_line_that_is_not_a_fact_is_one_error_naming_its_line(line: str, reason: str) -> None:
    data = (_line(id="f1") + "\n\n" + line + "\n").encode()
    with pytest.raises(ValueError, match=r"^facts\.jsonl:3: ") as caught:
        read_facts(data, "facts.jsonl")
    assert reason in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_file_without_facts_is_an_error() -> None:
    with pytest.raises(ValueError, match="no facts"):
        read_facts(b"\n\n", "facts.jsonl")


def test_a_span_outside_the_text_is_dropped_with_a_warning() -> None:
    text = "Marie Curie won the Nobel Prize in Physics in 1903."
    inside = Fact.parse("(Marie Curie, won, Nobel Prize)", id="f1", span=Span(start=0, end=51))
    outside = inside.model_copy(update={"id": "f2", "span": Span(start=40, end=90)})
    placed = place_facts([inside, outside], text)
    assert placed.text == text
    assert [f.span for f in placed.facts] == [inside.span, None]
    assert placed.warnings == [
        "fact f2: span 40-90 lies outside the text (51 characters); "
        "checked without its place in the text"
    ]


def test_without_a_text_the_source_sentences_make_it() -> None:
    facts = numbered(
        [
            Fact.parse("(Paris, is capital of, France)", source_text=PARIS, chunk_index=3),
            Fact.parse("(Marie Curie, won, Nobel Prize)", source_text=CURIE),
            Fact.parse("(Marie Curie, won, Nobel Prize)-(point in time, 1903)", source_text=CURIE),
            Fact.parse("(Earth, orbits, Sun)"),
        ]
    )
    placed = place_facts(facts, None)
    assert placed.text == f"{PARIS}\n\n{CURIE}\n\nEarth orbits Sun."
    for fact in placed.facts:
        assert fact.span is not None and fact.chunk_index == 0
        assert placed.text[fact.span.start : fact.span.end] == fact.source_text


def test_given_facts_belong_to_the_chunk_their_span_starts_in() -> None:
    chunks = [
        Chunk(index=0, text="a" * 10, start=0, end=10),
        Chunk(index=1, text="b", start=10, end=20),
    ]
    placed = Fact.parse("(a, b, c)", span=Span(start=12, end=15), chunk_index=7)
    unplaced = Fact.parse("(a, b, c)", chunk_index=7)
    assert [f.chunk_index for f in in_chunks([placed, unplaced], chunks)] == [1, 0]


# --- the Python API -----------------------------------------------------------------------


@pytest.mark.slow
def test_verify_gives_the_verdicts_of_check_on_unedited_facts(
    readme_example: tuple[str, list[str]],
) -> None:
    text, documents = readme_example
    checked = triqua.check(text, documents=documents)
    extracted = triqua.extract_facts(text)
    assert [f.to_string() for f in extracted.facts] == [r.fact.to_string() for r in checked.records]
    verified = triqua.verify_facts(extracted.facts, text, documents=documents)
    assert verdicts(verified) == verdicts(checked)
    assert verified.score == checked.score
    assert verified.spec.hash == checked.spec.hash
    assert "9 facts given and checked as they are (triqua verify)" in " ".join(verified.notes)
    assert not any("triqua verify" in note for note in checked.notes)
    # From their JSON and without the text (their source sentences make it): the same verdicts.
    as_json = [f.model_dump(mode="json") for f in extracted.facts]
    assert verdicts(triqua.verify_facts(as_json, documents=documents)) == verdicts(checked)


def test_edited_facts_are_checked_as_edited(readme_example: tuple[str, list[str]]) -> None:
    text, documents = readme_example
    facts = triqua.extract_facts(text).facts
    before = triqua.verify_facts(facts, text, documents=documents)  # its report is cached
    assert facts[0].to_string() == "(Marie Curie, was born in, Warsaw)"
    edited = [facts[0].model_copy(update={"object": "Paris"}), *facts[1:-1]]
    after = triqua.verify_facts(edited, text, documents=documents)
    assert [r.claim_id for r in after.records] == [f.id for f in facts[:-1]]
    assert after.records[0].fact.object == "Paris"
    assert before.records[0].verdict.status is Status.SUPPORTED
    assert after.records[0].verdict.status is Status.CONTRADICTED
    assert verdicts(after)[1:] == verdicts(before)[1:-1]


def test_verify_refuses_what_is_not_a_fact() -> None:
    with pytest.raises(ValueError, match="fact 2: not a fact: relation: Field required"):
        triqua.verify_facts([{"subject": "a", "relation": "b", "object": "c"}, {"subject": "a"}])
    with pytest.raises(ValueError, match="no facts to verify"):
        triqua.verify_facts([], "Some text.")


def test_verify_warns_of_a_span_outside_its_text_and_checks_the_fact() -> None:
    fact = {**json.loads(_line(id="f1")), "span": {"start": 0, "end": 500}}
    with pytest.warns(UserWarning, match="fact f1: span 0-500 lies outside the text"):
        report = triqua.verify_facts([fact], CURIE, documents=DOCS[1:])
    (record,) = report.records
    assert record.fact.span is None
    assert record.verdict.status is Status.SUPPORTED


def test_a_scripted_chat_model_extracts_and_verifies_as_it_checks(
    scripted: Callable[..., ScriptedChatModel],
) -> None:
    text = f"{FRANCE} {CURIE}"
    model = scripted()
    checked = triqua.check(text, documents=DOCS, model=model)
    extracted = triqua.extract_facts(text, model=model)
    assert [f.model_dump() for f in extracted.facts] == [
        r.fact.model_dump() for r in checked.records
    ]
    verifier = scripted()
    verified = triqua.verify_facts(extracted.facts, text, documents=DOCS, model=verifier)
    assert verdicts(verified) == verdicts(checked)
    assert [s.value for _, _, s in verdicts(verified)] == ["contradicted", "supported"]
    assert {tool for tool, _ in verifier.calls} == {"Verdicts"}  # judged, never decomposed


def test_facts_the_text_does_not_state_are_not_extracted(
    scripted: Callable[..., ScriptedChatModel],
) -> None:
    invented = {
        "subject": "Paris",
        "relation": "has population",
        "object": "2.1 million",
        "qualifiers": [],
        "source_sentence": PARIS,
    }

    def respond(tool: str, prompt: str) -> dict[str, Any] | str:
        if tool == "ExtractedFacts":
            found = decompose_by_table(shown_text(prompt))
            return {"facts": [*found["facts"], invented]}
        return make_responder()(tool, prompt)

    model = ScriptedChatModel(responder=respond)
    extracted = triqua.extract_facts(PARIS, model=model)
    assert [f.to_string() for f in extracted.facts] == ["(Paris, is capital of, France)"]
    assert [u.fact.object for u in extracted.unfounded] == ["2.1 million"]


# --- the command line ---------------------------------------------------------------------


@pytest.fixture
def example_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with the README's answer.txt and its sources/, as the README's commands name."""
    corpus, example = demo_files()
    (tmp_path / "sources").mkdir()
    for path in corpus:
        (tmp_path / "sources" / path.name).write_bytes(path.read_bytes())
    (tmp_path / "answer.txt").write_text(example, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.slow
def test_extract_edit_verify_round_trips_on_the_readme_example(example_folder: Path) -> None:
    extracted = runner.invoke(app, ["extract", "-f", "answer.txt", "-o", "facts.jsonl"])
    assert extracted.exit_code == 0, extracted.output
    assert "extracted 9 facts to facts.jsonl" in extracted.stderr
    assert extracted.stdout == ""
    lines = (example_folder / "facts.jsonl").read_text(encoding="utf-8").splitlines()
    facts = [json.loads(line) for line in lines]
    assert set(facts[0]) == {
        "id", "subject", "relation", "object", "qualifiers", "span", "chunk_index", "source_text"
    }  # fmt: skip
    text = (example_folder / "answer.txt").read_text(encoding="utf-8")
    for fact in facts:
        assert text[fact["span"]["start"] : fact["span"]["end"]] == fact["source_text"]

    checked = runner.invoke(app, ["check", "-f", "answer.txt", "-e", "sources", "--json"])
    unedited = runner.invoke(
        app, ["verify", "facts.jsonl", "-f", "answer.txt", "-e", "sources", "--json"]
    )
    assert unedited.exit_code == 0, unedited.output

    def statuses(result: Any) -> list[tuple[str, str]]:
        return [
            (r["claim_id"], r["verdict"]["status"]) for r in json.loads(result.stdout)["records"]
        ]

    assert statuses(unedited) == statuses(checked)

    facts[0]["object"] = "Paris"  # a person's edits: one object changed, one line deleted
    edited = "".join(json.dumps(f) + "\n" for f in facts[:-1])
    (example_folder / "edited.jsonl").write_text(edited, encoding="utf-8")
    result = runner.invoke(
        app, ["verify", "edited.jsonl", "-f", "answer.txt", "-e", "sources", "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert statuses(result)[0] == ("f1", "contradicted")
    assert statuses(result)[1:] == statuses(checked)[1:-1]
    shown = runner.invoke(app, ["show", report["run_id"], "--json"])  # stored like a check
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["records"][0]["fact"]["object"] == "Paris"
    gated = runner.invoke(
        app, ["verify", "edited.jsonl", "-e", "sources", "--summary", "--fail-on", "contradicted"]
    )
    assert gated.exit_code == 1
    assert "gate failed:" in gated.stderr


def test_extract_writes_to_stdout_and_counts_what_it_leaves_out() -> None:
    text = (
        "Marie Curie was born in Warsaw. I think she moved to Paris in 1891. "
        "Let me know if you have any other questions!"
    )
    result = runner.invoke(app, ["extract", text])
    assert result.exit_code == 0, result.output
    facts = [Fact.model_validate_json(line) for line in result.stdout.splitlines()]
    assert [f.to_string() for f in facts] == ["(Marie Curie, was born in, Warsaw)"]
    assert "extracted 1 fact; not written: 1 fact of 2 sentences not check-worthy" in result.stderr


def test_verify_names_the_line_that_is_not_a_fact(tmp_path: Path) -> None:
    path = tmp_path / "facts.jsonl"
    path.write_text(_line(id="f1") + '\n{"subject": "Marie Curie", "relation": "won"}\n')
    result = runner.invoke(app, ["verify", str(path), CURIE])
    assert result.exit_code == 2
    assert result.stderr == f"error: {path}:2: not a fact: object: Field required\n"
    for missing in (tmp_path / "nope.jsonl", tmp_path):
        refused = runner.invoke(app, ["verify", str(missing), CURIE])
        assert refused.exit_code == 2
        assert refused.stderr.startswith(f"error: {missing}: ")
        assert refused.stderr.count("\n") == 1


def test_verify_warns_of_a_span_outside_the_text(tmp_path: Path) -> None:
    path = tmp_path / "facts.jsonl"
    path.write_text(_line(id="f1", span={"start": 0, "end": 500}, source_text=CURIE) + "\n")
    evidence = tmp_path / "curie.md"
    evidence.write_text(DOCS[1], encoding="utf-8")
    result = runner.invoke(app, ["verify", str(path), CURIE, "-e", str(evidence), "--summary"])
    assert result.exit_code == 0, result.output
    assert "warning: fact f1: span 0-500 lies outside the text" in result.stderr
    assert "1 fact: 1 supported" in result.stdout


def test_the_command_line_extracts_and_verifies_with_a_chat_model(
    tmp_path: Path, scripted: Callable[..., ScriptedChatModel]
) -> None:
    name = register_model("extract-verify", scripted())
    facts = tmp_path / "facts.jsonl"
    text = f"{FRANCE} {CURIE}"
    extracted = runner.invoke(app, ["extract", text, "-m", name, "-o", str(facts), "--quiet"])
    assert extracted.exit_code == 0, extracted.output
    assert [Fact.model_validate_json(line).id for line in facts.read_text().splitlines()] == [
        "f1",
        "f2",
    ]
    evidence = tmp_path / "evidence.md"
    evidence.write_text("\n\n".join(DOCS), encoding="utf-8")
    result = runner.invoke(
        app, ["verify", str(facts), text, "-m", name, "-e", str(evidence), "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [r["verdict"]["status"] for r in report["records"]] == ["contradicted", "supported"]
    assert report["spec"]["models"]["decompose"] == report["spec"]["models"]["verify"]


def test_the_graph_takes_given_facts_as_an_input_key() -> None:
    """A parent graph or Studio passes ``given_facts``; decomposition is skipped."""
    fact = Fact.parse("(Marie Curie, won, Nobel Prize in Physics)-(point in time, 1903)")
    fact = fact.model_copy(
        update={"id": "mine", "source_text": CURIE, "span": Span(start=0, end=51)}
    )
    state = {"text": CURIE, "given_facts": [fact], "documents": DOCS[1:]}
    out = build_graph().invoke(state, context=Context())
    (record,) = out["report"].records
    assert record.claim_id == "mine"
    assert record.verdict.status is Status.SUPPORTED


def test_an_interrupted_verify_resumes_with_its_given_facts(
    scripted: Callable[..., ScriptedChatModel],
) -> None:
    text = f"{FRANCE} {CURIE}"
    facts = triqua.extract_facts(text, model=scripted()).facts
    edited = [facts[0], facts[1].model_copy(update={"id": "curie", "object": "Nobel Prize"})]

    def stop(event: dict[str, Any]) -> None:
        if event.get("event") == "fact_verified":
            raise RuntimeError("stopped after one fact")

    given: dict[str, Any] = {"documents": DOCS, "durable": True, "store": True, "run_id": "vr"}
    with pytest.raises(RuntimeError, match="stopped after one fact"):
        triqua.verify_facts(edited, text, model=scripted(), on_event=stop, **given)
    model = scripted()
    resumed = triqua.check(resume="vr", model=model)
    assert sorted((r.claim_id, r.fact.object) for r in resumed.records) == [
        ("curie", "Nobel Prize"),
        ("f1", "64.5 million"),
    ]
    assert "ExtractedFacts" not in {tool for tool, _ in model.calls}


@pytest.mark.parametrize(
    ("count", "note"),
    [
        (1, "1 fact given and checked as it is (triqua verify)"),
        (2, "2 facts given and checked as they are (triqua verify)"),
    ],
)
def test_the_given_facts_note_agrees_with_its_count(count: int, note: str) -> None:
    from triqua.core.plan.given_facts import given_note

    assert given_note(count).startswith(note)
