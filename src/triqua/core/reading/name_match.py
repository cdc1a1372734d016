"""Whether a sentence names a fact's part: all its words, a surname, an acronym, its head.

"Curie" names "Marie Curie" unless another name word comes first ("Pierre Curie"); "US"
names "United States"; "the harbour" may name "the harbour of Kellby" by its head word.
"""

from __future__ import annotations

from triqua.core.reading.acronyms import qualifies_name, stands_for
from triqua.core.reading.analysis import TextInfo, coverage, has_stem, written_as_acronym
from triqua.core.reading.quotes import normalise
from triqua.core.reading.values.names import demonym_written, name_runs
from triqua.core.reading.words import Token

__all__ = ["ALIAS", "head_word", "name_match", "name_words_in"]

ALIAS = 0.8  # name-match strength of a surname or an acronym


def name_words_in(part: TextInfo, sentence: TextInfo, before: str = "") -> bool:
    """True when the sentence names every capitalised word of ``part``, itself or by acronym.

    A word the sentence writes names itself. A name of the part ("the United States") is
    also named by the acronym the sentence writes of it ("a U.S. state"), and an acronym of
    the part ("U.S.") by the name the sentence spells with it; either way as the grounding
    rule reads it (``acronyms.stands_for``): ``before``, the passage before the sentence,
    must spell those letters as no other name ("The Chicago Transit Authority … CTA" is no
    "Construction Time Again"). A place is named by its demonym too ("Chinese" for "China",
    ``names.demonym_written``). An acronym that only qualifies the capitalised name after it
    is left out by a sentence writing that name bare ("the Supreme Court" for "the U.S.
    Supreme Court"; ``acronyms.qualifies_name``), never by another one's ("the Texas
    Supreme Court").
    """
    missing = [t for t in part.content if t.is_capitalised and not has_stem(sentence.stems, t.stem)]
    if not missing:
        return True
    named: set[str] = set()
    for run in name_runs(part.text):
        if demonym_written(run.name, sentence.text) or (
            len(run.name.split()) >= 2 and stands_for(run.name, part.text, sentence.text, before)
        ):
            named.update(run.name.split())
    return all(
        normalise(t.text) in named
        or (t.stem in sentence.acronyms and stands_for(t.stem, part.text, sentence.text, before))
        or qualifies_name(t.stem, part.text, sentence.text)  # "U.S. Supreme Court"
        for t in missing
    )


def name_match(part: TextInfo, sentence: TextInfo) -> float:
    """How well the sentence names ``part``: 1 all words, 0.8 surname/acronym, 0.6 head."""
    if not part.content:
        return 0.0
    cover = coverage(part, sentence)
    if cover == 1.0:
        return 1.0
    last = part.content[-1]
    if part.is_name:
        if (
            len(last.stem) >= 3
            and last.stem in sentence.stems
            and not _other_name_before(part, last, sentence)
        ):
            return ALIAS  # a surname alone names the person: "Curie" ~ "Marie Curie"
        initials = "".join(t.text[0] for t in part.content).lower()
        if len(initials) >= 2 and initials in sentence.stems:
            return ALIAS
        return 0.0
    # A phrase's head names it, not its complement: "The largest city of Australia" names
    # Australia, never "The capital of Australia".
    head = head_word(part)
    heads = {head.stem} if head is not last else {head.stem, last.stem}
    return 0.6 if cover >= 0.5 and any(has_stem(sentence.stems, h) for h in heads) else 0.0


def _other_name_before(part: TextInfo, last: Token, sentence: TextInfo) -> bool:
    """True when no mention of a name's last word names it alone.

    A mention that follows another name word names something else ("Black Sea" does not
    name "Caspian Sea", nor "Pierre Curie" "Marie Curie"), and so does one written in lower
    case: "the Abong-Mbang sub-division" names no "Adamawa Division".
    """
    stems = {t.stem for t in part.content}
    tokens = sentence.tokens
    mentions = [i for i, t in enumerate(tokens) if t.stem == last.stem]
    letters = {t.text.replace(".", "").lower() for t in part.content if t.text.isupper()}
    return all(
        not tokens[i].is_capitalised or _another_name_word(sentence, i, stems, letters)
        for i in mentions
    )


def _another_name_word(sentence: TextInfo, at: int, stems: set[str], letters: set[str]) -> bool:
    """True when the run of capitalised words ending at ``at`` holds a word not of the name.

    Words of the name are passed over, and so are words that spell an acronym the name
    writes ("United States" of "the US Supreme Court"): "the UK Supreme Court" names no
    "U.S. Supreme Court", an acronym counting as a name word ("US", though "us" is a
    function word).
    """
    tokens = sentence.tokens
    others: list[str] = []
    while at > 0:
        word = tokens[at - 1]
        # "California, Hillenburg": punctuation between two capitalised words ends a name.
        if not word.is_capitalised or sentence.text[word.end : tokens[at].start].strip():
            break
        if word.stem not in stems:
            if word.is_stop and not written_as_acronym(word):
                break
            others.insert(0, word.text)
        at -= 1
    return bool(others) and "".join(w[0] for w in others).lower() not in letters


_PREPOSITIONS = frozenset(
    {
        "of",
        "in",
        "on",
        "at",
        "for",
        "with",
        "from",
        "to",
        "by",
        "about",
        "between",
        "during",
        "under",
        "over",
        "into",
        "through",
        "among",
        "within",
        "without",
        "against",
        "like",
    }
)


def head_word(part: TextInfo) -> Token:
    """The head word of a noun phrase: its last content word before any preposition.

    "atoms" in "hydrogen atoms in water molecules".
    """
    cut = next((t.start for t in part.tokens if t.text.lower() in _PREPOSITIONS), None)
    before = [t for t in part.content if cut is None or t.start < cut]
    return (before or list(part.content))[-1]
