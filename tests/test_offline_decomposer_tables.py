"""The offline decomposer reads a Markdown table's rows as the sentences their header gives."""

from __future__ import annotations

from triqua.engines.offline.decompose.decomposer import RuleDecomposer

from .conftest import triples


def test_a_table_row_states_the_sentence_its_header_gives_with_the_rows_span(
    decomposer: RuleDecomposer,
) -> None:
    text = (
        "Two capitals:\n\n| Capital | Country |\n|---|---|\n"
        "| Canberra | Australia |\n| Toronto | Canada |\n"
    )
    found = decomposer.analyse(text, offset=7, chunk_index=2)
    rows = {f.source_text: triples([f]) for f in found.facts}
    assert set(rows) == {"| Canberra | Australia |", "| Toronto | Canada |"}
    assert all(len(read) == 1 for read in rows.values())
    for fact in found.facts:
        assert text[fact.span.start - 7 : fact.span.end - 7] == fact.source_text
        assert fact.chunk_index == 2
    canberra = next(iter(rows["| Canberra | Australia |"]))
    assert "Canberra" in " ".join(canberra) and "Australia" in " ".join(canberra)
    assert "capital" in " ".join(canberra)
    assert not [s for s in found.undecomposed if "|" in text[s.start - 7 : s.end - 7]]


def test_a_birthplace_row_is_read_about_the_person(decomposer: RuleDecomposer) -> None:
    text = "| Person | Birthplace |\n|---|---|\n| Alan Turing | Paris |\n"
    found = decomposer.analyse(text)
    assert triples(found.facts) == {("Alan Turing", "was born in", "Paris")}
    assert [text[f.span.start : f.span.end] for f in found.facts] == ["| Alan Turing | Paris |"]


def test_a_table_whose_header_the_label_rules_do_not_know_gives_no_fact(
    decomposer: RuleDecomposer,
) -> None:
    table = "| Name | Year |\n|------|------|\n| Marie Curie | 1903 |\n| Pierre Curie | 1903 |"
    text = f"Oslo is the capital of Norway.\n\n{table}"
    found = decomposer.analyse(text)
    assert triples(found.facts) == {("Oslo", "is", "the capital of Norway")}
    assert [text[s.start : s.end] for s in found.undecomposed] == [table]
