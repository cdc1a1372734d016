"""``find_dates`` does work in proportion to its text, however many dates the text holds.

Work is counted, not timed: the Python lines the date reader runs (``sys.settrace`` line
events in its module), a figure the machine's load cannot move. A reader that compared each
match with every date found before it ran lines in proportion to the square of the dates.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

from triqua.context import DEFAULT_MAX_SENTENCE_CHARS as SENTENCE_CAP
from triqua.core.reading.values import dates
from triqua.core.reading.values.dates import find_dates


def _lines_run(text: str) -> tuple[int, int]:
    """Line events of the date reader's module while it reads ``text``, and dates found."""
    module_file = dates.__file__
    count = 0

    def tracer(frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        nonlocal count
        if frame.f_code.co_filename != module_file:
            return None
        if event == "line":
            count += 1
        return tracer

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        found = find_dates(text)
    finally:
        sys.settrace(previous)
    return count, len(found)


def test_work_grows_linearly_with_the_dates_in_the_text() -> None:
    small, found_small = _lines_run("In 1900 " * 100)
    large, found_large = _lines_run("In 1900 " * 400)
    assert (found_small, found_large) == (100, 400)
    # Four times the dates, about four times the lines (a quadratic reader: about 16x).
    assert large <= 4.5 * small


def test_day_month_dates_and_decades_stay_linear_too() -> None:
    for unit in ("on 4 May 1901, ", "the 1920s and "):
        small, found_small = _lines_run(unit * 60)
        large, found_large = _lines_run(unit * 240)
        assert found_large == 4 * found_small > 0
        assert large <= 4.5 * small


def test_a_sentence_at_the_cap_full_of_dates_is_read_in_bounded_work() -> None:
    text = ("1901 " * SENTENCE_CAP)[:SENTENCE_CAP]
    lines, found = _lines_run(text)
    assert found == SENTENCE_CAP // 5
    # A few dozen lines per date found; quadratic work would be over a hundred times more.
    assert lines <= 60 * found


def test_overlapping_matches_keep_the_most_specific_date() -> None:
    found = find_dates("Born on 10 December 1903, he died in the 1990s, in 1994-95.")
    assert [(d.text, d.year, d.month, d.day, d.year_hi) for d in found] == [
        ("10 December 1903", 1903, 12, 10, None),
        ("1990s", 1990, None, None, 1999),
        ("1994-95", 1994, None, None, 1995),
    ]
