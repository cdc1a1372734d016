"""TriQua facts written as sentences for the entailment judge, and the --verifier flag."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.test_entailment_models import CROSS_ENCODER_LABELS
from tests.tiny_nli import build_model_folder
from triqua.cli import app
from triqua.models.hypotheses import (
    fact_hypothesis,
    qualifier_phrase,
    source_hypothesis,
    unit_hypothesis,
)
from triqua.schema import Fact, Qualifier

CURIE = Fact(
    subject="Marie Curie",
    relation="won",
    object="the Nobel Prize in Physics",
    qualifiers=[
        Qualifier(label="point in time", value="1903"),
        Qualifier(label="together with", value="Pierre Curie"),
    ],
    source_text="Marie Curie won the Nobel Prize in Physics in 1903 with Pierre Curie.",
)


def test_fact_and_units_read_as_sentences() -> None:
    assert fact_hypothesis(CURIE) == (
        "Marie Curie won the Nobel Prize in Physics in 1903 with Pierre Curie."
    )
    base, year, partner = (unit_hypothesis(u) for u in CURIE.units())
    assert base == "Marie Curie won the Nobel Prize in Physics."
    assert year == "Marie Curie won the Nobel Prize in Physics in 1903."
    assert partner == "Marie Curie won the Nobel Prize in Physics with Pierre Curie."


def test_qualifier_labels_map_back_to_their_prepositions() -> None:
    assert qualifier_phrase("start time", "1939") == "from 1939"
    assert qualifier_phrase("end time", "1975") == "until 1975"
    assert qualifier_phrase("point in time", "during the war") == "during the war"
    assert qualifier_phrase("frequency", "twice") == "twice"
    assert qualifier_phrase("played for", "Ajax") == "played for Ajax"  # a host relation
    bare = Fact(subject="the rhine", relation="flows", object="")
    assert fact_hypothesis(bare) == "The rhine flows."


def test_source_sentence_is_a_second_hypothesis_only_when_it_adds_something() -> None:
    rendered = unit_hypothesis(CURIE.units()[0])
    assert source_hypothesis(CURIE.source_text, rendered) == CURIE.source_text
    same = CURIE.model_copy(update={"source_text": rendered})
    assert source_hypothesis(same.source_text, rendered) is None
    two = CURIE.model_copy(update={"source_text": "Curie won. She was the first woman."})
    assert source_hypothesis(two.source_text, rendered) is None
    question = CURIE.model_copy(update={"source_text": "Did Curie win the prize?"})
    assert source_hypothesis(question.source_text, rendered) is None


@pytest.mark.slow
def test_verifier_flag_takes_a_model_folder_and_refuses_a_bad_one(tmp_path: Path) -> None:
    runner = CliRunner()
    text = "Alan Turing worked at Bletchley Park."
    evidence = tmp_path / "e.txt"
    evidence.write_text("Alan Turing worked at Bletchley Park during the war.", encoding="utf-8")
    bad = runner.invoke(app, ["check", text, "-e", str(evidence), "--verifier", "bert"])
    assert bad.exit_code == 2 and "unknown verifier 'bert'" in bad.output
    assert len(bad.output.strip().splitlines()) == 1
    build_model_folder(tmp_path / "nli", CROSS_ENCODER_LABELS)
    spec = f"nli:{tmp_path / 'nli'}"
    good = runner.invoke(app, ["check", text, "-e", str(evidence), "--verifier", spec, "--json"])
    assert good.exit_code == 0, good.output
    assert spec in good.stdout  # the verdicts name the judge that gave them
