"""A titled page's lead: its first sentence names the title's person, by a longer name.

The page's **lead** names the page's subject in full, often by a longer or formal name than
the title's: "William Henry Gates III (born October 28, 1955) is …" on "Bill Gates",
"Augusta Ada King, Countess of Lovelace (…) was …" on "Ada Lovelace". A lead whose subject
phrase writes the title's surname and its given name (or the formal name it shortens) is
read as naming the title's person (see :mod:`triqua.core.reading.titles` for how a passage
is read after its title).
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from triqua.core.reading.quotes import normalise
from triqua.core.reading.values.names import TITLES, name_in, name_runs, surname

__all__ = ["formal_names", "read_as_lead"]

#: Where a lead's subject phrase ends: its life dates' bracket or its verb.
_SUBJECT_END = re.compile(r"\s\(|,?\s(?:is|was|are|were|has|had)\s")
#: Name words that make a lead's name another person's: the father of "Bill Gates" is
#: "William H. Gates Sr.".
_ANOTHER_GENERATION = frozenset({"sr", "snr", "senior"})
_NICKNAMES = Path(__file__).parents[1] / "data" / "nicknames.json"


@functools.cache
def formal_names() -> dict[str, frozenset[str]]:
    """Given names and the formal names they shorten ("bill": "william"), from the data file."""
    raw = json.loads(_NICKNAMES.read_text(encoding="utf-8"))
    return {short: frozenset(formal) for short, formal in raw["formal"].items()}


def read_as_lead(name: str, sentence: str, before: str) -> bool:
    """True when ``sentence`` is a titled page's lead and names ``name``, the title's person.

    ``before`` must be the title's line alone ("Bill Gates", "# Bill Gates"): the sentence
    then opens the page. The title must name ``name`` (normalised), and the names of the
    lead's subject phrase must write its surname and its given name, or the formal name the
    given name shortens ("William" for "Bill", ``data/nicknames.json``) or its form in another
    language ("Maria" for "Marie"), and no "Sr."
    ("William H. Gates Sr." is his father, "Melinda French Gates" someone else).
    """
    lines = [line for line in before.splitlines() if line.strip()]
    if len(lines) != 1 or lines[0].rstrip().endswith((".", "!", "?", "…")):
        return False
    title = lines[0].strip().lstrip("#").strip()
    if not name or not name_in(name, f" {normalise(title)} ", title):
        return False
    phrase = _SUBJECT_END.split(sentence, maxsplit=1)[0]
    words = [w for w in name.split() if w not in TITLES] or name.split()
    last, given = surname(words), words[0]
    forms = {given, *formal_names().get(given, ())}
    another = _ANOTHER_GENERATION - set(words)
    # A double surname is read by its parts: "Skłodowska-Curie" writes "Curie".
    written = {
        part for run in name_runs(phrase) for w in run.name.split() for part in (w, *w.split("-"))
    }
    return (
        last in written
        and any(_same_given(form, w) for form in forms for w in written)
        and not another & written
    )


_GIVEN_STEM = 4  # letters a given name shares with its form in another language


def _same_given(form: str, word: str) -> bool:
    """True for the same given name, or its form in another language ("Marie", "Maria")."""
    if form == word:
        return True
    stem = _GIVEN_STEM
    return len(form) >= stem + 1 and len(word) >= stem + 1 and form[:stem] == word[:stem]
