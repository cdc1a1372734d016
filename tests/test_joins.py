"""The last cascade step: a sentence referring back, read after its subject's earlier name."""

from __future__ import annotations

import pytest

from triqua.core.reading.analysis import analyse
from triqua.core.reading.gender import may_stand_for
from triqua.core.reading.orphans import referring_pronoun, rival_referent
from triqua.core.reading.quote_values import missing_values
from triqua.engines.offline.joins import joins
from triqua.engines.offline.verify.entailed import Joined, joined_windows
from triqua.engines.offline.verify.findings import Sentence
from triqua.engines.offline.verify.verifier import get_verifier
from triqua.schema import Evidence, Fact, FactUnit, Status

CURIE = "Marie Curie"
PLAIN = [
    "Marie Curie was born in Warsaw in 1867.",
    "Warsaw was then part of the Russian Empire.",
    "She moved to Paris in 1891.",
]
SISTER = [
    "Marie Curie was born in Warsaw in 1867.",
    "Bronislawa Sklodowska, her elder sister, moved to Paris in 1885.",
    "She qualified as a physician in 1891.",
]


def _place(texts: list[str], scores: list[float]) -> tuple[dict[tuple[int, int], Sentence], str]:
    """The sentences of one passage by place, each with its subject score."""
    passage = " ".join(texts)
    out: dict[tuple[int, int], Sentence] = {}
    for index, (text, score) in enumerate(zip(texts, scores, strict=True)):
        start = passage.index(text)
        out[(0, index)] = Sentence(
            "e1", 0, index, analyse(text), start, start + len(text), subject=score
        )
    return out, passage


def test_an_anchor_is_read_after_its_subjects_name_without_the_sentence_between() -> None:
    by_place, passage = _place(PLAIN, [1.0, 0.0, 0.0])
    found = joined_windows([by_place[(0, 2)]], by_place, [passage], CURIE, "Paris 1891")
    assert [w.text for w in found] == [f"{PLAIN[0]} {PLAIN[2]}"]
    assert found[0].first is by_place[(0, 0)] and found[0].anchor is by_place[(0, 2)]


def test_a_joined_window_quotes_the_anchor_alone() -> None:
    by_place, _ = _place(PLAIN, [1.0, 0.0, 0.0])
    anchor = by_place[(0, 2)]
    finding = Joined(by_place[(0, 0)], anchor, anchor, "read").finding(Status.SUPPORTED, "")
    assert finding.sentence is anchor and finding.window_start is None


def test_another_person_the_pronoun_may_stand_for_between_refuses_the_join() -> None:
    by_place, passage = _place(SISTER, [1.0, 0.0, 0.0])
    assert joins([by_place[(0, 2)]], by_place, [passage], CURIE, "1891") == []


def test_no_join_for_a_named_anchor_a_neighbour_a_reference_between_or_past_the_reach() -> None:
    by_place, passage = _place(PLAIN, [1.0, 0.0, 0.0])
    assert joins([by_place[(0, 1)]], by_place, [passage], CURIE) == []  # neighbour
    assert joins([by_place[(0, 2)]], by_place, [passage], CURIE, reach=1) == []
    referring, _ = _place(PLAIN, [1.0, 0.7, 0.0])  # the sentence between refers back itself
    assert joins([referring[(0, 2)]], referring, [passage], CURIE) == []
    named, _ = _place(PLAIN, [1.0, 0.0, 1.0])
    assert joins([named[(0, 2)]], named, [passage], CURIE) == []


def test_no_join_across_a_blank_line() -> None:
    texts = PLAIN
    passage = f"{texts[0]} {texts[1]}\n\n{texts[2]}"
    by_place: dict[tuple[int, int], Sentence] = {}
    for index, text in enumerate(texts):
        start = passage.index(text)
        score = 1.0 if index == 0 else 0.0
        by_place[(0, index)] = Sentence(
            "e1", 0, index, analyse(text), start, start + len(text), subject=score
        )
    assert joins([by_place[(0, 2)]], by_place, [passage], CURIE) == []


#: (subject, sentence, text read since the subject's name, a rival referent there).
RIVALS = [
    (CURIE, PLAIN[2], " ".join(PLAIN[:2]), False),  # a place is no "she"
    (CURIE, SISTER[2], " ".join(SISTER[:2]), True),  # a woman may be
    (CURIE, "She won the prize.", "Marie Curie met Pierre Curie in 1894.", False),  # a man not
    ("Frida Kahlo", "He was born in 1886.", "Frida Kahlo married in 1929.", True),  # no fit
    ("Lyon", "It has a port.", "Lyon is old. Marseille was founded by Greeks.", True),
    ("The Beatles", "They released an album.", "The Rolling Stones formed later.", True),
    ("Franz Kafka", "In 1902, he studied law.", "Max Brod studied law in Prague.", True),
]


@pytest.mark.parametrize(("subject", "sentence", "between", "expected"), RIVALS)
def test_a_rival_referent_is_one_the_pronoun_may_stand_for(
    subject: str, sentence: str, between: str, expected: bool
) -> None:
    assert rival_referent(subject, sentence, between) is expected


def test_the_referring_pronoun_is_read_in_any_form_among_the_opening_words() -> None:
    assert referring_pronoun("In 1902, he studied law.") == "he"
    assert referring_pronoun("Her work won the prize.") == "she"
    assert referring_pronoun("The city grew.") is None


def _status(passage: str, fact: Fact) -> Status:
    evidence = Evidence.build(document_id="doc", text=passage, retriever="supplied")
    return get_verifier().verify(fact, [evidence]).status


@pytest.mark.slow
def test_the_verifier_supports_past_a_place_and_never_past_a_rival_referent() -> None:
    moved = Fact(subject=CURIE, relation="moved to", object="Paris")
    qualified = Fact(subject=CURIE, relation="qualified as", object="a physician")
    assert _status(" ".join(PLAIN), moved) == Status.SUPPORTED
    assert _status(" ".join(SISTER), qualified) == Status.INSUFFICIENT


def _unit(subject: str, relation: str, obj: str) -> FactUnit:
    return FactUnit(kind="base", subject=subject, relation=relation, object=obj)


def test_the_grounding_rule_reads_a_pronoun_past_a_place_to_the_subject() -> None:
    """ "Warsaw was then …" is no "she": the pronoun goes on about Marie Curie."""
    unit = _unit(CURIE, "moved to", "Paris")
    assert missing_values(unit, PLAIN[2], " ".join(PLAIN[:2]) + " ") == []


def test_the_grounding_rule_reads_no_pronoun_past_a_person_the_recogniser_calls_a_place() -> None:
    """ "Chelsea, her closest friend, …" speaks of a person: "She" may be her."""
    before = "Emma Watson was born in Paris in 1990. Chelsea, her closest friend, moved to Boston. "
    unit = _unit("Emma Watson", "studied medicine at", "Harvard")
    assert "emma watson" in missing_values(unit, "She studied medicine at Harvard.", before)


def test_a_name_stands_for_a_person_by_its_first_name_or_its_sentences_pronoun() -> None:
    assert may_stand_for("Marie Curie", "Marie Curie was born in Warsaw.", "female")
    assert not may_stand_for("Warsaw", "Warsaw was then part of the Russian Empire.", "female")
    assert may_stand_for("Chelsea", "Chelsea, her closest friend, moved to Boston.", "female")
    assert not may_stand_for("Pierre Curie", "Pierre Curie taught physics.", "female")
