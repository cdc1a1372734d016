"""Markdown tables of the checked text: left out of the parse, their rows read as sentences.

The clause rules read sentences, not cells, so a table is masked from the parse. Its rows are
read by the one table reader evidence is read with (``core.reading.label_lines``): under
"| Capital | Country |" the row "| Canberra | Australia |" states "The capital of Australia
is Canberra.", and that sentence gives the row's facts, each keeping the row's span. A row
the label rules cannot read (a header they do not know) states nothing; a table none of
whose rows is read is listed whole as not decomposed, as a chat model would decompose it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from triqua.core.reading.label_lines import label_lines
from triqua.engines.offline.decompose.arguments import RawFact

__all__ = ["TableRow", "mask_tables", "outside_tables", "read_tables", "table_rows"]

#: A Markdown table: two or more consecutive lines that open and close with "|".
_TABLE = re.compile(r"(?:^[ \t]*\|[^\n]*\|[ \t]*(?:\n|\Z)){2,}", re.M)
_RULE_ROW = re.compile(r"^[\s|:-]*$")


@dataclass(frozen=True)
class TableRow:
    """A data row of a table: its span in the text (spaces trimmed) and what it states.

    ``sentences`` is "" for a row the label rules do not read.
    """

    start: int
    end: int
    sentences: str


def mask_tables(text: str) -> str:
    """``text`` with every Markdown table blanked out, each character offset unchanged."""
    return _TABLE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)


def outside_tables(text: str) -> list[tuple[int, str]]:
    """The stretches of ``text`` between its Markdown tables, each with its offset."""
    stretches, cursor = [], 0
    for table in _TABLE.finditer(text):
        stretches.append((cursor, text[cursor : table.start()]))
        cursor = table.end()
    stretches.append((cursor, text[cursor:]))
    return [(at, body) for at, body in stretches if body.strip()]


def table_rows(text: str) -> list[tuple[tuple[int, int], list[TableRow]]]:
    """Each Markdown table of ``text``: its span (spaces trimmed) and its data rows read.

    The header row and the rule under it are no data rows.
    """
    out = []
    for table in _TABLE.finditer(text):
        body = table.group()
        read = {line.start: line.text.strip() for line in label_lines(body)}
        rows: list[TableRow] = []
        offset = 0
        for number, line in enumerate(body.split("\n")):
            start = table.start() + offset + len(line) - len(line.lstrip())
            end = table.start() + offset + len(line.rstrip())
            if number > 0 and line.strip() and not _RULE_ROW.match(line):
                rows.append(TableRow(start, end, read.get(offset, "")))
            offset += len(line) + 1
        trimmed = body.rstrip()
        start = table.start() + len(trimmed) - len(trimmed.lstrip())
        out.append(((start, table.start() + len(trimmed)), rows))
    return out


def read_tables(
    text: str, facts_of: Callable[[str], list[RawFact]]
) -> tuple[list[tuple[int, int, list[RawFact]]], list[tuple[int, int]]]:
    """The facts of the table rows of ``text``, and the spans of what gave none.

    Args:
        text: the checked text (a chunk).
        facts_of: the facts a sentence states (the clause rules on its parse).

    Returns:
        Each row that gave facts, as (start, end, facts), and the spans not decomposed: each
        row read as no fact, or the whole table when none of its rows gave one.
    """
    read: list[tuple[int, int, list[RawFact]]] = []
    unread: list[tuple[int, int]] = []
    for span, rows in table_rows(text):
        found = [(row, facts_of(row.sentences) if row.sentences else []) for row in rows]
        if not any(raw for _, raw in found):
            unread.append(span)
            continue
        read += [(row.start, row.end, raw) for row, raw in found if raw]
        unread += [(row.start, row.end) for row, raw in found if not raw]
    return read, unread
