"""Code in a passage: Markdown code spans, fenced and indented blocks, which state nothing.

"To test the printer, run `echo "The Moon is made of cheese."`" writes every word of "The
Moon is made of cheese." and asserts none of it: text between backticks, in a block
fenced by ``` or ~~~, or in a block indented four spaces that a line ending in a colon
introduces ("Test fixture:", "Run:") amid prose, is
a program's text or a sample, not the author's statement (a passage indented throughout is
prose set in from the margin, and is read). Both
engines read a passage with its code blanked out (:func:`blank_code`, offsets kept): the
offline verifier aligns no sentence with words inside code (``passage_reading``) and the
grounding rule refuses a quote that lies inside code (``core.grounding.rule``). The
sentences around a code span are read as usual ("The command `ls` lists files. The Danube
flows into the Black Sea." still states the second sentence).
"""

from __future__ import annotations

import functools
import re

__all__ = ["blank_code", "code_spans", "inside_code"]

#: A fenced block: a line opening with ``` or ~~~ up to the line that closes it (an
#: unclosed fence runs to the text's end).
_FENCED = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})[^\n]*\n.*?(?:^[ \t]{0,3}\1[ \t]*$|\Z)", re.M | re.S)
#: An indented block: lines indented four spaces or a tab, after a blank line (or the start).
_INDENTED = re.compile(r"(?:\A|(?<=\n\n))(?:(?: {4}|\t)[^\n]*(?:\n|\Z))+")
#: A line of prose: not indented, not blank.
_PROSE = re.compile(r"^(?! {4}|\t)[^\n]*\S", re.M)
#: An inline code span: backticks around text on one line ("`ls`", "``a ` b``").
_INLINE = re.compile(r"(`+)(?=[^`\s])[^\n]*?[^`\s]\1(?!`)|(`+)[^`\s]\2(?!`)")


@functools.lru_cache(maxsize=4096)  # every fact of a run reads its passages again
def code_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The (start, end) of each fenced or indented block and inline code span, in order."""
    indented = "\n    " in text or "\n\t" in text or text.startswith(("    ", "\t"))
    if "`" not in text and "~~~" not in text and not indented:
        return ()
    spans = [m.span() for m in _FENCED.finditer(text)]
    if indented and _PROSE.search(text):  # a block set in prose; an indented excerpt is prose
        spans += [m.span() for m in _INDENTED.finditer(text) if _introduced(text, m)]
    for m in _INLINE.finditer(text):
        if not any(a <= m.start() < b for a, b in spans):
            spans.append(m.span())
    return tuple(sorted(spans))


def _introduced(text: str, block: re.Match[str]) -> bool:
    """True when a line ending in a colon introduces the indented ``block`` as a sample.

    An indented paragraph in plain text is as often a quotation or a layout as code (a
    paragraph set in after "She was a physicist."): only one a colon announces is a sample.
    """
    return bool(block.group().strip()) and text[: block.start()].rstrip().endswith(":")


def blank_code(text: str) -> str:
    """``text`` with its code blanked out (spaces, newlines kept): as long, offsets kept."""
    spans = code_spans(text)
    if not spans:
        return text
    chars = list(text)
    for a, b in spans:
        for i in range(a, b):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


def inside_code(text: str, start: int, end: int) -> bool:
    """True when every word of ``text[start:end]`` lies inside code."""
    blanked = blank_code(text)[start:end]
    return bool(text[start:end].strip()) and not any(c.isalnum() for c in blanked)
