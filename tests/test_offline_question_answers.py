"""Short answers in question mode: the offline decomposer reads them with their question.

"Paris." in reply to "Where was Alan Turing born?" states (Alan Turing, was born in,
Paris); the fact keeps the answer's span and text, and the statement it was read as is
recorded. A full-sentence answer is decomposed as before.
"""

from __future__ import annotations

import pytest

import triqua
from triqua.engines.base import DecomposeResult
from triqua.engines.offline.decompose.decomposer import ChunkFacts, RuleDecomposer
from triqua.engines.offline.engine import OfflineDecomposer
from triqua.schema import Chunk, Fact, Span, Status

EVIDENCE = (
    "Alan Turing was born in Maida Vale, London, on 23 June 1912. "
    "Neil Armstrong walked on the Moon in 1969. "
    "Alexander Graham Bell invented the telephone in 1876. "
    "Beethoven composed nine symphonies. "
    "Marie Curie won two Nobel Prizes, in physics in 1903 and in chemistry in 1911."
)

BORN = "Where was Alan Turing born?"
MOON = "When did Neil Armstrong walk on the Moon?"
NOBEL = "Did Marie Curie win two Nobel Prizes?"


def strings(facts: list[Fact]) -> list[str]:
    return [f.to_string() for f in facts]


def read(decomposer: RuleDecomposer, answer: str, question: str) -> ChunkFacts:
    return decomposer.analyse(answer, question=question)


# --------------------------------------------------------------------------- decomposer
@pytest.mark.parametrize(
    ("question", "answer", "statement", "fact"),
    [
        (
            BORN,
            "Maida Vale, London.",
            "Alan Turing was born in Maida Vale, London.",
            "(Alan Turing, was born in, Maida Vale, London)",
        ),
        (BORN, "Paris.", "Alan Turing was born in Paris.", "(Alan Turing, was born in, Paris)"),
        (
            MOON,
            "In 1969.",
            "Neil Armstrong did walk on the Moon in 1969.",
            "(Neil Armstrong, did walk on, the Moon)-(point in time, 1969)",
        ),
        (
            "Who invented the telephone?",
            "Alexander Graham Bell.",
            "Alexander Graham Bell invented the telephone.",
            "(Alexander Graham Bell, invented, the telephone)",
        ),
        (
            "What is the capital of Australia?",
            "Sydney.",
            "The capital of Australia is Sydney.",
            "(The capital of Australia, is, Sydney)",
        ),
        (
            "How many symphonies did Beethoven compose?",
            "Nine.",
            "Beethoven did compose nine symphonies.",
            "(Beethoven, did compose, nine symphonies)",
        ),
        (
            NOBEL,
            "Yes.",
            "Marie Curie did win two Nobel Prizes.",
            "(Marie Curie, did win, two Nobel Prizes)",
        ),
        (
            NOBEL,
            "No.",
            "Marie Curie did not win two Nobel Prizes.",
            "(Marie Curie, did not win, two Nobel Prizes)",
        ),
    ],
)
def test_a_short_answer_is_read_as_the_statement_it_makes(
    decomposer: RuleDecomposer, question: str, answer: str, statement: str, fact: str
) -> None:
    found = read(decomposer, answer, question)
    assert strings(found.facts) == [fact]
    [only] = found.facts
    assert only.span == Span(start=0, end=len(answer))
    assert only.source_text == answer
    assert found.undecomposed == []
    assert found.statements == [(Span(start=0, end=len(answer)), statement)]


def test_more_question_shapes_are_read(decomposer: RuleDecomposer) -> None:
    cases = {
        ("Which city was Turing born in?", "London."): "(Turing, was born in, London)",
        ("In which city was Turing born?", "London."): "(Turing, was born in, London)",
        ("Where is Alan Turing from?", "London."): "(Alan Turing, is from, London)",
        ("What did Bell invent in 1876?", "The telephone."): (
            "(Bell, did invent, the telephone)-(point in time, 1876)"
        ),
        ("Who did Marie Curie marry?", "Pierre Curie."): ("(Marie Curie, did marry, Pierre Curie)"),
        ("Was Turing born in London?", "No."): "(Turing, was not born in, London)",
        ("Is Paris the capital of France?", "Yes."): "(Paris, is, the capital of France)",
        ("When was Alan Turing born?", "23 June 1912."): (
            "(Alan Turing, was born on, 23 June 1912)"
        ),
    }
    for (question, answer), fact in cases.items():
        assert strings(read(decomposer, answer, question).facts) == [fact], question


def test_the_offset_of_a_chunk_moves_the_answer_span(decomposer: RuleDecomposer) -> None:
    found = decomposer.analyse("Paris.", offset=0, chunk_index=0, question=BORN)
    assert [f.span for f in found.facts] == [Span(start=0, end=6)]


def test_a_pronoun_in_the_question_is_resolved_from_its_context(
    decomposer: RuleDecomposer,
) -> None:
    found = read(decomposer, "Warsaw.", "Marie Curie was a physicist. Where was she born?")
    assert strings(found.facts) == ["(Marie Curie, was born in, Warsaw)"]


def test_only_the_answers_opening_fragment_is_read_with_the_question(
    decomposer: RuleDecomposer,
) -> None:
    found = read(decomposer, "Paris. Cambridge.", BORN)
    assert strings(found.facts) == ["(Alan Turing, was born in, Paris)"]
    assert found.undecomposed == [Span(start=7, end=17)]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Why did Turing die?", "Cyanide."),  # why / how: no slot to fill
        ("How did Turing die?", "Poisoning."),
        (BORN, "Yes."),  # yes to a wh-question
        (NOBEL, "Two."),  # a value to a yes/no question
        ("Didn't Marie Curie win two Nobel Prizes?", "Yes."),  # a negative question
        ("Where was Turing born, London or Paris?", "Paris."),  # a choice
        ("Who is Alan Turing?", "Alan Turing."),  # the answer repeats the question
        (BORN, "Born in Paris."),  # a participle phrase, not a bare phrase
        ("Tell me where Alan Turing was born.", "Paris."),  # no question mark
    ],
)
def test_what_cannot_be_rewritten_stays_not_decomposed(
    decomposer: RuleDecomposer, question: str, answer: str
) -> None:
    found = read(decomposer, answer, question)
    assert found.facts == []
    assert found.statements == []
    assert found.undecomposed == [Span(start=0, end=len(answer))]


def test_a_full_sentence_answer_is_decomposed_as_before(decomposer: RuleDecomposer) -> None:
    short = read(decomposer, "Paris.", BORN)
    full = read(decomposer, "He was born in Paris.", BORN)
    assert strings(full.facts) == strings(short.facts) == ["(Alan Turing, was born in, Paris)"]
    assert full.facts[0].source_text == "He was born in Paris."
    assert full.statements == []
    assert short.statements != []


def test_the_engine_notes_the_statement_an_answer_was_read_as() -> None:
    chunk = Chunk(index=0, text="Paris.", start=0, end=6)
    result = OfflineDecomposer().decompose(chunk, previous_chunk=None, question=BORN, chunked=False)
    assert isinstance(result, DecomposeResult)
    assert strings(result.facts) == ["(Alan Turing, was born in, Paris)"]
    assert result.raw_output == (
        "answer [0:6] read with the question as: Alan Turing was born in Paris."
    )


# --------------------------------------------------------------------------- end to end
def check(answer: str, question: str) -> list[tuple[str, Status, Span | None]]:
    report = triqua.check(answer, question=question, documents=[EVIDENCE], store=False, cache=False)
    assert report.undecomposed == []
    return [(r.fact.to_string(), r.verdict.status, r.fact.span) for r in report.records]


@pytest.mark.slow
def test_a_right_short_answer_is_supported_and_a_wrong_one_contradicted() -> None:
    assert check("Maida Vale, London.", BORN) == [
        ("(Alan Turing, was born in, Maida Vale, London)", Status.SUPPORTED, Span(start=0, end=19))
    ]
    assert check("Paris.", BORN) == [
        ("(Alan Turing, was born in, Paris)", Status.CONTRADICTED, Span(start=0, end=6))
    ]


def test_a_short_year_answer_is_checked_on_its_year() -> None:
    fact = "(Neil Armstrong, did walk on, the Moon)-(point in time, {})"
    span = Span(start=0, end=8)
    assert check("In 1969.", MOON) == [(fact.format(1969), Status.SUPPORTED, span)]
    assert check("In 1972.", MOON) == [(fact.format(1972), Status.CONTRADICTED, span)]


def test_short_answers_of_other_kinds_are_checked() -> None:
    assert [r[1] for r in check("Alexander Graham Bell.", "Who invented the telephone?")] == [
        Status.SUPPORTED
    ]
    counted = "How many symphonies did Beethoven compose?"
    assert [r[1] for r in check("Nine.", counted)] == [Status.SUPPORTED]
    assert [r[1] for r in check("Seven.", counted)] == [Status.CONTRADICTED]
    assert [r[1] for r in check("Yes.", NOBEL)] == [Status.SUPPORTED]
    assert [r[1] for r in check("No.", NOBEL)] == [Status.CONTRADICTED]


def test_a_full_sentence_answer_is_checked_as_its_short_form_is() -> None:
    full = check("He was born in Paris.", BORN)
    assert full == [
        ("(Alan Turing, was born in, Paris)", Status.CONTRADICTED, Span(start=0, end=21))
    ]
    assert [r[:2] for r in check("Paris.", BORN)] == [r[:2] for r in full]
