"""A reference back, a dateline and a numbered name read where the passage names a rival.

"The bridge opened in 1937" after a sentence naming two bridges may mean either; "the
species" after "The lion is a cat species" means the lion; "TOKYO, March 3 —" is a dateline
with its date; "Windows 98" is not "Windows 95". Each reading keeps its true case.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_grounding_stated import base, reader
from triqua.core.grounding.rule import check_quote
from triqua.core.reading import mentions, rivals
from triqua.core.reading.analysis import analyse
from triqua.core.reading.clause_owners import held_by_another
from triqua.core.reading.datelines import dateline_end
from triqua.core.reading.mentions import REFERS, subject_scores
from triqua.core.reading.quote_values import missing_values
from triqua.core.reading.rivals import rivals_before
from triqua.schema import FactUnit, Status

DEV = Path(__file__).parents[1] / "benchmarks" / "data" / "plausible_lies_dev.jsonl"


def _scores(subject: str, passage: list[str]) -> list[float]:
    return subject_scores(analyse(subject), [analyse(s) for s in passage], None)


def test_the_head_noun_of_another_named_thing_is_no_reference_to_the_subject() -> None:
    passage = ["The Brooklyn Bridge is older than the Golden Gate Bridge.", "The bridge opened."]
    assert _scores("The Brooklyn Bridge", passage)[1] == 0.0
    towers = ["The Leaning Tower of Pisa draws visitors, as does the Eiffel Tower.", "The tower"]
    assert _scores("The Leaning Tower of Pisa", towers)[1] == 0.0


def test_the_subjects_own_mention_is_no_rival() -> None:
    passage = ["The Golden Gate Bridge spans the Golden Gate strait.", "The bridge opened in 1937."]
    assert _scores("The Golden Gate Bridge", passage) == [1.0, REFERS]
    wall = ["The Berlin Wall divided the city.", "The wall fell in 1989."]
    assert _scores("The Berlin Wall", wall) == [1.0, REFERS]


def test_a_class_given_to_another_is_no_reference_to_the_subject() -> None:
    passage = [
        "The snow leopard is a cat species.",
        "The lion is a cat species.",
        "The species was described in 1758.",
    ]
    assert _scores("The snow leopard", passage)[2] == 0.0
    own = ["The snow leopard is a cat species.", "The species was described in 1775."]
    assert _scores("The snow leopard", own) == [1.0, REFERS]


def test_a_dateline_may_carry_a_date() -> None:
    text = "TOKYO, March 3 — Sony reported results from its Osaka plant."
    assert text[dateline_end(text) :].startswith("Sony")
    assert dateline_end("PARIS, France — The Louvre reopened.") == len("PARIS, France — ")


def test_a_name_with_another_number_is_another_name() -> None:
    text = "Windows 95 introduced the taskbar, and Windows 98 introduced Internet Explorer 4."
    other = held_by_another(analyse("Windows 95"), analyse("Internet Explorer 4"), text)
    assert other is not None and "98" in other
    kings = "Louis XIV ruled France for 72 years, and Louis XVI married Marie Antoinette."
    assert held_by_another(analyse("Louis XIV"), analyse("Marie Antoinette"), kings)
    assert held_by_another(analyse("Louis XVI"), analyse("Marie Antoinette"), kings) is None


def _grounded(subject: str, obj: str, passage: str, quote: str) -> bool:
    """Whether the default grounding rule keeps a "supported" quoting ``quote``.

    The scripted judge entails every window, so only the rule's own reading refuses.
    """
    unit = FactUnit(kind="base", subject=subject, relation="opened in", object=obj)
    cited = {"e": passage}
    return check_quote(unit, Status.SUPPORTED, ["e"], quote, cited, reader=reader(0.95)).ok


def test_the_grounding_rule_reads_the_same_rival_bridge() -> None:
    rival = "The Brooklyn Bridge is older than the Golden Gate Bridge. The bridge opened in 1883."
    assert not _grounded("The Golden Gate Bridge", "1883", rival, "The bridge opened in 1883.")
    assert not _grounded("The Brooklyn Bridge", "1883", rival, "The bridge opened in 1883.")
    own = "The Golden Gate Bridge spans the Golden Gate strait. The bridge opened in 1937."
    assert _grounded("The Golden Gate Bridge", "1937", own, "The bridge opened in 1937.")


def test_both_engines_read_rivals_with_one_function() -> None:
    before = "The Panama Canal competes with the Suez Canal for trade between oceans. "
    assert "canal" in rivals_before("The Panama Canal", before)
    assert rivals_before("The Panama Canal", "The Panama Canal links two oceans. ") == set()
    assert mentions.rival_kinds is rivals.rival_kinds


def test_the_grounding_rule_skips_a_dateline() -> None:
    text = "TOKYO, March 3 — Sony reported results from its Osaka plant."
    assert not _grounded("Sony", "Tokyo", text, text)
    assert _grounded("Sony", "Osaka", text, text)
    assert missing_values(base("Sony", "plant is in", "Tokyo"), text) == ["tokyo"]


def test_the_dev_rows_of_rival_references_are_refused_on_the_llm_path() -> None:
    rows = [json.loads(line) for line in DEV.read_text().splitlines() if '"dev-ref-' in line]
    assert len(rows) == 6
    for row in rows:
        fact = row["fact"]
        unit = base(fact["subject"], fact["relation"], fact["object"])
        cited = {"e": row["evidence"][0]}
        outcome = check_quote(
            unit, Status.SUPPORTED, ["e"], row["quote"], cited, reader=reader(0.95)
        )
        assert not outcome.ok, row["id"]
