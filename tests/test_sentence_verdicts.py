"""Sentence verdicts: one verdict per checked source sentence, beside the facts' verdicts.

A sentence is supported only when every checkable unit of its facts is, contradicted when
any is, insufficient otherwise; its wrong and unverified units are named, units counted
once, and the view is in the report, its Markdown and the terminal summary, and kept by
regrade.
"""

from __future__ import annotations

from rich.console import Console

import triqua
from triqua.core.report.sentence_verdicts import sentence_verdicts
from triqua.rendering.html import render_html
from triqua.rendering.markdown import render_markdown
from triqua.rendering.terminal import summary
from triqua.schema import ClaimRecord, Fact, Qualifier, Span, Status, UnitVerdict, Verdict

CURIE = "Marie Curie won the Nobel Prize in Physics in 1903. She was born in Paris."
EVIDENCE = "Marie Curie won the Nobel Prize in Physics in 1903. Curie was born in Warsaw."


def _record(
    claim_id: str,
    fact: Fact,
    status: Status,
    *,
    units: list[UnitVerdict] | None = None,
    route: str = "simple",
) -> ClaimRecord:
    return ClaimRecord(
        claim_id=claim_id,
        claim_text=fact.to_string(),
        fact=fact,
        verdict=Verdict(status=status, unit_verdicts=units or []),
        route=route,  # type: ignore[arg-type]
    )


def _fact(subject: str, relation: str, obj: str, start: int, end: int, **kw: object) -> Fact:
    return Fact(
        subject=subject,
        relation=relation,
        object=obj,
        span=Span(start=start, end=end),
        source_text="Marie Curie, born in Warsaw, won the prize in 1903.",
        **kw,  # type: ignore[arg-type]
    )


def test_a_checked_text_gets_one_verdict_per_sentence_with_the_wrong_unit_named() -> None:
    report = triqua.check(CURIE, documents=[EVIDENCE], cache=False)
    assert [s.status for s in report.sentences] == [Status.SUPPORTED, Status.CONTRADICTED]
    first, second = report.sentences
    assert first.text.startswith("Marie Curie won") and second.text.startswith("She was born")
    assert first.units_supported == first.units_total >= 1
    assert second.wrong and "Paris" in second.wrong[0]
    assert first.facts and set(first.facts + second.facts) == {r.claim_id for r in report.records}


def test_one_unverified_unit_leaves_its_sentence_insufficient_and_is_named() -> None:
    born = _fact("Marie Curie", "was born in", "Warsaw", 0, 52)
    won = _fact(
        "Marie Curie",
        "won",
        "the prize",
        0,
        52,
        qualifiers=[Qualifier(label="point in time", value="1903")],
    )
    year = won.units()[1].text
    records = [
        _record("f1", born, Status.SUPPORTED),
        _record(
            "f2",
            won,
            Status.INSUFFICIENT,
            units=[
                UnitVerdict(unit=won.units()[0].text, kind="base", status=Status.SUPPORTED),
                UnitVerdict(unit=year, kind="qualifier", status=Status.INSUFFICIENT),
            ],
            route="complex",
        ),
    ]
    (sentence,) = sentence_verdicts(records)
    assert sentence.status is Status.INSUFFICIENT
    assert (sentence.units_supported, sentence.units_total) == (2, 3)
    assert sentence.unverified == [year] and sentence.wrong == []
    assert sentence.route == "complex" and sentence.facts == ["f1", "f2"]


def test_a_repeated_unit_counts_once_and_not_checkable_units_are_left_out() -> None:
    born = _fact("Marie Curie", "was born in", "Warsaw", 0, 52)
    opinion = _fact("the prize", "is", "deserved", 0, 52)
    records = [
        _record("f1", born, Status.SUPPORTED),
        _record("f2", born, Status.SUPPORTED),
        _record("f3", opinion, Status.NOT_CHECKABLE),
    ]
    (sentence,) = sentence_verdicts(records)
    assert sentence.status is Status.SUPPORTED
    assert (sentence.units_supported, sentence.units_total) == (1, 1)


def test_sentences_come_in_text_order_whatever_the_records_order() -> None:
    later = _fact("Curie", "died in", "1934", 60, 80)
    earlier = _fact("Curie", "was born in", "1867", 0, 30)
    verdicts = sentence_verdicts(
        [_record("f2", later, Status.SUPPORTED), _record("f1", earlier, Status.CONTRADICTED)]
    )
    assert [v.facts for v in verdicts] == [["f1"], ["f2"]]
    assert [v.status for v in verdicts] == [Status.CONTRADICTED, Status.SUPPORTED]


def test_markdown_and_terminal_show_the_sentence_verdicts() -> None:
    report = triqua.check(CURIE, documents=[EVIDENCE], cache=False)
    markdown = render_markdown(report)
    assert "| sentence | route | verdict | units | wrong / unverified |" in markdown
    assert "She was born in Paris." in markdown and "✗" in markdown
    console = Console(width=200, record=True)
    console.print(summary(report))
    assert "sentences 2: 1 supported · 1 contradicted · 0 insufficient" in console.export_text()
    page = render_html(report)
    assert '<section id="sentences"><h2>Sentences (2)</h2>' in page
    assert '<span class="badge contradicted">' in page
