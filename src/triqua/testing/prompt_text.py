"""Reading triqua's prompts back: the text shown, fenced blocks, evidence passages, quotes.

Scripted responders answer from the prompt, so they need what the prompt shows: the text
(numbered sentences joined back), a fenced block's body, the evidence passages by id, and
the passage sentence that best quotes a unit.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any


def shown_text(prompt: str) -> str:
    """The text a decomposition prompt asks about: its numbered TEXT sentences, numbers cut.

    Joined by single spaces (each sentence's inner whitespace is collapsed in the prompt).
    """
    from triqua.prompts import shown_sentences

    return " ".join(shown_sentences(prompt))


def shown_parts(prompt: str) -> list[tuple[str | None, str]]:
    """Each chunk a decomposition prompt shows: (its PREVIOUS or None, its TEXT, numbers cut).

    Read from the input (the last "Mode:" message), in order; sentences are joined by
    single spaces as :func:`shown_text` joins them.
    """
    body = prompt[prompt.rfind("Mode: ") :]
    blocks = re.findall(r"<<<(PREVIOUS|TEXT)>>>\n(.*?)\n<<<END \1>>>", body, flags=re.S)
    parts: list[tuple[str | None, str]] = []
    previous: str | None = None
    for tag, text in blocks:
        if tag == "PREVIOUS":
            previous = text
            continue
        lines = [line.partition(" ")[2] for line in text.splitlines() if line.strip()]
        parts.append((previous, " ".join(lines)))
        previous = None
    return parts


def fenced(prompt: str, tag: str) -> str:
    """The body between ``<<<TAG…>>>`` and ``<<<END TAG>>>``: the last match, the real input.

    Few-shot examples in the system prompt carry the same markers, so the last one counts.
    """
    start = prompt.rfind(f"<<<{tag}")
    if start < 0:
        return ""
    body_start = prompt.find(">>>", start) + 3
    end = prompt.find(f"<<<END {tag}>>>", body_start)
    return prompt[body_start:end].strip()


def dumps(value: Any) -> str:
    """JSON text, for responders that want to return malformed or raw output."""
    return json.dumps(value)


_PASSAGE = re.compile(r"<<<EVIDENCE id=(ev-[0-9a-f]+)>>>\n(.*?)\n<<<END EVIDENCE>>>", re.S)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'“(])")
_WORD = re.compile(r"\w+")


def passages(prompt: str) -> dict[str, str]:
    """The evidence passages of a verify prompt, by id, without their ``[source]`` header."""
    found = {}
    for evidence_id, body in _PASSAGE.findall(prompt):
        header, newline, text = body.partition("\n")
        found[evidence_id] = text if newline and header.startswith("[") else body
    return found


def best_quote(passage: str, unit: str) -> str:
    """The sentence of ``passage`` sharing the most words with ``unit``: a scripted quote.

    What a careful judge would copy into ``quote``: two consecutive sentences when the second
    alone lacks words the pair has (a subject named before "It …"); ties go to the shorter,
    then the earlier quote.
    """
    wanted = {w.casefold() for w in _WORD.findall(unit)}
    sentences = [s.strip() for s in _SENTENCE_END.split(passage) if s.strip()]
    if not sentences:
        return passage.strip()
    windows = [*sentences]
    for first, second in itertools.pairwise(sentences):
        at = passage.find(first)
        end = passage.find(second, at + len(first)) + len(second)
        windows.append(passage[at:end])

    def shared(text: str) -> int:
        return len(wanted & {w.casefold() for w in _WORD.findall(text)})

    return max(windows, key=lambda w: (shared(w), -len(w)))
