"""A reference after a sentence that names two candidates refers to no one, on both engines.

"Amazon bought Whole Foods and Microsoft bought LinkedIn. Its price was $26 billion." names
two buyers and two bought companies: "its" may mean any of them, so the sentence supports
no fact about one of them. So does "the university" after "Harvard University and Yale
University are …". A sentence that names only the subject keeps its reference the subject's.
"""

from __future__ import annotations

import pytest

import triqua
from triqua.context import GroundingMode
from triqua.core.grounding.rule import check_quote
from triqua.core.reading.reference import coordinated_phrases
from triqua.core.reading.values.name_rivals import reference_beside_another
from triqua.schema import FactUnit, Status
from triqua.testing.readers import EntailingReader

AMBIGUOUS = [
    pytest.param(
        ("LinkedIn's price", "was", "$26 billion"),
        "Amazon bought Whole Foods and Microsoft bought LinkedIn.",
        "Its price was $26 billion.",
        id="possessive-after-two-buyers",
    ),
    pytest.param(
        ("Nikola Tesla", "was born in", "Smiljan"),
        "Nikola Tesla and Thomas Edison both worked on electric power.",
        "He was born in Smiljan.",
        id="pronoun-after-two-coordinated-people",
    ),
    pytest.param(
        ("Yale University", "was founded in", "1701"),
        "Harvard University and Yale University are in New England.",
        "The university was founded in 1701.",
        id="class-noun-after-two-coordinated-names",
    ),
]

CLEAR = [
    pytest.param(
        ("LinkedIn's price", "was", "$26 billion"),
        "LinkedIn runs a professional network.",
        "Its price was $26 billion.",
        id="possessive-after-the-subject-alone",
    ),
    pytest.param(
        ("Nikola Tesla", "was born in", "Smiljan"),
        "Nikola Tesla worked on electric power.",
        "He was born in Smiljan.",
        id="pronoun-after-the-subject-alone",
    ),
    pytest.param(
        ("Yale University", "was founded in", "1701"),
        "Yale University is in New Haven.",
        "The university was founded in 1701.",
        id="class-noun-after-the-subject-alone",
    ),
]


def _unit(triple: tuple[str, str, str]) -> FactUnit:
    subject, relation, obj = triple
    return FactUnit(kind="base", subject=subject, relation=relation, object=obj)


@pytest.mark.parametrize(("triple", "before", "quote"), AMBIGUOUS)
@pytest.mark.parametrize("rule", ["judged", "judge", "strict"])
def test_llm_grounding_reads_no_referent_after_two_candidates(
    triple: tuple[str, str, str], before: str, quote: str, rule: GroundingMode
) -> None:
    passage = f"{before} {quote}"
    outcome = check_quote(
        _unit(triple), Status.SUPPORTED, ["e"], quote, {"e": passage},
        reader=EntailingReader(), grounding=rule,
    )  # fmt: skip
    assert not outcome.ok


@pytest.mark.parametrize(("triple", "before", "quote"), CLEAR)
@pytest.mark.parametrize("rule", ["judged", "judge", "strict"])
def test_llm_grounding_keeps_a_reference_to_the_one_named(
    triple: tuple[str, str, str], before: str, quote: str, rule: GroundingMode
) -> None:
    passage = f"{before} {quote}"
    outcome = check_quote(
        _unit(triple), Status.SUPPORTED, ["e"], quote, {"e": passage},
        reader=EntailingReader(), grounding=rule,
    )  # fmt: skip
    assert outcome.ok, outcome.reason


@pytest.mark.parametrize(("triple", "before", "quote"), AMBIGUOUS)
def test_offline_reads_no_referent_after_two_candidates(
    triple: tuple[str, str, str], before: str, quote: str
) -> None:
    subject, relation, obj = triple
    claim = f"{subject} {relation} {obj}."
    report = triqua.check(claim, documents=[f"{before} {quote}"], cache=False, store=False)
    statuses = [u.status for r in report.records for u in r.verdict.unit_verdicts]
    assert statuses and Status.SUPPORTED not in statuses, statuses


def test_a_sentence_names_a_candidate_beside_another_only_when_it_does() -> None:
    """The shared reading: two coordinated noun phrases, or two names in core parts."""
    assert coordinated_phrases("The snow leopard and the clouded leopard live in Asia.") == [
        ("The snow leopard", "the clouded leopard")
    ]
    assert coordinated_phrases("Tesla was funded by George Westinghouse and J. P. Morgan.") == []
    assert reference_beside_another(
        "linkedin", "Amazon bought Whole Foods and Microsoft bought LinkedIn."
    )
    assert reference_beside_another(
        "yale university", "Harvard University and Yale University are in New England."
    )
    assert not reference_beside_another("linkedin", "LinkedIn runs a professional network.")
    assert not reference_beside_another("linkedin", "Amazon bought Whole Foods.")
