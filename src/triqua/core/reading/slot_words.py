"""The words around an object's slot in a sentence: what leads it, and what ends its phrase.

A sentence may write a fact's object and still state something else of it: another known
relation's word, or another verb in a past form, leads the object ("was buried in Lisbon"
for "was born in Lisbon": :func:`other_known_relation`); another word ends the phrase the
object's own lead-in opens ("a 2017 British comedy drama film" for "… drama book":
:func:`head_rival`; "is a city in Yavapai County" for "is a county": :func:`named_head_rival`;
"the first published algorithm" for "the first published novel": :func:`unique_head_rival`);
another noun heads the subject's "of" complement ("the largest city of Australia" for "the
capital of Australia": :func:`subject_head_rival`). Readings of analysed text; the offline
verifier's value gates decide what they mean for a window (``engines.offline.verify.gates``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise, takewhile

from triqua.core.reading.analysis import TextInfo, Token, coverage, has_stem, stems_match
from triqua.core.reading.fact_parts import FactParts, sentence_relation_hit
from triqua.core.reading.lexicon import LEXICON
from triqua.core.reading.roles import unique_role
from triqua.core.reading.words import relation_groups

__all__ = [
    "head_rival",
    "named_head_rival",
    "other_known_relation",
    "rewords",
    "subject_head_rival",
    "unique_head_rival",
]


def subject_head_rival(subject: TextInfo, sentence: TextInfo) -> str | None:
    """Another noun heading the subject's complement in the sentence, if any.

    "city" of "The largest city of Australia" for the subject "The capital of Australia": a
    subject that is a noun with an "of" complement (no name) is named by its head noun; a
    sentence that never writes it and puts another noun before the same "of" complement
    speaks of another thing of the complement.
    """
    if subject.is_name:
        return None
    tokens = list(subject.tokens)
    at = next((k for k, t in enumerate(tokens) if t.text.lower() == "of"), None)
    complement = [t for t in tokens[at + 1 :] if not t.is_stop] if at else []
    heads = [t for t in tokens[:at] if not t.is_stop] if at else []
    if not complement or not heads or has_stem(sentence.stems, heads[-1].stem):
        return None
    words = sentence.tokens
    for k in range(1, len(words) - 1):
        if words[k].text.lower() != "of" or not stems_match(words[k + 1].stem, complement[0].stem):
            continue
        before = words[k - 1]
        if not before.is_stop and not before.is_capitalised:
            return before.text
    return None


def head_rival(part: TextInfo, relation: TextInfo, sentence: TextInfo) -> str | None:
    """Another word in the object's head slot: the object's words up to its head, then not it.

    "a 2017 British comedy drama film" for "a 2017 British comedy drama book", "is a county"
    for "is a city" (the relation's word leads an object of function words only): the
    sentence writes the object's own lead-in and ends the phrase on another word, so it
    states something else. An inserted modifier is no rival ("a 2017 American film" for "a
    2017 film": the phrase goes on), nor a capitalised word (names are the name gate's); a
    year before a noun only labels it ("is a 1973 painting" for "is a film": the class is
    "painting").
    After a copula, the class the sentence gives is a rival too when it writes none of the
    object's modifiers ("is a city along the Great Lakes" for "is a U.S. state").
    """
    tokens = list(part.tokens)
    if not tokens or tokens[-1].is_stop or tokens[-1].is_capitalised:
        return None
    head, lead = tokens[-1], tokens[:-1]
    if any(
        stems_match(w.stem, head.stem) and (k == 0 or not w.is_capitalised)
        for k, w in enumerate(sentence.tokens)
    ):
        return None  # the head is written (not as a word of a name: "the United States")
    if all(t.is_stop for t in lead):
        lead = [*relation.tokens[-1:], *lead]
    if len(lead) < 2 and all(t.is_stop for t in lead):
        return None  # "a" alone leads anything
    rival = _rival_after(part, lead, sentence)
    copula = list(relation.tokens[-1:])
    if rival is None and copula and copula[0].text.lower() in _COPULAS:
        determiners = list(takewhile(lambda t: t.is_stop, tokens[:-1]))
        if determiners and len(determiners) < len(lead):
            rival = _rival_after(part, [*copula, *determiners], sentence)
    return rival


_COPULAS = frozenset({"is", "was", "are", "were"})


def named_head_rival(part: TextInfo, relation: TextInfo, sentence: TextInfo) -> str | None:
    """The head slot's rival word when the part's head is written only inside a name.

    "is a city in Yavapai County" for "is a county": the sentence gives its subject the
    class "city"; "County" is a word of another place's name, not the subject's class, so it
    neither aligns the object nor lets the judge, misled by the shared word, outweigh the
    rival (:func:`head_rival` reads the slot). None when the head is written as a word of
    its own, or the slot holds no rival.
    """
    tokens = list(part.tokens)
    if not tokens or tokens[-1].is_stop or tokens[-1].is_capitalised:
        return None
    head = tokens[-1]
    written = [k for k, w in enumerate(sentence.tokens) if stems_match(w.stem, head.stem)]
    if not written or any(k == 0 or not sentence.tokens[k].is_capitalised for k in written):
        return None
    return head_rival(part, relation, sentence)


def unique_head_rival(part: TextInfo, relation: TextInfo, sentence: TextInfo) -> str | None:
    """The head slot's rival word when the part names a thing only one is.

    "the first published algorithm" for "the first published novel", "the largest tropical
    rainforest" for "the largest tropical desert": an ordinal, a superlative or "only" picks
    out one thing of the class its head names (``roles.unique_role``), so the same lead-in
    before another head picks out another thing, however near in meaning. A rival that
    ends in the head names a kind of it ("rainforest" for "forest"): no rival. None when the
    part names no such thing or the slot holds no rival (:func:`head_rival` reads it).
    """
    if not unique_role(part.text):
        return None
    rival = head_rival(part, relation, sentence)
    head = part.tokens[-1].text.lower() if part.tokens else ""
    if rival is None or (head and rival.lower().endswith(head)):
        return None
    return rival


def _rival_after(part: TextInfo, lead: list[Token], sentence: TextInfo) -> str | None:
    """The word ending the phrase that ``lead`` opens in the sentence, if not the part's."""
    words, text, n = sentence.tokens, sentence.text, len(lead)
    for i in range(len(words) - n):
        run = words[i : i + n + 1]
        if not all(stems_match(w.stem, t.stem) for w, t in zip(run, lead, strict=False)):
            continue
        if any(text[a.end : b.start].strip() for a, b in pairwise(run)):
            continue  # the lead-in and its word are not written together
        at = _past_labels(words, i + n, text, part)
        rival = words[at] if at is not None else None
        if rival is None or rival.is_stop or rival.is_capitalised:
            continue
        if has_stem(part.stems, rival.stem):
            continue
        after = words[at + 1] if at is not None and at + 1 < len(words) else None
        gap = text[rival.end : after.start].strip() if after is not None else ""
        if after is None or after.is_stop or gap not in ("", "-"):
            return rival.text  # the phrase ends on it ("wrought-iron" goes on)
    return None


def _past_labels(words: Sequence[Token], at: int, text: str, part: TextInfo) -> int | None:
    """The index of the word after the lead-in, past the years and numbers labelling the noun.

    "is a 1973 painting by …" is read at "painting": a year before a noun only labels it,
    the noun after is the class. A label the object writes too ("a 1973 film") is its own;
    None when the phrase ends on a label.
    """
    end = at
    while words[end].text[:1].isdigit():
        if has_stem(part.stems, words[end].stem) or end + 1 >= len(words):
            return None
        after = words[end + 1]
        if after.is_stop or text[words[end].end : after.start].strip():
            return None
        end += 1
    return end


def other_known_relation(parts: FactParts, sentence: TextInfo) -> bool:
    """True when the sentence writes another known relation's word where the fact's would be.

    "Tomas Wren was buried in Lisbon" for "Tomas Wren was born in Lisbon": the word that
    leads the object (across function words only: "was buried in") is a word of another
    relation group of the lexicon, or a verb in a past form ("was repainted in the 20th
    century" for "was built in …"), and no word of the fact's relation is written. That is
    a crisp mismatch. So is any sentence for a fact whose object was lost: it states none of
    the fact. A sentence that merely words the relation otherwise ("set a world record of
    9.58 s in the 100 m final" for "ran the 100 metres in 9.58 seconds", "is a 15th-century
    citadel" for "was built in the 15th century") is the judge's to read; so is one that
    words the object otherwise too ("It grows in woodlands" for "Bellflowers are found in
    forests"), only at the bar of a judge outweighing a gate (:func:`rewords`).
    """
    if not any(len(group) > 1 for group in parts.relation_words):
        return False
    if sentence_relation_hit(parts, sentence) is not None:
        return False
    if not parts.object.tokens:
        return True  # neither the relation nor an object: nothing of the fact stated
    if coverage(parts.object, sentence) < 1.0:
        return False  # both in other words: ``rewords``, the judge's at its surest
    word = _slot_word(parts.object, sentence)
    if word is None:
        return False
    own = frozenset().union(*parts.relation_words)
    if any(stems_match(word.stem, w) for w in own):
        return False
    if _past_form(word):
        return True  # another verb governs the value: "was repainted in the 20th century"
    return any(
        any(stems_match(word.stem, w) for w in group)
        and not any(stems_match(a, b) for a in group for b in own)
        for group in relation_groups()
    )


def rewords(parts: FactParts, sentence: TextInfo) -> bool:
    """True when the sentence writes neither a known relation's word nor the whole object.

    "It grows in woodlands" for "Bellflowers are found in forests", "features the songs" in
    a track list: nothing of the fact is written to gate, so only a judge as sure as the
    card's ``rival`` (a judge that outweighs a gate) may read it as a paraphrase; "the
    council hall was renamed in 2004" for "served on the city council" stays unsupported.
    """
    return (
        any(len(group) > 1 for group in parts.relation_words)
        and bool(parts.object.tokens)
        and sentence_relation_hit(parts, sentence) is None
        and coverage(parts.object, sentence) < 1.0
    )


def _past_form(word: Token) -> bool:
    """A lower-case verb in a past form: "-ed", or an irregular form the lexicon knows."""
    low = word.text.lower()
    if word.is_capitalised or not low.isalpha():
        return False
    return (len(low) > 4 and low.endswith("ed")) or low in LEXICON.word_forms


def _slot_word(part: TextInfo, sentence: TextInfo) -> Token | None:
    """The content word that leads the object's first word in the sentence, if any.

    Only function words may stand between them ("buried in Lisbon", "buried at the abbey");
    a content word nearer the object ("record of 8 titles": "record") is the slot's word.
    """
    words = [t for t in part.tokens if not t.is_stop]
    if not words:
        return None
    first = words[0].stem
    tokens = sentence.tokens
    for at, token in enumerate(tokens):
        if not stems_match(token.stem, first):
            continue
        before = at - 1
        while before >= 0 and tokens[before].is_stop and at - before <= _SLOT_GAP:
            before -= 1
        if before >= 0 and not tokens[before].is_stop:
            return tokens[before]
    return None


#: Function words that may stand between a relation's word and its object ("was born in the").
_SLOT_GAP = 3
