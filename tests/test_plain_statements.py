"""Plain statements the offline engine reads whole: an object pronoun, a label line, a part's
count, a fraction; and the false claims on the same evidence that stay unsupported."""

from __future__ import annotations

import pytest

from triqua.api import check
from triqua.core.reading.quote_values import missing_values
from triqua.schema import FactUnit, Status

CURIE = (
    "Marie Curie moved to Paris in 1891 to study physics at the Sorbonne, where she met "
    "Pierre Curie. She married him in 1895."
)
ALBERT = (
    "Prince Albert of Saxe-Coburg first met his cousin Queen Victoria in 1836. "
    "He married her on 10 February 1840 in London."
)
AUSTRALIA = "Australia\nCapital: Canberra\nLargest city: Sydney\n\nAustralia is a country."
MEDALS = "Larisa Latynina is a Soviet gymnast. She won 18 Olympic medals, nine of them gold."
FED = "The Federal Reserve raised its benchmark interest rate by half a percentage point."


def _statuses(text: str, evidence: str) -> list[Status]:
    report = check(text, documents=[evidence], store=False, cache=False)
    return [r.verdict.status for r in report.records]


@pytest.mark.parametrize(
    ("text", "evidence"),
    [
        ("Marie Curie married Pierre Curie in 1895.", CURIE),
        ("Prince Albert married Queen Victoria in 1840.", ALBERT),
        ("The capital of Australia is Canberra.", AUSTRALIA),
        ("Larisa Latynina won nine Olympic gold medals.", MEDALS),
        ("The Federal Reserve raised interest rates by 0.5 percentage points.", FED),
    ],
)
def test_a_claim_the_evidence_states_plainly_is_supported(text: str, evidence: str) -> None:
    assert _statuses(text, evidence) == [Status.SUPPORTED]


@pytest.mark.parametrize(
    ("text", "evidence"),
    [
        ("Marie Curie married Pierre Curie in 1891.", CURIE),
        ("Marie Curie married Paul Langevin in 1895.", CURIE),
        ("Prince Albert married Queen Victoria in 1836.", ALBERT),  # the year they met
        ("The capital of Australia is Sydney.", AUSTRALIA),
        ("The capital of Australia is Sydney.", "The largest city of Australia is Sydney."),
        ("Larisa Latynina won 18 Olympic gold medals.", MEDALS),  # the whole, not the part
        ("The Federal Reserve raised interest rates by 0.75 percentage points.", FED),
    ],
)
def test_a_false_counterpart_on_the_same_evidence_is_not_supported(
    text: str, evidence: str
) -> None:
    assert Status.SUPPORTED not in _statuses(text, evidence)


def test_a_pronoun_is_not_the_other_person_its_own_sentence_names() -> None:
    """ "She married Pierre Curie" after "… she met Pierre Curie.": she is Marie Curie."""
    unit = FactUnit(kind="base", subject="Marie Curie", relation="married", object="Pierre Curie")
    before = "Marie Curie moved to Paris, where she met Pierre Curie. "
    assert missing_values(unit, "She married Pierre Curie in 1895.", before) == []
    assert "pierre curie" in missing_values(unit, "She married him in 1895.", before)
