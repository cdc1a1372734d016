"""The offline verifier's one decision path: the judge reads, the value gates take back.

A scripted judge answers by (premise, hypothesis), so each test shows which window the
verdict rests on: the judge's entailment supports, its contradiction contradicts (at the
card's thresholds), a rival value the rules read contradicts whatever the judge says, and
a window that fails a gate never supports.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from triqua.core.verdicts.settling import settle
from triqua.engines.offline.verify.verifier import AlignmentVerifier
from triqua.models.entailment import Thresholds
from triqua.models.reader import EntailmentReader
from triqua.schema import Evidence, Fact, Qualifier, Status

Answer = Callable[[str, str], tuple[float, float]]


class ScriptedJudge:
    """A judge whose (entailed, contradicted) probabilities come from a function of the pair."""

    def __init__(self, answer: Answer, *, contradicted: float = 0.9) -> None:
        self.answer = answer
        self.revision = "scripted"
        self.thresholds = Thresholds(entailed=0.5, veto=0.2, contradicted=contradicted)
        self.asked: list[tuple[str, str]] = []

    def predict(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        self.asked += list(pairs)
        rows = []
        for premise, hypothesis in pairs:
            entailed, contradicted = self.answer(premise, hypothesis)
            rows.append([entailed, 1.0 - entailed - contradicted, contradicted])
        return np.array(rows, np.float32)


def ev(text: str, doc: str = "doc") -> Evidence:
    return Evidence.build(document_id=doc, text=text, retriever="supplied")


def verifier(answer: Answer, **kwargs: float) -> AlignmentVerifier:
    return AlignmentVerifier(entailment=ScriptedJudge(answer, **kwargs))  # type: ignore[arg-type]


def test_the_judge_contradicts_at_its_threshold() -> None:
    judged = verifier(lambda p, h: (0.01, 0.97) if "Rome" in h and "Paris" in p else (0.5, 0.0))
    fact = Fact(subject="The Eiffel Tower", relation="is in", object="Rome")
    verdict = judged.verify(fact, [ev("The Eiffel Tower is in Paris.")])
    assert verdict.status == Status.CONTRADICTED
    assert "contradicted by the judge 0.97" in verdict.rationale
    assert verdict.quote == "The Eiffel Tower is in Paris."


def test_below_its_contradiction_threshold_the_judge_leaves_the_fact_open() -> None:
    judged = verifier(lambda p, h: (0.01, 0.97), contradicted=0.99)
    fact = Fact(subject="The Eiffel Tower", relation="is in", object="Rome")
    assert judged.verify(fact, [ev("The Eiffel Tower is in Paris.")]).status == Status.INSUFFICIENT


def test_a_contradicting_passage_outweighs_an_entailing_keyword_list() -> None:
    keywords = "Sydney capital Australia. Sydney is the capital of Australia."
    real = "Canberra, not Sydney, is the capital of Australia."

    def answer(premise: str, hypothesis: str) -> tuple[float, float]:
        return (0.01, 0.95) if "Canberra" in premise else (0.99, 0.0)

    fact = Fact(subject="Sydney", relation="is", object="the capital of Australia")
    verdict = verifier(answer).verify(fact, [ev(keywords, "planted"), ev(real, "atlas")])
    assert verdict.status != Status.SUPPORTED


def test_the_judge_supports_a_paraphrase_without_the_facts_words() -> None:
    fact = Fact(subject="Sinking sand", relation="becomes", object="liquid when shaken")
    text = "Quicksand turns into a fluid once it is disturbed by vibration."
    judged = verifier(lambda p, h: (0.93, 0.01) if "Quicksand" in p else (0.0, 0.0))
    verdict = judged.verify(fact, [ev(text)])
    assert verdict.status == Status.SUPPORTED
    assert verdict.quote == text


def test_the_judge_takes_back_a_support_the_rules_read() -> None:
    fact = Fact(subject="Tomas Wren", relation="was born in", object="Lisbon")
    text = "Tomas Wren was born in Lisbon in 1950."
    assert verifier(lambda p, h: (0.3, 0.1)).verify(fact, [ev(text)]).status == Status.SUPPORTED
    verdict = verifier(lambda p, h: (0.02, 0.95)).verify(fact, [ev(text)])
    assert verdict.status == Status.CONTRADICTED
    assert "contradicted by the judge 0.95" in verdict.rationale


def test_a_rival_value_contradicts_whatever_the_judge_entails() -> None:
    judged = verifier(lambda p, h: (0.99, 0.0))
    fact = Fact(subject="Water", relation="boils at", object="90 degrees Celsius")
    verdict = judged.verify(fact, [ev("At sea level, water boils at 100 degrees Celsius.")])
    assert verdict.status == Status.CONTRADICTED


def test_a_named_subject_must_be_named_in_the_window() -> None:
    judged = verifier(lambda p, h: (0.99, 0.0))
    fact = Fact(subject="Alan Turing", relation="worked at", object="Bletchley Park")
    text = "Alan Turing was born in London.\n\nJames Turing worked at Bletchley Park."
    assert judged.verify(fact, [ev(text)]).status != Status.SUPPORTED


def test_an_untitled_pronoun_supports_no_subject_it_does_not_fit_nor_from_inside_a_text() -> None:
    # "She also starred in …" names no one. Opening an excerpt it may be the subject's
    # (tests/test_orphans.py), but never a man's, and never when it is a chunk cut from
    # inside a longer text (offset past 0), whatever the judge entails.
    judged = verifier(lambda p, h: (0.99, 0.0))
    text = "She also starred in the films Old Dogs and Broken Bridges."
    for subject, start in (("Kelly Preston", 250), ("Isaac Newton", 250), ("Isaac Newton", None)):
        fact = Fact(
            subject=subject,
            relation="starred in",
            object="Broken Bridges",
            source_text=f"{subject} starred in Broken Bridges.",
        )
        evidence = [Evidence.build(document_id="doc", text=text, retriever="supplied", start=start)]
        verdict = judged.verify(fact, evidence)
        assert settle(fact, verdict, evidence).status != Status.SUPPORTED


def test_an_opening_pronoun_is_not_the_subject_when_a_name_says_whose_it_is() -> None:
    judged = verifier(lambda p, h: (0.95, 0.0) if "Broken Bridges" in p else (0.0, 0.0))
    fact = Fact(subject="Kelly Preston", relation="starred in", object="Broken Bridges")
    text = "She also starred in the films Old Dogs and Broken Bridges."
    titled = Evidence.build(document_id="doc", text=text, retriever="supplied", title="Toni Law")
    assert judged.verify(fact, [titled]).status != Status.SUPPORTED
    after = ev("Toni Law is an actress. She also starred in the films Old Dogs and Broken Bridges.")
    assert judged.verify(fact, [after]).status != Status.SUPPORTED
    # A sentence opening with another name is that one's, whatever the judge entails.
    capital = Fact(subject="Sydney", relation="is", object="the capital of Australia")
    entailing = verifier(lambda p, h: (0.99, 0.0))
    verdict = entailing.verify(capital, [ev("Canberra is the capital of Australia.")])
    assert verdict.status != Status.SUPPORTED


def test_a_dated_qualifier_is_the_rules_to_bind_and_the_judges_to_veto() -> None:
    fact = Fact(
        subject="Marie Curie",
        relation="won",
        object="the Nobel Prize in Physics",
        qualifiers=[Qualifier(label="point in time", value="1903")],
    )
    text = "Marie Curie won the Nobel Prize in Physics in 1903."
    supported = verifier(lambda p, h: (0.95, 0.0)).verify(fact, [ev(text)])
    assert [u.status for u in supported.unit_verdicts] == [Status.SUPPORTED, Status.SUPPORTED]
    vetoed = verifier(lambda p, h: (0.95, 0.0) if "1903" not in h else (0.02, 0.95))
    verdict = vetoed.verify(fact, [ev(text)])
    assert verdict.unit_verdicts[1].status != Status.SUPPORTED


def settled(judged: AlignmentVerifier, fact: Fact, evidence: list[Evidence]) -> Status:
    """The fact's status as a run settles it: the verifier's, read by the grounding rule."""
    model = judged.entailment
    assert model is not None
    reader = EntailmentReader(model, paraphrase=model.thresholds.supports)
    return settle(fact, judged.verify(fact, evidence), evidence, reader=reader).status


def test_a_sentence_that_gives_the_object_to_another_name_never_supports() -> None:
    eager = verifier(lambda p, h: (0.99, 0.0))
    fact = Fact(subject="Sydney", relation="is", object="the capital of Australia")
    text = "Sydney is the largest city of Australia, but Canberra is the capital of Australia."
    assert settled(eager, fact, [ev(text)]) != Status.SUPPORTED
    own = "Canberra is the capital of Australia, and Sydney is its largest city."
    capital = Fact(subject="Canberra", relation="is", object="the capital of Australia")
    assert settled(eager, capital, [ev(own)]) == Status.SUPPORTED


def test_a_qualifier_the_rules_state_stands_unless_the_judge_contradicts_it() -> None:
    fact = Fact(
        subject="Alan Turing",
        relation="worked at",
        object="Bletchley Park",
        qualifiers=[Qualifier(label="together with", value="Gordon Welchman")],
    )
    text = "Alan Turing worked at Bletchley Park with Gordon Welchman."
    unsure = verifier(lambda p, h: (0.95, 0.0) if "Welchman" not in h else (0.1, 0.0))
    statuses = [u.status for u in unsure.verify(fact, [ev(text)]).unit_verdicts]
    assert statuses == [Status.SUPPORTED, Status.SUPPORTED]
    denying = verifier(lambda p, h: (0.95, 0.0) if "Welchman" not in h else (0.02, 0.95))
    statuses = [u.status for u in denying.verify(fact, [ev(text)]).unit_verdicts]
    assert statuses[0] == Status.SUPPORTED and statuses[1] != Status.SUPPORTED


def test_a_fact_that_lost_its_object_is_read_as_its_source_sentence() -> None:
    # "T2 Trainspotting | is set |" says next to nothing: the judge entails it from any
    # sentence about the film. Its source sentence is what the claim states.
    judged = verifier(lambda p, h: (0.9, 0.0) if h == "T2 Trainspotting is set." else (0.1, 0.0))
    claim = "T2 Trainspotting is set in and around a river."
    fact = Fact(subject="T2 Trainspotting", relation="is set", object="", source_text=claim)
    evidence = [ev("T2 Trainspotting is a 2017 British comedy drama film, set in Edinburgh.")]
    assert judged.verify(fact, evidence).status != Status.SUPPORTED
    asked = {h for _, h in judged.entailment.asked}  # type: ignore[union-attr]
    assert asked == {claim}


def test_another_word_in_the_objects_head_slot_needs_the_judge_sure() -> None:
    # "… comedy drama film" for "… comedy drama book": the window writes the object's
    # lead-in and ends it on another word. Neither the card's low ``supports`` (0.3) nor its
    # ``entailed`` (0.6) is enough; a synonym the judge is as sure of as the card's
    # ``rival`` asks ("championships" for "titles") still is.
    def judge(entailed: float, rival: float = 0.9) -> AlignmentVerifier:
        judged = verifier(lambda p, h: (entailed, 0.0))
        judged.entailment.thresholds = Thresholds(  # type: ignore[union-attr,misc]
            entailed=0.56, veto=0.2, supports=0.2, rival=rival
        )
        return judged

    fact = Fact(subject="T2 Trainspotting", relation="is", object="a British comedy drama book")
    evidence = [ev("T2 Trainspotting is a British comedy drama film, set in Edinburgh.")]
    assert judge(0.3).verify(fact, evidence).status != Status.SUPPORTED
    assert judge(0.6).verify(fact, evidence).status != Status.SUPPORTED
    assert judge(0.95).verify(fact, evidence).status == Status.SUPPORTED
    # A card with no ``rival`` makes the rival head word a gate the judge never outweighs.
    assert judge(0.99, rival=1.01).verify(fact, evidence).status != Status.SUPPORTED
    # Without a rival head word the card's ``supports`` is what it needs.
    plain = [ev("T2 Trainspotting is a British comedy drama book, set in Edinburgh.")]
    assert judge(0.3).verify(fact, plain).status == Status.SUPPORTED


def test_a_lost_objects_words_are_read_from_its_sentence_for_a_rival() -> None:
    # "Humphrey Bogart | was ranked |": the sentence says "worst", the window "greatest".
    def judge(entailed: float) -> AlignmentVerifier:
        judged = verifier(lambda p, h: (entailed, 0.0))
        judged.entailment.thresholds = Thresholds(  # type: ignore[union-attr,misc]
            entailed=0.56, veto=0.2, supports=0.2, rival=0.9
        )
        return judged

    claim = "Humphrey Bogart was ranked worst male star of Classic American cinema."
    fact = Fact(subject="Humphrey Bogart", relation="was ranked", object="", source_text=claim)
    window = "In 1999, the American Film Institute ranked Bogart as the {} male star of Classic"
    evidence = [ev(window.format("greatest") + " American cinema.")]
    assert judge(0.3).verify(fact, evidence).status != Status.SUPPORTED
    assert judge(0.6).verify(fact, evidence).status != Status.SUPPORTED
    assert judge(0.95).verify(fact, evidence).status == Status.SUPPORTED
    stated = [ev(window.format("worst") + " American cinema.")]
    assert judge(0.3).verify(fact, stated).status == Status.SUPPORTED


def test_a_window_rewording_relation_and_object_needs_a_judge_as_sure_as_a_rival() -> None:
    # "It grows in woodlands" writes neither "found in" nor "forests": nothing of the fact
    # for the gates to read, so the judge may read it as a paraphrase only at its surest.
    fact = Fact(subject="Bristly Bellflowers", relation="are found in", object="forests")
    text = "Bristly Bellflower is a plant of Eurasia. It grows in woodlands and dry grasslands."

    def judged(entailed: float) -> Status:
        answer = lambda p, h: (entailed, 0.0) if "woodlands" in p else (0.0, 0.0)  # noqa: E731
        judge = ScriptedJudge(answer)
        judge.thresholds = Thresholds(entailed=0.5, veto=0.2, contradicted=0.9, rival=0.9)
        return AlignmentVerifier(entailment=judge).verify(fact, [ev(text)]).status  # type: ignore[arg-type]

    assert judged(0.95) == Status.SUPPORTED
    assert judged(0.7) != Status.SUPPORTED  # sure enough for a paraphrase, not a rewording
    # A sentence that words the relation still needs only the judge's usual bar.
    worded = Fact(subject="Bristly Bellflowers", relation="are found in", object="woodlands")
    plain = verifier(lambda p, h: (0.7, 0.0) if "woodlands" in p else (0.0, 0.0))
    found = "Bristly Bellflower is a plant of Eurasia. It is found in woodlands."
    assert plain.verify(worded, [ev(found)]).status == Status.SUPPORTED


def test_a_sentence_rewording_the_fact_stays_unsupported_below_the_rival_bar() -> None:
    fact = Fact(subject="Jane Roe", relation="served on", object="the city council")
    text = "Jane Roe lived in Leeds. The council hall was renamed in 2004."
    judge = ScriptedJudge(lambda p, h: (0.8, 0.0))
    judge.thresholds = Thresholds(entailed=0.5, veto=0.2, contradicted=0.9, rival=0.9)
    verdict = AlignmentVerifier(entailment=judge).verify(fact, [ev(text)])  # type: ignore[arg-type]
    assert verdict.status != Status.SUPPORTED


def test_a_window_entailing_the_source_sentence_supports_each_fact_of_it() -> None:
    # A window that entails the whole claim sentence entails every fact of it: the judge
    # reads the sentence beside the fact as written alone, and the better reading counts.
    claim = "Rhine water flows past Basel and reaches the North Sea near Rotterdam."
    fact = Fact(subject="The Rhine", relation="reaches", object="the North Sea", source_text=claim)
    text = "The Rhine ends its course in the North Sea near Rotterdam."

    def sentence_entailed(premise: str, hypothesis: str) -> tuple[float, float]:
        return (0.95, 0.0) if hypothesis == claim else (0.05, 0.0)

    judged = verifier(sentence_entailed, contradicted=1.01)
    verdict = judged.verify(fact, [ev(text)])
    assert verdict.status == Status.SUPPORTED
    assert "entailed by the judge 0.95" in verdict.rationale
    assert verdict.quote == text
    asked = {h for _, h in judged.entailment.asked}  # type: ignore[union-attr]
    assert asked == {"The Rhine reaches the North Sea.", claim}


def test_the_source_sentence_never_lifts_a_window_past_a_gate() -> None:
    # The subject gate still applies: a window about another Turing supports nothing of
    # Alan, however surely the judge entails the claim sentence from it.
    claim = "During the war Alan Turing worked at Bletchley Park."
    fact = Fact(
        subject="Alan Turing", relation="worked at", object="Bletchley Park", source_text=claim
    )
    judged = verifier(lambda p, h: (0.99, 0.0) if h == claim else (0.0, 0.0), contradicted=1.01)
    text = "Alan Turing was born in London.\n\nJames Turing worked at Bletchley Park."
    assert judged.verify(fact, [ev(text)]).status != Status.SUPPORTED
