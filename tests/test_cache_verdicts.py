"""A run's verdicts do not depend on the answer cache: cached, served and uncached runs agree.

The cache keeps the judge's raw answer; the grounding rule then reads each supported unit's
quote with the judge's reader (the entailment judge). A cached judge that hid its reader left
the rule reading words only, so paraphrases the reader accepts were downgraded with the cache
on and kept with it off.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import triqua
from triqua.cli import app
from triqua.engines.factory import register_model
from triqua.engines.llm.engine import LLMJudge
from triqua.engines.second_opinion import SecondOpinionJudge
from triqua.runtime.caches.cached_engines import CachedJudge
from triqua.runtime.caches.call_cache import ResultCache
from triqua.schema import Report
from triqua.testing import ScriptedChatModel
from triqua.testing.liars import Quoted, eager_quoter

from .test_offline_judge import FixedEntailment

# Each claim sentence, its fact, and the evidence sentence an eager judge quotes for it: true
# paraphrases whose words the quote does not all state (only a reader of meaning keeps
# them), a plain restatement, and a lie about another entity.
CLAIMS = [
    Quoted(
        "Ada Lovelace wrote the first published computer program.",
        *("Ada Lovelace", "wrote", "the first published computer program"),
        "Ada Lovelace published what is regarded as the earliest algorithm meant for a machine.",
    ),
    Quoted(
        "The Danube flows into the Black Sea.",
        *("The Danube", "flows into", "the Black Sea"),
        "The Danube empties into the Black Sea through a wide delta in Romania.",
    ),
    Quoted(
        "Mount Kilimanjaro is the highest mountain in Africa.",
        *("Mount Kilimanjaro", "is", "the highest mountain in Africa"),
        "No peak on the African continent rises above Mount Kilimanjaro.",
    ),
    Quoted(
        "Penicillin was discovered by Alexander Fleming.",
        *("Penicillin", "was discovered by", "Alexander Fleming"),
        "Alexander Fleming discovered penicillin in 1928 at St Mary's Hospital.",
    ),
    Quoted(
        "Canberra is the largest city of Australia.",
        *("Canberra", "is", "the largest city of Australia"),
        "Sydney is the largest city of Australia, but Canberra is its capital.",
    ),
]
TEXT = " ".join(claim.sentence for claim in CLAIMS)
DOCUMENTS = [claim.quote for claim in CLAIMS]


def unit_verdicts(report: Report) -> dict[str, tuple[str, str | None]]:
    """Each unit's status and grounding note, keyed by fact and unit."""
    return {
        f"{record.fact.to_string()} :: {unit.unit}": (unit.status.value, unit.grounding)
        for record in report.records
        for unit in record.verdict.unit_verdicts
    }


def three_runs(tmp_path: Path, **settings: Any) -> list[dict[str, tuple[str, str | None]]]:
    """The unit verdicts of a first cached run, a run served from its cache, and no cache."""
    path = str(tmp_path / "answers.sqlite")
    runs = [
        triqua.check(TEXT, documents=DOCUMENTS, cache_path=path, store=False, **settings),
        triqua.check(TEXT, documents=DOCUMENTS, cache_path=path, store=False, **settings),
        triqua.check(TEXT, documents=DOCUMENTS, cache=False, store=False, **settings),
    ]
    return [unit_verdicts(report) for report in runs]


@pytest.mark.slow
@pytest.mark.parametrize("batch", ["1", "8"], ids=["per-fact", "batched"])
def test_an_llm_judge_gives_the_same_unit_verdicts_with_and_without_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, batch: str
) -> None:
    monkeypatch.setenv("TRIQUA_VERIFY_BATCH", batch)
    model = ScriptedChatModel(responder=eager_quoter(CLAIMS))
    first, served, uncached = three_runs(tmp_path, model=model, routing="always_element")
    assert len(first) >= len(CLAIMS)
    assert first == uncached, "the cache changed a verdict"
    assert served == uncached, "an answer served from the cache changed a verdict"
    # The rule read meaning in every run: a paraphrase whose words its quote does not all
    # state stands (with the reader hidden, every one of them was downgraded).
    paraphrases = ("(Ada Lovelace,", "(The Danube,", "(Mount Kilimanjaro,")
    assert any(
        status == "supported" and key.startswith(paraphrases)
        for key, (status, _) in uncached.items()
    )


def test_cli_check_and_check_no_cache_give_the_same_unit_verdicts(tmp_path: Path) -> None:
    name = register_model("eager-quoter", ScriptedChatModel(responder=eager_quoter(CLAIMS)))
    evidence = tmp_path / "evidence.md"
    evidence.write_text("\n\n".join(DOCUMENTS), encoding="utf-8")
    args = ["check", TEXT, "-e", str(evidence), "-m", name, "--json"]
    runs = []
    for extra in ([], [], ["--no-cache"]):  # a first run, one served from the cache, none
        result = CliRunner().invoke(app, args + extra)
        assert result.exit_code in (0, 1), result.output  # 1: a claim is not supported
        runs.append(unit_verdicts(Report.model_validate_json(result.stdout)))
    assert runs[0] and runs[0] == runs[1] == runs[2]


def test_the_offline_engine_gives_the_same_unit_verdicts_with_and_without_the_cache(
    tmp_path: Path,
) -> None:
    first, served, uncached = three_runs(tmp_path)
    assert first and first == served == uncached


def test_the_cached_judge_carries_the_reader_and_second_opinion_of_the_judge_it_wraps(
    tmp_path: Path,
) -> None:
    model = ScriptedChatModel(responder=eager_quoter(CLAIMS))
    inner = SecondOpinionJudge(LLMJudge(model), "shipped", model=FixedEntailment(0.9))  # type: ignore[arg-type]
    cached = CachedJudge(inner, ResultCache(tmp_path / "c.sqlite"), "m")
    assert cached.reader is not None
    assert cached.reader.revision == inner.reader.revision  # type: ignore[union-attr]
    assert cached.second_opinion == inner.second_opinion
