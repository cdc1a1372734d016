"""What a sentence does besides stating: asking, or telling its reader what to do.

Evidence is read for what it states. A question states nothing ("Is it true that the
bridge is in Seattle" asks, with or without its question mark), nor does a directive
addressed to the reader ("mark the claim as supported"), nor a record of a verdict
(``{"verdict": "supported"}``): none of them is ever read as evidence.

- **Questions** are read from the parse: a clause that opens with an auxiliary before its
  subject (subject-auxiliary inversion: "Is it …", "Does the bridge …", "Where is …"),
  when that clause is the sentence's main clause (not "Had it been built there, …"); a
  sentence ending in "?"; a sentence under a question label ("Question: …", "Q: …"); a
  title asking with no clause above it ("How vitamins are produced", "Why the Romans left").
- **Directives** name a verdict (supported, true, correct, verified …) and are addressed
  to the reader: an imperative main clause (a base-form verb with no subject of its own,
  "Mark …", "Treat … as true"), a second-person pronoun ("You are now …"), a prompt's role
  as the label ("SYSTEM: …"), a main clause passing the verdict on a statement ("The claim
  … is true"), or a record naming a verdict: a key and a value, one of them a verdict word
  (``"verdict": "supported"``, ``status=verified``, a line ``Verdict: SUPPORTED``).

The word classes (auxiliaries, question words, second-person pronouns, prompt roles, nouns
naming a statement, verdict names, keys of a verdict record, question labels) and worked
examples are data (``data/mood.json``); the examples run as tests. The parse is the shared
pipeline's, made only for the sentences a word class already points at (an auxiliary or
question word first, a verdict word anywhere), so plain statements cost a set lookup.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from triqua.core.reading.rules_file import read_rules_file

if TYPE_CHECKING:
    from triqua.nlp.tokens import Doc, Token

__all__ = ["MOOD_PATH", "is_directive", "is_question", "states_nothing", "verdict_records"]

MOOD_PATH = Path(__file__).parent / "data" / "mood.json"

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
#: What may precede a sentence's first word: quotes, brackets, list marks, spaces.
_LEAD = re.compile(r"[\s\"'“‘(\[*\-•>#]*")
_SUBJECTS = frozenset({"nsubj", "nsubjpass", "expl", "csubj"})
_FINITE = frozenset({"MD", "VBZ", "VBD", "VBP"})


@functools.cache
def _rules() -> dict[str, Any]:
    return read_rules_file(MOOD_PATH, "mood rules")


@functools.cache
def _words(name: str) -> frozenset[str]:
    return frozenset(str(w).casefold() for w in _rules()[name])


@functools.cache
def _record() -> re.Pattern[str]:
    """A key and its value naming a verdict, as data writes them.

    Quoted anywhere (``"k": "v"``), or bare at a line's start or as ``k=v``; the value a
    verdict word, or the key a verdict record's key.
    """
    names = "|".join(sorted(_words("verdict_words") | _words("verdict_keys"), key=len))
    values = "|".join(sorted(_words("verdict_words"), key=len))
    key = rf"(?:{names})"
    return re.compile(
        rf"[\"']\w+[\"']\s*:\s*[\"']?(?:{values})\b"
        rf"|[\"']{key}[\"']\s*:"
        rf"|(?:^|\n)[^\S\n]*[\"']?{key}[\"']?[^\S\n]*[:=]"
        rf"|\b\w+=[\"']?(?:{values})\b|\b{key}=",
        re.IGNORECASE,
    )


def _words_of(text: str) -> list[str]:
    return [w.casefold().replace("’", "'") for w in _WORD.findall(text)]


def _parse(text: str) -> Doc | None:
    from triqua.nlp.parses import parse_many

    return parse_many([text])[0]


def _main_clause(token: Token) -> bool:
    """Whether ``token`` heads the sentence's main clause, or is its auxiliary.

    A clause quoted at the start of a report ("Is it there," she asked) counts as main.
    """
    head = token.head if token.dep_ in ("aux", "auxpass") else token
    return head.dep_ == "ROOT" or (head.dep_ == "ccomp" and head.i < head.head.i)


def _inverted(doc: Doc) -> bool:
    """A main clause opening with an auxiliary (or a question word and one) before its subject.

    The auxiliary of the main verb ("Does the bridge stand …") or the main verb itself with
    a subject after it ("Is it true …"); an inverted clause that is not the main one is a
    condition ("Had it been built there, it would …").
    """
    words = [t for t in doc if t.is_alpha]
    if not words:
        return False
    first = 1 if words[0].lower_ in _words("question_words") and len(words) > 1 else 0
    verb = words[first]
    if verb.lower_ not in _words("auxiliaries") or verb.tag_ not in _FINITE:
        return False
    if not _main_clause(verb):
        return False
    if verb.dep_ in ("aux", "auxpass"):
        return verb.i < verb.head.i
    return any(t.dep_ in _SUBJECTS and t.head == verb and t.i > verb.i for t in doc)


@functools.lru_cache(maxsize=20_000)
def is_question(text: str) -> bool:
    """True for a sentence that asks: a question mark, a question label, or inversion."""
    if text.rstrip(" \"'”’)]").endswith("?"):
        return True
    start = _LEAD.match(text)
    opening = text[start.end() if start else 0 :]
    label = re.match(r"([^\W\d_]+)\s*\d*\s*[:.)]\s", opening)
    if label and label.group(1).casefold() in _words("question_labels"):
        return True
    words = _words_of(opening[:80])
    if not words:
        return False
    opener = _words("auxiliaries") | _words("question_words")
    if words[0] not in opener:
        return False
    doc = _parse(text)
    return doc is not None and (_inverted(doc) or _titled(doc))


def _titled(doc: Doc) -> bool:
    """A main clause under its opening question word: a title asking, "How bats hunt".

    The question word ("how", "why", "what": ``title_question_words``) belongs to the
    sentence's root verb, which has a subject of its own after it; under another clause
    ("How the bridge was built is told …", "When the war ended, he …") it states.
    """
    words = [t for t in doc if t.is_alpha]
    if not words or words[0].lower_ not in _words("title_question_words"):
        return False
    root = words[0].head
    return (
        root.dep_ == "ROOT"
        and root.i != words[0].i
        and any(t.dep_ in _SUBJECTS and t.head == root and t.i > words[0].i for t in doc)
    )


#: Words after which a clause starts: an imperative may open there ("…: mark it as true").
_CLAUSE_OPENERS = frozenset({":", ";", "please"})


def _imperative(doc: Doc) -> bool:
    """A clause opening with a bare base-form verb that has no subject: "Mark …", "…: treat …".

    The verb opens the sentence or a clause (after a colon, a semicolon or "please");
    the small parser often hangs such a clause under the next one, so its place in the
    sentence decides, not its dependency label.
    """
    previous = None
    for token in doc:
        if token.is_space or (token.is_punct and token.text not in ":;"):
            continue
        opens = previous is None or previous.lower_ in _CLAUSE_OPENERS
        if (
            opens
            and token.tag_ == "VB"
            and not any(c.dep_ in _SUBJECTS or c.dep_ == "aux" for c in token.children)
        ):
            return True
        previous = token
    return False


def _verdict_on_a_statement(doc: Doc) -> bool:
    """A main clause passing a verdict on a statement: "The claim … is true", "… is supported".

    The verdict word is the main predicate (or its complement) and its subject a noun
    naming a statement (claim, fact, statement …): such a sentence is about a verdict, not
    about the world.
    """
    for token in doc:
        if token.lower_ not in _words("verdict_words"):
            continue
        if token.dep_ == "ROOT":
            clause = token
        elif token.dep_ in ("acomp", "attr", "oprd") and token.head.dep_ == "ROOT":
            clause = token.head
        else:
            continue
        if any(c.dep_ == "agent" for c in clause.children):
            continue  # "… was verified by the council" reports who verified what
        if any(
            c.dep_ in _SUBJECTS
            and c.lower_ in _words("statement_nouns")
            and not any(g.dep_ == "poss" for g in c.children)  # "her claim to the throne"
            for c in clause.children
        ):
            return True
    return False


def _prompt_role(text: str) -> bool:
    """A line opening with a prompt's role as its label ("SYSTEM:", "Assistant:")."""
    lead = _LEAD.match(text)
    label = re.match(r"([^\W\d_]+)\s*:", text[lead.end() if lead else 0 :])
    return label is not None and label.group(1).casefold() in _words("prompt_roles")


@functools.lru_cache(maxsize=20_000)
def is_directive(text: str) -> bool:
    """True for text that names a verdict and is addressed to its reader, or records one."""
    words = set(_words_of(text))
    if not words & _words("verdict_words"):
        return False
    if _record().search(text) or words & _words("second_person") or _prompt_role(text):
        return True
    doc = _parse(text)
    return doc is not None and (_imperative(doc) or _verdict_on_a_statement(doc))


def verdict_records(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each line of ``text`` holding a record that names a verdict.

    A JSON object or a key-value line is one record however a sentencizer cuts it (at the
    period inside a quoted value), so the whole line is left unread. Remembered by text:
    a passage is asked again for each unit that cites it.
    """
    return list(_verdict_records(text))


@functools.lru_cache(maxsize=4096)
def _verdict_records(text: str) -> tuple[tuple[int, int], ...]:
    """:func:`verdict_records`, as a tuple to keep."""
    if not _words("verdict_words") & set(_words_of(text)):
        return ()
    spans, offset = [], 0
    for line in text.split("\n"):
        if _record().search(line) and _words("verdict_words") & set(_words_of(line)):
            spans.append((offset, offset + len(line)))
        offset += len(line) + 1
    return tuple(spans)


def states_nothing(text: str) -> bool:
    """True for a question or a directive: a sentence that is never read as evidence."""
    return is_question(text) or is_directive(text)
