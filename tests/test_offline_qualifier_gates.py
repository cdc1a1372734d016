"""The offline rules' qualifier support passes the grounding rule's shared value gates.

A qualifier the window writes for another verb ("signed … in 1962 and released … in
1963"), in a coordinated verb's slot ("ran the relay in Beijing and won gold in the 100
metres"), inside a belief frame, or with another "by" agent is not the fact's: the rules
leave it insufficient, as the grounding rule does on the LLM path. The rules alone
(``AlignmentVerifier("rules")``) read it, so no learned judge is involved.
"""

from __future__ import annotations

import triqua
from triqua.core.reading.fact_parts import fact_parts
from triqua.engines.offline.verify.qualifiers import qualifier_refusal
from triqua.engines.offline.verify.verifier import AlignmentVerifier
from triqua.schema import Evidence, Fact, FactUnit, Qualifier, Status


def qualifier_status(fact: Fact, text: str) -> Status:
    """The status the rules give the fact's first qualifier over ``text``."""
    verifier = AlignmentVerifier("rules")
    evidence = Evidence.build(document_id="doc", text=text, retriever="supplied")
    verdict = verifier.verify(fact, [evidence])
    return verdict.unit_verdicts[1].status


def album(year: str) -> Fact:
    return Fact(
        subject="The Beatles",
        relation="released",
        object="their first album",
        qualifiers=[Qualifier(label="point in time", value=year)],
    )


BEATLES = "The Beatles signed with EMI in 1962 and released their first album in 1963."


def test_a_year_another_verb_governs_does_not_support_the_qualifier() -> None:
    assert qualifier_status(album("1962"), BEATLES) == Status.INSUFFICIENT


def test_the_year_the_relation_governs_supports_the_qualifier() -> None:
    assert qualifier_status(album("1963"), BEATLES) == Status.SUPPORTED


def relay(place: str) -> Fact:
    return Fact(
        subject="Usain Bolt",
        relation="won",
        object="gold",
        qualifiers=[Qualifier(label="location", value=place)],
    )


BOLT = "Usain Bolt ran the 4x100 metres relay in Beijing and won gold in the 100 metres there."


def test_a_value_a_coordinated_verb_governs_does_not_support_the_qualifier() -> None:
    fact = relay("the 4x100 metres relay in Beijing")
    assert qualifier_status(fact, BOLT) == Status.INSUFFICIENT


def test_a_value_the_relation_governs_supports_the_qualifier() -> None:
    text = "Usain Bolt won gold in the 4x100 metres relay in Beijing."
    assert qualifier_status(relay("the 4x100 metres relay in Beijing"), text) == Status.SUPPORTED


def test_a_qualifier_inside_a_belief_frame_is_refused() -> None:
    fact = Fact(
        subject="Norway",
        relation="adopted",
        object="the euro",
        qualifiers=[Qualifier(label="point in time", value="2002")],
    )
    unit = fact.units()[1]
    framed = "Many tourists believe that Norway adopted the euro in 2002."
    why = qualifier_refusal(fact_parts(fact), unit, framed)
    assert why is not None and "believe" in why, why
    assert qualifier_refusal(fact_parts(fact), unit, "Norway adopted the euro in 2002.") is None


def test_an_agent_qualifier_another_agent_holds_is_refused() -> None:
    fact = Fact(
        subject="The Godfather",
        relation="was directed",
        object="in 1972",
        qualifiers=[Qualifier(label="by", value="Martin Scorsese")],
    )
    unit = fact.units()[1]
    text = (
        "The Godfather was directed by Francis Ford Coppola, and Martin Scorsese directed "
        "Taxi Driver."
    )
    why = qualifier_refusal(fact_parts(fact), unit, text)
    assert why is not None and "Coppola" in why, why
    own = "The Godfather was directed by Martin Scorsese in 1972."
    assert qualifier_refusal(fact_parts(fact), unit, own) is None


FERRY = (
    "The ferry runs from Dover to Dunkirk, and the shuttle train runs from Folkestone to Calais."
)


def route(end: str) -> Fact:
    return Fact(
        subject="The ferry",
        relation="runs from",
        object="Dover",
        qualifiers=[Qualifier(label="destination", value=end)],
    )


def test_a_name_another_occurrence_of_the_verb_governs_is_refused() -> None:
    assert qualifier_status(route("Calais"), FERRY) == Status.INSUFFICIENT
    why = qualifier_refusal(fact_parts(route("Calais")), route("Calais").units()[1], FERRY)
    assert why is not None and "shuttle train" in why, why


def test_the_name_the_fact_s_own_verb_governs_supports_the_qualifier() -> None:
    assert qualifier_status(route("Dunkirk"), FERRY) == Status.SUPPORTED


def _law_stated_by(source: str) -> tuple[Fact, FactUnit]:
    fact = Fact(
        subject="the law",
        relation="is",
        object="constitutional",
        qualifiers=[Qualifier(label="stated by", value=source)],
    )
    return fact, fact.units()[1]


def test_a_stated_by_qualifier_needs_a_reporting_word_its_source_governs() -> None:
    fact, unit = _law_stated_by("the Supreme Court")
    parts = fact_parts(fact)
    named_only = "The Supreme Court building opened in 1935, and the law is constitutional."
    assert qualifier_refusal(parts, unit, named_only) is not None
    for reported in (
        "The Supreme Court ruled that the law is constitutional.",
        "According to the Supreme Court, the law is constitutional.",
        "The law is constitutional, the Supreme Court said.",
        "The Supreme Court describes the law as constitutional.",
        "The Supreme Court rules that the law is constitutional.",
        # A window that never names the source leaves the qualifier to the judge.
        "The law is constitutional, he said.",
    ):
        assert qualifier_refusal(parts, unit, reported) is None, reported


def test_a_value_in_another_name_s_clause_is_refused() -> None:
    fact = Fact(
        subject="John Paul II",
        relation="was elected",
        object="pope",
        qualifiers=[Qualifier(label="point in time", value="1958")],
    )
    unit = fact.units()[1]
    text = "John XXIII was elected pope in 1958, and John Paul II was elected pope in 1978."
    why = qualifier_refusal(fact_parts(fact), unit, text)
    assert why is not None and "John XXIII" in why, why
    own = "John Paul II was elected pope in 1958, after John XXIII died."
    assert qualifier_refusal(fact_parts(fact), unit, own) is None


def test_a_value_in_the_clause_of_the_fact_s_object_is_not_refused() -> None:
    fact = Fact(
        subject="The first modern Olympic Games",
        relation="were held in",
        object="Athens",
        qualifiers=[Qualifier(label="point in time", value="1896")],
    )
    text = "Athens hosted the first modern Olympic Games in 1896."
    assert qualifier_refusal(fact_parts(fact), fact.units()[1], text) is None


def prize(year: str) -> Fact:
    return Fact(
        subject="Marie Curie",
        relation="won",
        object="the Nobel Prize in Chemistry",
        qualifiers=[Qualifier(label="point in time", value=year)],
    )


CURIE = "Marie Curie, who did not win the Nobel Prize in Chemistry in 1903, won it in 1911."


def test_a_value_in_a_denied_clause_under_a_noun_does_not_support_the_qualifier() -> None:
    """The base is stated (a win in 1911); the clause's "not" denies 1903 alone."""
    assert qualifier_status(prize("1903"), CURIE) == Status.INSUFFICIENT
    assert qualifier_status(prize("1911"), CURIE) == Status.SUPPORTED


NEWTON = "Isaac Newton studied at Cambridge. He developed his theory of gravity at Woolsthorpe."


def _unit_statuses(claim: str, passage: str) -> list[Status]:
    """Each unit's status when the offline engine (with its judge) checks the claim."""
    report = triqua.check(claim, documents=[passage], cache=False, store=False)
    return [u.status for r in report.records for u in r.verdict.unit_verdicts]


def test_a_window_binds_its_qualifiers_to_the_sentence_that_writes_the_relation() -> None:
    """The place of "studied" in the sentence before is not where the theory was developed."""
    claim = "Isaac Newton developed his theory of gravity at {}."
    assert Status.SUPPORTED not in _unit_statuses(claim.format("Cambridge"), NEWTON)[1:]
    assert _unit_statuses(claim.format("Woolsthorpe"), NEWTON) == [Status.SUPPORTED] * 2
