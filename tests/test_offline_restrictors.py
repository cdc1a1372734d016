"""Restrictors in the offline engine: "once", "first", "only", "the largest", "held that".

The decomposer keeps them (as a qualifier with a label, or in the object) and the verifier
requires them in the evidence window: missing, the fact is not supported; a rival one
("three" World Cups against "once", "second" against "first") contradicts it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from triqua.core.reading.analysis import analyse
from triqua.core.reading.restrictors.markers import check, markers, object_head
from triqua.core.reading.restrictors.words import _load
from triqua.engines.offline.decompose.decomposer import get_decomposer
from triqua.engines.offline.verify.verifier import AlignmentVerifier
from triqua.schema import Evidence, Fact, Qualifier, Status


def facts_of(sentence: str) -> list[tuple[str, str, str, list[tuple[str, str]]]]:
    return [
        (f.subject, f.relation, f.object, [(q.label, q.value) for q in f.qualifiers])
        for f in get_decomposer().decompose(sentence)
    ]


@pytest.mark.parametrize(
    ("sentence", "qualifier"),
    [
        ("Argentina has won the FIFA World Cup once.", ("frequency", "once")),
        ("Brazil has won the World Cup five times.", ("frequency", "five times")),
        ("Pele first won the title in 1958.", ("ordinal", "first")),
        ("Pele won the title for the first time in 1958.", ("ordinal", "for the first time")),
        ("Messi only played for Barcelona.", ("restriction", "only")),
        (
            "The Supreme Court held that the state law was constitutional.",
            ("stated by", "The Supreme Court"),
        ),
    ],
)
def test_the_decomposer_keeps_the_restrictor(sentence: str, qualifier: tuple[str, str]) -> None:
    found = facts_of(sentence)
    assert found, sentence
    assert all(qualifier in quals for _, _, _, quals in found), found


def test_a_nested_time_stays_beside_the_ordinal() -> None:
    [(_, _, _, quals)] = facts_of("Pele won the title for the first time in 1958.")
    assert ("point in time", "1958") in quals


def test_restrictors_in_the_object_stay_in_it() -> None:
    [(_, _, obj, _)] = facts_of("Marie Curie was the first woman to win a Nobel Prize.")
    assert obj.startswith("the first woman")


def test_markers_read_counts_ranks_and_synonyms() -> None:
    assert [m.value for m in markers("won the title twice")] == ["2"]
    assert [(m.kind, m.value) for m in markers("the second tallest tower")] == [
        ("ordinal", "2"),
        ("superlative", "2 tallest"),
    ]
    assert [m.value for m in markers("the biggest animal")] == ["largest"]
    assert markers("last year he moved") == ()  # a date, not a rank
    assert markers("the interest rate") == ()  # a noun ending in -est


def test_check_finds_rivals_and_gaps() -> None:
    head = object_head(analyse("the World Cup"))
    three = [analyse("Argentina has won three World Cups.")]
    outcome, _, rival = check(markers("once"), three, head)
    assert outcome == "rival" and rival is not None and rival.text == "three"
    assert check(markers("three times"), three, head)[0] == "ok"
    assert check(markers("once"), [analyse("Argentina won the World Cup in 1978.")], head)[0] == (
        "missing"
    )
    smallest = [analyse("Vatican City is the smallest country in the world.")]
    assert check(markers("the largest country"), smallest)[0] == "rival"
    populous = [analyse("Lagos is the most populous city in Nigeria.")]
    assert check(markers("the largest city"), populous)[0] == "missing"  # another measure


def test_a_subject_restrictor_is_required_but_never_a_rival() -> None:
    first = markers("your first finger")
    second = [analyse("Put your second finger on the fret.")]
    assert check(first, second, rivals=False)[0] == "missing"


@pytest.fixture(scope="module")
def verifier() -> AlignmentVerifier:
    return AlignmentVerifier()


def ev(text: str) -> list[Evidence]:
    return [Evidence.build(document_id="d", text=text, retriever="t")]


def test_a_rival_count_contradicts_the_frequency(verifier: AlignmentVerifier) -> None:
    [fact] = get_decomposer().decompose("Argentina has won the FIFA World Cup once.")
    verdict = verifier.verify(
        fact, ev("The Argentina national team has won three FIFA World Cups, in 1978, 1986, 2022.")
    )
    assert verdict.status == Status.CONTRADICTED
    assert verdict.wrong_components == ["(frequency, once)"]


def test_a_missing_restrictor_is_not_support(verifier: AlignmentVerifier) -> None:
    fact = Fact(subject="Oslo", relation="is", object="the largest city in Norway")
    verdict = verifier.verify(fact, ev("Oslo is a city in Norway on the Oslofjord."))
    assert verdict.status == Status.INSUFFICIENT


def test_a_frame_needs_its_source_and_a_reporting_word(verifier: AlignmentVerifier) -> None:
    fact = Fact(
        subject="the treaty",
        relation="was",
        object="invalid",
        qualifiers=[Qualifier(label="stated by", value="the High Court")],
    )
    ruled = verifier.verify(fact, ev("In 1998 the High Court ruled that the treaty was invalid."))
    assert ruled.status == Status.SUPPORTED
    other = verifier.verify(fact, ev("The treaty was invalid, the newspaper claimed."))
    assert other.status == Status.INSUFFICIENT


def test_an_unreadable_word_list_is_a_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "restrictors.json"
    broken.write_text('{"frequency": {}}', encoding="utf-8")
    with pytest.raises(RuntimeError, match="restrictor word list"):
        _load(broken)


def test_a_reporting_word_must_follow_its_source() -> None:
    from triqua.core.reading.restrictors.markers import reported_by

    court = analyse("The Supreme Court")
    assert reported_by(court, analyse("The Supreme Court on Thursday held that the law stands."))
    assert reported_by(court, analyse("According to the Supreme Court, the law stands."))
    # "state" here is a noun, and "found" belongs to another clause: no frame.
    assert not reported_by(court, analyse("Supreme Court strikes down New York state laws."))
    assert not reported_by(
        court, analyse("The Court also gained the power to strike down laws found to be void.")
    )


def test_a_source_named_without_its_report_is_no_frame() -> None:
    from triqua.core.reading.restrictors.markers import named_unreported

    court = analyse("the Supreme Court")
    assert named_unreported(court, "The Supreme Court building opened in 1935.")
    assert named_unreported(court, "The law stands, according to the manufacturer.")
    assert not named_unreported(court, "The Supreme Court held that the law stands.")
    # A window naming no source leaves the qualifier to the judge.
    assert not named_unreported(court, "It could destroy civilization, he said.")


@pytest.mark.parametrize(
    ("claimed", "window", "outcome"),
    [
        # A word the window puts before the restricted noun, and the claim leaves out,
        # narrows it: the broader claim is not stated, nor contradicted.
        ("the only child of Lord Byron",
         "She was the only legitimate child of poet Lord Byron.", "missing"),
        ("the first president", "Obama was the first African-American president.", "missing"),
        ("the tallest building", "It is the tallest residential building in the world.",
         "missing"),
        # The claim writing that word, before or after the noun, is stated.
        ("the first African-American president",
         "Obama was the first African-American president.", "ok"),
        ("the largest city in Australia", "Sydney is the largest Australian city.", "ok"),
        ("the largest Australian city", "Sydney is the largest city in Australia.", "ok"),
        # Another rank is still a rival.
        ("the second president", "Adams was the first president to live there.", "rival"),
    ],
)  # fmt: skip
def test_a_narrower_restricted_noun_does_not_state_the_claim(
    claimed: str, window: str, outcome: str
) -> None:
    assert check(markers(claimed), [analyse(window)])[0] == outcome


_NINTH = Fact(subject="Beethoven's Ninth Symphony", relation="was performed in", object="Vienna")


@pytest.mark.parametrize(
    ("first", "status"),
    [
        ("Beethoven completed his Ninth Symphony in early 1824.", Status.SUPPORTED),
        # The sentence referred to is another symphony: the pronoun is not the Ninth.
        ("Beethoven completed his Fifth Symphony in 1808.", Status.INSUFFICIENT),
    ],
)
def test_a_sentence_referring_back_has_the_subjects_restrictor_in_its_referent(
    first: str, status: Status
) -> None:
    """ "It was first performed in Vienna" after "his Ninth Symphony" is about the Ninth."""
    for then in ("It", "The symphony"):
        text = f"{first} {then} was first performed in Vienna on 7 May 1824."
        evidence = Evidence.build(document_id="d0", text=text, retriever="supplied")
        assert AlignmentVerifier(judge="rules").verify(_NINTH, [evidence]).status == status
