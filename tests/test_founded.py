"""Facts must come from their text: an invented fact is dropped, recorded and never scored."""

from __future__ import annotations

from typing import Any

import pytest

import triqua
from tests.conftest import default_judgement, make_responder
from triqua.core.plan.founded import found_in_text, unfounded_words
from triqua.schema import Chunk, Fact, Qualifier
from triqua.testing import ScriptedChatModel, shown_text

TEXT = "Marie Curie won the Nobel Prize in Physics in 1903. She was born in Warsaw."
DOC = "Marie Curie won the Nobel Prize in Physics in 1903. Marie Curie was born in Warsaw."


def fact(s: str, r: str, o: str, source: str, *qualifiers: tuple[str, str]) -> Fact:
    quals = [Qualifier(label=label, value=value) for label, value in qualifiers]
    return Fact(subject=s, relation=r, object=o, qualifiers=quals, source_text=source)


def test_names_numbers_and_object_words_must_be_in_the_text() -> None:
    physics, born = TEXT.split(". ")
    assert unfounded_words(fact("Marie Curie", "won", "the Nobel Prize in Physics", physics,
                                ("point in time", "1903")), TEXT, physics) == []  # fmt: skip
    # "She" is resolved to a name the chunk writes earlier: founded.
    assert unfounded_words(fact("Marie Curie", "was born in", "Warsaw", born), TEXT, born) == []
    # A paraphrased relation is allowed; an object the sentence never states is not.
    assert unfounded_words(fact("Marie Curie", "came from", "Warsaw", born), TEXT, born) == []
    assert unfounded_words(fact("Marie Curie", "was", "a footballer", born), TEXT, born) == [
        "footballer"
    ]
    assert unfounded_words(fact("Marie Curie", "won", "the Nobel Prize", physics,
                                ("point in time", "1911")), TEXT, physics) == ["1911"]  # fmt: skip
    assert unfounded_words(fact("Pierre Curie", "won", "the prize", physics), TEXT, physics) == [
        "pierre curie"
    ]


def test_found_in_text_reads_the_previous_chunk_and_the_question() -> None:
    chunk = Chunk(index=1, start=0, end=23, text="He was born in Warsaw.")
    born = fact("Pierre Curie", "was born in", "Warsaw", chunk.text)
    kept, dropped = found_in_text(chunk, [born])
    assert kept == [] and "'pierre curie'" in dropped[0].reason
    kept, dropped = found_in_text(chunk, [born], previous_chunk="Pierre Curie was a physicist.")
    assert kept == [born] and dropped == []
    kept, _ = found_in_text(chunk, [born], question="Where was Pierre Curie born?")
    assert kept == [born]


@pytest.mark.slow
def test_an_invented_fact_is_dropped_recorded_and_not_scored() -> None:
    fallback = make_responder(default_judgement)

    def responder(tool: str, prompt: str) -> Any:
        if tool == "ExtractedFacts" and "Physics" in shown_text(prompt):
            physics, born = TEXT.split(". ")
            rows = [
                ("Marie Curie", "won", "the Nobel Prize in Physics", physics),
                ("Marie Curie", "was born in", "Warsaw", born),
                ("Marie Curie", "was", "a footballer", born),  # invented
            ]
            return {
                "facts": [
                    {"subject": s, "relation": r, "object": o, "qualifiers": [],
                     "source_sentence": src}
                    for s, r, o, src in rows
                ]
            }  # fmt: skip
        return fallback(tool, prompt)

    report = triqua.check(
        TEXT, model=ScriptedChatModel(responder=responder), documents=[DOC], cache=False
    )
    assert [r.fact.object for r in report.records] == ["the Nobel Prize in Physics", "Warsaw"]
    (dropped,) = report.unfounded_facts
    assert dropped.fact.object == "a footballer" and "'footballer'" in dropped.reason


def test_a_fact_with_an_empty_object_is_dropped_never_verified() -> None:
    chunk = Chunk(index=0, start=0, end=len(TEXT), text=TEXT)
    physics = TEXT.split(". ")[0]
    junk = fact("Marie Curie", "won", " ", physics, ("point in time", "1903"))
    kept, dropped = found_in_text(chunk, [junk])
    assert kept == [] and "object is empty" in dropped[0].reason

    def responder(tool: str, prompt: str) -> Any:
        if tool == "ExtractedFacts" and "Physics" in shown_text(prompt):
            objects = ["the Nobel Prize in Physics", ""]  # the second: junk, nothing won
            rows = [("Marie Curie", "won", o) for o in objects]
            return {
                "facts": [
                    {"subject": s, "relation": r, "object": o, "qualifiers": [],
                     "source_sentence": physics}
                    for s, r, o in rows
                ]
            }  # fmt: skip
        return make_responder(default_judgement)(tool, prompt)

    report = triqua.check(
        TEXT, model=ScriptedChatModel(responder=responder), documents=[DOC], cache=False
    )
    assert all(r.fact.object.strip() for r in report.records)  # none verified
    assert [u.fact.object for u in report.unfounded_facts] == [""]
    # The offline engine's bare intransitive reading is dropped the same way.
    offline = triqua.check("Tilda Swinton acts.", documents=[DOC], cache=False, store=False)
    assert offline.records == [] and offline.unfounded_facts[0].fact.relation == "acts"
