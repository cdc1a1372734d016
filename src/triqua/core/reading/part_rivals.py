"""What in a sentence stands against one part of a fact: rivals of its words and roles.

A negation cue before the relation word, a word substituted for one of a text value's
("baseball clubs" is not "football clubs"), swapped roles, and values in another clause
than the relation's (a rival name in the value's slot is ``slot_rivals``'). Pure readings
of analysed text: what they mean for a unit is the verifier's to decide
(``engines.offline.verify``). The relation's words and antonyms are ``fact_parts``'.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from triqua.core.reading.analysis import (
    TextInfo,
    Token,
    has_stem,
    is_negated,
    stems_match,
)
from triqua.core.reading.lexicon import LEXICON
from triqua.core.reading.values.table import RULES

__all__ = [
    "count_substitution",
    "in_scope",
    "negated_near",
    "passive_at",
    "roles_differ",
    "substitution",
    "values_elsewhere",
]


def negated_near(sentence: TextInfo, anchor: Token | None, part: TextInfo, scoped: str) -> bool:
    """True when a negation cue in scope sits just before the relation word in the sentence.

    Just before is four words, six when the relation's word is an infinitive: a cue
    governs the verb of its infinitive ("never had the chance again to win"). A relation
    with no word of its own ("is", "has") is anchored on the first word of ``part`` (the
    object) instead, with a wider reach for the verb phrase a sentence may put before it
    ("is no longer counted as a planet"); with neither, the sentence counts as not negated.
    ``scoped`` is the sentence's text with the cues that cannot deny the fact blanked, the
    shared negation reading's (``core.reading.negation.cues_in_scope``, :func:`in_scope`).
    """
    reach = 4
    if anchor is None:
        # The object's first word where the sentence writes it ("a slight positive charge",
        # not the "no overall charge" of another clause); else any of its words.
        first = part.content[0].stem if part.content else None
        stems = {t.stem for t in part.content}
        anchor = next((t for t in sentence.tokens if t.stem == first), None) or next(
            (t for t in sentence.tokens if t.stem in stems), None
        )
        if anchor is None:
            return False
        reach = 6
    before = [t for t in sentence.tokens if t.end <= anchor.start]
    if before and before[-1].text.lower() == "to":
        reach = 6
    return is_negated(in_scope(sentence, before[-reach:], scoped))


def in_scope(sentence: TextInfo, tokens: list[Token], scoped: str) -> list[Token]:
    """``tokens`` less the negation cues that ``scoped`` (the sentence, cues blanked) blanks.

    "Einstein, who never learned to drive, won": the "never" denies the relative clause
    that describes Einstein, not "won"; "Marie Curie, who did not win it in 1903, won it in
    1911": the "not" denies the win in 1903 only, so it is in scope for that fact alone.
    """
    if not is_negated(tokens) or scoped == sentence.text:
        return tokens
    return [t for t in tokens if scoped[t.start : t.end] == sentence.text[t.start : t.end]]


def count_substitution(part: TextInfo, sentence: TextInfo) -> str | None:
    """A number standing where an indefinite count of ``part`` should be, if too small.

    "several countries" by "2 countries" (``LEXICON.vague_counts``): the rules' verbatim
    reading writes every content word of the object and would pass it.
    """
    if not any(t.text.lower() in LEXICON.vague_counts for t in part.tokens):
        return None
    return substitution(part, sentence)


def substitution(part: TextInfo, sentence: TextInfo) -> str | None:
    """A sentence word standing where one of the part's words should be.

    "top baseball clubs" against "top football clubs": the missing word's neighbours are
    there with another word between them (or before the same head), so the sentence states
    something else, not a paraphrase. A number at least as large as an indefinite count
    means is no substitution for it ("multiple countries" by "180 countries",
    ``LEXICON.vague_counts``); a smaller one is ("several" by "2"). A word that judges
    (``LEXICON.appraisals``) opening the part, with no neighbour before it to confirm the
    rival, is not replaced by another word before its head ("temperate climate" for
    "favorable climate"), where a classifying one is ("diesel cars" for "electric cars").
    """
    tokens = list(part.tokens)
    words = sentence.tokens
    for k, token in enumerate(tokens):
        least = LEXICON.vague_counts.get(token.text.lower())
        if (token.is_stop and least is None) or has_stem(sentence.stems, token.stem):
            continue
        after = tokens[k + 1] if k + 1 < len(tokens) else None
        before = tokens[k - 1] if k > 0 else None
        for i, word in enumerate(words):
            if after is None or not stems_match(word.stem, after.stem) or i == 0:
                continue
            rival = words[i - 1]
            if least is not None and _count(rival.text):
                if _count(rival.text) >= least:
                    continue
                return rival.text  # "two" or "2" is a number here, not a function word
            if rival.is_stop or has_stem(part.stems, rival.stem):
                continue
            if before is None and token.text.lower() in LEXICON.appraisals:
                continue  # "temperate climate" for "favorable climate": the judge's to read
            if before is None or (i >= 2 and stems_match(words[i - 2].stem, before.stem)):
                return rival.text
    return None


def _count(word: str) -> float:
    """The number a word writes ("180", "1,200", "three"); 0 for any other word."""
    written = word.replace(",", "")
    if written.replace(".", "", 1).isdigit():
        return float(written)
    return float(RULES.word_numbers.get(word.lower(), 0))


def roles_differ(
    subject: TextInfo,
    obj: TextInfo,
    sentence: TextInfo,
    hit: Token,
    relation: TextInfo | None = None,
) -> bool:
    """True when the sentence swaps the roles of the subject and the object.

    "iron is more reactive than copper" for "copper is more reactive than iron": the object
    before the relation word, the subject only after it. Another name that holds the
    relation's clause is the role gate's (``core.reading.clause_owners``). A sentence in the
    other voice than the fact's ``relation`` ("Canberra was designed by
    Griffin" for "Griffin designed Canberra") names the roles in the other order, as does
    a recipient after "to" ("The prize was awarded to Curie" for "Curie was awarded the
    prize"), and so does a participle without the relation's "in" ("Big is a 1988 film …
    starring Tom Hanks" for "Tom Hanks starred in Big").
    """
    if relation is not None and _to_recipient(relation.tokens, sentence.tokens):
        return False
    if relation is not None and _other_agent(subject, relation, sentence, hit):
        return True
    if passive_at(relation.tokens if relation is not None else (), None) != passive_at(
        sentence.tokens, hit
    ) or _participle_of_in(relation, sentence.tokens, hit):
        subject, obj = obj, subject
    s_stems = {t.stem for t in subject.content}
    o_stems = {t.stem for t in obj.content}
    s_at = [t.start for t in sentence.tokens if t.stem in s_stems]
    if not s_at or min(s_at) < hit.start:
        return False
    o_at = [t.start for t in sentence.tokens if t.stem in o_stems and t.stem not in s_stems]
    return bool(o_at) and min(o_at) < hit.start


_BE = frozenset({"is", "was", "are", "were", "been"})
#: Where the agent phrase after "by" ends: the sentence's next statement or aside.
_AGENT_END = re.compile(r"[.;:()]|,\s+(?!and\b|or\b)[a-z]")


def _other_agent(subject: TextInfo, relation: TextInfo, sentence: TextInfo, hit: Token) -> bool:
    """True when the sentence's "by" phrase after the relation word names agents, not ours.

    "… created by Guillermo del Toro and produced by DreamWorks Animation" gives the
    producing to DreamWorks: a fact in the active voice (no "by", no "was") whose subject
    (a name: a capitalised word) writes no word in the agent phrase after "produced by" (up
    to the sentence's next statement, or a comma before a lower-case word other than
    "and"/"or") gives the relation to someone else.
    """
    named = any(t.is_capitalised for t in subject.content)
    passive = passive_at(relation.tokens, None) or any(
        t.text.lower() in _BE for t in relation.tokens
    )
    if not named or passive or not passive_at(sentence.tokens, hit):
        return False
    by = next(t for t in sentence.tokens if t.start >= hit.end and t.text.lower() == "by")
    ends = _AGENT_END.search(sentence.text, by.end)
    end = ends.start() if ends else len(sentence.text)
    phrase = [t for t in sentence.tokens if by.end <= t.start < end]
    stems = {t.stem for t in subject.content}
    return bool(phrase) and not any(t.stem in stems for t in phrase)


def _participle_of_in(relation: TextInfo | None, sentence: Sequence[Token], hit: Token) -> bool:
    """Whether "<verb> in" is written as a participle taking the subject as its object.

    "a film starring Tom Hanks", "a case involving the company": the thing the fact's
    subject is in comes first, and the participle names the subject after it, with no "in".
    """
    if relation is None or not relation.tokens or relation.tokens[-1].text.lower() != "in":
        return False
    if not hit.text.lower().endswith("ing"):
        return False
    after = [t for t in sentence if t.start >= hit.end][:1]
    return bool(after) and after[0].text.lower() != "in"


def _to_recipient(relation: Sequence[Token], sentence: Sequence[Token]) -> bool:
    """Whether a passive relation of a recipient ("was awarded") is written "<verb> to".

    "X was awarded the prize" and "the prize was awarded (jointly) to X" state one fact in
    two orders: the sentence's verb, then "to" right after it (one "-ly" adverb between).
    """
    words = [t.text.lower() for t in relation]
    if len(words) < 2 or words[0] not in _BE or words[-1] in ("to", "by"):
        return False
    verb = relation[-1].stem
    for i, token in enumerate(sentence):
        if not stems_match(token.stem, verb):
            continue
        after = [t.text.lower() for t in sentence[i + 1 : i + 3]]
        if after[:1] == ["to"] or (
            len(after) == 2 and after[0].endswith("ly") and after[1] == "to"
        ):
            return True
    return False


def passive_at(tokens: Sequence[Token], hit: Token | None) -> bool:
    """True when a relation is passive: "by" ends it, or (in a sentence) follows its word.

    In a sentence, "by" must come right after the relation word (an adverb between:
    "designed mainly by"), so "won by a wide margin" after an object is not read as one.
    """
    if hit is None:
        return bool(tokens) and tokens[-1].text.lower() == "by"
    after = [t for t in tokens if t.start >= hit.end][:2]
    if after and after[0].text.lower() == "by":
        return True
    words = [t.text.lower() for t in after]
    return len(words) == 2 and words[0].endswith("ly") and words[1] == "by"


#: Where a sentence turns to another statement: "baptised on 26 April; his date of birth …".
_CLAUSE_TURN = re.compile(r";|\s[–—]\s|\b(?:but|while|whereas|although|though)\b", re.I)


def values_elsewhere(sentence: TextInfo, hit: Token | bool | None) -> bool:
    """True when every date and number of the sentence sits in another clause than ``hit``.

    "William Shakespeare was baptised on 26 April 1564; his exact date of birth is unknown"
    dates the baptism, not the birth its second clause names: no value there is the birth's.
    """
    if not isinstance(hit, Token):
        return False
    values = [d.start for d in sentence.dates] + [n.start for n in sentence.numbers]
    if not values:
        return False
    turns = [m.start() for m in _CLAUSE_TURN.finditer(sentence.text)]

    def clause(at: int) -> int:
        return sum(1 for turn in turns if turn < at)

    return all(clause(at) != clause(hit.start) for at in values)
