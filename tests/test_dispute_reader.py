"""The one dispute reader both engines share (``core.reading.disputes``), without a judge.

A sentence about the subject that writes the fact's relation and puts another value in its
slot is a rival: a bare relation's name ("is in Paris"), a birth's or a death's own word
with another place or year ("born in Warsaw", "died … 18 April 1955"). A relation that
takes many objects, a sentence writing the claim's value too, a region that may hold the
claimed place, and another person with a longer name are none.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from triqua.core.reading.analysis import analyse
from triqua.core.reading.disputes import confirmed_rival, rival_value, role_dispute
from triqua.core.reading.fact_parts import fact_parts
from triqua.schema import Fact


def rival(subject: str, relation: str, obj: str, sentence: str, owned: bool = True) -> str | None:
    parts = fact_parts(Fact(subject=subject, relation=relation, object=obj))
    return rival_value(parts, analyse(sentence), owned=owned)


@pytest.mark.parametrize(
    ("fact", "sentence", "expected"),
    [
        (("The Eiffel Tower", "is in", "Rome"), "The Eiffel Tower is in Paris.", "Paris"),
        (
            ("Marie Curie", "was born in", "Paris"),
            "Marie Curie was born in Warsaw in 1867.",
            "Warsaw",
        ),
        (
            ("Leonardo da Vinci", "died in", "Florence"),
            "Leonardo da Vinci died at Amboise, in France, in 1519.",
            "Amboise",
        ),
        (
            ("Albert Einstein", "died in", "1950"),
            "Albert Einstein died in Princeton on 18 April 1955.",
            "18 April 1955",
        ),
        (("Isaac Newton", "died in", "1720"), "Isaac Newton died in London in March 1727.", None),
    ],
    ids=["bare relation", "birthplace", "death place", "death year", "month year"],
)
def test_a_value_only_one_can_hold_is_rivalled(
    fact: tuple[str, str, str], sentence: str, expected: str | None
) -> None:
    got = rival(*fact, sentence)
    if expected is None:  # "March 1727" is read as a date: the year conflicts all the same
        assert got is not None and "1727" in got
    else:
        assert got == expected


def test_a_subject_numbered_otherwise_is_another_one() -> None:
    """ "Person3" shares a long prefix with "Person5" (a derivation's), yet names another."""
    assert rival("Person5", "was born in", "City5", "Person3 was born in City3.") is None
    assert rival("Person5", "was born in", "City5", "Person5 was born in City3.") == "City3"


@pytest.mark.parametrize(
    ("fact", "sentence"),
    [
        (("Ernest Hemingway", "lived in", "Paris"), "Ernest Hemingway lived in Key West."),
        (
            ("Albert Einstein", "was born in", "Ulm"),
            "His son Hans Albert Einstein was born in Bern in 1904.",
        ),
        (
            ("Albert Einstein", "was born in", "Ulm"),
            "Albert Einstein was born in the Kingdom of Württemberg in the German Empire.",
        ),
        (
            ("Frida Kahlo", "was born in", "Coyoacán"),
            "Frida Kahlo was born in Coyoacán, a borough of Mexico City, in 1907.",
        ),
        (
            ("Abraham Lincoln", "died in", "1865"),
            "Abraham Lincoln died on April 15, 1865, in Washington, D.C.",
        ),
        (("Winston Churchill", "died in", "1965"), "Winston Churchill was born in 1874."),
    ],
    ids=["many objects", "longer name", "region", "value written too", "same year", "other event"],
)
def test_no_rival_where_the_sentence_does_not_dispute(
    fact: tuple[str, str, str], sentence: str
) -> None:
    assert rival(*fact, sentence) is None


def test_a_relations_own_word_is_read_only_when_owned() -> None:
    """The offline verifier's contradiction of an open base reads bare relations alone."""
    sentence = "Marie Curie was born in Warsaw in 1867."
    assert rival("Marie Curie", "was born in", "Paris", sentence, owned=False) is None
    assert rival("The Eiffel Tower", "is in", "Rome", "The Eiffel Tower is in Paris.", False)


def test_the_judge_must_confirm_a_rival_at_its_threshold() -> None:
    parts = fact_parts(Fact(subject="Marie Curie", relation="was born in", object="Paris"))
    sentences = [
        analyse("Marie Curie was a physicist."),
        analyse("Marie Curie was born in Warsaw."),
    ]
    asked: list[str] = []

    def judge(score: float) -> Callable[[Sequence[str]], list[float]]:
        def contradiction(texts: Sequence[str]) -> list[float]:
            asked.extend(texts)
            return [score] * len(texts)

        return contradiction

    found = confirmed_rival(parts, sentences, judge(0.95), 0.9)
    assert found is not None and found[0].at == 1 and found[0].value == "Warsaw"
    assert asked == ["Marie Curie was born in Warsaw."]  # only a sentence with a rival is read
    assert confirmed_rival(parts, sentences, judge(0.5), 0.9) is None
    assert confirmed_rival(parts, sentences, judge(0.99), 1.01) is None


def test_a_role_only_one_holds_given_to_another_name_is_a_dispute() -> None:
    fact = Fact(subject="The capital of Canada", relation="is", object="Toronto")
    found = role_dispute(fact, ["Canada is large.", "The capital of Canada is Ottawa."])
    assert found is not None and found.at == 1 and found.value == "Ottawa"
    assert role_dispute(fact, ["The capital of Canada is Toronto."]) is None
