"""Hearsay that runs on: a sentence that only repeats, by a pronoun, what the one before reports.

"Some tourists say the Colosseum is in Paris. It is in Paris." The first sentence reports
hearsay (``core.reading.frames``: a saying verb of no one named, a belief, a rumour); the
second adds nothing of its own: its subject is a pronoun and every content word of it is
one the report holds, so it goes on in the report's voice and asserts no more than the
report does. A sentence after a report that says anything new ("It is in Rome.") is the
passage's own, as is any sentence after a sentence that frames nothing ("Visitors often
photograph the Colosseum. It is in Rome."). Both engines leave such an echo unread: the
offline verifier (``passage_reading``) and the grounding rule (``stating``).
"""

from __future__ import annotations

import functools
import re

from triqua.core.reading.analysis import analyse
from triqua.core.reading.frames import frame_of
from triqua.core.reading.lexicon import LEXICON
from triqua.core.reading.words import stem
from triqua.sentences import sentence_spans

__all__ = ["echoed_spans"]

_FIRST_WORD = re.compile(r"\W*([^\W\d_]+)")


@functools.lru_cache(maxsize=4096)  # every fact of a run reads its passages again
def echoed_spans(passage: str) -> tuple[tuple[int, int], ...]:
    """The (start, end) of each sentence that only repeats the hearsay the one before reports."""
    spans = sentence_spans(passage)
    return tuple(
        spans[i]
        for i in range(1, len(spans))
        if _echoes(passage[slice(*spans[i - 1])], passage[slice(*spans[i])])
    )


def _echoes(report: str, sentence: str) -> bool:
    """True when ``sentence`` opens with a pronoun and repeats words ``report`` frames."""
    first = _FIRST_WORD.match(sentence)
    if first is None or first.group(1).lower() not in LEXICON.pronouns:
        return False
    words = frozenset(stem(t.text) for t in analyse(sentence).content) - {first.group(1).lower()}
    held = frozenset(stem(w) for w in re.findall(r"[^\W_]+", report))
    if not words or not words <= held:
        return False  # a word of its own: the passage's statement
    return frame_of(report, words, words) is not None
