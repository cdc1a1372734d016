"""Whose clause states the object when lists, appositions and relative clauses pair names.

The clause gates read the owner of the clause that holds a fact's object. These shapes
give the object to another name although the subject stands in the same sentence: lists
paired in order ("A and B … X and Y, respectively"), an apposition that describes the
owner by the subject ("Ira Gershwin, George Gershwin's brother, …") or names a namesake
("His daughter Jane Fonda …"), a relative clause on the noun the subject is the wife of,
a pronoun opening a conjoined clause, and two predicates conjoined under one subject. A
judge that entails everything shows the gates refuse them on both engines, and the true
pairings still pass.
"""

from __future__ import annotations

import pytest

from tests.test_offline_statement_gates import status
from triqua.core.reading.holders import of_another
from triqua.core.reading.respective import PAIRED_RULES, respective_holder
from triqua.core.reading.words import stem
from triqua.models.reader import statement_refusal
from triqua.nlp.clauses import clause_head, predicate_head, window_parse
from triqua.schema import Fact, FactUnit, Status

LIES = [
    pytest.param(
        ("Lyon", "lies on", "the Seine"),
        "Lyon and Paris lie on the Rhône and the Seine, respectively.",
        "to 'Paris'",
        id="respectively-pairs-the-second-river-with-the-second-city",
    ),
    pytest.param(
        ("Orville Wright", "was born in", "1867"),
        "Wilbur Wright and Orville Wright were born in Indiana and Ohio. They were born in "
        "1867 and 1871.",
        "to 'Wilbur Wright'",
        id="they-and-a-list-of-years-pair-in-order",
    ),
    pytest.param(
        ("Jacob Grimm", "collected", "the Kinder- und Hausmärchen"),
        "Wilhelm Grimm, Jacob Grimm's younger brother, collected the Kinder- und Hausmärchen.",
        "to 'Wilhelm Grimm'",
        id="an-apposition-naming-the-subject-as-possessor-is-no-alias",
    ),
    pytest.param(
        ("Kirk Douglas", "won", "the Academy Award for Wall Street"),
        "Kirk Douglas starred in Spartacus. His son Michael Douglas won the Academy Award for "
        "Wall Street.",
        "to 'Michael Douglas'",
        id="a-namesake-in-apposition-to-his-son",
    ),
    pytest.param(
        ("Frida Kahlo", "painted", "the Detroit Industry Murals"),
        "Frida Kahlo was born in Coyoacán. Her husband Diego Rivera painted the Detroit "
        "Industry Murals.",
        "to 'Diego Rivera'",
        id="a-description-named-by-its-apposition",
    ),
    pytest.param(
        ("Constanze Weber", "composed", "The Magic Flute"),
        "Constanze Weber was the wife of the composer who composed The Magic Flute.",
        "to 'the composer'",
        id="a-relative-clause-on-the-noun-the-subject-is-the-wife-of",
    ),
    pytest.param(
        ("Turin", "hosted the Winter Olympics in", "2026"),
        "Like Turin, Milan lies in the north of Italy, and it hosted the Winter Olympics in 2026.",
        "to 'Milan'",
        id="a-pronoun-opening-a-conjoined-clause-is-the-first-clause-s-subject",
    ),
    pytest.param(
        ("Gerhard Schröder", "was a lawyer under", "Helmut Kohl"),
        "Gerhard Schröder was a lawyer in Hanover and served in the Bundestag under Helmut Kohl.",
        "across clauses",
        id="two-conjoined-predicates-of-one-subject",
    ),
]

PARAPHRASES = [
    pytest.param(
        ("Paris", "lies on", "the Seine"),
        "Lyon and Paris lie on the Rhône and the Seine, respectively.",
        id="respectively-the-true-pair",
    ),
    pytest.param(
        ("Michael Douglas", "won", "the Academy Award for Wall Street"),
        "Kirk Douglas starred in Spartacus. His son Michael Douglas won the Academy Award for "
        "Wall Street.",
        id="the-namesake-s-own-fact",
    ),
    pytest.param(
        ("Wilhelm Grimm", "collected", "the Kinder- und Hausmärchen"),
        "Wilhelm Grimm, Jacob Grimm's younger brother, collected the Kinder- und Hausmärchen.",
        id="the-owner-of-the-appositive-chain",
    ),
]


@pytest.mark.parametrize(("triple", "text", "reason"), LIES)
def test_offline_never_supports_the_other_name_s_object(
    triple: tuple[str, str, str], text: str, reason: str
) -> None:
    subject, relation, obj = triple
    assert status(Fact(subject=subject, relation=relation, object=obj), text) != (Status.SUPPORTED)


@pytest.mark.parametrize(("triple", "text", "reason"), LIES)
def test_llm_grounding_refuses_the_same_windows(
    triple: tuple[str, str, str], text: str, reason: str
) -> None:
    subject, relation, obj = triple
    why = statement_refusal(
        FactUnit(kind="base", subject=subject, relation=relation, object=obj), text
    )
    assert why is not None and reason in why


@pytest.mark.parametrize(("triple", "text"), PARAPHRASES)
def test_the_true_pairing_still_passes_the_gates(triple: tuple[str, str, str], text: str) -> None:
    subject, relation, obj = triple
    unit = FactUnit(kind="base", subject=subject, relation=relation, object=obj)
    assert statement_refusal(unit, text) is None


def test_respectively_names_the_other_subject_or_the_subject_s_own() -> None:
    """The i-th object conjunct is the i-th subject's: another's name, or "" for the own."""
    doc = window_parse("Faulkner and Hemingway won the prize in 1949 and 1954, respectively.")
    assert respective_holder({"hemingway"}, {"1949"}, doc) == "Faulkner"
    assert respective_holder({"hemingway"}, {"1954"}, doc) == ""
    assert respective_holder({"steinbeck"}, {"1954"}, doc) is None  # not one of the list


def test_a_list_of_names_without_respectively_is_no_pairing() -> None:
    """Names listed beside names may each hold all ("Hamburg and Bremen trade with A and B")."""
    doc = window_parse("Hamburg and Bremen trade with Norway and Sweden.")
    assert respective_holder({"hamburg"}, {stem("Sweden")}, doc) is None


def test_conjoined_predicates_with_complements_are_two_predicates() -> None:
    """ "was provost … and served as …" are two predicates; "born and raised in X" is one."""
    doc = window_parse("Rice was provost of Stanford and served as Secretary under Bush.")
    provost, bush = doc[2], doc[-2]
    assert clause_head(provost) == clause_head(bush)
    assert predicate_head(provost) != predicate_head(bush)
    doc = window_parse("Mozart was born and raised in Salzburg.")
    assert predicate_head(doc[3]) == predicate_head(doc[6])


def test_of_another_reads_the_noun_the_subject_is_related_to() -> None:
    """ "the wife of the playwright": the playwright is another; a bare noun names no one."""
    doc = window_parse("Anne Hathaway was the wife of the playwright who wrote Hamlet.")
    playwright = next(t for t in doc if t.text == "playwright")
    assert of_another(playwright, {"anne", "hathaway"})
    assert not of_another(playwright, {"shakespeare"})


@pytest.mark.parametrize("example", PAIRED_RULES["refused"], ids=lambda e: e[0])
def test_the_rules_file_s_refused_examples_are_refused(example: list[str]) -> None:
    subject, relation, obj, text = example
    unit = FactUnit(kind="base", subject=subject, relation=relation, object=obj)
    assert statement_refusal(unit, text) is not None


@pytest.mark.parametrize("example", PAIRED_RULES["stated"], ids=lambda e: e[0])
def test_the_rules_file_s_stated_examples_pass(example: list[str]) -> None:
    subject, relation, obj, text = example
    unit = FactUnit(kind="base", subject=subject, relation=relation, object=obj)
    assert statement_refusal(unit, text) is None


def test_an_object_spread_over_the_shared_subject_and_a_predicate_is_not_split() -> None:
    """ "Applications of X include, but are not limited to: logistics" holds "applications in
    logistics" in one clause; conjoined predicates split only an object whole in one."""
    from triqua.core.reading.analysis import analyse
    from triqua.core.reading.clause_owners import object_split

    text = "Applications of combinatorial optimization include, but are not limited to: logistics."
    assert not object_split(analyse("applications in logistics"), frozenset(), text)
    text = "Rice was provost of Stanford and served as Secretary of State under Bush."
    assert object_split(analyse("Bush"), frozenset({"provost"}), text)
