"""What keeps the offline engine fast and small: the judge's integer kernels, lean parses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import triqua.engines.elements as elements
from triqua.nlp import clauses as nlp_clauses
from triqua.nlp import parses
from triqua.nlp.pipeline import load_nlp

SHIPPED_JUDGE = Path(elements.__file__).parents[1] / "models" / "data" / "entailment.onnx"
INT8, UINT8 = 3, 2  # onnx.TensorProto data types


def test_shipped_judge_has_signed_weights_with_zero_points() -> None:
    """Every quantised matrix of the judge is signed 8-bit with its own zero points.

    ONNX Runtime runs signed weights on its fast integer kernels (unsigned ones took ~1.7x
    the CPU); the zero points keep the unsigned file's grid, so the judge reads the same.
    """
    onnx = pytest.importorskip("onnx")
    model = onnx.load(str(SHIPPED_JUDGE))
    types = {init.name: init.data_type for init in model.graph.initializer}
    weights = [
        (node.input[1], node.input[3] if len(node.input) > 3 else "")
        for node in model.graph.node
        if node.op_type == "MatMulInteger"
    ]
    assert len(weights) >= 36  # 6 layers x (q, k, v, attention out, FFN in, FFN out)
    for weight, zero_point in weights:
        assert types[weight] == INT8, weight
        assert zero_point and types[zero_point] == INT8, weight


def test_role_gate_parse_is_the_whole_pipelines_and_kept_for_other_readers() -> None:
    """The role gate's parse has the whole pipeline's entities and tree, kept for reuse."""
    text = "Sydney is the largest city of Australia, but Canberra is the capital of Australia."
    parses.clear()
    nlp_clauses.window_parse.cache_clear()
    window = nlp_clauses.window_parse(text)
    full = load_nlp()(text)
    assert list(full.ents)  # the full pipeline finds Sydney, Canberra, Australia
    assert [(e.start, e.end, e.label_) for e in window.ents] == [
        (e.start, e.end, e.label_) for e in full.ents
    ]
    assert [(t.text, t.dep_, t.head.i, t.pos_, t.tag_) for t in window] == [
        (t.text, t.dep_, t.head.i, t.pos_, t.tag_) for t in full
    ]
    assert parses.parsed(text) is window  # another reader of the window parses it no more


class _CountingNlp:
    """The shared pipeline, recording the batch size of each ``pipe`` call."""

    def __init__(self) -> None:
        self.nlp = load_nlp()
        self.batch_sizes: list[int | None] = []

    def pipe(self, texts: Any, batch_size: int | None = None, **kwargs: Any) -> Any:
        self.batch_sizes.append(batch_size)
        return self.nlp.pipe(texts, batch_size=batch_size, **kwargs)


def test_element_graphs_parse_in_small_batches_with_the_same_parses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Many sentences are parsed in bounded spaCy batches; each parse is the sentence's own."""
    counting = _CountingNlp()
    monkeypatch.setattr(parses, "load_nlp", lambda: counting)
    monkeypatch.setattr(parses, "_docs", type(parses._docs)())
    sentences = [f"Person {i} was born in Leeds in {1900 + i}, then moved." for i in range(70)]
    docs = parses.parse_many(sentences)
    assert counting.batch_sizes and all(
        size is not None and size <= 32 for size in counting.batch_sizes
    )
    for sentence, doc in zip(sentences[::10], docs[::10], strict=True):
        alone = load_nlp()(sentence)
        assert doc is not None
        assert [(t.dep_, t.head.i, t.ent_type_) for t in doc] == [
            (t.dep_, t.head.i, t.ent_type_) for t in alone
        ]


def test_value_readings_are_cached_by_text() -> None:
    """A window's dates and quantities are read once, then served as the same object."""
    from triqua.core.reading.values.carried import read_values

    read_values.cache_clear()
    first = read_values("Marie Curie was born on 7 November 1867 and won 2 Nobel Prizes.")
    again = read_values("Marie Curie was born on 7 November 1867 and won 2 Nobel Prizes.")
    other = read_values("Pierre Curie was born in 1859.")
    assert again is first
    assert read_values.cache_info().hits == 1
    assert [d.year for d in first.dates] == [1867]
    assert [n.figure for n in first.numbers] == ["2"]
    assert [d.year for d in other.dates] == [1859] and not other.numbers


WINDOWS = [
    "Sydney is the largest city of Australia, but Canberra is the capital of Australia.",
    "Emily Brontë was the sister of Charlotte Brontë, who wrote Jane Eyre.",
    "He played for Manchester United from 1999 to 2004. He then moved to Real Madrid.",
    "Marie married Pierre Curie in 1895. She was born in Warsaw.",
]


def _tree(doc: Any) -> list[tuple[str, str, int, str, str, bool]]:
    return [(t.text, t.dep_, t.head.i, t.pos_, t.tag_, t.is_sent_start) for t in doc]


def test_role_gate_reuses_the_element_graphs_parse_with_the_same_tree() -> None:
    """A window the element graph parsed is not parsed again, and reads as a fresh parse."""
    parses.clear()
    nlp_clauses.window_parse.cache_clear()
    lean = [_tree(nlp_clauses.window_parse(text)) for text in WINDOWS]
    parses.clear()
    nlp_clauses.window_parse.cache_clear()
    kept = parses.parse_many(WINDOWS)
    for text, doc, alone in zip(WINDOWS, kept, lean, strict=True):
        reused = nlp_clauses.window_parse(text)
        assert reused is doc  # the element graph's parse, not a new one
        assert _tree(reused) == alone


def test_people_from_the_recogniser_alone_match_the_whole_pipeline() -> None:
    """The namesake question's people are the same read alone, from a kept parse or in full."""
    nlp = load_nlp()
    for text in WINDOWS:
        full = tuple((e.start, e.end) for e in nlp(text).ents if e.label_ == "PERSON")
        parses.clear()
        nlp_clauses.people.cache_clear()
        alone = nlp_clauses.people(text)
        parses.parse_many([text])
        nlp_clauses.people.cache_clear()
        assert alone == full == nlp_clauses.people(text)
    assert any(nlp_clauses.people(text) for text in WINDOWS)  # the check reads real people


def test_unread_pieces_are_found_once_per_passage_and_stay_bounded() -> None:
    """A passage's headings and verdict records are found once, then served as they were."""
    from triqua.core.reading.passage_reading import read_pieces, unread_pieces

    passage = (
        "# Marie Curie\n\nMarie Curie was born in Warsaw in 1867.\n"
        '{"verdict": "supported"}\n\nShe won two Nobel Prizes.'
    )
    unread_pieces.cache_clear()
    first = unread_pieces(passage)
    pieces = read_pieces(passage)
    assert [pieces[i].text for i in sorted(first)] == ["# Marie Curie", '{"verdict": "supported"}']
    assert unread_pieces(passage) is first
    assert unread_pieces.cache_info().hits == 1
    assert unread_pieces.cache_info().maxsize == 4096  # a run's passages, not every one seen
    assert not unread_pieces("Marie Curie was born in Warsaw in 1867.")
