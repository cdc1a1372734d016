"""The default grounding rule (the judge reads the cited window, value gates veto) and strict."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.conftest import CURIE, FRANCE
from tests.test_offline_judge import FixedEntailment
from triqua.cli import app
from triqua.context import Context, GroundingMode
from triqua.core.grounding.judged import cited_windows, names_subject
from triqua.core.grounding.rule import DEFAULT_GROUNDING, check_quote
from triqua.engines.factory import register_model
from triqua.engines.second_opinion import EntailmentReader
from triqua.models import entailment
from triqua.models.entailment import Thresholds, get_entailment
from triqua.schema import FactUnit, Status

CARD = Path(entailment.__file__).parent / "data" / "entailment.json"
runner = CliRunner()

PASSAGE = (
    "Albert Einstein was born in Ulm in 1879. He later moved to Munich.\n\n"
    "Sydney is the largest city of Australia, but Canberra is the capital of Australia. "
    "Rosa Lind won the Nobel Prize in Physics in 1903. Rosa Lind won the Nobel Prize in "
    "Chemistry in 1911. Acme is one of the largest makers of lenses. Acme is not a bakery."
)


def base(subject: str, relation: str, obj: str) -> FactUnit:
    return FactUnit(kind="base", subject=subject, relation=relation, object=obj)


def reason(
    unit: FactUnit, quote: str, entailed: float, grounding: GroundingMode = "judge"
) -> str | None:
    """Why a "supported" citing ``quote`` is downgraded with a judge answering ``entailed``."""
    model = FixedEntailment(entailed)
    # The strict rule's paraphrase bar (the card's entailed) above the grounding one, as
    # the shipped card has them.
    model.thresholds = Thresholds(entailed=0.8, veto=0.2, grounding=0.5)
    reader = EntailmentReader(model)  # type: ignore[arg-type]
    outcome = check_quote(
        unit, Status.SUPPORTED, ["e"], quote, {"e": PASSAGE}, reader=reader, grounding=grounding
    )
    return None if outcome.ok else outcome.reason


def test_default_supports_a_paraphrase_the_strict_rule_downgrades() -> None:
    hails = base("Albert Einstein", "hails from", "Ulm")
    quote = "Albert Einstein was born in Ulm"
    assert reason(hails, quote, 0.6) is None  # the judge entails it at the card's 0.5
    strict = reason(hails, quote, 0.6, "strict") or ""
    assert "does not state 'hails'" in strict and "(0.60 < 0.80)" in strict
    # Below the card's grounding threshold the default rule downgrades it, naming the bar.
    assert "not entailing it (0.40 < 0.50)" in (reason(hails, quote, 0.4) or "")


@pytest.mark.parametrize("grounding", ["judge", "strict"])
@pytest.mark.parametrize(
    ("unit", "quote", "why"),
    [
        (FactUnit(kind="qualifier", subject="Albert Einstein", relation="was born in",
                  object="Ulm", label="point in time", value="1880"),
         "Albert Einstein was born in Ulm in 1879", "lacks value 1880"),
        (base("Marie Einstein", "was born in", "Ulm"), "Albert Einstein was born in Ulm",
         "lacks value marie einstein"),
        (base("Acme", "is", "the largest maker of lenses"),
         "Acme is one of the largest makers of lenses", "restricts it: 'one of the largest'"),
    ],
)  # fmt: skip
def test_a_lie_a_gate_catches_is_not_supported_in_both_modes(
    unit: FactUnit, quote: str, why: str, grounding: GroundingMode
) -> None:
    # The judge is fooled (0.99); the value gate is not.
    assert why in (reason(unit, quote, 0.99, grounding) or "")


@pytest.mark.parametrize(
    ("unit", "quote", "why"),
    [
        (base("Sydney", "is", "the capital of Australia"),
         "Sydney is the largest city of Australia, but Canberra is the capital of Australia",
         "gives the role to 'Canberra'"),
        (FactUnit(kind="qualifier", subject="Rosa Lind", relation="won",
                  object="the Nobel Prize in Physics", label="point in time", value="1911"),
         "Rosa Lind won the Nobel Prize in Physics in 1903. Rosa Lind won the Nobel Prize in "
         "Chemistry in 1911", "gives 1911 to another event"),
        (base("Acme", "is", "a bakery"), "Acme is not a bakery", "negates it: 'not a bakery'"),
    ],
)  # fmt: skip
def test_gates_veto_what_a_fooled_judge_entails(unit: FactUnit, quote: str, why: str) -> None:
    assert why in (reason(unit, quote, 0.99) or "")


def test_a_gate_never_supports_what_the_judge_does_not_entail() -> None:
    unit = base("Sydney", "is", "the largest city of Australia")
    quote = "Sydney is the largest city of Australia"
    assert reason(unit, quote, 0.99) is None
    assert "not entailing" in (reason(unit, quote, 0.01) or "")


def test_quote_checks_stay_in_both_modes() -> None:
    unit = base("Albert Einstein", "was born in", "Ulm")
    reader = EntailmentReader(FixedEntailment(0.99))  # type: ignore[arg-type]
    for grounding in ("judge", "strict"):
        unknown = check_quote(
            unit, Status.SUPPORTED, ["x"], "born in Ulm", {"e": PASSAGE},
            reader=reader, grounding=grounding,  # type: ignore[arg-type]
        )  # fmt: skip
        assert unknown.reason == "cited id x is not evidence of this run"
        made_up = check_quote(
            unit, Status.SUPPORTED, ["e"], "Einstein was born in Bern", {"e": PASSAGE},
            reader=reader, grounding=grounding,  # type: ignore[arg-type]
        )  # fmt: skip
        assert made_up.reason == "quote not found in e"


def test_windows_are_one_to_three_sentences_within_a_paragraph() -> None:
    start = PASSAGE.index("He later")
    end = PASSAGE.index("Acme is one")
    windows = cited_windows(PASSAGE, (start, end))
    texts = [PASSAGE[a:b] for (a, b), _ in windows]
    # The blank line cuts the quote; the second paragraph's three sentences are one window.
    assert texts[0] == "He later moved to Munich."
    assert texts[1].startswith("Sydney is") and texts[1].endswith("Chemistry in 1911.")
    assert len(texts) == 2
    # "He" names no one: the sentence before it in its paragraph is read with it.
    assert windows[0][1] is not None and PASSAGE[slice(*windows[0][1])].startswith("Albert")


def test_the_pronoun_window_is_read_with_the_sentence_naming_the_subject() -> None:
    unit = base("Albert Einstein", "moved to", "Munich")
    model = FixedEntailment(0.99)
    reader = EntailmentReader(model)  # type: ignore[arg-type]
    assert check_quote(
        unit,
        Status.SUPPORTED,
        ["e"],
        "He later moved to Munich",
        {"e": PASSAGE},
        reader=reader,
        grounding="judge",
    ).ok
    premises = {premise for premise, _ in model.asked}
    assert "Albert Einstein was born in Ulm in 1879. He later moved to Munich." in premises


def test_the_grounding_threshold_comes_from_the_card() -> None:
    assert Thresholds().grounding == 0.5  # a card without the key
    model = FixedEntailment(0.6)
    model.thresholds = Thresholds(entailed=0.5, veto=0.2, grounding=0.7)
    assert EntailmentReader(model).grounding_threshold == 0.7  # type: ignore[arg-type]
    card = json.loads(CARD.read_text(encoding="utf-8"))
    shipped = get_entailment("shipped")
    assert shipped is not None
    assert shipped.thresholds.grounding == card["thresholds"]["grounding"]


def test_the_setting_is_validated_and_read_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert Context().grounding == "judged" == DEFAULT_GROUNDING  # settle's default agrees
    monkeypatch.setenv("TRIQUA_GROUNDING", "judge")
    assert Context().grounding == "judge"
    monkeypatch.setenv("TRIQUA_GROUNDING", "strict")
    assert Context().grounding == "strict"
    with pytest.raises(ValueError, match="grounding must be one of judged, judge, strict"):
        Context(grounding="loose").validate()  # type: ignore[arg-type]


@pytest.mark.slow
def test_the_strict_rule_reproduces_the_rule_and_the_report_says_which(
    scripted: Any, evidence: Path
) -> None:
    model_name = register_model("grounding-cli", scripted())
    args = ["check", f"{FRANCE} {CURIE}", "-e", str(evidence), "-m", model_name, "--json"]
    strict = runner.invoke(app, [*args, "--grounding", "strict"])
    assert strict.exit_code == 0, strict.output
    report = json.loads(strict.stdout)
    # As before the default changed (tests/test_cli.py's report, under the strict rule).
    assert [r["verdict"]["status"] for r in report["records"]] == ["contradicted", "supported"]
    assert report["spec"]["grounding"] == "strict"
    default = runner.invoke(app, args)
    assert default.exit_code == 0, default.output
    assert json.loads(default.stdout)["spec"]["grounding"] == "judged"
    judged = runner.invoke(app, [*args, "--grounding", "judge"])
    assert judged.exit_code == 0, judged.output
    assert json.loads(judged.stdout)["spec"]["grounding"] == "judge"
    bad = runner.invoke(app, [*args, "--grounding", "loose"])
    assert bad.exit_code != 0 and "--grounding must be judged, judge or strict" in bad.output


class _ReadsWhoIsMeant:
    """Entails a unit only from text that names its subject whole ("Ilse Marek")."""

    revision = "reads-names"
    threshold = paraphrase_threshold = grounding_threshold = 0.5
    judged_threshold = judged_some_threshold = 0.5

    def entailment(self, premises: Sequence[str], unit: FactUnit, source: str) -> float:
        return 0.9 if any(unit.subject in p for p in premises) else 0.05


@pytest.mark.parametrize("rule", ["judged", "judge"])
def test_a_thing_named_after_the_subject_does_not_name_it(rule: GroundingMode) -> None:
    """ "Marek Tower" names a building: the window is read with the sentence that names her."""
    passage = (
        "Ilse Marek built offices in Vienna. "
        "In 2015 the developer announced her candidacy in a speech at Marek Tower."
    )
    quote = passage.split(". ", 1)[1]
    unit = base("Ilse Marek", "announced", "her candidacy")
    outcome = check_quote(
        unit, Status.SUPPORTED, ["e"], quote, {"e": passage}, reader=_ReadsWhoIsMeant(),
        grounding=rule,
    )  # fmt: skip
    assert outcome.ok, outcome.reason
    assert names_subject(unit, "Marek was a developer.")
    assert not names_subject(unit, quote)
