"""A negation inside a clause that describes a noun does not deny the sentence's relation.

"Einstein, who never learned to drive, won the Nobel Prize" states that he won it; "A byte
is a unit of digital information, unlike a nibble, which is not a common unit" states what a
byte is. A negation that governs the relation's verb still denies ("did not win", "never had
the chance to win"), and so does one in a clause that carries the unit's own words.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from triqua.cli import app
from triqua.core.grounding.gates import negated
from triqua.core.grounding.rule import check_quote
from triqua.core.grounding.statement import denies
from triqua.nlp.negation_scope import noun_clause_cues
from triqua.schema import FactUnit, Status

BYTE = ("A byte", "is", "a unit of digital information")
EINSTEIN = ("Einstein", "won", "the Nobel Prize in Physics")
CURIE = ("Marie Curie", "won", "the Nobel Prize in Literature")

AFFIRMING = [
    (EINSTEIN, "Einstein, who never learned to drive, won the Nobel Prize in Physics."),
    (EINSTEIN, "Einstein, who never won a race, won the Nobel Prize in Physics."),
    (BYTE, "A byte is a unit of digital information, unlike a nibble, which is not a common unit."),
    (
        BYTE,
        "A byte is a unit of digital information, and a word is a unit that is not a fixed "
        "number of bytes.",
    ),
]
DENYING = [
    (CURIE, "Marie Curie did not win the Nobel Prize in Literature."),
    (CURIE, "Marie Curie never had the chance to win the Nobel Prize in Literature."),
    (CURIE, "She did not, as is often said, win the Nobel Prize in Literature."),
    (("The man", "won", "the prize"), "The man who did not win the prize left early."),
    (BYTE, "A byte is a unit that does not hold digital information."),
]


def _unit(parts: tuple[str, str, str]) -> FactUnit:
    subject, relation, obj = parts
    return FactUnit(kind="base", subject=subject, relation=relation, object=obj)


def test_the_cues_of_a_clause_under_a_noun_are_found_with_the_clause() -> None:
    text = "Einstein, who never learned to drive, won the Nobel Prize."
    (cue,) = noun_clause_cues(text)
    assert text[cue.start : cue.end] == "never"
    assert text[cue.clause_start : cue.clause_end] == "who never learned to drive"
    assert noun_clause_cues("Marie Curie did not win the Nobel Prize.") == ()
    assert noun_clause_cues("She never had the chance to win it.") == ()


@pytest.mark.parametrize(("parts", "window"), AFFIRMING)
def test_a_negation_in_a_clause_under_another_noun_denies_nothing(
    parts: tuple[str, str, str], window: str
) -> None:
    unit = _unit(parts)
    assert negated(unit, window) is None
    assert not denies(unit, window)
    assert check_quote(unit, Status.SUPPORTED, ["e"], window, {"e": window}).ok


@pytest.mark.parametrize(("parts", "window"), DENYING)
def test_a_negation_of_the_relation_still_denies(parts: tuple[str, str, str], window: str) -> None:
    unit = _unit(parts)
    assert denies(unit, window)
    assert not check_quote(unit, Status.SUPPORTED, ["e"], window, {"e": window}).ok


def _offline_statuses(tmp_path: Path, claim: str, passage: str) -> list[str]:
    (tmp_path / "evidence.txt").write_text(passage + "\n", encoding="utf-8")
    result = runner.invoke(
        app, ["check", claim, "-e", str(tmp_path / "evidence.txt"), "--no-store", "--json"]
    )
    assert result.exit_code == 0, result.output
    return [sentence["status"] for sentence in json.loads(result.stdout)["sentences"]]


runner = CliRunner()


def test_the_offline_engine_supports_a_fact_beside_a_negated_relative_clause(
    tmp_path: Path,
) -> None:
    passage = "Einstein, who never learned to drive, won the Nobel Prize in Physics in 1921."
    claim = "Einstein won the Nobel Prize in Physics."
    assert _offline_statuses(tmp_path, claim, passage) == ["supported"]


def test_the_offline_engine_still_contradicts_a_denied_relation(tmp_path: Path) -> None:
    passage = "Marie Curie was a chemist. She did not win the Nobel Prize in Literature."
    claim = "Marie Curie won the Nobel Prize in Literature."
    assert _offline_statuses(tmp_path, claim, passage) == ["contradicted"]


TWO_YEARS = "Marie Curie, who did not win the Nobel Prize in Chemistry in 1903, won it in 1911."


def test_a_negated_clause_under_a_noun_denies_the_number_it_writes() -> None:
    """The clause's numbers count among the unit's words: it denies 1903, never 1911."""
    relation = "won the Nobel Prize in Chemistry in"
    denied = _unit(("Marie Curie", relation, "1903"))
    stated = _unit(("Marie Curie", relation, "1911"))
    assert negated(denied, TWO_YEARS) is not None
    assert denies(denied, TWO_YEARS)
    assert not check_quote(denied, Status.SUPPORTED, ["e"], TWO_YEARS, {"e": TWO_YEARS}).ok
    assert negated(stated, TWO_YEARS) is None
    assert not denies(stated, TWO_YEARS)


def test_a_contrast_after_a_comma_denies_only_the_value_after_its_cue() -> None:
    """ "started in 1666, not 1667" states 1666 and denies 1667; a name after it likewise."""
    text = "The Great Fire of London started in 1666, not 1667."
    stated = _unit(("The Great Fire of London", "started in", "1666"))
    denied = _unit(("The Great Fire of London", "started in", "1667"))
    assert not denies(stated, text)
    assert check_quote(stated, Status.SUPPORTED, ["e"], text, {"e": text}).ok
    assert denies(denied, text)
    assert not check_quote(denied, Status.SUPPORTED, ["e"], text, {"e": text}).ok
    named = "The bridge was designed by Greta Holm, not Ada Lindqvist."
    assert not denies(_unit(("The bridge", "was designed by", "Greta Holm")), named)
    assert denies(_unit(("The bridge", "was designed by", "Ada Lindqvist")), named)


def test_a_contrast_still_denies_the_units_own_subject() -> None:
    """ "Canberra, not Sydney" denies "Sydney is the capital of Australia"."""
    text = "The capital of Australia is Canberra, not Sydney."
    unit = _unit(("Sydney", "is", "the capital of Australia"))
    assert denies(unit, text)
    assert not check_quote(unit, Status.SUPPORTED, ["e"], text, {"e": text}).ok


def test_the_offline_engine_reads_a_negated_clause_under_a_noun_by_its_numbers(
    tmp_path: Path,
) -> None:
    """The clause denies a win in 1903, not the win in 1911 that the rest states."""
    claim = "Marie Curie won the Nobel Prize in Chemistry in {}."
    assert _offline_statuses(tmp_path, claim.format(1911), TWO_YEARS) == ["supported"]
    assert _offline_statuses(tmp_path, claim.format(1903), TWO_YEARS) != ["supported"]
