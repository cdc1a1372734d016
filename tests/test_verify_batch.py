"""Batched verification: one call for several facts, verdicts as fact-by-fact calls give."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import pytest

import triqua
from triqua.core.plan.element_claims import element_groups
from triqua.core.plan.evidence_sheet import build_sheet, cite
from triqua.core.plan.verify_batches import BatchItem, batches_of, pool_evidence, split_usage
from triqua.core.verdicts.scoring import label_units
from triqua.engines.llm.batch_prompt import FactAnswer
from triqua.schema import Evidence, Fact, Report, Status, Usage, sha256_text
from triqua.testing import (
    ScriptedChatModel,
    batch_prompts,
    batch_responder,
    best_quote,
    fenced,
    passages,
    shown_text,
)

from .conftest import CURIE, FRANCE, default_judgement, make_responder

NOBELS = (
    "Marie Curie, born in Warsaw in 1867, won the Nobel Prize in Physics in 1903 "
    "and the Nobel Prize in Chemistry in 1911."
)
CAPITAL = "Paris is the capital of France and the largest city of France, on the Seine."


def _fact(s: str, r: str, o: str, sentence: str, **qualifiers: str) -> dict[str, Any]:
    return {
        "subject": s,
        "relation": r,
        "object": o,
        "qualifiers": [{"label": k.replace("_", " "), "value": v} for k, v in qualifiers.items()],
        "source_sentence": sentence,
    }


TABLE: dict[str, list[dict[str, Any]]] = {
    NOBELS: [
        _fact("Marie Curie", "born in", "Warsaw", NOBELS, point_in_time="1867"),
        _fact("Marie Curie", "won", "Nobel Prize in Physics", NOBELS, point_in_time="1903"),
        _fact("Marie Curie", "won", "Nobel Prize in Chemistry", NOBELS, point_in_time="1911"),
    ],
    CAPITAL: [
        _fact("Paris", "is capital of", "France", CAPITAL),
        _fact("Paris", "is largest city of", "France", CAPITAL),
        _fact("Paris", "is on river", "Seine", CAPITAL),
    ],
    FRANCE: [
        _fact("France", "has population", "64.5 million", FRANCE, point_in_time="2026"),
    ],
    CURIE: [_fact("Marie Curie", "won", "Nobel Prize in Physics", CURIE, point_in_time="1903")],
}
DOCS = [
    "Marie Curie was born in Warsaw in 1867.",
    "Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie.",
    "Marie Curie won the Nobel Prize in Chemistry in 1911.",
    "Paris is the capital of France and its largest city.",
    "France had a population of 64.5 million in 2025, excluding overseas departments.",
]

Judge = Callable[[str, str], dict[str, Any] | str]


def _model(judge: Judge = default_judgement, batch: Judge | None = None) -> ScriptedChatModel:
    """A scripted model decomposing by :data:`TABLE`; ``batch`` answers batched calls."""
    base = make_responder(judge)

    def respond(tool: str, prompt: str) -> dict[str, Any] | str:
        if tool == "ExtractedFacts":
            text = shown_text(prompt)
            found = sorted((text.find(s), s) for s in TABLE if s in text)
            return {"facts": [f for _, s in found for f in TABLE[s]]}
        if tool == "Verdicts" and batch is not None:
            return batch(tool, prompt)
        return base(tool, prompt)

    return ScriptedChatModel(responder=respond, split_batches=batch is None)


def _verdicts(report: Report) -> list[tuple[Any, ...]]:
    """What must not change with batching: each fact's status, units, citations and quote."""
    return [
        (
            r.claim_id,
            r.verdict.status,
            [(u.unit, u.status, tuple(u.evidence_ids), u.quote) for u in r.verdict.unit_verdicts],
            tuple(r.verdict.evidence_ids),
            r.verdict.quote,
            r.verdict.wrong_components,
            r.route,
        )
        for r in report.records
    ]


def _check(text: str, model: ScriptedChatModel, batch: int, **settings: Any) -> Report:
    # Batching is measured on the facts' graphs, which route these sentences simple (no
    # re-verification calls), unless a test routes otherwise; routing by the sentence's
    # parse has its own tests.
    # Batching is measured under the strict rule: the shipped judge reads "Marie Curie won
    # Nobel Prize in Physics in 1903" as contradicted by the sentence stating it.
    settings = {"elements": "facts", "grounding": "strict", **settings}
    return triqua.check(
        text, documents=DOCS, model=model, verify_batch=batch, cache=False, **settings
    )


def _tools(model: ScriptedChatModel) -> list[str]:
    return [tool for tool, _ in model.calls]


def test_three_facts_of_one_sentence_are_judged_in_one_call() -> None:
    model = _model()
    report = _check(CAPITAL, model, 3)
    assert _tools(model).count("Verdicts") == 1
    assert _tools(model).count("Judgement") == 0
    assert [r.claim_id for r in report.records] == ["f1", "f2", "f3"]
    prompt = next(p for tool, p in model.calls if tool == "Verdicts")
    assert set(batch_prompts(prompt)) == {"F1", "F2", "F3"}
    # The call is counted once, on one record; its tokens are shared out.
    assert sum(r.usage.model_calls for r in report.records) == 1
    assert all(r.usage.input_tokens > 0 for r in report.records)


@pytest.mark.parametrize(
    "text",
    [NOBELS, CAPITAL, f"{FRANCE} {CURIE}", f"{NOBELS} {CAPITAL} {FRANCE}"],
    ids=["complex-sentence", "simple-sentence", "one-fact-sentences", "mixed"],
)
def test_verdicts_are_identical_with_and_without_batching(text: str) -> None:
    alone, batched = _model(), _model()
    one = _check(text, alone, 1)
    many = _check(text, batched, 3)
    assert _verdicts(many) == _verdicts(one)
    assert (one.spec.verdict_policy.verify_batch, many.spec.verdict_policy.verify_batch) == (1, 3)
    assert "Verdicts" not in _tools(alone)
    calls = [_tools(m).count("Judgement") + _tools(m).count("Verdicts") for m in (alone, batched)]
    assert calls[1] < calls[0]


def test_records_are_per_fact_with_their_own_evidence() -> None:
    report = _check(NOBELS, _model(), 3)
    assert len(report.records) == 3
    assert all(r.route == "complex" for r in report.records)
    for record in report.records:
        assert record.verdict.status is Status.SUPPORTED
        ids = {e.id for e in record.evidence}
        assert set(record.verdict.evidence_ids) <= ids
        passage = next(e.text for e in record.evidence if e.id == record.verdict.evidence_ids[0])
        assert record.verdict.quote and record.verdict.quote in passage


def _lying(relation: str, cite_numbers: Callable[[str], list[int]]) -> Judge:
    """A batch judge that calls the fact with ``relation`` supported, citing ``cite_numbers``."""
    honest = batch_responder(default_judgement)

    def respond(tool: str, prompt: str) -> dict[str, Any] | str:
        answer = honest(tool, prompt)
        assert isinstance(answer, dict)
        for row in answer["v"]:  # [f, s, e, c, …]
            if relation in batch_prompts(prompt)[f"F{row[0]}"]:
                row[1:3] = ["supported", cite_numbers(prompt)]
        return answer

    return respond


def _sheet_line(prompt: str, words: str) -> int:
    """The number of the sheet line holding ``words``."""
    found = re.search(rf"^(\d+) .*{re.escape(words)}", fenced(prompt, "EVIDENCE"), re.M)
    assert found, words
    return int(found.group(1))


@pytest.mark.parametrize(
    ("cited", "reason"),
    [
        (lambda prompt: [99], "s99"),  # a made-up sentence number
        (lambda prompt: [_sheet_line(prompt, "largest")], "lacks value"),  # says nothing of it
    ],
    ids=["made-up-number", "sentence-without-its-values"],
)
def test_a_bad_citation_downgrades_only_its_own_fact(
    cited: Callable[[str], list[int]], reason: str
) -> None:
    report = _check(CAPITAL, _model(batch=_lying("is on river", cited)), 3)
    by_relation = {r.fact.relation: r.verdict for r in report.records}
    river = by_relation["is on river"]
    assert river.status is Status.INSUFFICIENT
    assert river.grounding and "downgraded" in river.grounding and reason in river.grounding
    assert by_relation["is capital of"].status is Status.SUPPORTED
    assert by_relation["is largest city of"].status is Status.SUPPORTED


def test_citing_another_facts_passage_grounds_nothing() -> None:
    # Two sentences in one batch: the Paris fact cites the Curie passage, shown for the
    # Curie fact only. It is evidence of the run, but not of this fact.
    text = f"{CURIE} {CAPITAL}"
    table_model = _model(batch=_lying("is capital of", lambda p: [_sheet_line(p, "Physics")]))
    report = _check(text, table_model, 4)
    assert _tools(table_model).count("Verdicts") == 1
    by_relation = {r.fact.relation: r for r in report.records}
    paris = by_relation["is capital of"]
    assert paris.verdict.status is Status.INSUFFICIENT
    assert all("Physics" not in e.text for e in paris.evidence)
    assert by_relation["won"].verdict.status is Status.SUPPORTED
    assert by_relation["is largest city of"].verdict.status is Status.SUPPORTED


def test_a_failed_batch_is_split_into_per_fact_calls() -> None:
    def broken(tool: str, prompt: str) -> dict[str, Any] | str:
        raise RuntimeError("provider down for batches")

    model = _model(batch=broken)
    report = _check(CAPITAL, model, 3, max_output_retries=1, retry_wait=0.0)
    reference = _check(CAPITAL, _model(), 1)
    assert _tools(model).count("Verdicts") == 2  # the call and its retry
    assert _tools(model).count("Judgement") == 3  # then one call per fact
    assert _verdicts(report) == _verdicts(reference)
    assert all(r.verdict.error is None for r in report.records)
    assert sum(r.usage.model_calls for r in report.records) == 4


def test_a_fact_left_out_of_the_answer_is_judged_alone() -> None:
    def forgetful(tool: str, prompt: str) -> dict[str, Any] | str:
        answer = batch_responder(default_judgement)(tool, prompt)
        assert isinstance(answer, dict)
        answer["v"] = [row for row in answer["v"] if row[0] != 2]
        return answer

    model = _model(batch=forgetful)
    report = _check(CAPITAL, model, 3)
    assert _tools(model).count("Judgement") == 1
    assert _verdicts(report) == _verdicts(_check(CAPITAL, _model(), 1))


def test_batches_hold_at_most_verify_batch_facts() -> None:
    model = _model()
    _check(CAPITAL, model, 2)
    sizes = sorted(len(batch_prompts(p)) for tool, p in model.calls if tool == "Verdicts")
    assert sizes == [1, 2]  # a batch of one is still one compact call
    assert _tools(model).count("Judgement") == 0


def test_verify_batch_must_be_positive() -> None:
    with pytest.raises(ValueError, match="verify_batch must be >= 1"):
        _check(CAPITAL, _model(), 0)


def _passage(text: str, n: int) -> Evidence:
    return Evidence(id=f"ev-{n}", document_id=f"d{n}", text=text, content_hash=sha256_text(text))


def test_pooled_evidence_is_deduplicated_by_id_and_content() -> None:
    a, b = _passage("Alpha.", 1), _passage("Beta.", 2)
    copy = _passage("Alpha.", 3)  # another id, the same words
    fact = Fact(subject="x", relation="y", object="z")
    items = [BatchItem(fact, (a, b)), BatchItem(fact, (b, copy, a))]
    assert [e.id for e in pool_evidence(items)] == ["ev-1", "ev-2"]


def test_the_sheet_shows_each_facts_best_sentences_once_and_cites_them_verbatim() -> None:
    filler = " ".join(f"Filler sentence number {n} says nothing much." for n in range(8))
    passage = _passage(f"{filler} Marie Curie was born in Warsaw. She won in 1911.", 1)
    copy = _passage(passage.text, 2)  # another id, the same words
    born = Fact(subject="Marie Curie", relation="born in", object="Warsaw")
    won = Fact(subject="Marie Curie", relation="won", object="prize in 1911")
    sheet = build_sheet([(born, (passage,)), (won, (copy,))])
    assert [label for label, _, _ in sheet.passages] == ["A"]  # shown once
    assert sheet.fact_labels == [["A"], ["A"]]  # each fact lists its own passages
    shown = [line.text for line in sheet.lines.values()]
    assert "Marie Curie was born in Warsaw." in shown and "She won in 1911." in shown
    assert len(shown) < 10  # the filler is left out
    numbers = {line.text: line.number for line in sheet.lines.values()}
    ids, quote = cite(sheet, ["ev-2"], [numbers["Marie Curie was born in Warsaw."]])
    assert ids == ["ev-2"] and quote == "Marie Curie was born in Warsaw."
    # Adjacent cited sentences make one quote, in passage order, whatever the citing order.
    both = [numbers["She won in 1911."], numbers["Marie Curie was born in Warsaw."]]
    assert cite(sheet, ["ev-1"], both)[1] == "Marie Curie was born in Warsaw. She won in 1911."
    assert cite(sheet, ["ev-9"], both) == (["ev-1"], None)  # not this fact's passage
    assert cite(sheet, ["ev-1"], [42]) == (["s42"], None)  # no such sentence


def test_batches_pack_whole_sentences_up_to_the_size() -> None:
    def fact(sentence: str) -> Fact:
        return Fact(subject="x", relation="y", object=sentence, source_text=sentence)

    facts = [fact(s) for s in ["a", "a", "b", "c", "c", "c", "d"]]
    assert batches_of(facts, 3) == [[0, 1, 2], [3, 4, 5], [6]]
    assert batches_of(facts, 4) == [[0, 1, 2], [3, 4, 5, 6]]
    assert batches_of(facts, 2) == [[0, 1], [2], [3, 4], [5, 6]]
    assert batches_of(facts, 1) == [[i] for i in range(7)]


def test_the_default_batches_and_gives_the_per_fact_verdicts() -> None:
    text = f"{NOBELS} {CAPITAL} {FRANCE}"
    default, alone = _model(), _model()
    report = triqua.check(text, documents=DOCS, model=default, cache=False)
    defaults = triqua.Context()
    reference = _check(text, alone, 1, elements=defaults.elements, grounding=defaults.grounding)
    assert report.spec.verdict_policy.verify_batch == triqua.Context().verify_batch > 1
    assert _verdicts(report) == _verdicts(reference)
    assert 0 < _tools(default).count("Verdicts") < len(report.records) / 2
    assert "Verdicts" not in _tools(alone)


def test_split_usage_adds_up_to_the_call() -> None:
    total = Usage(model_calls=1, input_tokens=10, output_tokens=7, cached_input_tokens=3)
    shares = split_usage(total, 3)
    assert sum(shares, Usage()) == total
    assert [s.model_calls for s in shares] == [1, 0, 0]


def test_batch_prompts_split_by_fact() -> None:
    model = _model()
    report = _check(NOBELS, model, 3)
    prompt = next(p for tool, p in model.calls if tool == "Verdicts")
    singles = batch_prompts(prompt)
    assert [fenced(s, "FACT") for s in singles.values()] == [
        r.fact.to_string() for r in report.records
    ]
    assert "1867" in fenced(singles["F1"], "FACT") and "1911" in fenced(singles["F3"], "FACT")
    assert all(re.search(r"^- \(", s, re.M) for s in singles.values())  # complex: units


def test_a_rerun_answers_batches_from_the_cache() -> None:
    model = _model()
    report = triqua.check(NOBELS, documents=DOCS, model=model, verify_batch=3)
    # Another question: decomposed again (same facts), whole report not reusable.
    rerun = triqua.check(
        NOBELS, documents=DOCS, model=model, verify_batch=3, question="Who was Marie Curie?"
    )
    assert _tools(model).count("ExtractedFacts") == 2
    assert _tools(model).count("Verdicts") == 1  # the batch came from the cache
    assert "Judgement" not in _tools(model)
    assert _verdicts(rerun) == _verdicts(report)


def test_cli_verify_batch_reaches_check_and_batch(tmp_path: Any) -> None:
    import json

    from typer.testing import CliRunner

    from triqua.cli import app
    from triqua.engines.factory import register_model

    model = _model()
    name = register_model("verify-batch-cli", model)
    docs = tmp_path / "evidence.md"
    docs.write_text("\n\n".join(DOCS) + "\n", encoding="utf-8")
    runner = CliRunner()
    common = ["-m", name, "--verify-batch", "3"]
    result = runner.invoke(
        app, ["check", CAPITAL, "-e", str(docs), *common, "--json", "--no-store", "--no-cache"]
    )
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)["records"]) == 3
    assert _tools(model).count("Verdicts") == 1
    lines = tmp_path / "in.jsonl"
    line = {"id": "a", "text": CAPITAL, "evidence": ["evidence.md"]}
    lines.write_text(json.dumps(line) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["batch", str(lines), "-o", str(out), *common, "--quiet"])
    assert result.exit_code == 0, result.output
    assert _tools(model).count("Verdicts") == 2
    assert "Judgement" not in _tools(model)


def test_failure_costs_withhold_the_same_verdicts_in_batches() -> None:
    costs = {"cost_false_supported": 9.0}  # threshold 0.9: the scripted 0.8 is too unsure
    one = _check(CAPITAL, _model(), 1, **costs)
    many = _check(CAPITAL, _model(), 3, **costs)
    assert _verdicts(many) == _verdicts(one)
    assert all(r.verdict.status is not Status.SUPPORTED for r in many.records)


def test_complex_facts_still_reverify_on_their_own_after_the_batch() -> None:
    def partial(fact: str, prompt: str) -> dict[str, Any] | str:
        answer = default_judgement(fact, prompt)
        assert isinstance(answer, dict)
        if "1911" in fact:  # the judge cannot place this year: the unit stays open
            answer["status"] = "insufficient_evidence"
            for unit in answer["unit_verdicts"]:
                if "1911" in unit["unit"]:
                    unit.update(status="insufficient_evidence", quote=None)
        return answer

    alone, batched = _model(partial), _model(partial)
    one = _check(NOBELS, alone, 1)
    many = _check(NOBELS, batched, 3)
    assert _verdicts(many) == _verdicts(one)
    rounds = {r.fact.object: len(r.rounds) for r in many.records}
    assert rounds["Nobel Prize in Chemistry"] > 0  # re-verified, alone
    assert rounds["Warsaw"] == rounds["Nobel Prize in Physics"] == 0
    assert [len(r.rounds) for r in many.records] == [len(r.rounds) for r in one.records]
    # One call for the batch's facts, one for its complex facts' element claims.
    assert _tools(batched).count("Verdicts") == 2
    assert [c.text for c in many.records[0].elements] == [c.text for c in one.records[0].elements]
    assert _tools(batched).count("RefinedQueries") == _tools(alone).count("RefinedQueries")


def test_batches_are_sent_at_once_and_calls_in_flight_stay_within_max_concurrency() -> None:
    """Waiting batch members hold no call slot: two batches go out together, never three."""
    import threading
    import time

    lock, now, peak = threading.Lock(), [0], [0]

    def slow(tool: str, prompt: str) -> dict[str, Any] | str:
        with lock:
            now[0] += 1
            peak[0] = max(peak[0], now[0])
        time.sleep(0.2)
        with lock:
            now[0] -= 1
        return batch_responder(default_judgement)(tool, prompt)

    model = _model(batch=slow)
    text = f"{NOBELS} {CAPITAL} {FRANCE} {CURIE}"
    report = _check(text, model, 2, max_concurrency=2)
    sizes = [len(batch_prompts(p)) for t, p in model.calls if t == "Verdicts"]
    # Batches of 2 facts, then each batch's element claims (complex facts) in one call more.
    elements = sum(len(element_groups(r.fact)) for r in report.records if r.route == "complex")
    assert sum(sizes) == 8 + elements and sizes.count(2) >= 4
    assert peak[0] == 2  # batches overlapped, within the two slots
    assert len(report.records) == 8


def test_a_verdict_row_is_read_as_the_object_form() -> None:
    # [f, s, e, c, w, r, u], empty trailing items left off; the object form is still read.
    row = FactAnswer.model_validate(
        [2, "contradicted", 7, 0.8, "1905", "born 1907", [[2, "supported", 3]]]
    )
    assert (row.f, row.s, row.e, row.c, row.w, row.r) == (
        2,
        "contradicted",
        [7],
        0.8,
        ["1905"],
        "born 1907",
    )
    # Units are named by number: only the one differing from the fact's verdict is given.
    assert row.units(3) == [None, ("supported", [3]), None]
    short = FactAnswer.model_validate([1, "supported", [4]])
    assert (short.e, short.c, short.u) == ([4], None, [])
    old = FactAnswer.model_validate(
        {"f": 1, "s": "supported", "e": [4], "u": [[], ["supported", 5]]}
    )
    assert old.units(2) == [None, ("supported", [5])]
    assert FactAnswer.model_validate([1, "supported", [4], 0.9, [], "", [[9, "supported"]]]).units(
        2
    ) == [None, None]
    with pytest.raises(ValueError, match="verdict row"):
        FactAnswer.model_validate([1])
    with pytest.raises(ValueError):
        FactAnswer.model_validate([1, "true"])


def test_passages_with_no_sentence_shown_are_not_listed() -> None:
    fact = Fact(subject="Paris", relation="is capital of", object="France")
    texts = {"a": "Paris is the capital of France.", "b": "Bread is baked. Wine is red."}
    near, far = (
        Evidence(id=f"ev-{k}", document_id=k, text=t, content_hash=sha256_text(t))
        for k, t in texts.items()
    )
    sheet = build_sheet([(fact, (far, near))])
    assert [label for label, _, _ in sheet.passages] == ["A"]
    assert sheet.passages[0][1].id == "ev-a"
    assert sheet.fact_labels == [["A"]]


def _shown(fact: Fact, text: str) -> list[str]:
    """The sheet lines shown for ``fact`` over one passage of ``text``."""
    passage = Evidence(id="ev-1", document_id="d", text=text, content_hash=sha256_text(text))
    return [line.text for line in build_sheet([(fact, (passage,))]).lines.values()]


FILLER = " ".join(f"Filler line {n} states nothing much at all." for n in range(6))
#: The filler as a paragraph of its own: a chosen sentence's window does not reach into it.
PARAGRAPH = f"\n\n{FILLER}\n\n"


def test_the_sheet_matches_word_forms_not_spellings() -> None:
    # "founding" and "founded" share a stem; "1821" is found as a number.
    fact = Fact(subject="The club", relation="was founded in", object="1821")
    text = f"{FILLER} The club dates its founding to 1821. The club plays in red. {FILLER}"
    shown = _shown(fact, text)
    assert "The club dates its founding to 1821." in shown


def test_the_sheet_splits_no_sentence_at_an_abbreviation() -> None:
    fact = Fact(subject="Ruth Bader Ginsburg", relation="was appointed to", object="the court")
    sentence = "Ruth Bader Ginsburg was appointed to the U.S. Supreme Court by Bill Clinton."
    assert sentence in _shown(fact, f"{FILLER} {sentence} {FILLER}")


def test_a_run_on_is_shown_in_pieces() -> None:
    fact = Fact(subject="Lyon", relation="lies on", object="the Rhone")
    menu = " ".join(f"menu item {n} home page link" for n in range(20))
    run_on = f"{menu} Lyon lies on the Rhone"
    shown = _shown(fact, f"{run_on}. {FILLER}")
    assert shown and all(len(line.split()) <= 40 for line in shown)
    assert any(line.endswith("Lyon lies on the Rhone.") for line in shown)


def test_a_sentence_naming_the_subject_is_preferred() -> None:
    # The first sentence shares more of the fact's words but names someone else.
    fact = Fact(subject="Ada Lovelace", relation="wrote", object="the first program")
    text = (
        f"Babbage wrote the first program notes. {FILLER} "
        "Ada Lovelace wrote notes. Ada Lovelace wrote the first program."
    )
    shown = _shown(fact, text)
    assert "Ada Lovelace wrote the first program." in shown
    assert "Babbage wrote the first program notes." not in shown


def test_a_sentence_that_clearly_decides_is_shown_alone() -> None:
    # The best sentence states the whole fact; the next one only part of it: one place.
    fact = Fact(subject="Ada Lovelace", relation="wrote", object="the first program")
    text = f"Ada Lovelace wrote notes.{PARAGRAPH}Ada Lovelace wrote the first program."
    assert _shown(fact, text) == ["Ada Lovelace wrote the first program."]


def test_sentences_that_compete_are_all_shown() -> None:
    # Four passages each state the fact about as well: more than two places, at most four.
    fact = Fact(subject="Ada Lovelace", relation="wrote", object="the first program")
    texts = [
        "Ada Lovelace wrote the first program in 1843.",
        "In 1843 Ada Lovelace wrote what is called the first program.",
        "Ada Lovelace wrote the first computer program.",
        "Ada Lovelace is said to have written the first published program.",
        "Ada Lovelace wrote the first program for the Analytical Engine.",
    ]
    passages = tuple(_passage(f"{PARAGRAPH}{text}", n) for n, text in enumerate(texts, 1))
    shown = [line.text for line in build_sheet([(fact, passages)]).lines.values()]
    assert 2 < len(shown) <= 4
    assert not any(line.startswith("Filler") for line in shown)


def test_a_similarity_ranks_the_lexically_closest() -> None:
    # Equal by word overlap; the similarity the caller gives decides which one is shown.
    fact = Fact(subject="Marie Curie", relation="discovered", object="polonium")
    text = f"Marie Curie discovered polonium in a lab.{PARAGRAPH}Marie Curie discovered polonium."

    def similarity(query: str, texts: Sequence[str]) -> list[float]:
        return [1.0 if text.endswith("lab.") else 0.0 for text in texts]

    passage = _passage(text, 1)
    sheet = build_sheet([(fact, (passage,))], similarity=similarity)
    assert [line.text for line in sheet.lines.values()] == [
        "Marie Curie discovered polonium in a lab."
    ]


def test_a_sentence_in_two_passages_takes_one_place() -> None:
    # Two passages quote the same best sentence; the fact's second place goes to the next best.
    fact = Fact(subject="Ada Lovelace", relation="wrote", object="the first program")
    best = "Ada Lovelace wrote the first program."
    one = _passage(f"{FILLER} {best}", 1)
    two = _passage(f"{best} Ada Lovelace wrote the first published program. {FILLER}", 2)
    sheet = build_sheet([(fact, (one, two))])
    shown = [line.text for line in sheet.lines.values()]
    assert shown.count(best) == 1 and "Ada Lovelace wrote the first published program." in shown


def test_the_best_sentences_are_shown_with_their_windows() -> None:
    # The best sentence is shown with the sentence either side of it, as the verifier reads
    # a window of a sentence and its neighbour; no window reaches across a blank line.
    fact = Fact(subject="Ada Lovelace", relation="wrote", object="the first program")
    best = "Ada Lovelace wrote the first program."
    before, after = "Babbage built the engine.", "Menabrea described the machine."
    shown = _shown(fact, f"{FILLER} {before} {best} {after} {FILLER}")
    assert shown == [before, best, after]
    alone = f"The notes were long.\n\n{best}\n\nThe engine was big."
    assert _shown(fact, alone) == [best]


@pytest.mark.parametrize(
    ("fact", "first", "second"),
    [
        # A chosen sentence that refers back comes with the one before, naming the subject.
        (
            Fact(subject="Marie Curie", relation="won", object="the Nobel Prize in Chemistry"),
            "Marie Curie moved to Paris in 1891.",
            "She won the Nobel Prize in Chemistry in 1911.",
        ),
        # A sentence continuing a chosen one ("It ..." right after it) is shown too.
        (
            Fact(subject="The Eiffel Tower", relation="was completed in", object="1889"),
            "The Eiffel Tower was completed in 1889.",
            "It was the tallest structure in the world.",
        ),
    ],
)
def test_a_sentence_that_refers_back_is_shown_with_its_antecedent(
    fact: Fact, first: str, second: str
) -> None:
    # A rival sentence outranks the other of the two, so that it is shown for the chosen
    # one's sake only: the similarity ranks the sentence stating the object first, the rival
    # next, the others last.
    rival = f"{fact.subject} was {fact.relation} {fact.object} in a story, a film says."
    text = f"{rival}{PARAGRAPH}{first} {second}{PARAGRAPH}"

    def similarity(query: str, texts: Sequence[str]) -> list[float]:
        return [0.9 if t == rival else float(fact.object in t) for t in texts]

    passage = Evidence(id="ev-1", document_id="d", text=text, content_hash=sha256_text(text))
    sheet = build_sheet([(fact, (passage,))], similarity=similarity)
    shown = [line.text for line in sheet.lines.values()]
    assert first in shown and second in shown
    assert not any(line.startswith("Filler") for line in shown)


def _year_unstated(fact: str, prompt: str) -> dict[str, Any] | str:
    """A judge that finds the France fact's base stated and its year nowhere."""
    if "France" not in fact:
        return default_judgement(fact, prompt)
    ids = re.findall(r"<<<EVIDENCE id=(ev-[0-9a-f]+)>>>", prompt)
    passage = passages(prompt)[ids[0]]
    base, year = re.findall(r"^- (\(.*\))$", prompt, flags=re.M)
    return {
        "status": "insufficient_evidence",
        "wrong_components": [year],
        "error_spans": ["2026"],
        "rationale": "no sentence gives the year",
        "unit_verdicts": [
            {
                "unit": base,
                "status": "supported",
                "evidence_ids": ids[:1],
                "quote": best_quote(passage, base),
            },
            {"unit": year, "status": "insufficient_evidence"},
        ],
    }


@pytest.mark.slow
def test_an_insufficient_fact_is_localised_batched_as_one_fact_per_call() -> None:
    # The base is stated and only the year is not: the fact is insufficient, and its base
    # still counts as checked whether it is judged alone or in a batch.
    documents = ["France has a population of 64.5 million, excluding overseas departments."]
    reports = [
        triqua.check(
            f"{FRANCE} {CAPITAL}",
            documents=documents,
            model=_model(judge=_year_unstated),
            verify_batch=batch,
            cache=False,
        )
        for batch in (1, 4)
    ]
    assert _verdicts(reports[0]) == _verdicts(reports[1])
    france = [r for r in reports[1].records if r.fact.subject == "France"]
    assert [r.verdict.status for r in france] == [Status.INSUFFICIENT]
    for report in reports:
        (record,) = [r for r in report.records if r.fact.subject == "France"]
        units = [(u.kind, s) for u, s in label_units(record.fact, record.verdict)]
        assert units == [("base", Status.SUPPORTED), ("qualifier", Status.INSUFFICIENT)]
    assert reports[0].scores.triqua_score == reports[1].scores.triqua_score


def test_a_batched_record_lists_the_sentences_its_judge_was_shown() -> None:
    report = _check(f"{NOBELS} {CAPITAL}", _model(), 8)
    for record in report.records:
        shown = record.verdict.shown
        assert shown, record.claim_id
        texts = {e.id: e.text for e in record.evidence}
        # Sentences of the fact's own passages only, each a whole sentence of its passage.
        assert {s.evidence_id for s in shown} <= set(texts)
        for s in shown:
            sentence = texts[s.evidence_id][s.start : s.end]
            assert sentence and sentence == sentence.strip()
        if record.verdict.quote:
            assert any(
                texts[s.evidence_id][s.start : s.end].rstrip(".") in record.verdict.quote
                for s in shown
            )
    alone = _check(CAPITAL, _model(), 1)
    assert all(r.verdict.shown is None for r in alone.records)  # whole passages were shown
