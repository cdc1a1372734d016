"""The hand-written set of plausible lies (benchmarks/data/plausible_lies.jsonl) and its judge.

The set measures whether a supported verdict can be trusted: every lie's evidence holds a
real sentence with the claim's words and another meaning, which an eager judge quotes.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import snowballstemmer

import triqua
from triqua.schema import Status
from triqua.testing import ScriptedChatModel
from triqua.testing.liars import Quoted, eager_quoter

DATA = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "plausible_lies.jsonl"
FRESH = DATA.with_name("plausible_lies_fresh.jsonl")
ROWS: list[dict[str, Any]] = [
    json.loads(line) for line in DATA.open(encoding="utf-8") if line.strip()
]
LIE_KINDS = {"negation", "other_clause", "other_entity", "conjunction", "namesake"}
_WORD = re.compile(r"[A-Za-z]+")
_STEMMER = snowballstemmer.stemmer("english")


def stems(text: str) -> set[str]:
    """The text's word stems, lower-cased."""
    return set(_STEMMER.stemWords([w.lower() for w in _WORD.findall(text)]))


def test_the_set_has_fifty_lies_of_five_kinds_and_fifteen_controls() -> None:
    kinds = Counter(row["kind"] for row in ROWS)
    assert sum(kinds[k] for k in LIE_KINDS) >= 50
    assert all(kinds[k] >= 10 for k in LIE_KINDS), kinds
    assert kinds["control"] >= 15 and kinds["keywords"] >= 3
    assert set(kinds) == LIE_KINDS | {"control", "keywords"}
    assert len({row["id"] for row in ROWS}) == len(ROWS)
    assert len({row["claim"] for row in ROWS}) == len(ROWS)


def test_every_row_quotes_its_evidence_and_no_lie_is_gold_supported() -> None:
    for row in ROWS:
        assert any(row["quote"] in passage for passage in row["evidence"]), row["id"]
        fact = row["fact"]
        assert all(fact[k] for k in ("subject", "relation", "object")), row["id"]
        if row["kind"] == "control":
            assert row["gold"] == "supported", row["id"]
        else:
            assert row["gold"] in {"contradicted", "insufficient"}, row["id"]


def test_each_lie_shares_its_claims_words_with_the_sentence_it_twists() -> None:
    """A plausible lie: the quoted sentence holds at least half the claim's words."""
    for row in ROWS:
        if row["kind"] == "control":
            continue
        claim = {w for w in stems(row["claim"]) if len(w) > 3}
        quoted = stems(row["quote"])
        assert len(claim & quoted) >= 0.5 * len(claim), (row["id"], claim - quoted)


def test_a_namesake_shares_the_surname_and_not_the_name() -> None:
    for row in ROWS:
        if row["kind"] == "namesake":
            subject = row["fact"]["subject"]
            surname = subject.split()[-1]
            assert surname in row["quote"] and subject not in row["quote"], row["id"]


def test_keyword_lists_stand_beside_a_real_passage() -> None:
    for row in ROWS:
        if row["kind"] == "keywords":
            assert len(row["evidence"]) == 2, row["id"]
            real = next(p for p in row["evidence"] if row["quote"] not in p)
            assert real.endswith(".") and len(real.split()) >= 8, row["id"]


@pytest.mark.slow
def test_the_eager_quoter_cites_and_quotes_the_rows_sentence() -> None:
    row = next(r for r in ROWS if r["id"] == "ctl-03")
    fact = row["fact"]
    claim = Quoted(row["claim"], fact["subject"], fact["relation"], fact["object"], row["quote"])
    model = ScriptedChatModel(responder=eager_quoter([claim]))
    report = triqua.check(
        row["claim"], documents=row["evidence"], model=model, cache=False, store=False
    )
    [record] = report.records
    assert record.fact.to_string() == f"({fact['subject']}, {fact['relation']}, {fact['object']})"
    quotes = {u.quote for u in record.verdict.unit_verdicts}
    assert quotes == {row["quote"].rstrip(".")}  # stored as cited, end stop trimmed
    assert record.verdict.status is Status.SUPPORTED  # a true paraphrase the rule keeps


def _benchmark() -> Any:
    """``benchmarks/plausible_lies.py`` loaded as a module."""
    import importlib.util

    path = DATA.parents[1] / "plausible_lies.py"
    spec = importlib.util.spec_from_file_location("plausible_lies_benchmark", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_measures_the_file_data_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--data`` swaps the set: the figures count that file's rows, not the default set's."""
    picked = [next(r for r in ROWS if r["id"] == i) for i in ("neg-02", "ctl-03")]
    data = tmp_path / "two.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in picked), encoding="utf-8")
    assert _benchmark().main(["--data", str(data), "--engine", "llm", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)["llm"]
    assert figures["lies"] == 1 and figures["controls"] == 1
    assert figures["kinds"]["negation"]["n"] == 1
    assert [row["id"] for row in figures["rows"]] == ["neg-02", "ctl-03"]


def test_the_fresh_audit_set_has_the_shape_of_the_first() -> None:
    """The audit set: 8 lies of each kind, 15 controls, quotes from their evidence, new claims."""
    fresh = [json.loads(line) for line in FRESH.open(encoding="utf-8") if line.strip()]
    kinds = Counter(row["kind"] for row in fresh)
    assert all(kinds[k] == 8 for k in LIE_KINDS) and kinds["control"] == 15, kinds
    assert len({row["id"] for row in fresh}) == len(fresh)
    assert not {row["claim"] for row in fresh} & {row["claim"] for row in ROWS}
    for row in fresh:
        assert any(row["quote"] in passage for passage in row["evidence"]), row["id"]
        assert (row["gold"] == "supported") == (row["kind"] == "control"), row["id"]
