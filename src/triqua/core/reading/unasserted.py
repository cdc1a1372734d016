"""Words a sentence writes without asserting them: an exception, or a quoted title.

"Her novel "The Eiffel Tower Is in Rome" sold well." writes every word of "The Eiffel Tower
is in Rome" inside a title in quotes: the sentence names a book, and says only that it sold
well. A quoted span in title case ("The Old Man and the Sea", every word but articles and
short prepositions capitalised: ``nlp.line_ends.title_case``) is a name; a fact whose
object and relation words the sentence writes only inside such names is not stated. Speech
in quotes is in sentence case ("The Eiffel Tower is in Rome," she said.) and is read by the
speech readers. "Every member except Smith voted for it" excepts Smith
(``core.reading.exceptions``). Both engines ask :func:`unasserted` of a window through the
statement gates (``core.reading.statements``).
"""

from __future__ import annotations

import re

from triqua.core.reading.analysis import analyse
from triqua.core.reading.exceptions import excepted
from triqua.core.reading.words import word_stems
from triqua.nlp.line_ends import title_case
from triqua.schema import Fact

__all__ = ["quoted_title", "unasserted"]

#: A span in double quotes, straight or curly, on one line.
_QUOTED = re.compile(r"\"([^\"\n]{3,200})\"|“([^”\n]{3,200})”")


def unasserted(fact: Fact, text: str) -> str | None:
    """Why ``text`` writes the fact's words without asserting them, or None."""
    held = excepted(fact.subject, fact.object, text)
    if held:
        return f"the cited text excepts {held!r} from what it states"
    title = quoted_title(fact, text)
    if title:
        return f"the cited text writes it only as a title, {title!r}"
    return None


def quoted_title(fact: Fact, text: str) -> str | None:
    """The quoted title that holds every written word of the fact's object and relation."""
    if '"' not in text and "“" not in text:
        return None
    titles = [m for m in _QUOTED.finditer(text) if title_case(m.group(1) or m.group(2))]
    if not titles:
        return None
    wanted = word_stems(" ".join(t.text for t in analyse(f"{fact.relation} {fact.object}").content))
    if not wanted:
        return None
    outside = list(text)
    for m in titles:
        outside[m.start() : m.end()] = " " * (m.end() - m.start())
    if wanted & word_stems("".join(outside)):
        return None  # a word of it outside the titles: read as usual
    for m in titles:
        if wanted <= word_stems(m.group(1) or m.group(2)):
            return m.group(1) or m.group(2)
    return None
