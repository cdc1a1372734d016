"""The default grounding rule ("judged"): a window writes the unit's words or the judge entails
it, and no gate fires; the strict rule stays as it was."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_offline_judge import FixedEntailment
from triqua.context import Context, GroundingMode
from triqua.core.grounding.rule import DEFAULT_GROUNDING, check_quote
from triqua.core.grounding.stated import anchored, written
from triqua.core.reading.quote_values import missing_values, unit_values
from triqua.engines.second_opinion import EntailmentReader
from triqua.models import entailment
from triqua.models.entailment import Thresholds, get_entailment
from triqua.schema import FactUnit, Status

CARD = Path(entailment.__file__).parent / "data" / "entailment.json"
PASSAGE = (
    "Albert Einstein was born in Ulm in 1879. He later moved to Munich. "
    "Sydney is the largest city of Australia, but Canberra is the capital of Australia. "
    "The 1992–93 FA Cup was the 112th season of the FA Cup. It was won by Arsenal. "
    "Marie Curie won the Nobel Prize in Physics in 1903. She won the Nobel Prize in "
    "Chemistry in 1911."
)


def base(subject: str, relation: str, obj: str) -> FactUnit:
    return FactUnit(kind="base", subject=subject, relation=relation, object=obj)


def reader(entailed: float) -> EntailmentReader:
    """A judge answering ``entailed`` with a card whose rules' thresholds all differ."""
    model = FixedEntailment(entailed)
    model.thresholds = Thresholds(
        entailed=0.8, veto=0.2, grounding=0.6, judged=0.5, judged_some=0.3
    )
    return EntailmentReader(model)  # type: ignore[arg-type]


def why(unit: FactUnit, quote: str, entailed: float, *rule: GroundingMode) -> str | None:
    """Why a "supported" quoting ``quote`` is downgraded (the default rule unless named)."""
    given = {"grounding": rule[0]} if rule else {}
    outcome = check_quote(
        unit, Status.SUPPORTED, ["e"], quote, {"e": PASSAGE}, reader=reader(entailed), **given
    )
    return None if outcome.ok else outcome.reason


def test_the_default_rule_is_judged_everywhere() -> None:
    assert DEFAULT_GROUNDING == "judged" == Context().grounding


def test_a_true_paraphrase_the_judge_entails_is_supported_and_strict_still_downgrades_it() -> None:
    hails = base("Albert Einstein", "hails from", "Ulm")
    quote = "Albert Einstein was born in Ulm"
    assert why(hails, quote, 0.55) is None  # the judge entails it at the card's judged 0.5
    strict = why(hails, quote, 0.55, "strict") or ""
    assert "does not state 'hails'" in strict and "(0.55 < 0.80)" in strict  # as before
    assert "(0.55 < 0.60)" in (why(hails, quote, 0.55, "judge") or "")  # the judge rule's bar


def test_a_window_writing_every_word_stands_where_a_small_judge_misreads_it() -> None:
    born = base("Albert Einstein", "was born in", "Ulm")
    quote = "Albert Einstein was born in Ulm in 1879."
    assert why(born, quote, 0.01) is None
    assert why(born, quote, 0.01, "judge") is not None  # the judge alone downgrades it


def test_a_window_writing_some_words_needs_the_lower_bar() -> None:
    moved = base("Albert Einstein", "moved from Ulm to", "Munich")
    quote = "Albert Einstein was born in Ulm in 1879. He later moved to Munich."
    assert why(moved, quote, 0.35) is None  # "moved" written: judged_some 0.3
    lie = base("Albert Einstein", "was born in", "Munich")
    refused = why(lie, "He later moved to Munich.", 0.35) or ""  # no word written: 0.5
    assert "does not write the unit's words" in refused and "(0.35 < 0.50)" in refused


#: (unit, sentence, the text before it, anchored): the object's common words alone tie
#: no sentence to the unit; a word of the relation, or of the subject or a name of the
#: object here or in the sentence before, does.
ANCHORING = [
    (base("Solar panels", "convert", "sunlight into electricity"),
     "Electricity demand from sunlight-rich regions peaks in the evening.", "", False),
    (base("Wind turbines", "convert", "wind into electricity"),
     "Electricity prices in windy regions fall at night.",
     "Power companies publish their tariffs.", False),
    (base("Solar panels", "convert", "sunlight into electricity"),
     "They turn sunlight into electricity.", "Solar panels sit on many roofs.", True),
    (base("Solar panels", "convert", "sunlight into electricity"),
     "Photovoltaic cells convert sunlight into electricity.", "", True),
    (base("Chromosomes", "are found in", "the cells of living organisms"),
     "The chromosomes are found in the nucleus of a cell.", "", True),
    (base("Land", "cannot be found on", "Neptune"),
     "It has no solid surface to stand on.", "Neptune is a gas giant.", True),
]  # fmt: skip


def test_only_a_sentence_tied_to_the_unit_counts_as_writing_some_words() -> None:
    for unit, sentence, before, tied in ANCHORING:
        assert anchored(unit, sentence, before) is tied, sentence
        assert written(unit, sentence, before)[1] is tied, sentence
    qualifier = FactUnit(
        kind="qualifier", subject="Solar panels", relation="convert",
        object="sunlight into electricity", label="location", value="rooftops",
    )  # fmt: skip
    assert anchored(qualifier, "Rooftops are sunny.")


def test_a_window_writing_only_the_objects_words_needs_the_higher_bar() -> None:
    unit = base("Solar panels", "convert", "sunlight into electricity")
    lie = "Electricity demand from sunlight-rich regions peaks in the evening."
    true = "Solar panels turn sunlight into electricity."
    passage = f"{lie} {true}"

    def outcome(quote: str) -> str | None:
        ground = check_quote(
            unit, Status.SUPPORTED, ["e"], quote, {"e": passage}, reader=reader(0.35)
        )
        return ground.reason

    assert "(0.35 < 0.50)" in (outcome(lie) or "")  # no word tied to the unit: 0.5
    assert outcome(true) is None  # "Solar panels" and the object's words: judged_some 0.3


def test_a_plausible_lie_is_refused_by_a_gate_whatever_the_judge_reads() -> None:
    capital = base("Sydney", "is", "the capital of Australia")
    quote = "Sydney is the largest city of Australia, but Canberra is the capital of Australia."
    assert "Canberra" in (why(capital, quote, 0.99) or "")
    wrong_year = base("Albert Einstein", "was born in", "1880")
    assert "lacks value 1880" in (why(wrong_year, "Albert Einstein was born in Ulm", 0.99) or "")


def test_a_name_is_carried_by_it_from_the_sentence_before_never_by_she() -> None:
    won = base("Arsenal", "won", "the FA Cup")
    before = "The 1992–93 FA Cup was the 112th season of the FA Cup. "
    assert missing_values(won, "It was won by Arsenal.", before) == []
    assert missing_values(won, "It was won by Arsenal.", "The league began. ") == ["fa cup"]
    physics = base("Marie Curie", "won", "the Nobel Prize in Physics")
    earlier = "Marie Curie won the Nobel Prize in Physics in 1903. "
    quote = "She won the Nobel Prize in Chemistry in 1911."
    assert missing_values(physics, quote, earlier) == ["physics"]


def test_the_offline_engines_own_reader_never_reads_its_supports_at_a_higher_bar() -> None:
    model = FixedEntailment(0.2)
    model.thresholds = Thresholds(supports=0.15, judged=0.3, judged_some=0.05)
    own = EntailmentReader(model, paraphrase=0.15)  # type: ignore[arg-type]
    assert (own.judged_threshold, own.judged_some_threshold) == (0.15, 0.05)


def test_the_shipped_card_holds_the_default_rules_thresholds() -> None:
    card = json.loads(CARD.read_text(encoding="utf-8"))["thresholds"]
    shipped = get_entailment("shipped")
    assert shipped is not None
    assert shipped.thresholds.judged == card["judged"]
    assert shipped.thresholds.judged_some == card["judged_some"]
    assert card["judged_some"] <= card["judged"]


def test_a_plural_class_subject_is_read_by_the_judge_and_strict_still_wants_it_written() -> None:
    firms = base("Firms", "advertise to create", "brand recognition")
    quote = "Advertising builds the recognition of a brand."
    passage = {"e": quote}
    default = check_quote(firms, Status.SUPPORTED, ["e"], quote, passage, reader=reader(0.35))
    assert default.ok  # "recognition" written, the judge at 0.35 >= judged_some 0.3
    strict = check_quote(
        firms, Status.SUPPORTED, ["e"], quote, passage, reader=reader(0.35), grounding="strict"
    )
    assert strict.reason == "quote lacks value firms"
    # A past form agrees with one name as well as with many: "Curies" stays a name.
    curies = base("Curies", "won", "the prize")
    assert missing_values(curies, "The family won the prize.") == ["curies"]
    assert missing_values(firms, "Advertising builds brands.", classes=True) == []


def test_this_is_refers_back_to_a_subject_named_before() -> None:
    album = base("Playing the Angel", "is", "an album from Depeche Mode")
    before = "In October 2005, the band released their album Playing the Angel. "
    quote = "This is the first Depeche Mode album with lyrics by Gahan."
    assert missing_values(album, quote, before) == []
    subject = list(unit_values(album).subject)  # the title as the name reader reads it
    assert subject and missing_values(album, quote, "The band toured Europe. ") == subject
    relative = "A label that is run by Depeche Mode."
    assert missing_values(album, relative, before) == subject


def test_words_spread_over_two_sentences_are_read_by_the_judge() -> None:
    """ "born in Ulm in 1879. He later moved to Munich" writes "moved", "Munich" and 1879, but
    no sentence writes a move to Munich in 1879: the window is the judge's to read, and a
    bare year in another sentence than the relation's word is no value of the relation
    whatever the judge reads."""
    moved = base("Albert Einstein", "moved to Munich in", "1879")
    quote = "Albert Einstein was born in Ulm in 1879. He later moved to Munich."
    refused = why(moved, quote, 0.2) or ""
    assert "only across sentences" in refused and "(0.20 < 0.30)" in refused, refused
    assert "in different sentences" in (why(moved, quote, 0.99) or "")
    assert written(moved, quote) == (False, True)
    # One sentence with every word and value, its subject carried by a pronoun, stands.
    went = base("Albert Einstein", "moved to", "Munich")
    assert written(went, "He later moved to Munich.", "Albert Einstein was born in Ulm.") == (
        True,
        True,
    )
    assert why(went, quote, 0.01) is None
