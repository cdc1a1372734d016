"""Element-level verification (ElementCheck): a complex sentence judged element by element.

Each element of a complex sentence's facts, with the attributes the sentence states of it,
is a claim of its own, judged on the fact's evidence in its own call and grounded like any
verdict; the sentence's verdict follows from the element claims (contradicted when any is,
supported when all are). A simple sentence keeps its one sentence-level verdict.
"""

from __future__ import annotations

import html
import io
import json
import re
from typing import Any

import pytest
from rich.console import Console

import triqua
from triqua.core.plan.element_claims import element_claims, element_groups, element_status
from triqua.core.report.sentence_verdicts import problem_marks
from triqua.rendering.html import render_html
from triqua.rendering.markdown import render_markdown
from triqua.rendering.terminal import SHORT, print_report
from triqua.schema import (
    REPORT_SCHEMA_VERSION,
    ElementClaim,
    Fact,
    Qualifier,
    Status,
    UnitVerdict,
    Verdict,
)

#: ElementCheck's worked example: one sentence, several elements, each with its attributes.
CURIE = (
    "Marie Curie, who was born in {place}, won the Nobel Prize in Physics in 1903 with her "
    "husband Pierre Curie, and the Nobel Prize in Chemistry in 1911."
)
EVIDENCE = [
    "Marie Curie was born in Warsaw.",
    "Marie Curie won the Nobel Prize in Physics in 1903 with Pierre Curie.",
    "Marie Curie was awarded the Nobel Prize in Chemistry in 1911.",
]


def _claims(report: triqua.schema.Report) -> dict[str, ElementClaim]:
    return {claim.text: claim for record in report.records for claim in record.elements}


def test_worked_example_elements_are_verified_then_the_sentence_is_judged() -> None:
    """Supported everywhere the evidence says so, each claim on a verbatim quote of it."""
    report = triqua.check(CURIE.format(place="Warsaw"), documents=EVIDENCE, cache=False)
    assert report.records and all(r.route == "complex" for r in report.records)
    assert all(r.elements for r in report.records)  # every complex fact, element by element
    claims = _claims(report)
    born = claims["Marie Curie — was born in — Warsaw"]
    won = claims["Marie Curie — won — the Nobel Prize in Physics"]
    year = claims["the Nobel Prize in Physics — point in time — 1903"]
    for claim in (born, won, year):
        assert claim.judged is Status.SUPPORTED and claim.status is Status.SUPPORTED
        assert claim.quote and any(claim.quote in passage for passage in EVIDENCE)
    (sentence,) = report.sentences
    assert sentence.route == "complex"
    assert sentence.elements == [c for r in report.records for c in r.elements]
    assert sentence.status is element_status(sentence.elements)


def test_worked_example_a_wrong_element_makes_the_sentence_contradicted() -> None:
    """The birthplace element is contradicted; the other elements stay supported."""
    report = triqua.check(CURIE.format(place="Paris"), documents=EVIDENCE, cache=False)
    claims = _claims(report)
    born = claims["Marie Curie — was born in — Paris"]
    assert born.judged is Status.CONTRADICTED and born.status is Status.CONTRADICTED
    assert claims["Marie Curie — won — the Nobel Prize in Physics"].status is Status.SUPPORTED
    (sentence,) = report.sentences
    assert sentence.status is Status.CONTRADICTED
    # The report names the wrong element claim.
    assert "✗ Marie Curie — was born in — Paris" in problem_marks(sentence)
    assert "Marie Curie — was born in — Paris" in render_markdown(report)


def test_a_simple_sentence_has_no_element_claims() -> None:
    report = triqua.check("Marie Curie was born in Warsaw.", documents=EVIDENCE, cache=False)
    assert report.records and all(r.route == "simple" for r in report.records)
    assert not any(r.elements for r in report.records)
    assert report.sentences[0].elements == []


def test_each_element_is_judged_in_its_own_call_with_only_its_attributes(
    scripted: Any, per_fact_verification: None
) -> None:
    """Subject and object are two elements: two element calls, each listing its own units."""
    from . import conftest

    listed: list[list[str]] = []

    def judge(fact: str, prompt: str) -> dict[str, Any]:
        listed.append(re.findall(r"^- (\(.*\))$", prompt, flags=re.M))
        return conftest.default_judgement(fact, prompt)

    report = triqua.check(
        conftest.FRANCE,
        model=scripted(judge),
        documents=["France has a population of 64.5 million, excluding overseas departments."],
        routing="always_element",
        cache=False,
    )
    (record,) = report.records
    base, *qualifiers = record.fact.units()
    assert [c.unit for c in record.elements] == [u.text for u in (base, *qualifiers)]
    assert [base.text] in listed  # the subject's element call
    assert [u.text for u in qualifiers] in listed  # the object's element call
    assert record.elements[0].element == record.fact.subject
    assert {c.element for c in record.elements[1:]} == {record.fact.object}


FACT = Fact(
    subject="Marie Curie",
    relation="won",
    object="Nobel Prize in Physics",
    qualifiers=[
        Qualifier(label="point in time", value="1903"),
        Qualifier(label="together with", value="Pierre Curie"),
    ],
)


def test_element_groups_hang_qualifiers_from_the_object_and_the_base_from_the_subject() -> None:
    subject, anchor = element_groups(FACT)
    assert (subject.element, [u.kind for u in subject.units]) == ("Marie Curie", ["base"])
    assert subject.fact.qualifiers == []  # the subject's claim carries only its attribute
    assert anchor.element == "Nobel Prize in Physics"
    assert [u.value for u in anchor.units] == ["1903", "Pierre Curie"]
    bare = Fact(subject="Marie Curie", relation="died", object="", qualifiers=FACT.qualifiers)
    (only,) = element_groups(bare)  # no object: every attribute is the subject's
    assert only.element == "Marie Curie" and len(only.units) == 3


def _verdict(*statuses: Status) -> Verdict:
    units = FACT.units()
    return Verdict(
        status=Status.INSUFFICIENT,
        unit_verdicts=[
            UnitVerdict(unit=u.text, kind=u.kind, status=s, evidence_ids=[f"ev{i}"])
            for i, (u, s) in enumerate(zip(units, statuses, strict=True))
        ],
    )


def test_an_element_claim_never_weakens_the_facts_own_unit_verdict() -> None:
    """Left insufficient as an element, a unit the fact's verdict supports still counts."""
    _, anchor = element_groups(FACT)
    judged = _verdict(Status.SUPPORTED, Status.INSUFFICIENT, Status.CONTRADICTED)
    fact_verdict = _verdict(Status.SUPPORTED, Status.SUPPORTED, Status.INSUFFICIENT)
    year, partner = element_claims(anchor, judged, fact_verdict)
    assert (year.judged, year.status, year.evidence_ids) == (
        Status.INSUFFICIENT,
        Status.SUPPORTED,
        ["ev1"],
    )
    assert (partner.judged, partner.status) == (Status.CONTRADICTED, Status.CONTRADICTED)


@pytest.mark.parametrize(
    ("statuses", "expected"),
    [
        ((Status.SUPPORTED, Status.SUPPORTED), Status.SUPPORTED),
        ((Status.SUPPORTED, Status.CONTRADICTED, Status.INSUFFICIENT), Status.CONTRADICTED),
        ((Status.SUPPORTED, Status.INSUFFICIENT), Status.INSUFFICIENT),
        ((Status.NOT_CHECKABLE,), None),
    ],
)
def test_the_sentence_verdict_follows_from_its_element_claims(
    statuses: tuple[Status, ...], expected: Status | None
) -> None:
    claims = [
        ElementClaim(element="e", attribute="a", value="v", unit="(e, a, v)", judged=s, status=s)
        for s in statuses
    ]
    assert element_status(claims) is expected


def test_a_sentence_with_unjudged_elements_keeps_its_units_verdict() -> None:
    """Element claims for only part of the units (calls ran out): the units decide."""
    from triqua.core.report.sentence_verdicts import sentence_verdicts
    from triqua.schema import ClaimRecord

    subject, anchor = element_groups(FACT)
    fact_verdict = _verdict(Status.SUPPORTED, Status.INSUFFICIENT, Status.INSUFFICIENT)
    judged = _verdict(Status.SUPPORTED, Status.INSUFFICIENT, Status.INSUFFICIENT)
    partial = element_claims(subject, judged, fact_verdict)  # the base only
    record = ClaimRecord(
        claim_id="f1",
        claim_text=FACT.to_string(),
        fact=FACT,
        verdict=fact_verdict,
        route="complex",
        elements=partial,
    )
    (sentence,) = sentence_verdicts([record])
    assert element_status(partial) is Status.SUPPORTED
    assert sentence.status is Status.INSUFFICIENT
    # Every unit judged as an element: the element claims decide (the year is contradicted).
    wrong_year = _verdict(Status.SUPPORTED, Status.CONTRADICTED, Status.INSUFFICIENT)
    whole = [*partial, *element_claims(anchor, wrong_year, fact_verdict)]
    (sentence,) = sentence_verdicts([record.model_copy(update={"elements": whole})])
    assert sentence.status is Status.CONTRADICTED


def test_a_batched_judge_verifies_a_batchs_element_claims_in_one_call(scripted: Any) -> None:
    """With a chat model's batched call, all element claims of a batch cost one call."""
    from . import conftest

    model = scripted()
    report = triqua.check(
        f"{conftest.FRANCE} {conftest.CURIE}",
        model=model,
        documents=[
            "France has a population of 64.5 million, excluding overseas departments.",
            "Marie Curie won the Nobel Prize in Physics in 1903.",
        ],
        routing="always_element",
        reverify_rounds=0,
        cache=False,
    )
    assert len(report.records) == 2 and all(r.elements for r in report.records)
    batched = [p for tool, p in model.calls if tool == "Verdicts"]
    # One call judges the facts, one the four element claims (two elements per fact).
    assert len(batched) == 2
    assert not [p for tool, p in model.calls if tool == "Judgement"]
    claims = {c.text: c for r in report.records for c in r.elements}
    assert claims["Marie Curie — won — Nobel Prize in Physics"].status is Status.SUPPORTED
    assert claims["Marie Curie — won — Nobel Prize in Physics"].quote


def _paris_report() -> triqua.schema.Report:
    return triqua.check(CURIE.format(place="Paris"), documents=EVIDENCE, cache=False)


def test_the_html_report_lists_each_complex_sentences_element_claims_with_verdicts() -> None:
    report = _paris_report()
    (sentence,) = report.sentences
    page = render_html(report)
    section = page[page.index('<section id="sentences">') :]
    section = section[: section.index("</section>")]
    items = re.findall(
        r'<li><span class="badge (\w+)">[^<]*</span> <span class="mono">([^<]*)<', section
    )
    shown = [(status, html.unescape(text)) for status, text in items]
    assert shown == [(c.status.value, c.text) for c in sentence.elements]
    assert ("contradicted", "Marie Curie — was born in — Paris") in shown


def test_the_terminal_view_lists_each_complex_sentences_element_claims_with_verdicts() -> None:
    report = _paris_report()
    (sentence,) = report.sentences
    out = io.StringIO()
    print_report(report, Console(file=out, width=200, color_system=None))
    lines = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("complex sentence “"))
    assert lines[start].endswith(": contradicted")
    listed = [line.split(None, 1) for line in lines[start + 1 : start + 1 + len(sentence.elements)]]
    assert [(status, rest.strip()) for status, rest in listed] == [
        (SHORT[c.status], c.text) for c in sentence.elements
    ]


def test_a_simple_sentence_lists_no_element_claims_in_either_view() -> None:
    report = triqua.check("Marie Curie was born in Warsaw.", documents=EVIDENCE, cache=False)
    out = io.StringIO()
    print_report(report, Console(file=out, width=200, color_system=None))
    assert "complex sentence" not in out.getvalue()
    assert 'class="elements"' not in render_html(report)


def test_a_report_of_an_older_schema_without_element_claims_still_loads() -> None:
    """Schema 1.1 had no element claims, 1.0 no sentence verdicts; both load and render."""
    report = _paris_report()
    assert report.schema_version == REPORT_SCHEMA_VERSION == "1.2"
    data = report.model_dump(mode="json")
    for record in data["records"]:
        del record["elements"]
    for sentence in data["sentences"]:
        del sentence["elements"]
    data["schema_version"] = "1.1"
    older = triqua.schema.Report.model_validate_json(json.dumps(data))
    assert older.schema_version == "1.1"
    assert not any(r.elements for r in older.records) and not older.sentences[0].elements
    assert [r.verdict for r in older.records] == [r.verdict for r in report.records]
    assert "Report schema 1.1" in render_html(older)
    del data["sentences"]
    data["schema_version"] = "1.0"
    oldest = triqua.schema.Report.model_validate_json(json.dumps(data))
    assert oldest.sentences == [] and oldest.scores == report.scores
