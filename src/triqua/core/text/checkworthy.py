"""Check-worthiness: which sentences state something a checker can verify (ElementCheck).

Opinions, questions, hedged guesses, instructions to the reader and meta-statements about the
answer itself ("As an AI language model…", "I hope this helps") assert no fact, so their
facts are not checked and they count toward neither the score nor coverage. The classifier is
rules over word lists (``data/checkworthy.json``; opinions are read by ``opinion``, the
reader the offline decomposer shares, over ``data/opinion.json``): cheap, deterministic, the
same on both engines, and readable when a sentence is excluded by mistake. Each judgement
names the rule and the words that fired, so the report can say why.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from triqua.core.text.chunking import CODE_BLOCK, HEADING, is_title_line
from triqua.core.text.opinion import opinion_reason
from triqua.core.text.phrases import first, gate, phrase, starts
from triqua.schema import Chunk, Fact, NotCheckworthySentence, Span
from triqua.sentences import sentence_spans

__all__ = [
    "Judgement",
    "Screened",
    "classify",
    "not_checkworthy_spans",
    "screen",
]

Label = Literal[
    "checkworthy", "opinion", "question", "hedge", "instruction", "meta", "heading", "code"
]


_DATA = Path(__file__).parent / "data" / "checkworthy.json"
#: Words that, right after an instruction starter, show it is a subject ("Contact was a film").
_FINITE = frozenset({"is", "was", "are", "were", "has", "had", "'s", "of", "and", "or"})
#: Instruction starters that are imperative whatever follows ("Please", "Visit Rome").
_ALWAYS_IMPERATIVE = frozenset({"please", "note that", "keep in mind", "bear in mind"})
_WORD = re.compile(r"[\w'’-]+")


@dataclass(frozen=True)
class Judgement:
    """A sentence's class and the rule (with the words that fired) that gave it."""

    label: Label
    reason: str = ""

    @property
    def checkworthy(self) -> bool:
        """Whether the sentence asserts something to check."""
        return self.label == "checkworthy"


@dataclass(frozen=True)
class _Lexicon:
    meta: tuple[re.Pattern[str], ...]
    meta_lead: tuple[str, ...]
    framing: tuple[str, ...]
    instruction: tuple[str, ...]
    request: tuple[str, ...]
    hedge: tuple[re.Pattern[str], ...]
    hedge_exempt: tuple[str, ...]


@cache
def _lexicon(path: Path = _DATA) -> _Lexicon:
    data = json.loads(path.read_text(encoding="utf-8"))
    sensitive = set(data["hedge_case_sensitive"])
    return _Lexicon(
        meta=tuple(phrase(p) for p in data["meta"]),
        meta_lead=tuple(data["meta_lead"]),
        framing=tuple(sorted(data["framing_starts"], key=len, reverse=True)),
        instruction=tuple(data["instruction_starts"]),
        request=tuple(data["request_starts"]),
        hedge=tuple(phrase(p, case_sensitive=p in sensitive) for p in data["hedge"]),
        hedge_exempt=tuple(data["hedge_exempt_after"]),
    )


def _normal(sentence: str) -> str:
    """The sentence on one line with curly apostrophes made straight."""
    return " ".join(sentence.replace("’", "'").split())


def _is_question(text: str) -> bool:
    """Ends with a question mark outside quotes (a quoted title ending in "?" is no question)."""
    return text.endswith("?") and text.count('"') % 2 == 0


def _instruction(text: str, lex: _Lexicon) -> str | None:
    starter = starts(text, lex.instruction)
    if starter is None:
        return None
    rest = text[len(starter) :].lstrip(" ,")
    following = _WORD.match(rest)
    if starter.lower() in _ALWAYS_IMPERATIVE or following is None:
        return starter
    word = following.group()
    if word.lower() in _FINITE or word[:1].isupper():  # "Contact was…", "Imagine Dragons…"
        return None
    return starter


def _hedge(text: str, lex: _Lexicon) -> str | None:
    if not gate(lex.hedge).search(text):
        return None
    for pattern in lex.hedge:
        for match in pattern.finditer(text):
            after = text[match.end() :].lstrip().lower()
            if any(after.startswith(p) for p in lex.hedge_exempt):
                continue  # "perhaps best known for…" qualifies a claim, not the whole sentence
            return match.group()
    return None


#: Why a short line without end punctuation ("Biography") is set aside: it titles what follows.
TITLE_REASON = "a title line: context for what follows"


def classify(sentence: str, titles: bool = True) -> Judgement:
    """The class of one sentence, with the rule and words that decided it.

    Checked in order: heading, meta-statement, question, instruction, opinion, hedge; a
    sentence that none of them fits is check-worthy. Evaluative wording alone does not make
    an opinion (a "celebrated author" can be checked): it takes a first-person stance, a
    summing-up sentence ("Overall, …") or a tribute ("her legacy lives on") with no number
    in it (``opinion.opinion_reason``).
    """
    if HEADING.match(sentence):  # "## Early life": a title for what follows, not a statement
        return Judgement("heading", "a Markdown heading: context for what follows")
    if titles and is_title_line(sentence):  # "Biography" on its own line: a title
        return Judgement("heading", TITLE_REASON)
    lex = _lexicon()
    text = _normal(sentence)
    if not any(c.isalnum() for c in text):
        return Judgement("checkworthy")
    frame = starts(text, lex.framing)
    if frame:  # "Note that he retired in 2001." is as check-worthy as what it frames
        rest = text[len(frame) :].lstrip(" ,:")
        if rest:
            return classify(rest[:1].upper() + rest[1:])
    lead = starts(text, lex.meta_lead)
    if lead and text.endswith(":"):
        return Judgement("meta", f"introduces the answer ('{lead}…:')")
    meta = first(lex.meta, text)
    if meta:
        return Judgement("meta", f"speaks about the answer or the assistant ('{meta}')")
    if _is_question(text):
        return Judgement("question", "ends with a question mark")
    request = starts(text, lex.request)
    if request:
        return Judgement("question", f"asks the reader ('{request}')")
    starter = _instruction(text, lex)
    if starter:
        return Judgement("instruction", f"addresses the reader ('{starter}')")
    opinion = opinion_reason(text)
    if opinion:
        return Judgement("opinion", opinion)
    hedge = _hedge(text, lex)
    if hedge:
        return Judgement("hedge", f"does not assert it ('{hedge}')")
    return Judgement("checkworthy")


def _pieces(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A sentence's lines (a heading and the sentence after it are judged apart)."""
    pieces = []
    for match in re.finditer(r"[^\n]+", text[start:end]):
        body = match.group()
        lead = len(body) - len(body.lstrip())
        if body.strip():
            at = start + match.start()
            pieces.append((at + lead, at + len(body.rstrip())))
    return pieces


def not_checkworthy_spans(text: str, titles: bool = True) -> list[tuple[int, int, Judgement]]:
    """``(start, end, judgement)`` of each sentence (or line) of ``text`` not worth checking.

    A fenced code block is set aside whole (it is a chunk of its own, ``core.text.chunking``).
    Without ``titles`` a short line without end punctuation is no title (an answer to a
    question may be one word: "Paris").
    """
    code = Judgement("code", "a code block: not a statement about the world")
    blocks = [(m.start(), m.end()) for m in CODE_BLOCK.finditer(text)]
    found = [(start, end, code) for start, end in blocks]
    for start, end in sentence_spans(text):
        for piece_start, piece_end in _pieces(text, start, end):
            if any(a <= piece_start < b for a, b in blocks):
                continue
            judgement = classify(text[piece_start:piece_end], titles)
            if not judgement.checkworthy:
                found.append((piece_start, piece_end, judgement))
    return sorted(found, key=lambda item: item[0])


@dataclass
class Screened:
    """A chunk's screened decomposition: facts and no-fact spans kept, sentences set aside."""

    facts: list[Fact]
    undecomposed: list[Span]
    excluded: list[NotCheckworthySentence]


def _inside(span: Span, start: int, end: int) -> bool:
    return start <= span.start and span.end <= end


def screen(
    chunk: Chunk,
    facts: Sequence[Fact],
    undecomposed: Sequence[Span],
    keep: bool,
    titles: bool = True,
) -> Screened:
    """Set aside the chunk's not-check-worthy sentences, and (unless ``keep``) their facts.

    A fact whose span lies inside such a sentence is dropped; a sentence without facts that is
    not check-worthy is no longer "undecomposed" (nothing was lost). With ``keep`` every fact
    stays and the sentences are still listed, marked kept. Offsets are the full text's.
    """
    excluded = []
    kept_facts = list(facts)
    kept_spans = list(undecomposed)
    for start, end, judgement in not_checkworthy_spans(chunk.text, titles):
        label = judgement.label
        if label == "checkworthy":  # not listed by not_checkworthy_spans; narrows the type
            continue
        start, end = chunk.start + start, chunk.start + end
        inside = [f for f in kept_facts if f.span is not None and _inside(f.span, start, end)]
        if not keep:
            kept_facts = [f for f in kept_facts if f not in inside]
            kept_spans = [s for s in kept_spans if not _inside(s, start, end)]
        excluded.append(
            NotCheckworthySentence(
                chunk_index=chunk.index,
                span=Span(start=start, end=end),
                text=chunk.text[start - chunk.start : end - chunk.start],
                label=label,
                reason=judgement.reason,
                facts=len(inside),
                kept=keep,
            )
        )
    return Screened(facts=kept_facts, undecomposed=kept_spans, excluded=excluded)
