"""Pure rules of the offline verifier: quantities, spellings, antonyms, substitutions,
evidence coreference and the lexicon file."""

from __future__ import annotations

from pathlib import Path

import pytest

from triqua.core.reading.analysis import analyse, values_relation
from triqua.core.reading.fact_parts import (
    antonym_in,
    fact_parts,
    polarity_differs,
    relation_hit,
    relation_words,
)
from triqua.core.reading.lexicon import _load
from triqua.core.reading.mentions import REFERS, refers_back, subject_scores
from triqua.core.reading.part_rivals import substitution
from triqua.core.reading.words import stem
from triqua.schema import Fact


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("about 8,800 m", "at 8,849 metres", "match"),
        ("8,800 m", "at 8,849 metres", "conflict"),
        ("9,000 metres", "at 8,849 metres", "conflict"),
        ("nearly 9,000 m", "8,849 m", "match"),
        ("nearly 9,500 m", "8,849 m", "conflict"),
        ("over 8,000 metres", "8,849 m", "match"),
        ("over 9,000 metres", "8,849 m", "conflict"),
        ("300 metres", "330 metres", "conflict"),
        ("8,849 m", "about 8,849 metres", "match"),
    ],
)
def test_approximate_markers_widen_the_tolerance_on_their_side(
    claim: str, evidence: str, expected: str
) -> None:
    assert values_relation(analyse(claim), analyse(evidence))[0] == expected


def test_british_and_american_spellings_meet() -> None:
    assert stem("optimisation") == stem("optimization")
    assert stem("colour") == stem("color")
    assert stem("centre") == stem("center")
    assert stem("organised") == stem("organized")
    assert stem("four") != stem("for")


def test_antonym_prefixes_are_found() -> None:
    assert antonym_in(analyse("effective"), analyse("The drug is ineffective.")) is not None
    assert antonym_in(analyse("able to leave"), analyse("He was unable to leave.")) is not None
    assert antonym_in(analyse("effective"), analyse("The drug is effective.")) is None


def test_a_replaced_word_is_a_substitution_not_a_paraphrase() -> None:
    sentence = analyse("organized for the top football clubs")
    assert substitution(analyse("the top baseball clubs"), sentence) == "football"
    assert substitution(analyse("the top football clubs"), sentence) is None


def test_multi_word_relation_synonyms_come_from_the_lexicon() -> None:
    words = relation_words(analyse("came into the world in"))
    assert relation_hit(words, analyse("She was born in Warsaw.")) is not None
    words = relation_words(analyse("will link"))
    assert relation_hit(words, analyse("The line will connect A to B.")) is not None


def test_pronouns_and_definite_descriptions_refer_back() -> None:
    assert refers_back(analyse("She moved to Paris in 1891."))
    assert refers_back(analyse("In 1891, she moved to Paris."))
    assert refers_back(analyse("The city had 145,170 inhabitants."))
    assert not refers_back(analyse("Pierre Curie was her husband."))
    assert not refers_back(analyse("The war ended in 1918."))


def test_a_sentence_whose_subject_is_another_name_refers_back_to_nobody() -> None:
    assert not refers_back(analyse("Canberra is the capital of Australia."))
    assert not refers_back(analyse("Einstein said he would stay."))
    assert not refers_back(analyse("Sydney's harbour is the largest in the world."))
    assert refers_back(analyse("Later, she moved to Paris."))
    assert refers_back(analyse("Critics praised the film."))
    assert refers_back(analyse("Born in 1867, she moved to Paris."))
    assert refers_back(analyse("Having won the prize, she moved to Paris."))
    sentences = [
        analyse("Sydney is the largest city of Australia."),
        analyse("Canberra is the capital of Australia."),
    ]
    assert subject_scores(analyse("Sydney"), sentences, None) == [1.0, 0.0]


def test_the_topic_changes_when_another_name_opens_a_sentence() -> None:
    sentences = [
        analyse(t)
        for t in (
            "Marie Curie was a chemist.",
            "She moved to Paris.",
            "Pierre Curie was a physicist.",
            "He won a prize.",
        )
    ]
    scores = subject_scores(analyse("Marie Curie"), sentences, None)
    assert scores[0] == 1.0
    assert scores[1] == REFERS
    assert scores[2] == 0.0  # "Pierre Curie" is not Marie Curie
    assert scores[3] == 0.0


def test_an_untitled_passage_opening_with_a_pronoun_is_about_no_one_it_does_not_name() -> None:
    sentences = [
        analyse(t)
        for t in (
            "She moved to Paris in 1891.",
            "She won a prize.",
            "Pierre Curie was a physicist.",
            "He won a prize.",
        )
    ]
    scores = subject_scores(analyse("Marie Curie"), sentences, None)
    assert scores == [0.0, 0.0, 0.0, 0.0]  # a chunk cut from a longer text may mean anyone
    # A title names the passage's topic: its pronouns are the title's.
    titled = subject_scores(analyse("Marie Curie"), sentences, analyse("Pierre Curie"))
    assert titled == [0.0, 0.0, 0.0, 0.0]
    # A name, not a pronoun, opens the passage: it is about that name.
    named = [analyse("Canberra is the capital of Australia.")]
    assert subject_scores(analyse("Sydney"), named, None) == [0.0]


def test_a_broken_lexicon_file_is_a_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "lexicon.json"
    broken.write_text('{"relation_groups": []}', encoding="utf-8")
    with pytest.raises(RuntimeError, match="lexicon"):
        _load(broken)


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("the 16th century", "introduced in about 1562", "match"),
        ("the 16th century", "introduced in 1620", "conflict"),
        ("the late 15th century", "first recorded in 1567", "conflict"),
        ("1562", "in the 16th century", "unknown"),
        ("the 16th century", "in the sixteenth century", "match"),
        ("the 17th century", "in the late sixteenth century", "conflict"),
        ("the 21st century", "early in the twenty-first century", "match"),
        ("1590", "in the late Sixteenth Century", "unknown"),
    ],
)
def test_centuries_are_year_ranges(claim: str, evidence: str, expected: str) -> None:
    assert values_relation(analyse(claim), analyse(evidence))[0] == expected


@pytest.mark.parametrize(
    ("text", "stated", "absent"),
    [
        ("the United States Supreme Court", {"us", "sc", "ussc"}, {"uk"}),
        ("the New York Stock Exchange", {"ny", "nyse", "se"}, {"nysx"}),
        ("Marie Curie and Paris", {"mc"}, {"mp", "cp"}),
    ],
)
def test_acronyms_are_read_from_every_stretch_of_a_name(
    text: str, stated: set[str], absent: set[str]
) -> None:
    acronyms = analyse(text).acronyms
    assert stated <= acronyms
    assert not absent & acronyms


@pytest.mark.parametrize(
    ("fact", "sentence", "differs"),
    [
        # The "no" belongs to another clause: the fact's own clause affirms it.
        (
            ("The oxygen atom", "has", "a negative charge"),
            "There is no overall charge, but the oxygen atom has a slight negative charge.",
            False,
        ),
        (("The oxygen atom", "has", "a negative charge"), "The oxygen atom has no charge.", True),
        (("Tom Rusk", "did not win", "the cup"), "Tom Rusk did not win the cup in 1990.", False),
        (("Tom Rusk", "did not win", "the cup"), "Tom Rusk won the cup in 1990.", True),
    ],
)
def test_polarity_is_read_in_the_facts_own_clause(
    fact: tuple[str, str, str], sentence: str, differs: bool
) -> None:
    parts = fact_parts(Fact(subject=fact[0], relation=fact[1], object=fact[2]))
    assert polarity_differs(parts, analyse(sentence)) is differs


@pytest.mark.parametrize(
    ("subject", "sentence"),
    [
        (
            "Stephen Hillenburg",
            "Born in Lawton, Oklahoma and raised in Anaheim, California, Hillenburg became "
            "fascinated with the ocean as a child.",
        ),
        ("A.J. Styles", "After his first WrestleMania that April, Styles won the title."),
    ],
)
def test_a_surname_after_a_comma_names_the_subject(subject: str, sentence: str) -> None:
    # Punctuation ends a name: "California, Hillenburg" is two names, not "California
    # Hillenburg", so the surname alone names the subject.
    assert subject_scores(analyse(subject), [analyse(sentence)], None) == [0.8]


def test_a_surname_right_after_another_name_word_names_someone_else() -> None:
    sentence = analyse("Pierre Curie shared the prize.")
    assert subject_scores(analyse("Marie Curie"), [sentence], None) == [0.0]


def test_an_indefinite_count_is_stated_by_a_number_at_least_as_large() -> None:
    """The lexicon's ``vague_counts`` examples, read by the substitution gate."""
    import json

    from triqua.core.reading.lexicon_file import LEXICON_PATH
    from triqua.core.reading.part_rivals import count_substitution

    examples = json.loads(Path(LEXICON_PATH).read_text(encoding="utf-8"))["examples"]
    for key, stated in (("match", True), ("no_match", False)):
        for part, sentence in examples["vague_counts"][key]:
            assert (substitution(analyse(part), analyse(sentence)) is None) is stated
            assert (count_substitution(analyse(part), analyse(sentence)) is None) is stated
    assert count_substitution(analyse("12 astronauts"), analyse("a dozen astronauts")) is None


def test_an_appraisal_opening_the_object_is_no_substitution_without_a_neighbour() -> None:
    """The lexicon's ``appraisals`` examples, read by the substitution gate."""
    import json

    from triqua.core.reading.lexicon_file import LEXICON_PATH

    examples = json.loads(Path(LEXICON_PATH).read_text(encoding="utf-8"))["examples"]
    for key, stated in (("match", True), ("no_match", False)):
        for part, sentence in examples["appraisals"][key]:
            assert (substitution(analyse(part), analyse(sentence)) is None) is stated, part
