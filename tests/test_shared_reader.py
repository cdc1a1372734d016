"""The offline verifier and the grounding rule read roles and life dates with one reader.

``core.reading`` holds what both checks read in a passage; a reading fixed there is fixed
for both. Each test asks the shared reader, then each check that uses it.
"""

from __future__ import annotations

import pytest

from triqua.core.grounding.gates import gate, life_dated, rival_restrictor, role_rival
from triqua.core.reading import roles
from triqua.core.reading.roles import holder_and_role, predicate_holder, rival_holder, unique_role
from triqua.core.reading.values.dates import find_dates
from triqua.core.reading.values.life_dates import life_date_readings, life_dates, life_event
from triqua.engines.offline.verify.verifier import AlignmentVerifier
from triqua.schema import Evidence, Fact, FactUnit, Status

NEWTON = "Isaac Newton (1643–1727) was an English mathematician and physicist."


def base(subject: str, relation: str, obj: str) -> FactUnit:
    return FactUnit(kind="base", subject=subject, relation=relation, object=obj)


@pytest.mark.parametrize(
    ("role", "unique"),
    [
        ("the capital of Australia", True),
        ("the largest city in Texas", True),
        ("the only survivor", True),
        ("the second tallest tower", True),
        ("the interest rate", False),  # a noun ending in -est is no superlative
        ("the west of Ohio", False),
        ("a capital of culture", False),
    ],
)
def test_a_role_only_one_holds_is_read_by_the_restrictor_reader(role: str, unique: bool) -> None:
    assert unique_role(role) is unique


def test_another_holder_is_a_rival_and_the_own_holder_is_none() -> None:
    found = holder_and_role("Sydney", "is", "the capital of Australia")
    assert found == ("Sydney", "the capital of Australia")
    texts = ["Sydney is the largest city.", "Canberra is the capital of Australia."]
    assert rival_holder(*found, texts) == (1, "Canberra")
    assert rival_holder(*found, [*texts, "Sydney is the capital of Australia."]) is None
    assert holder_and_role("Sydney", "was", "the capital of Australia") is None  # the past


def test_both_checks_read_a_rival_holder_with_one_reader() -> None:
    texts = ["Sydney is the largest city.", "Canberra is the capital of Australia."]
    rival = roles.role_rival("Sydney", "is", "the capital of Australia", texts)
    assert rival == ("Sydney", "the capital of Australia", 1, "Canberra")
    swapped = roles.role_rival("The capital of Australia", "is", "Sydney", texts)
    assert swapped is not None and (swapped.holder, swapped.at, swapped.name) == (
        "Sydney",
        1,
        "Canberra",
    )
    assert roles.role_rival("Canberra", "is", "the capital of Australia", texts) is None
    assert roles.role_rival("Sydney", "is", "a large city", texts) is None  # no unique role
    unit = base("Sydney", "is", "the capital of Australia")
    assert role_rival(unit, texts[1]) == "Canberra"
    fact = Fact(subject="Sydney", relation="is", object="the capital of Australia")
    evidence = [Evidence.build(document_id="d", text=texts[1], retriever="t")]
    verdict = AlignmentVerifier().verify(fact, evidence)
    assert verdict.status is Status.CONTRADICTED


def test_a_namesake_holds_the_role_for_both_checks() -> None:
    """Pierre Curie shares a word with Marie Curie and is still another holder."""
    unit = base("Marie Curie", "is", "the first director of the institute")
    window = "Pierre Curie is the first director of the institute."
    assert role_rival(unit, window) == "Pierre Curie"
    fact = Fact(subject="Marie Curie", relation="is", object="the first director of the institute")
    verdict = AlignmentVerifier().verify(
        fact, [Evidence.build(document_id="d", text=window, retriever="t")]
    )
    assert verdict.status is not Status.SUPPORTED


@pytest.mark.parametrize(
    ("text", "event", "dates"),
    [
        (NEWTON, "born", ["1643"]),
        (NEWTON, "died", ["1727"]),
        ("Ada Lovelace (born 1815) wrote notes.", "died", []),  # one side states one event
        ("Ada Lovelace (b. 1815) wrote notes.", "born", ["1815"]),
        ("The Royal Society (1660–present) met.", "born", []),  # not after the name
    ],
)
def test_life_dates_after_a_name(text: str, event: str, dates: list[str]) -> None:
    name = "Newton" if "Newton" in text else "Lovelace"
    assert [d.text for d in life_dates(text, name, event)] == dates


def test_life_events_are_read_from_the_relation() -> None:
    assert life_event("was born in") == "born"
    assert life_event("died on") == "died"
    assert life_event("moved to") is None


@pytest.mark.parametrize(
    ("relation", "claimed", "text", "read"),
    [
        ("was born in", "1643", NEWTON, [("match", "1643")]),
        ("was born in", "1650", NEWTON, [("conflict", "1643")]),
        ("died in", "1727", NEWTON, [("match", "1727")]),
        ("was born in", "March 1643", NEWTON, []),  # the year alone neither states nor denies
        ("worked in", "1650", NEWTON, []),  # no birth or death to date
        ("died in", "1730", "Isaac Newton (born 1643) was a physicist.", []),
    ],
)
def test_both_checks_compare_a_claimed_date_with_the_life_dates_alike(
    relation: str, claimed: str, text: str, read: list[tuple[str, str]]
) -> None:
    date = find_dates(claimed)[0]
    found = [(o, d.text) for o, d in life_date_readings(relation, "Newton", date, text)]
    assert found == read
    conflict = next((d for o, d in read if o == "conflict"), None)
    assert life_dated(base("Isaac Newton", relation, claimed), text) == conflict


def test_the_grounding_rule_vetoes_another_life_date() -> None:
    born = base("Isaac Newton", "was born in", "1650")
    assert life_dated(born, NEWTON) == "1643"
    # A window that writes the claimed year for another event passes the value gate; the
    # life dates after the name still give the birth another year.
    entered = "Isaac Newton (1643–1727) entered Trinity College in 1661."
    born_1661 = base("Isaac Newton", "was born in", "1661")
    assert "life dates after the name give 1643" in (gate(born_1661, entered, entered, "") or "")
    assert gate(base("Isaac Newton", "entered", "Trinity College"), entered, entered, "") is None
    assert life_dated(base("Isaac Newton", "was born in", "1643"), NEWTON) is None
    dated = FactUnit(
        kind="qualifier",
        subject="Isaac Newton",
        relation="died",
        object="",
        label="point in time",
        value="1730",
    )
    assert life_dated(dated, NEWTON) == "1727"


def test_the_offline_verifier_reads_the_same_life_dates() -> None:
    evidence = [Evidence.build(document_id="d", text=NEWTON, retriever="t")]
    verifier = AlignmentVerifier()
    wrong = verifier.verify(
        Fact(subject="Isaac Newton", relation="was born in", object="1650"), evidence
    )
    assert wrong.status is Status.CONTRADICTED


@pytest.mark.parametrize(
    ("unit", "window", "rival"),
    [
        (base("Vatican City", "is", "the largest country"),
         "Vatican City is the smallest country in the world.", "smallest"),
        (base("Ada Lind", "was", "the first woman to fly"), "Ada Lind was the second woman to fly.",
         "second"),
        (FactUnit(kind="qualifier", subject="Argentina", relation="won", object="the World Cup",
                  label="frequency", value="once"), "Argentina has won three World Cups.", "three"),
        (base("Lagos", "is", "the largest city in Nigeria"),
         "Lagos is the most populous city in Nigeria.", None),  # another measure: the judge's
        (base("Vatican City", "is", "the smallest country"),
         "Vatican City is the smallest country in the world.", None),
    ],
)  # fmt: skip
def test_the_grounding_rule_vetoes_a_rival_restrictor_as_the_verifier_reads_it(
    unit: FactUnit, window: str, rival: str | None
) -> None:
    assert rival_restrictor(unit, window) == rival
    reason = gate(unit, window, window, "")
    if rival is None:
        assert "instead" not in (reason or "")
    else:
        assert f"states '{rival}' instead" in (reason or "")


def test_a_predicate_another_name_holds_in_its_own_sentence_is_read_for_any_role() -> None:
    texts = ["Sydney is a harbour city.", "Canberra is the seat of government."]
    held = predicate_holder("Sydney", "is", "the seat of government", texts)
    assert held is not None and (held.at, held.name) == (1, "Canberra")
    assert predicate_holder("Canberra", "is", "the seat of government", texts) is None
    both = ["Lyon is a port city.", "Marseille is a port city."]
    assert predicate_holder("Lyon", "is", "a port city", both) is None  # its own holder too
    assert predicate_holder("Sydney", "was", "the seat of government", texts) is None


@pytest.mark.parametrize(
    ("unit", "window", "refused"),
    [
        (
            base("Ada Lovelace", "wrote", "the first published novel"),
            "Ada Lovelace wrote the first published algorithm.",
            True,
        ),
        (
            base("Ada Lovelace", "wrote", "the first published algorithm"),
            "Ada Lovelace wrote the first algorithm published.",
            False,
        ),
        (
            base("The Amazon", "is", "the largest tropical forest"),
            "The Amazon is the largest tropical rainforest.",
            False,
        ),
    ],
)
def test_the_grounding_rule_reads_another_head_after_an_ordinal_lead_in(
    unit: FactUnit, window: str, refused: bool
) -> None:
    # One reader (``slot_words.unique_head_rival``) for both checks: the same ordinal or
    # superlative lead-in before another head names another thing.
    reason = gate(unit, window, window, "") or ""
    assert ("names another thing" in reason) is refused
