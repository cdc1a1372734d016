"""Short answers read with their question: "Paris." as "Alan Turing was born in Paris.".

In question mode the checked text answers a question, and an answer is often a bare phrase
("Paris.", "In 1969.", "Alexander Graham Bell.", "Yes."). A fragment states no clause, so
the clause rules find no fact in it and a wrong answer would go unchecked. What such an
answer claims is the question with the answer put in place of its wh-phrase, so this module
writes that declarative statement, which the clause rules then decompose as any sentence.

The rewriting reads the question's words in order, with spaCy's tags, rather than its
dependency tree: ``en_core_web_sm`` parses questions poorly ("In which city was Turing
born?" tags "Turing" as a verb and makes it the root), while the word order of an English
question (wh-phrase, auxiliary, subject, verb phrase) is regular. Only the shapes below are
rewritten; anything else gives ``None`` and the answer stays "not decomposed", so a
statement is never made up from an answer the rules cannot read:

- where / when (and "what year", a preposition and "which city"): the answer goes at the
  end of the declarative clause behind its preposition ("X was born in <answer>");
- who / what / which-noun / how-many as subject: the answer takes the wh-phrase's place
  ("<answer> invented the telephone");
- who / what / which-noun / how-many as object: the answer follows the verb ("Beethoven did
  compose <answer> symphonies");
- who / what with a copula: "What is the capital of Australia?" gives "The capital of
  Australia is <answer>";
- yes/no questions answered "Yes" or "No" (optionally with an elliptic "she did"): the
  question as a statement, negated for "No".

Do-support stays as written ("X did walk on the Moon"): spaCy's pipeline here has no
lemmatizer or inflector, and the clause rules and the verifier read "did walk on" as "walked
on". Negative questions ("Didn't she…?") are not rewritten: what "Yes" asserts is unclear.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from triqua.core.reading.lexicon import LEXICON

if TYPE_CHECKING:
    from triqua.nlp.tokens import Doc, Span, Token

__all__ = ["MAX_ANSWER_TOKENS", "answer_statement", "is_short_answer", "last_question"]

MAX_ANSWER_TOKENS = 12
"""Longer fragments are not read as answers: they are lists or headings, not one value."""


def _words(text: str) -> frozenset[str]:
    """A word list written as one string."""
    return frozenset(text.split())


_FINITE_TAGS = frozenset({"VBD", "VBZ", "VBP", "MD"})
_VERB_TAGS = frozenset({"VB", "VBD", "VBZ", "VBP", "VBN", "VBG", "MD"})
_AUXILIARIES = _words(
    "am is are was were be been being do does did have has had will would shall should can "
    "could may might must"
)
_DO = frozenset({"do", "does", "did"})
_NEGATIONS = frozenset({"not", "n't", "never"})
_WH_PLACE = frozenset({"where"})
_WH_TIME = frozenset({"when"})
_WH_ENTITY = frozenset({"who", "whom", "what", "which"})
#: Nouns after "what"/"which" that ask for a time ("What year did…?"): read like "when".
_TIME_NOUNS = frozenset({"year", "date", "day", "month", "century", "decade", "time"})
#: Verbs of motion, whose "where" is a destination: "Where did Curie move?" -> "to Paris".
_MOTION_VERBS = _words(
    "move moved go went travel travelled traveled emigrate emigrated flee fled return "
    "returned relocate relocated immigrate immigrated migrate migrated sail sailed fly flew "
    "come came head headed"
)
_WEEKDAYS = _words("monday tuesday wednesday thursday friday saturday sunday")
#: Time phrases that take no preposition ("last year", "two days ago", "yesterday").
_BARE_TIME = _words("yesterday today tomorrow tonight last next this ago")
_YES = frozenset({"yes", "yeah", "yep", "correct", "true", "indeed"})
_NO = frozenset({"no", "nope", "incorrect", "false"})
_YES_NO = re.compile(
    r"^\s*(?P<word>[A-Za-z]+)\s*(?:[,;:.!]\s*(?P<echo>[A-Za-z]+\s+[A-Za-z']+(?:\s+not)?)?)?"
    r"\s*[.!]*\s*$"
)

Role = Literal["place", "time", "entity"]


def is_short_answer(sent: Span) -> bool:
    """True when ``sent`` is a fragment that can only be read with its question.

    A short answer has no finite verb and no verb at all ("Paris.", "In 1969.", "Nine.",
    "Maida Vale, London."), or is a bare "Yes"/"No" with at most an elliptic echo ("No, she
    did not."). A participle phrase ("Born in Paris.") is not one: it would need its verb
    merged with the question's, which is not done.
    """
    words = [t for t in sent if not t.is_punct and not t.is_space]
    if not words or len(words) > MAX_ANSWER_TOKENS:
        return False
    if _polarity(sent.text) is not None:
        return True
    return not any(t.tag_ in _VERB_TAGS or t.pos_ in {"VERB", "AUX"} for t in words)


def last_question(doc: Doc) -> Span | None:
    """The last sentence of ``doc`` that ends with a question mark, else ``None``."""
    found = [s for s in doc.sents if s.text.rstrip().endswith("?")]
    return found[-1] if found else None


def answer_statement(question: Span, answer: Span) -> str | None:
    """The declarative statement that ``answer`` makes in reply to ``question``.

    Args:
        question: one parsed question sentence (ending with "?").
        answer: the parsed short answer (see :func:`is_short_answer`).

    Returns:
        The statement ("Alan Turing was born in Maida Vale, London."), or ``None`` when the
        question's shape is not one this module reads or the answer does not fit it.
    """
    words = [t for t in question if not (t.is_punct and t.i == question.end - 1) and not t.is_space]
    if not words or any(t.lower_ in _NEGATIONS for t in words):
        return None
    polarity = _polarity(answer.text)
    if words[0].lower_ in _AUXILIARIES:
        return None if polarity is None else _yes_no(question, words, polarity)
    if polarity is not None:
        return None
    phrase = _answer_words(answer)
    if not phrase or any(t.lower_ == "or" or t.text == "," for t in words):
        return None  # a choice ("London or Paris?") is not a slot this module fills
    if _text(phrase).lower() in question.text.lower():
        return None  # the answer repeats the question ("Who is Alan Turing?" "Alan Turing")
    return _wh(words, phrase)


def _polarity(text: str) -> bool | None:
    """True for a "Yes" answer, False for a "No" answer, ``None`` for anything else."""
    match = _YES_NO.match(text)
    if match is None:
        return None
    word = match.group("word").lower()
    said = True if word in _YES else False if word in _NO else None
    echo = match.group("echo")
    if said is None or echo is None:
        return said
    pronoun, rest = echo.lower().split(maxsplit=1)
    if pronoun not in {"he", "she", "it", "they", "i", "we", "you", "there"}:
        return None
    negated = rest.endswith("n't") or rest.endswith(" not")
    verb = rest.removesuffix(" not").removesuffix("n't")
    if verb not in _AUXILIARIES and verb not in {"ca", "wo"}:
        return None
    return said if negated is not said else None


def _answer_words(answer: Span) -> list[Token]:
    """The answer's words without its closing punctuation."""
    words = [t for t in answer if not t.is_space]
    while words and words[-1].is_punct:
        words.pop()
    while words and words[0].is_punct:
        words.pop(0)
    return words


def _text(tokens: Sequence[Token]) -> str:
    """The tokens' text as written, spacing kept, trimmed."""
    return "".join(t.text_with_ws for t in tokens).strip()


def _inline(tokens: Sequence[Token]) -> str:
    """The answer's text for the middle of a sentence: a common first word lower-cased."""
    text = _text(tokens)
    first = tokens[0]
    word = first.text
    common = first.tag_ not in {"NNP", "NNPS"} and word[:1].isupper()
    if common and (word[1:].islower() or word == "A"):
        text = first.text.lower() + text[len(first.text) :]
    return text


def _sentence(parts: Sequence[str]) -> str:
    """Join parts into one sentence: first letter capitalised, a full stop at the end."""
    text = " ".join(p for p in parts if p)
    return text[:1].upper() + text[1:] + "."


def _is_verb(token: Token) -> bool:
    """A verb in a question's verb phrase; a capitalised word is a name the tagger missed."""
    return token.tag_ in _VERB_TAGS and not token.text[:1].isupper()


def _is_stranded(tokens: Sequence[Token]) -> bool:
    """True when the clause ends with a preposition that lost its object ("born in")."""
    return bool(tokens) and tokens[-1].tag_ in {"IN", "RP"} and tokens[-1].lower_ != "that"


def _wh_phrase(words: Sequence[Token]) -> tuple[int, Role, Token | None, Token | None] | None:
    """Where the wh-phrase ends, what it asks for, its preposition and its noun.

    Returns ``(end, role, preposition, noun)``: ``end`` the index of the first word after
    the phrase, ``preposition`` a fronted one ("In which city"), ``noun`` the head noun of
    "which city" / "how many symphonies"; ``None`` for a question this module does not read.
    """
    at = 0
    preposition = None
    if words[0].tag_ == "IN" and len(words) > 1:
        preposition, at = words[0], 1
    head = words[at].lower_
    if head in _WH_PLACE or head in _WH_TIME:
        if preposition is not None:
            return None
        return at + 1, "place" if head in _WH_PLACE else "time", None, None
    if head == "how" and at + 1 < len(words) and words[at + 1].lower_ in {"many", "much"}:
        at += 2
    elif head in _WH_ENTITY:
        at += 1
    else:
        return None
    noun = None
    while at < len(words) and words[at].pos_ in {"NOUN", "PROPN", "ADJ", "NUM"}:
        if words[at].tag_ in _VERB_TAGS:
            break
        noun = words[at]
        at += 1
    if head == "how" and noun is None and words[at - 1].lower_ == "many":
        return None
    role: Role = "time" if noun is not None and noun.lower_ in _TIME_NOUNS else "entity"
    if head in {"who", "whom"} and noun is not None:
        return None
    return at, role, preposition, noun


def _wh(words: Sequence[Token], answer: Sequence[Token]) -> str | None:
    """The statement for a wh-question, or ``None``."""
    found = _wh_phrase(words)
    if found is None:
        return None
    end, role, preposition, noun = found
    rest = list(words[end:])
    if not rest or rest[0].tag_ not in _FINITE_TAGS:
        return None
    filler = _filler(answer, words[:end], noun, role)
    if filler is None:
        return None
    first = rest[0]
    after = rest[1:]
    if role == "entity" and preposition is None and _is_subject_question(first, after):
        return _sentence([filler, _text(rest)])
    if first.lower_ not in _AUXILIARIES:
        return None
    subject, verb_phrase = _split_subject(after)
    if not subject:
        return None
    if first.lower_ in _DO and not verb_phrase:
        return None
    slot = _slot(answer, filler, role, preposition, verb_phrase)
    if slot is None:
        return None
    if role == "entity" and preposition is None and verb_phrase and not _is_stranded(verb_phrase):
        return _sentence([_text(subject), first.text.lower(), _object_place(verb_phrase, slot)])
    if not verb_phrase and role == "entity" and preposition is None:
        return _sentence([_text(subject), first.text.lower(), slot])  # "X is <answer>"
    return _sentence([_text(subject), first.text.lower(), _text(verb_phrase), slot])


def _is_subject_question(first: Token, after: Sequence[Token]) -> bool:
    """True when the wh-phrase is the subject: "Who invented…", "Who was born in…"."""
    if first.lower_ not in _AUXILIARIES:
        return True  # a lexical verb straight after the wh-phrase
    if first.lower_ in _DO:
        return False
    if not after:
        return False
    nxt = after[0]
    return _is_verb(nxt) or (nxt.tag_ == "RB" and nxt.lower_ not in _NEGATIONS)


def _split_subject(after: Sequence[Token]) -> tuple[list[Token], list[Token]]:
    """Cut the words after the auxiliary into the subject and the verb phrase.

    The subject runs up to the first verb (or adverb before a verb); with no verb (a
    copula question, "Where is the Eiffel Tower?") it is every word but a stranded
    preposition ("Where is Alan Turing from?").
    """
    for k, token in enumerate(after):
        if _is_verb(token):
            return list(after[:k]), list(after[k:])
        if token.tag_ == "RB" and k + 1 < len(after) and _is_verb(after[k + 1]) and k > 0:
            return list(after[:k]), list(after[k:])
    words = list(after)
    if _is_stranded(words):
        return words[:-1], words[-1:]
    return words, []


def _filler(
    answer: Sequence[Token], wh: Sequence[Token], noun: Token | None, role: Role
) -> str | None:
    """The answer as the phrase that replaces the wh-phrase ("nine symphonies")."""
    text = _inline(answer)
    counted = any(t.lower_ == "how" for t in wh)
    if counted and noun is not None:
        if not any(t.like_num for t in answer):
            return None
        if not any(t.lower_[:4] == noun.lower_[:4] for t in answer):
            text = f"{text} {_text(_noun_words(wh, noun))}"
    return text


def _noun_words(wh: Sequence[Token], noun: Token) -> list[Token]:
    """The words of "how many Nobel Prizes" after "how many"."""
    return [t for t in wh if t.lower_ not in {"how", "many", "much"} and t.i <= noun.i]


def _slot(
    answer: Sequence[Token],
    filler: str,
    role: Role,
    preposition: Token | None,
    verb_phrase: Sequence[Token],
) -> str | None:
    """The answer as it stands in the clause, with the preposition it needs."""
    own = answer[0].tag_ == "IN" and len(answer) > 1
    bare = _text(answer[1:]) if own else filler
    if preposition is not None:
        return f"{preposition.lower_} {bare}"
    if _is_stranded(verb_phrase):
        return bare
    if own:
        return _inline(answer)
    if role == "place":
        verbs = {t.lower_ for t in verb_phrase}
        return f"{'to' if verbs & _MOTION_VERBS else 'in'} {filler}"
    if role == "time":
        word = _time_preposition(answer)
        return f"{word} {filler}" if word else filler
    return filler


def _time_preposition(answer: Sequence[Token]) -> str:
    """The preposition a time answer takes: "on 20 July 1969", "in 1969", none for "ago"."""
    lowered = [t.lower_ for t in answer]
    if any(w in _BARE_TIME for w in lowered):
        return ""
    if any(w in _WEEKDAYS for w in lowered):
        return "on"
    months = LEXICON.month_numbers
    if any(w in months for w in lowered) and any(
        t.like_num and t.text.isdigit() and 1 <= int(t.text) <= 31 for t in answer
    ):
        return "on"
    if any(":" in w or w in {"am", "pm", "a.m.", "p.m.", "noon", "midnight"} for w in lowered):
        return "at"
    return "in"


def _object_place(verb_phrase: Sequence[Token], slot: str) -> str:
    """The verb phrase with the answer as its object, after the verb and any particle."""
    k = 0
    while k < len(verb_phrase) and _is_verb(verb_phrase[k]):
        k += 1
    while k < len(verb_phrase) and verb_phrase[k].tag_ == "RP":
        k += 1
    return " ".join(p for p in (_text(verb_phrase[:k]), slot, _text(verb_phrase[k:])) if p)


def _yes_no(question: Span, words: Sequence[Token], polarity: bool) -> str | None:
    """The statement a "Yes"/"No" makes about a yes/no question, or ``None``."""
    first, after = words[0], list(words[1:])
    subject, verb_phrase = _split_subject(after)
    if not verb_phrase or (_is_stranded(verb_phrase) and len(verb_phrase) == 1):
        subject, verb_phrase = _copula_subject(question, after)
    if not subject or not verb_phrase:
        return None
    auxiliary = first.text.lower() if polarity else f"{first.text.lower()} not"
    return _sentence([_text(subject), auxiliary, _text(verb_phrase)])


def _copula_subject(question: Span, after: Sequence[Token]) -> tuple[list[Token], list[Token]]:
    """Subject and complement of "Is Paris the capital of France?" by the parse's subject."""
    if not after:
        return [], []
    for token in question:
        if token.dep_ in {"nsubj", "nsubjpass"} and token.left_edge.i == after[0].i:
            cut = token.right_edge.i + 1
            return [t for t in after if t.i < cut], [t for t in after if t.i >= cut]
    return [], []
