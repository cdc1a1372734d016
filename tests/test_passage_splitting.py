"""Evidence passages of whole sentences: the chunker breaks at sentence ends.

``documents.split_passages`` (LangChain's recursive splitter) prefers paragraph, line and
sentence ends; where a sentence longer than a passage is cut between words, the cut piece
is left out of the passage, so "that the bridge is in Seattle." is never read without the
"It is false" before it.
"""

from __future__ import annotations

from triqua.tools.documents import split_passages

DENIED = "It is false that the Golden Gate Bridge is in Seattle. "


def _check(text: str, size: int) -> list[str]:
    passages = split_passages(text, size)
    assert all(text[p.start : p.end] == p.text for p in passages)
    return [p.text for p in passages]


def test_passages_break_at_sentence_ends() -> None:
    for passage in _check(DENIED * 200, 600):
        assert passage.startswith("It is false that")
        assert passage.endswith("in Seattle.")
        assert len(passage) <= 600


def test_a_sentence_longer_than_a_passage_leaves_no_piece_in_a_passage() -> None:
    long = "The bridge " + "and its towers " * 60 + "is red."
    text = f"{long} It is false that the bridge is in Seattle. It is in San Francisco."
    passages = _check(text, 200)
    assert passages
    assert all(p[0].isupper() and p.endswith(".") for p in passages)
    assert not any(p.startswith(("and its towers", "is red")) for p in passages)
    assert "It is false that the bridge is in Seattle. It is in San Francisco." in passages


def test_paragraphs_and_lines_come_before_sentences() -> None:
    text = "Title: The bridge\n\nIt is red. It is long.\nIt opened in 1937."
    assert _check(text, 25) == ["Title: The bridge", "It is red. It is long.", "It opened in 1937."]


def test_a_short_text_is_one_passage_as_written() -> None:
    assert _check("The bridge is red", 600) == ["The bridge is red"]
