"""Label lines and table rows read as the sentences they state about the page's subject.

An infobox line "Born: 14 March 1879, Ulm" under the title "Albert Einstein" states "Albert
Einstein was born on 14 March 1879 in Ulm."; a table row "Kenya | Nairobi | Shilling" under
"Country | Capital | Currency" states "The capital of Kenya is Nairobi." and "The currency of
Kenya is Shilling."; a two-column table under "| Marie Curie | |" reads like label lines.
Only the labels of the rules file (``data/restating.json``) are read, each by its template:
any other label line stays a heading that states nothing ("Myth: …", "Tags: …"). The subject
is the title line above the label lines, the first cell of a two-column table's header, a
row's cell under a header naming a kind of thing ("Australia" of "Canberra | Australia" under
"Capital | Country": "The capital of Australia is Canberra."), or else its first cell that is
no number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from triqua.core.reading.rules_file import read_rules_file
from triqua.core.reading.values.dates import find_dates

__all__ = ["LABELS", "Label", "Line", "label_lines", "label_sentence"]

RULES_PATH = Path(__file__).parent / "data" / "restating.json"


@dataclass(frozen=True)
class Label:
    """How a label states its fact: a template, and whether its value is an event's.

    The template fills ``{subject}`` and ``{value}`` ("{subject} was born {value}"); an
    event's value is its date and place ("on 14 March 1879 in Ulm").
    """

    template: str
    event: bool = False


@lru_cache(maxsize=1)
def _labels() -> dict[str, Label]:
    raw = read_rules_file(RULES_PATH, "restating")
    return {
        " ".join(name.lower().split()): Label(str(rule["template"]), bool(rule.get("event")))
        for name, rule in raw["labels"].items()
    }


LABELS = _labels()
#: Column headers naming the kind of thing a row is about ("Country" of "Capital | Country").
SUBJECT_HEADERS = frozenset(
    str(word).lower() for word in read_rules_file(RULES_PATH, "restating")["subject_headers"]
)


@dataclass(frozen=True)
class Line:
    """One line of a passage read as sentences: its offsets and what it states.

    A table's header or rule states nothing: its text is "".
    """

    start: int
    end: int
    text: str


_LABEL_LINE = re.compile(r"^\s*(?P<label>[A-Za-z][A-Za-z .'/-]{0,30}?)\s*:\s+(?P<value>\S.*?)\s*$")
_RULE_CELL = re.compile(r"^:?-{3,}:?$")
_NUMBER_CELL = re.compile(r"^[\d.,%\s–-]*$")
_TITLE_WORDS = 8
_ABBREVIATION = 5  # "Inc.", "Ltd.", "Jr.": a title may end on one
_CELL_WORDS = 12  # words a cell of a row written without an opening bar holds at most


_REPEATED_PREPOSITION = re.compile(r"\b(in|on|at|of|from|by)\s+\1\b", re.IGNORECASE)


def label_sentence(subject: str, label: str, value: str) -> str | None:
    """The sentence a label states of ``subject``, or None for a label the file lacks."""
    rule = LABELS.get(" ".join(label.lower().split()))
    value = value.strip().rstrip(".;")
    if rule is None or not value or not subject.strip():
        return None
    if rule.event:
        value = _event(value)
    sentence = rule.template.format(subject=subject.strip(), value=value)
    # "headquartered in {value}" with "in Tokyo": the value's own preposition is the template's.
    sentence = _REPEATED_PREPOSITION.sub(r"\1", sentence)
    return sentence[:1].upper() + sentence[1:] + "."


def _event(value: str) -> str:
    """An event's value as date and place: "14 March 1879, Ulm" is "on 14 March 1879 in Ulm"."""
    dates = find_dates(value)
    if not dates or value[: dates[0].start].strip(" ,"):
        return f"in {value}"
    date = dates[0]
    when = f"on {date.text}" if date.day is not None else f"in {date.text}"
    place = value[date.end :].strip(" ,;")
    return f"{when} in {place}" if place else when


def _cells(line: str) -> list[str] | None:
    """The cells of a table row ("| a | b |" or "a | b"), or None for another line.

    A line that does not open with a bar is a row only when each cell is short: a line of
    prose with a bar in it ("… co-created one of the first online courses. … | Contact")
    is web text, whose sentences are read as written.
    """
    if "|" not in line:
        return None
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if not line.lstrip().startswith("|") and any(len(c.split()) > _CELL_WORDS for c in cells):
        return None
    return cells if len(cells) >= 2 else None


def label_lines(text: str) -> list[Line]:
    """The lines of ``text`` that state their fact about the page's subject, read as sentences.

    A title line that heads them is read too, as a paragraph of its own (it states nothing).
    Lines of other shapes are not returned.
    """
    lines: list[tuple[int, int, str]] = []
    offset = 0
    for line in text.split("\n"):
        lines.append((offset, offset + len(line), line))
        offset += len(line) + 1
    out: list[Line] = []
    subject: str | None = None
    header: list[str] | None = None
    for number, (start, end, line) in enumerate(lines):
        if not line.strip():
            subject, header = None, None
            continue
        cells = _cells(line)
        if cells is not None:
            read, header, subject = _row(cells, header, subject)
            out.append(Line(start, end, read + "\n" if read else ""))
            continue
        header = None
        found = _LABEL_LINE.match(line)
        if found and subject:
            sentence = label_sentence(subject, found["label"], found["value"])
            if sentence:
                out.append(Line(start, end, sentence + "\n"))
            continue
        if _title(line) and number + 1 < len(lines) and _heads(lines[number + 1][2]):
            subject = line.strip()
            out.append(Line(start, end, line + "\n"))
            continue
        subject = None
    return out


def _title(line: str) -> bool:
    """A short line without a colon or final punctuation: a page's title ("Apple Inc.")."""
    words = line.split()
    if not 0 < len(words) <= _TITLE_WORDS or ":" in line or line.rstrip()[-1] in "!?":
        return False
    last = words[-1]
    return not last.endswith(".") or (last[:1].isupper() and len(last) <= _ABBREVIATION)


def _heads(following: str) -> bool:
    """True when the line after a title is a label line or a table row."""
    return bool(_LABEL_LINE.match(following)) or _cells(following) is not None


def _row(
    cells: list[str], header: list[str] | None, subject: str | None
) -> tuple[str, list[str] | None, str | None]:
    """One table row read: (its sentences, the table's header, the page's subject).

    A first row "| Marie Curie | |" heads a record of one subject, whose rows are label and
    value; a row of label and value under a title is one too; any other first row is the
    header of columns, and each later row is read about its cell under a header naming a
    kind of thing ("Country"), or else about its first cell that is no number.
    """
    if all(_RULE_CELL.match(c) for c in cells if c):
        return "", header, subject
    record = len(cells) == 2
    if header is None:
        if record and cells[0] and not cells[1]:
            return "", cells, cells[0]
        if not (record and subject and cells[0].lower() in LABELS):
            return "", cells, subject
    if record and (header is None or (len(header) == 2 and not header[1])):
        return label_sentence(subject or "", cells[0], cells[1]) or "", header, subject
    if header is None or len(header) != len(cells):
        return "", header, subject
    named = [k for k, c in enumerate(cells) if c and not _NUMBER_CELL.match(c)]
    kinds = [k for k in named if " ".join(header[k].lower().split()) in SUBJECT_HEADERS]
    if not named:
        return "", header, subject
    at = (kinds or named)[0]
    sentences = [
        label_sentence(cells[at], header[k], cells[k])
        for k in range(len(cells))
        if k != at and cells[k]
    ]
    return " ".join(s for s in sentences if s), header, subject
