"""A document's title names its subject: "She" in any of its passages may stand for it.

A Markdown file opening with "# Ada Lovelace" is read with that title, as an HTML page is
with its ``<title>``; the grounding rule reads each passage after its title, so a later
passage's "She married William King in 1835." grounds "Ada Lovelace married William King",
while an untitled excerpt opening with "She" still refers back to no one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import triqua
from triqua.core.grounding.rule import check_quote
from triqua.core.reading import titles as titles_module
from triqua.core.reading.titles import after_title, heading
from triqua.core.reading.values.leads import read_as_lead
from triqua.schema import Document, FactUnit, Status
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
        (
            "---\ntitle: Ada Lovelace\ndate: 2024-01-01\n---\n\nShe was born in London.",
            "Ada Lovelace",
        ),
        ("---\ndate: 2024-01-01\n---\n# Ada Lovelace\n\nShe was born in London.", "Ada Lovelace"),
        ("---\ntitle: [unclosed\n---\n\nShe was born in London.", None),
        ("---\n\nA line after a rule.", None),
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
    first = heading("Ada Lovelace", opens_document=True)
    later = heading("Ada Lovelace", opens_document=False)
    assert (first, later) == ("Ada Lovelace\n\n", "Ada Lovelace\n\n…\n\n")
    assert after_title(LATER_PASSAGE, later) == (later + LATER_PASSAGE, len(later))
    opening = "# Ada Lovelace\n\n" + LATER_PASSAGE
    assert after_title(opening, first) == (opening, 0)
    assert after_title(LATER_PASSAGE, heading(None, True)) == (LATER_PASSAGE, 0)


def _grounded(titles: dict[str, str] | None) -> tuple[bool, str | None]:
    read_before = {i: heading(t, opens_document=False) for i, t in (titles or {}).items()}
    outcome = check_quote(
        UNIT, Status.SUPPORTED, ["e"], QUOTE, {"e": LATER_PASSAGE},
        reader=EntailingReader(), read_before=read_before,
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


GATES_PAGE = (
    "William Henry Gates III (born October 28, 1955) is an American businessman. "
    "He co-founded the software company Microsoft with Paul Allen in 1975."
)


def _statuses(text: str, document: Document) -> list[str]:
    report = triqua.check(text, documents=[document], store=False)
    return [record.verdict.status.value for record in report.records]


def test_a_titled_page_lead_names_the_title_person_on_the_offline_engine() -> None:
    claims = "Bill Gates was born on October 28, 1955. Bill Gates co-founded Microsoft in 1975."
    titled = _statuses(claims, Document(text=GATES_PAGE, title="Bill Gates"))
    assert titled == ["supported", "supported"]
    # Untitled, the lead names someone the claims do not: nothing is supported.
    assert "supported" not in _statuses(claims, Document(text=GATES_PAGE))
    # Nor is a wrong year, titled or not.
    lie = "Bill Gates co-founded Microsoft in 1980."
    assert "supported" not in _statuses(lie, Document(text=GATES_PAGE, title="Bill Gates"))


def test_a_lead_about_a_senior_namesake_is_not_the_title_person() -> None:
    page = "William H. Gates Sr. (1925–2020) was an American lawyer."
    claim = "Bill Gates was an American lawyer."
    assert "supported" not in _statuses(claim, Document(text=page, title="Bill Gates"))


@pytest.mark.parametrize(
    ("sentence", "before", "lead"),
    [
        ("William Henry Gates III (born 1955) is a businessman.", "Bill Gates\n\n", True),
        ("William Henry Gates III (born 1955) is a businessman.", "# Bill Gates\n\n", True),
        ("Augusta Ada King, Countess of Lovelace (1815–1852) was a mathematician.",
         "Ada Lovelace\n\n", False),  # her name: the title's "Ada Lovelace" is no "Bill Gates"
        # Not the page's opening sentence: a "…" stands for the text before the passage.
        ("William Henry Gates III (born 1955) is a businessman.", "Bill Gates\n\n…\n\n", False),
        ("William Henry Gates III (born 1955) is a businessman.", "", False),
        ("William H. Gates Sr. (1925–2020) was a lawyer.", "Bill Gates\n\n", False),
        ("Paul Allen (1953–2018) was a businessman.", "Bill Gates\n\n", False),
    ],
)  # fmt: skip
def test_a_lead_is_the_opening_sentence_of_a_titled_page_writing_its_surname(
    sentence: str, before: str, lead: bool
) -> None:
    assert read_as_lead("bill gates", sentence, before) is lead


NICKNAMES = json.loads(
    (Path(titles_module.__file__).parent / "data" / "nicknames.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("example", NICKNAMES["examples"], ids=lambda e: e["lead"][:30])
def test_a_lead_names_the_title_person_by_a_formal_given_name(example: dict[str, object]) -> None:
    title, lead = str(example["title"]), str(example["lead"])
    name = " ".join(title.lower().split())
    assert read_as_lead(name, lead, f"{title}\n\n") is example["same"]


CURIE_PAGE = (
    "Maria Salomea Skłodowska-Curie (7 November 1867 – 4 July 1934) was a Polish physicist. "
    "She was the first woman to win a Nobel Prize."
)


def test_a_lead_in_another_language_and_a_double_surname_is_the_title_person() -> None:
    page = Document(text=CURIE_PAGE, title="Marie Curie")
    claims = "Marie Curie was the first woman to win a Nobel Prize."
    assert _statuses(claims, page) == ["supported"]
    assert _statuses("Marie Curie was born on 8 November 1867.", page) == ["contradicted"]
    assert "supported" not in _statuses(claims, Document(text=CURIE_PAGE))


@pytest.mark.parametrize(
    ("title", "claim", "supported"),
    [
        ("Marie Curie", "Marie Curie was born in Warsaw.", True),
        ("Pierre Curie", "Pierre Curie was born in Warsaw.", False),  # "She" is no Pierre
    ],
)
def test_a_pronoun_carries_a_title_name_only_of_its_gender(
    title: str, claim: str, supported: bool
) -> None:
    document = Document(text=f"# {title}\n\nShe was born in Warsaw in 1867.", title=title)
    assert (_statuses(claim, document) == ["supported"]) is supported
