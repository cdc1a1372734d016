"""The grounding rule reads meaning: a quote must state the unit, not merely name its subject."""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
import snowballstemmer

import triqua
from tests.test_offline_judge import FixedEntailment
from triqua.core.grounding.rule import Grounding, check_quote
from triqua.core.grounding.statement import content_words, unstated_words
from triqua.core.reading.words import word_stems
from triqua.engines.second_opinion import EntailmentReader
from triqua.runtime.resources import register_retriever
from triqua.schema import Document, FactUnit, Status
from triqua.testing import ScriptedChatModel
from triqua.testing.liars import liar_responder, plausible_lies
from triqua.tools.supplied import SuppliedRetriever

PASSAGE = (
    "Albert Einstein was born in Ulm in 1879. He died in Princeton in 1955. "
    "The Moon is a rocky body that orbits the Earth. "
    "Marie Curie won the Nobel Prize in Physics in 1903, with Pierre Curie. "
    "She won the Nobel Prize in Chemistry in 1911."
)


def base(subject: str, relation: str, obj: str) -> FactUnit:
    return FactUnit(kind="base", subject=subject, relation=relation, object=obj)


def grounded(unit: FactUnit, quote: str, reader: EntailmentReader | None = None) -> str | None:
    """The downgrade reason for a supported unit quoting ``quote``, or None when it stands."""
    outcome = check_quote(
        unit,
        Status.SUPPORTED,
        ["ev-1"],
        quote,
        {"ev-1": PASSAGE},
        reader=reader,
        grounding="strict",
    )
    return None if outcome.ok else outcome.reason


@pytest.mark.parametrize(
    ("unit", "quote", "reason"),
    [
        (base("Albert Einstein", "was", "a footballer"), "Albert Einstein was born in Ulm",
         "does not state 'footballer'"),
        (base("The Moon", "is made of", "green cheese"), "The Moon is a rocky body",
         "does not state 'made', 'green', 'cheese'"),
        (base("Pierre Curie", "won", "the Nobel Prize in Physics"),
         "Marie Curie won the Nobel Prize in Physics", "lacks value pierre curie"),
        (base("Albert Einstein", "was born in", "about 1800"), "Albert Einstein was born in Ulm",
         "lacks value 1800"),
        (base("Marie Curie", "won", "the Nobel Prize in Physics in 1911"),
         "Marie Curie won the Nobel Prize in Physics in 1903, with Pierre Curie. She won the "
         "Nobel Prize in Chemistry in 1911", "spreads the unit's values over several sentences"),
    ],
)  # fmt: skip
def test_plausible_lies_are_refused_with_their_reason(
    unit: FactUnit, quote: str, reason: str
) -> None:
    why = grounded(unit, quote)
    assert why is not None and reason in why


@pytest.mark.parametrize(
    ("unit", "quote"),
    [
        (base("Einstein", "was born in", "Ulm"), "Albert Einstein was born in Ulm in 1879"),
        (base("Albert Einstein", "died in", "Princeton"), "He died in Princeton"),
        (base("Curie", "was awarded", "the Nobel Prize in Physics"),
         "Marie Curie won the Nobel Prize in Physics"),  # the lexicon's relation group
        (base("Albert Einstein", "was born in", "around 1880"), "Albert Einstein was born in Ulm"
         " in 1879"),
        (base("Marie Curie", "won", "the Nobel Prize in Chemistry"),
         "She won the Nobel Prize in Chemistry in 1911"),  # "She" after "Marie Curie"
    ],
)  # fmt: skip
def test_quotes_that_state_the_unit_stand(unit: FactUnit, quote: str) -> None:
    assert grounded(unit, quote) is None


def test_a_qualifier_must_sit_with_its_base_in_one_sentence() -> None:
    unit = FactUnit(
        kind="qualifier",
        subject="Marie Curie",
        relation="won",
        object="the Nobel Prize in Physics",
        label="point in time",
        value="1911",
    )
    assert "lacks value" in (grounded(unit, "She won the Nobel Prize in Chemistry in 1911") or "")
    year = unit.model_copy(update={"value": "1903"})
    assert grounded(year, "Marie Curie won the Nobel Prize in Physics in 1903") is None


def test_the_reader_decides_paraphrase_at_two_bars() -> None:
    # Some words stated ("born" via "native"? no: "hails" unknown, "Ulm" a name): none stated,
    # so the paraphrase bar (entailed, 0.5 for the fake) applies.
    unit = base("Albert Einstein", "hails from", "Ulm")
    assert content_words(unit) == ["hails"]
    assert "not entailed (0.40 < 0.50)" in (
        grounded(unit, "Albert Einstein was born in Ulm", EntailmentReader(FixedEntailment(0.4)))  # type: ignore[arg-type]
        or ""
    )
    assert (
        grounded(unit, "Albert Einstein was born in Ulm", EntailmentReader(FixedEntailment(0.6)))
        is None
    )  # type: ignore[arg-type]
    # One of two words stated: the lower bar (veto, 0.2 for the fake) applies.
    partly = base("Albert Einstein", "was born in the city of", "Ulm")
    assert unstated_words(partly, "Albert Einstein was born in Ulm") == ["city"]
    assert (
        grounded(partly, "Albert Einstein was born in Ulm", EntailmentReader(FixedEntailment(0.3)))
        is None
    )  # type: ignore[arg-type]
    assert grounded(
        partly, "Albert Einstein was born in Ulm", EntailmentReader(FixedEntailment(0.1))
    )  # type: ignore[arg-type]


def test_a_negated_sentence_does_not_state_the_unit() -> None:
    unit = base("Albert Einstein", "was", "a footballer")
    passage = {"ev-1": "Albert Einstein was never a footballer."}
    outcome = check_quote(
        unit, Status.SUPPORTED, ["ev-1"], "Albert Einstein was never a footballer", passage
    )
    assert not outcome.ok and "negates" in (outcome.reason or "")


def _eagerly_read(unit: FactUnit, quote: str) -> Grounding:
    """The rule's outcome for ``quote`` cited whole, with a judge that finds everything entailed."""
    reader = EntailmentReader(FixedEntailment(0.99))  # type: ignore[arg-type]
    return check_quote(unit, Status.SUPPORTED, ["ev-1"], quote, {"ev-1": quote}, reader=reader)


@pytest.mark.parametrize(
    ("unit", "quote", "stands"),
    [
        (base("Acme", "is", "the largest company"), "Acme is one of the largest companies", False),
        (base("Acme", "was", "the first bank in Ohio"), "Acme was among the first banks in Ohio",
         False),
        (base("Ada Okafor", "was", "the founder of Acme"), "Ada Okafor was one of the founders of "
         "Acme", False),
        (base("Acme", "is", "one of the largest companies"), "Acme is one of the largest "
         "companies", True),
        (base("Acme", "is", "the largest company"), "Acme is the largest company", True),
        (base("Ohio", "is", "a top state for peaches"), "Ohio is one of the top states for "
         "peaches", True),  # "a top state" is already one of a group
        (base("Acme", "is", "the largest company"), "One of its rivals said Acme is the largest "
         "company", True),
    ],
)  # fmt: skip
def test_one_of_the_largest_does_not_state_the_largest(
    unit: FactUnit, quote: str, stands: bool
) -> None:
    outcome = _eagerly_read(unit, quote)
    assert outcome.ok is stands
    if not stands:
        assert "restricts" in (outcome.reason or "")


@pytest.mark.parametrize(
    ("unit", "quote", "stands"),
    [
        (base("John Smith", "is", "the CEO of Acme Corp"), "John Smith is the former CEO of Acme "
         "Corp", False),
        (base("Ana Ruiz", "is", "a professor"), "Ana Ruiz is a retired professor of history",
         False),
        (base("John Smith", "was", "the CEO of Acme Corp"), "John Smith is the former CEO of Acme "
         "Corp", True),  # the past is what a former role states
        (base("John Smith", "served as", "the CEO of Acme Corp"), "John Smith is the former CEO of "
         "Acme Corp", True),
        (base("John Smith", "is", "the CEO of Acme Corp"), "John Smith, the former CFO, is the CEO "
         "of Acme Corp", True),  # another role was the former one
    ],
)  # fmt: skip
def test_a_former_role_does_not_state_the_present_one(
    unit: FactUnit, quote: str, stands: bool
) -> None:
    outcome = _eagerly_read(unit, quote)
    assert outcome.ok is stands
    if not stands:
        assert "former" in (outcome.reason or "") or "retired" in (outcome.reason or "")


TWO_PRIZES = "She won the Nobel Prize in Physics in 1903 and the Nobel Prize in Chemistry in 1911"


@pytest.mark.parametrize(
    ("prize", "year", "quote", "stands"),
    [
        ("the Nobel Prize in Physics", "1911", TWO_PRIZES, False),
        ("the Nobel Prize in Physics", "1903", TWO_PRIZES, True),
        ("the Nobel Prize in Chemistry", "1911", TWO_PRIZES, True),
        ("the Nobel Prize in Physics", "1903", "In 1903, she won the Nobel Prize in Physics, and "
         "in 1911 the Nobel Prize in Chemistry", True),  # a fronted year dates its clause
        ("the Nobel Prize in Physics", "1911", "In 1903, she won the Nobel Prize in Physics, and "
         "in 1911 the Nobel Prize in Chemistry", False),
    ],
)  # fmt: skip
def test_a_year_the_sentence_gives_to_another_event_does_not_date_the_unit(
    prize: str, year: str, quote: str, stands: bool
) -> None:
    unit = FactUnit(
        kind="qualifier",
        subject="Marie Curie",
        relation="won",
        object=prize,
        label="point in time",
        value=year,
    )
    passage = f"Marie Curie was a physicist. {quote}."
    reader = EntailmentReader(FixedEntailment(0.99))  # type: ignore[arg-type]
    outcome = check_quote(unit, Status.SUPPORTED, ["ev-1"], quote, {"ev-1": passage}, reader=reader)
    assert outcome.ok is stands
    if not stands:
        assert "another event" in (outcome.reason or "")


@pytest.mark.slow
def test_the_plausible_liar_gets_no_false_support_through_a_whole_check() -> None:
    lies = plausible_lies(3)
    documents = [Document(text=d, source=f"doc {i}") for i, d in enumerate(lies.documents)]
    retriever = register_retriever("liar-test", SuppliedRetriever(documents))
    report = triqua.check(
        lies.text,
        model=ScriptedChatModel(responder=liar_responder(lies)),
        retriever=retriever,
        cache=False,
        routing="always_element",
    )
    units = [u for r in report.records for u in r.verdict.unit_verdicts]
    assert len(report.records) == len(lies.facts)
    false = [u.unit for u in units if u.status is Status.SUPPORTED and u.unit in lies.false_units]
    assert false == []
    assert sum(1 for u in units if u.grounding) == len(lies.false_units)


def test_word_stems_are_right_when_threads_stem_at_once() -> None:
    """Threads stem at once in a server's concurrent runs; one shared Snowball stemmer garbled
    their words (a run's decomposition failed with IndexError)."""
    stems = ("connect", "generat", "happi", "nation", "relat", "condition", "hope", "agree")
    endings = ("ing", "ed", "ation", "ational", "ness", "ly", "ies", "fulness", "izer")
    prefixes = [f"zq{a}{b}" for a in "abcd" for b in "abcd"]  # new words: no cached stems
    texts = {p: " ".join(f"{p}{s}{e}" for s in stems for e in endings) for p in prefixes}
    reference = snowballstemmer.stemmer("english")
    expected = {p: frozenset(reference.stemWord(w) for w in t.split()) for p, t in texts.items()}
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often, mid-word
    try:
        with ThreadPoolExecutor(4) as pool:
            found = dict(zip(texts, pool.map(word_stems, texts.values()), strict=True))
    finally:
        sys.setswitchinterval(interval)
    assert found == expected


@pytest.mark.parametrize("label", ["Myth", "Rumour", "Common misconception", "Claim"])
def test_a_sentence_under_a_disowning_label_does_not_state_the_unit(label: str) -> None:
    """ "Myth: Sydney is the capital of Australia." repeats the statement to deny it."""
    unit = base("Sydney", "is", "the capital of Australia")
    quote = "Sydney is the capital of Australia"
    outcome = _eagerly_read_in(unit, quote, f"{label}: Sydney is the capital of Australia.")
    assert not outcome.ok and f"'{label}:'" in (outcome.reason or "")


@pytest.mark.parametrize(
    "passage",
    [
        "Sydney is the capital of Australia \u2014 a common misconception.",
        "Sydney is the capital of Australia, a popular myth.",
        "Sydney is the capital of Australia, which is a falsehood.",
        "Sydney is the capital of Australia (a hoax).",
    ],
)
def test_a_sentence_a_disowning_tag_closes_does_not_state_the_unit(passage: str) -> None:
    unit = base("Sydney", "is", "the capital of Australia")
    outcome = _eagerly_read_in(unit, "Sydney is the capital of Australia", passage)
    assert not outcome.ok and "disowns it as" in (outcome.reason or "")


@pytest.mark.parametrize(
    "passage",
    [
        "Sydney is the capital of Australia, a city of five million.",
        "Sydney is the capital of Australia \u2014 a costly mistake.",  # judges, not disowns
    ],
)
def test_a_sentence_a_plain_tag_closes_still_states_the_unit(passage: str) -> None:
    unit = base("Sydney", "is", "the capital of Australia")
    assert _eagerly_read_in(unit, "Sydney is the capital of Australia", passage).ok


def test_a_sentence_under_a_plain_label_still_states_the_unit() -> None:
    unit = base("Sydney", "is", "the capital of Australia")
    quote = "Sydney is the capital of Australia"
    outcome = _eagerly_read_in(unit, quote, "Note: Sydney is the capital of Australia.")
    assert outcome.ok


def _eagerly_read_in(unit: FactUnit, quote: str, passage: str) -> Grounding:
    """The rule's outcome for ``quote`` cited in ``passage``, with a judge that entails all."""
    reader = EntailmentReader(FixedEntailment(0.99))  # type: ignore[arg-type]
    return check_quote(unit, Status.SUPPORTED, ["ev-1"], quote, {"ev-1": passage}, reader=reader)
