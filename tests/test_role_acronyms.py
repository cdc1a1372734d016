"""Role titles written out in lower case carry their acronyms, on both engines.

"He stepped down as chief executive officer of Microsoft" writes "CEO": the role spellings
of ``core/reading/data/role_acronyms.json`` give their letters, and each example there
must ("match") or must not ("no_match") give them; this test runs every one. The offline
verifier's analysis and the grounding rule's value gate read the same letters, so a unit
writing "CEO" is carried by the spelled-out role and not by chance initials ("cats eat
often").
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_grounding_stated import reader
from triqua.core.grounding.rule import check_quote
from triqua.core.grounding.value_binding import misdated
from triqua.core.reading.acronyms import spelled_initials, stands_for
from triqua.core.reading.analysis import analyse
from triqua.core.reading.name_match import name_words_in
from triqua.core.reading.quote_values import missing_values
from triqua.core.reading.role_acronyms import ROLE_ACRONYMS_PATH
from triqua.core.reading.rules_file import read_rules_file
from triqua.engines.offline.verify.verifier import AlignmentVerifier
from triqua.schema import Evidence, Fact, FactUnit, Status

_EXAMPLES = read_rules_file(ROLE_ACRONYMS_PATH, "role acronyms")["examples"]


def test_the_rules_file_has_examples_both_ways() -> None:
    assert _EXAMPLES["match"] and _EXAMPLES["no_match"]


@pytest.mark.parametrize("example", _EXAMPLES["match"], ids=lambda e: e["text"][:40])
def test_a_listed_spelling_gives_its_acronym(example: dict[str, Any]) -> None:
    assert example["letters"] in spelled_initials(example["text"])
    assert example["letters"] in analyse(example["text"]).acronyms


@pytest.mark.parametrize("example", _EXAMPLES["no_match"], ids=lambda e: e["text"][:40])
def test_other_words_give_no_acronym(example: dict[str, Any]) -> None:
    assert example["letters"] not in spelled_initials(example["text"])


_GATES = "He stepped down as chief executive officer of Microsoft in January 2000."
_BEFORE = "Bill Gates co-founded Microsoft in 1975. "


def test_the_grounding_rule_reads_the_role_as_its_acronym() -> None:
    unit = FactUnit(
        kind="base", subject="Bill Gates", relation="stepped down as", object="CEO of Microsoft"
    )
    assert missing_values(unit, _GATES, _BEFORE, classes=True, owners=True) == []
    passage = _BEFORE + _GATES
    assert check_quote(
        unit, Status.SUPPORTED, ["e"], _GATES, {"e": passage}, reader=reader(0.95)
    ).ok
    # A qualifier carries its base's acronym as the base does.
    dated = FactUnit(
        kind="qualifier",
        subject="Bill Gates",
        relation="stepped down as",
        object="CEO of Microsoft",
        label="point in time",
        value="January 2000",
    )
    assert missing_values(dated, _GATES, _BEFORE, classes=True, owners=True) == []


def test_another_role_is_not_the_acronym() -> None:
    unit = FactUnit(
        kind="base", subject="Bill Gates", relation="stepped down as", object="CFO of Microsoft"
    )
    assert "cfo" in missing_values(unit, _GATES, _BEFORE, classes=True, owners=True)
    cats = FactUnit(kind="base", subject="Tom", relation="is", object="the CEO")
    assert "ceo" in missing_values(cats, "Tom said that cats eat often.", "")


def test_the_offline_verifier_names_the_acronym_by_the_role() -> None:
    assert name_words_in(analyse("CEO of Microsoft"), analyse(_GATES), _BEFORE)
    assert not name_words_in(analyse("CTO of Microsoft"), analyse(_GATES), _BEFORE)


def test_two_roles_of_one_acronym_are_either() -> None:
    text = "She was chief security officer, then chief strategy officer of Acme."
    assert not stands_for("cso", "CSO of Acme", text)
    assert stands_for("cso", "CSO of Acme", "She was chief security officer of Acme.")
    # The title and its short form are one role.
    both = "As chief executive, he led Acme; he stayed chief executive officer until 2000."
    assert stands_for("ceo", "CEO of Acme", both)


def test_a_year_in_the_clause_of_the_spelled_out_role_is_the_roles() -> None:
    sentence = (
        "Sheryl Sandberg joined Facebook in 2008, where she served as chief operating "
        "officer until 2022."
    )

    def ended(year: str) -> FactUnit:
        return FactUnit(
            kind="qualifier",
            subject="Sheryl Sandberg",
            relation="served as",
            object="COO of Facebook",
            label="end time",
            value=year,
        )

    assert misdated(ended("2022"), sentence) is None
    # Another role leaves the company's clause the only one the object marks.
    other = sentence.replace("operating", "financial")
    assert misdated(ended("2022"), other) == "2022"


def test_the_sentence_writing_the_role_is_quoted_before_one_naming_only_the_company() -> None:
    """Both sentences name Apple; the one that spells the role out states the base."""
    text = "Tim Cook joined Apple in 1998. He became chief executive officer of Apple in 2011."
    evidence = Evidence.build(document_id="d0", text=text, retriever="supplied")
    fact = Fact(subject="Tim Cook", relation="became", object="CEO of Apple")
    verdict = AlignmentVerifier(judge="rules").verify(fact, [evidence])
    assert verdict.unit_verdicts[0].status == Status.SUPPORTED
    assert verdict.unit_verdicts[0].quote == text.split(". ")[1]
