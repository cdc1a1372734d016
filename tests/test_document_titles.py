"""A document's title names its subject: "She" in any of its passages may stand for it.

A Markdown file opening with "# Ada Lovelace" is read with that title, as an HTML page is
with its ``<title>``; the grounding rule reads each passage after its title, so a later
passage's "She married William King in 1835." grounds "Ada Lovelace married William King",
while an untitled excerpt opening with "She" still refers back to no one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from triqua.core.grounding.rule import check_quote
from triqua.core.reading.titles import after_title
from triqua.schema import FactUnit, Status
from triqua.testing.readers import EntailingReader
from triqua.tools.documents import load_documents, text_title

LATER_PASSAGE = "In 1833 she met Charles Babbage. She married William King in 1835."
QUOTE = "She married William King in 1835."
UNIT = FactUnit(kind="base", subject="Ada Lovelace", relation="married", object="William King")


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("# Ada Lovelace\n\nAugusta Ada King was a mathematician.", "Ada Lovelace"),
        ("Ada Lovelace\n============\n\nShe was a mathematician.", "Ada Lovelace"),
        ("\n\n  # **Ada** [Lovelace](https://example.org)\n", "Ada Lovelace"),
        ("She was a mathematician.\n\n# Ada Lovelace\n", None),  # a heading later on
        ("## Early life\n\nShe was born in London.", None),  # a section, not the title
        ("#hashtag is no heading", None),
        ("", None),
    ],
)
def test_a_document_title_is_its_opening_level_one_heading(text: str, title: str | None) -> None:
    assert text_title(text) == title


def test_a_markdown_file_is_loaded_with_its_title(tmp_path: Path) -> None:
    path = tmp_path / "ada.md"
    path.write_text("# Ada Lovelace\n\n" + LATER_PASSAGE, encoding="utf-8")
    plain = tmp_path / "notes.txt"
    plain.write_text(LATER_PASSAGE, encoding="utf-8")
    titles = {Path(d.source or "").name: d.title for d in load_documents([path, plain])}
    assert titles == {"ada.md": "Ada Lovelace", "notes.txt": None}


def test_a_passage_is_read_after_its_title_unless_it_opens_with_it() -> None:
    assert after_title(LATER_PASSAGE, "Ada Lovelace") == (
        "Ada Lovelace\n\n" + LATER_PASSAGE,
        len("Ada Lovelace\n\n"),
    )
    opening = "# Ada Lovelace\n\n" + LATER_PASSAGE
    assert after_title(opening, "Ada Lovelace") == (opening, 0)
    assert after_title(LATER_PASSAGE, None) == (LATER_PASSAGE, 0)


def _grounded(titles: dict[str, str] | None) -> tuple[bool, str | None]:
    outcome = check_quote(
        UNIT, Status.SUPPORTED, ["e"], QUOTE, {"e": LATER_PASSAGE},
        reader=EntailingReader(), titles=titles,
    )  # fmt: skip
    return outcome.ok, outcome.quote


def test_a_pronoun_in_a_titled_passage_carries_the_title_subject() -> None:
    ok, quote = _grounded({"e": "Ada Lovelace"})
    assert ok
    assert quote is not None and quote in LATER_PASSAGE  # quoted from the passage, not the title


def test_an_untitled_passage_opening_with_a_pronoun_refers_back_to_no_one() -> None:
    ok, _ = _grounded(None)
    assert not ok


def test_a_title_naming_someone_else_carries_nothing() -> None:
    ok, _ = _grounded({"e": "Charles Babbage"})
    assert not ok
