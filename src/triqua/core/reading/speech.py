"""Direct speech: words a passage reports someone saying, whose pronouns are the speaker's.

In ``"He was born in Ulm in 1879," wrote Einstein of himself.`` the "He" is Einstein, the
speaker, whoever the sentence before it names: a pronoun in direct speech refers within
the speech, never back to the passage. The grounding rule reads pronouns that may carry a
subject only outside it.
"""

from __future__ import annotations

import re

from triqua.sentences import sentence_spans

__all__ = ["outside_speech"]

#: Direct speech in double quotes, straight or curly; one left open runs to the text's end.
_SPEECH = re.compile(r"\"[^\"]*(?:\"|$)|“[^”]*(?:”|$)")


def outside_speech(text: str, before: str = "") -> str:
    """``text`` with its direct speech blanked out.

    ``before`` is the passage before ``text``: when its last sentence leaves a quotation
    open, ``text`` opens inside that speech (a quote cut from ``"He was born in Ulm,"``).
    Single quotes are left alone: they are apostrophes as often.
    """
    spans = sentence_spans(before)
    last = before[spans[-1][0] :] if spans else before
    opened = last.count('"') % 2 == 1 or last.count("“") > last.count("”")
    mark = "“" if last.count("“") > last.count("”") else '"'
    read = f"{mark}{text}" if opened else text
    blanked = _SPEECH.sub(lambda m: " " * len(m.group()), read)
    return blanked[1:] if opened else blanked
