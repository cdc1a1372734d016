"""The offline engine (English only) refuses text that is clearly in another language."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.core.text.language import detected_language, language_problem, text_language

FRENCH = (
    "Marie Curie est née à Varsovie en 1867. Elle a reçu le prix Nobel de physique en 1903 "
    "avec Pierre Curie."
)
GERMAN = "Marie Curie wurde 1867 in Warschau geboren und erhielt 1903 den Nobelpreis für Physik."
CHINESE = "居里夫人于1867年出生于华沙，1903年获得诺贝尔物理学奖。"
ENGLISH_NAMES = "Georg Friedrich Parrot was born in Mutschelleben in Saxe-Weimar."
# Dutch and German whose "in", "an", "was", "is" are English function words too.
DUTCH = (
    "Marie Curie was een natuurkundige. Zij won in 1903 de Nobelprijs voor natuurkunde en was "
    "de eerste vrouw die een Nobelprijs won."
)
GERMAN_SHARED_WORDS = (
    "Albert Einstein war ein Physiker. Er wurde in Ulm geboren und arbeitete an der "
    "Universität Bern, was ihn berühmt machte."
)
ARABIC_SENTENCE = "ولد ألبرت أينشتاين في ألمانيا."


@pytest.mark.parametrize(("text", "code"), [(FRENCH, "fr"), (GERMAN, "de"), (CHINESE, "zh-cn")])
def test_other_languages_are_refused_by_the_offline_engine(text: str, code: str) -> None:
    found = detected_language(text)
    assert found is not None and found[0] == code
    problem = language_problem(text, "auto", offline_decomposer=True)
    assert problem is not None and f"'{code}'" in problem and "--language en" in problem
    assert language_problem(text, "auto", offline_decomposer=False) is None  # a chat model reads it


@pytest.mark.parametrize(
    ("text", "code"), [(DUTCH, "nl"), (GERMAN_SHARED_WORDS, "de"), (ARABIC_SENTENCE, "ar")]
)
def test_the_detector_decides_before_english_function_words(text: str, code: str) -> None:
    problem = language_problem(text, "auto", offline_decomposer=True)
    assert problem is not None and f"'{code}'" in problem
    assert text_language(text, "auto") == code


def test_english_text_full_of_foreign_names_is_english() -> None:
    text = (
        "Johann Wolfgang von Goethe wrote Faust. Friedrich Schiller lived in Weimar with "
        "Goethe, and Georg Friedrich Parrot was born in Mutschelleben."
    )
    assert language_problem(text, "auto", offline_decomposer=True) is None
    assert text_language(text, "auto") == "en"


@pytest.mark.parametrize("text", [ENGLISH_NAMES, "Paris is the capital of France.", "Ulm."])
def test_english_and_short_texts_pass(text: str) -> None:
    assert language_problem(text, "auto", offline_decomposer=True) is None


def test_the_language_setting_overrides_the_detection() -> None:
    assert language_problem(FRENCH, "en", offline_decomposer=True) is None
    assert language_problem(ENGLISH_NAMES, "de", offline_decomposer=True) is not None


@pytest.mark.slow
def test_check_refuses_in_one_line_and_checks_nothing(tmp_path: Any) -> None:
    result = CliRunner().invoke(app, ["check", FRENCH, "--no-store"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "offline engine reads English only" in lines[0]
    with pytest.raises(ValueError, match="language 'fr'"):
        triqua.check(FRENCH, cache=False)
    report = triqua.check(FRENCH, cache=False, language="en")  # the user's word is taken
    assert report.spec is not None


def test_the_report_records_the_texts_language(scripted: Any) -> None:
    english = triqua.check("Paris is the capital of France.", cache=False, store=False)
    assert english.language == "en"
    # A chat model reads French: checked, and the report says which language it read.
    french = triqua.check(FRENCH, model=scripted(), cache=False, store=False)
    assert french.language == "fr"
    declared = triqua.check(FRENCH, cache=False, store=False, language="en")
    assert declared.language == "en"  # the setting is what the run went by
    assert text_language("Ulm.", "auto") is None  # too short to tell


def test_a_passage_the_detector_is_sure_of_is_foreign_and_english_is_not() -> None:
    from triqua.core.text.language import foreign_language

    assert (
        foreign_language(
            "Le Golden Gate Bridge n'est pas à Seattle : il se trouve à San "
            "Francisco, en Californie."
        )
        == "fr"
    )
    assert (
        foreign_language("Die Golden Gate Bridge ist nicht in Seattle, sondern in San Francisco.")
        == "de"
    )
    assert foreign_language("Georg Friedrich Parrot was born in Mutschelleben in 1767.") is None
    assert foreign_language("Ludwig van Beethoven was born in Bonn in December 1770.") is None
    assert foreign_language("Le pont.") is None  # too short to judge


def test_a_passage_english_by_its_function_words_skips_the_detector_with_the_same_answer() -> None:
    from triqua.core.text import language

    english = [
        "Ludwig van Beethoven was born in Bonn in December 1770.",
        "Georg Friedrich Parrot was born in Mutschelleben in 1767.",
        "Marie Curie was a Polish and naturalised-French physicist and chemist who conducted "
        "pioneering research on radioactivity. She was the first woman to win a Nobel Prize.",
        "Jean de la Fontaine, the French fabulist, was born in Château-Thierry and is best "
        "known for his Fables, which he wrote in French verse.",
    ]
    foreign = [
        "Le Golden Gate Bridge n'est pas à Seattle : il se trouve à San Francisco, en "
        "Californie, et il est très connu dans le monde entier.",
        "Die Golden Gate Bridge ist nicht in Seattle, sondern in San Francisco, und sie ist "
        "eine der bekanntesten Brücken der Welt.",
        "Москва является столицей России и крупнейшим городом страны.",
    ]
    for text in english:
        assert language._english_whatever_detected(text)  # the detector is not run
        assert language._detected_foreign(text) is None  # and it would have read it too
        assert language.foreign_language(text) is None
    assert language._english_whatever_detected("Le pont.")  # too short to judge: read
    for text in foreign:
        assert not language._english_whatever_detected(text)
        assert language.foreign_language(text) == language._detected_foreign(text) is not None


def test_a_foreign_text_over_the_length_limit_gets_the_length_refusal_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from triqua.context import DEFAULT_MAX_INPUT_CHARS

    def no_detection(*_: Any, **__: Any) -> str:
        raise AssertionError("the language was read before the length was checked")

    huge = (FRENCH + " ") * (DEFAULT_MAX_INPUT_CHARS // len(FRENCH) + 1)
    assert len(huge) > DEFAULT_MAX_INPUT_CHARS
    monkeypatch.setattr("triqua.core.text.language.language_problem", no_detection)
    with pytest.raises(ValueError, match=r"above the limit of 2,000,000 \(max_input_chars\)"):
        triqua.check(huge, cache=False, store=False)
    with pytest.raises(ValueError, match=r"above the limit of 1,000 \(max_input_chars\)"):
        triqua.extract_facts(FRENCH * 20, max_input_chars=1000)
    result = CliRunner().invoke(app, ["check", FRENCH * 20, "--max-input-chars", "1000"])
    assert result.exit_code == 2 and "(max_input_chars)" in result.stderr
