"""The attribute ruler's matches by lookup are spaCy's matches, and set the same attributes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from triqua.nlp.attribute_rules import RuleIndex, install
from triqua.nlp.pipeline import load_nlp

TEXTS = [
    "Marie Curie won the Nobel Prize in Physics in 1903, and she was born in Warsaw.",
    "I ain't gonna do it: it isn't right, it's n't, nt and n’t.",
    "Gotta wanna lemme cannot can't won't y'all 'cause o' that.",
    "  \n  Spaces   here.\t\tTabs and\n\nbreaks, — dashes; (brackets) “quotes”.",
    "He has been playing; they were told to go; whether or not, that is so, so what?",
    "The U.S. Dept. of State said 3.5% of $1,200 — about 42 — were e-mailed @ 5 p.m.",
]
BIOS = Path(__file__).resolve().parents[2] / "shared" / "data" / "factscore_labeled"


def _texts() -> list[str]:
    path = BIOS / "ChatGPT.jsonl"
    if not path.exists():
        return TEXTS
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[:40]]
    return TEXTS + [p for row in rows for p in row["output"].split("\n\n") if p.strip()]


def _attributes(doc: Any) -> list[tuple[str, str, str, str]]:
    return [(t.text, t.pos_, str(t.morph), t.lemma_) for t in doc]


def test_the_shipped_pipeline_finds_its_matches_by_lookup() -> None:
    ruler: Any = load_nlp().get_pipe("attribute_ruler")
    assert isinstance(vars(ruler)["match"].__self__, RuleIndex)


def test_lookup_matches_are_spacys_matches() -> None:
    """On every token of the texts, the index finds what spaCy's matcher finds, in its order."""
    nlp = load_nlp()
    ruler: Any = nlp.get_pipe("attribute_ruler")
    index = RuleIndex(ruler)
    texts = _texts()
    docs = list(nlp.pipe(texts, disable=["attribute_ruler", "ner"]))
    for doc in docs:
        spacys = type(ruler).match(ruler, doc)  # the class's own matcher
        assert index.match(doc) == sorted(set(spacys)), doc.text
        assert index.match(doc) == sorted(set(spacys))  # the remembered shapes answer the same
    assert sum(len(index.match(doc)) for doc in docs) > 10 * len(docs)


def test_parses_set_the_same_parts_of_speech_morphology_and_lemmas() -> None:
    import spacy

    from triqua.nlp.hyphen_words import keep_prefixed_words
    from triqua.nlp.pipeline import SPACY_MODEL

    plain = spacy.load(SPACY_MODEL, exclude=["lemmatizer"])
    keep_prefixed_words(plain)  # the shipped tokenizer's one change: the ruler reads the same
    for text in _texts():
        assert _attributes(load_nlp()(text)) == _attributes(plain(text)), text


def test_a_pattern_the_index_cannot_read_keeps_spacys_matcher() -> None:
    import spacy

    nlp = spacy.blank("en")
    ruler: Any = nlp.add_pipe("attribute_ruler")
    ruler.add([[{"LOWER": "a", "OP": "+"}]], {"POS": "DET"})
    assert not install(nlp)
    assert "match" not in vars(ruler)
    with pytest.raises(ValueError, match="unsupported"):
        RuleIndex(ruler)
