"""Direct speech: words a passage reports someone saying, whose pronouns are the speaker's.

In ``"He was born in Ulm in 1879," wrote Einstein of himself.`` the "He" is Einstein, the
speaker, whoever the sentence before it names: a pronoun in direct speech refers within
the speech, never back to the passage. The grounding rule reads pronouns that may carry a
subject only outside it. And a speaker says "I" of themself: a "he" or "she" inside the
speech is someone the speaker speaks of, so ``"He was born in Warsaw," she said.`` says
nothing of where she was born.
"""

from __future__ import annotations

import re

from triqua.sentences import sentence_spans

__all__ = ["inside_speech", "open_quotation", "outside_speech", "speaks_of_another"]

#: Direct speech in double quotes, straight or curly (one left open runs to the text's end),
#: or in single quotes that open before a word and close after one, as no apostrophe does
#: ("'He was born in Warsaw,' she said"; not "Newton's" nor "the boys' club").
_SPEECH = re.compile(
    r"\"[^\"]*(?:\"|$)|“[^”]*(?:”|$)"
    r"|(?<![\w'’])['‘](?=[^\W\d_])[^\n]*?[\w,.!?;:]['’](?![\w'’])"
)


def outside_speech(text: str, before: str = "") -> str:
    """``text`` with its direct speech blanked out.

    ``before`` is the passage before ``text``: when its last sentence leaves a quotation
    open, ``text`` opens inside that speech (a quote cut from ``"He was born in Ulm,"``).
    A single quote is speech only where it opens before a word and closes after one.
    """
    opened, mark = _left_open(before)
    read = f"{mark}{text}" if opened else text
    if _SPEECH.search(read) is None:
        return text  # no speech: nothing to blank
    blanked = _SPEECH.sub(lambda m: " " * len(m.group()), read)
    return blanked[1:] if opened else blanked


def open_quotation(before: str) -> str:
    """The quotation mark the last sentence of ``before`` leaves open ("" when none).

    All that :func:`outside_speech`, :func:`inside_speech` and :func:`speaks_of_another`
    read of the passage before a text: passing the mark itself as ``before`` reads the
    text as the whole passage would.
    """
    opened, mark = _left_open(before)
    return mark if opened else ""


def _left_open(before: str) -> tuple[bool, str]:
    """Whether the last sentence of ``before`` leaves a quotation open, and its mark.

    Text without a double quote leaves none open, whatever its sentences (not split then).
    """
    if '"' not in before and "“" not in before:
        return False, '"'
    spans = sentence_spans(before)
    last = before[spans[-1][0] :] if spans else before
    # The passage as a whole must leave it open too: a sentence split inside a quoted
    # title ('the film "Dev.D" in 2009') leaves a closed quotation in two halves.
    curly = last.count("“") > last.count("”") and before.count("“") > before.count("”")
    straight = last.count('"') % 2 == 1 and before.count('"') % 2 == 1
    return curly or straight, "“" if curly else '"'


#: Pronouns of a third person: inside direct speech, someone the speaker speaks of.
_THIRD_PERSON = frozenset(("he", "she", "him", "her", "his", "hers", "they", "them", "their"))


def inside_speech(text: str, before: str = "") -> str:
    """The words of ``text`` inside direct speech (everything :func:`outside_speech` blanks)."""
    outside = outside_speech(text, before)
    if outside is text:  # no speech at all
        return " " * len(text)
    return "".join(c if o == " " and c != " " else " " for c, o in zip(text, outside, strict=True))


def speaks_of_another(text: str, before: str = "") -> bool:
    """True when direct speech in ``text`` says something of "he", "she" or "they".

    Such a speech is about a third person, not its speaker nor the one the passage named
    before it, unless the speech names them itself (which the caller reads).
    """
    words = re.findall(r"[^\W\d_]+", inside_speech(text, before).casefold())
    return bool(_THIRD_PERSON.intersection(words))
