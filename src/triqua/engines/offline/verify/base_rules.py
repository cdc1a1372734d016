"""The rules' reading of a base triple: a crisp conflict, or the fact stated in its own words.

In the aligned sentences about the subject: a rival number, date, name or role, a negation
that differs or the opposite word ("decreases" for "increases") contradicts; a sentence
stating the fact in its own words, values normalised ("64.5 million" for "64,500,000") and
relation words by the lexicon's groups, is a support the judge may take back (``reading``).
"""

from __future__ import annotations

from triqua.core.reading.analysis import Token, is_negated, values_relation
from triqua.core.reading.antonyms import opposite_in
from triqua.core.reading.counts import counts_groups, states_count
from triqua.core.reading.fact_parts import FactParts, sentence_relation_hit
from triqua.core.reading.mentions import REFERS, sentence_before
from triqua.core.reading.part_match import (
    NAMED_BY_NUMBER,
    extends_subject,
    measured,
    negated_in,
    restrictors_stated,
    text_matches,
    written_share,
)
from triqua.core.reading.part_rivals import count_substitution, roles_differ, values_elsewhere
from triqua.core.reading.slot_rivals import slot_rival
from triqua.core.reading.slot_words import named_head_rival
from triqua.engines.offline.verify.findings import Finding, Sentence, on_sentence
from triqua.schema import Fact, Status

__all__ = ["judge_base"]


def judge_base(fact: Fact, parts: FactParts, top: list[Sentence]) -> tuple[Finding, list[Sentence]]:
    """Judge the base against each aligned sentence; support wins, then conflict.

    Returns the finding and every sentence that supports the base (best first): its
    qualifiers' windows.
    """
    contradiction: Finding | None = None
    supported: list[tuple[Sentence, str]] = []
    for sentence in (s for s in top if s.subject > 0):
        info = sentence.info
        hit = sentence_relation_hit(parts, info)
        outcome, wrong = values_relation(parts.object, info)
        text = text_matches(parts.object, info, sentence.before)
        referent = sentence_before(sentence.before) if sentence.subject == REFERS else None
        restricted, word = restrictors_stated(parts, info, referent)  # "three" against "once"
        said = f"the sentence states {word!r} instead"
        other = on_sentence(Status.CONTRADICTED, sentence, said, word)
        opposed = opposite_in(parts.relation, parts.object, info) is not None  # "decreases"
        contradiction = contradiction or _opposite(fact, parts, sentence, outcome, text.ok)
        if outcome == "match" and text.ok and not opposed:
            # A relation written in other words is the judge's to read (``reading``).
            if hit is None or (
                isinstance(hit, Token)
                and sentence.subject != REFERS
                and roles_differ(parts.subject, parts.object, info, hit, parts.relation)
            ):
                continue
            anchor = hit if isinstance(hit, Token) else None
            # "is a city in Yavapai County" writes "county" only inside another name.
            verbatim = (
                text.reason in ("stated", "named")
                and named_head_rival(parts.object, parts.relation, info) is None
            )
            if not verbatim and is_negated(list(info.tokens)) != parts.negated:
                continue  # an object in other words must be as negated as the fact
            if negated_in(info, anchor, parts) != parts.negated:
                contradiction = contradiction or on_sentence(
                    Status.CONTRADICTED,
                    sentence,
                    "negation differs from the aligned sentence",
                    fact.relation,
                )
                continue
            if restricted == "rival":
                contradiction = contradiction or other
            if (
                verbatim
                and restricted == "ok"
                and parts.object.tokens
                and count_substitution(parts.object, info) is None  # "several" is no "2"
            ):
                # An empty object ("T2 Trainspotting | is set | ''") matches any sentence
                # holding the subject and relation: its own words state nothing to check.
                supported.append((sentence, "subject, relation and object aligned"))
            continue
        if (
            contradiction is not None
            or supported
            or hit is None
            or sentence.subject < 0.6
            or extends_subject(parts.subject, info, sentence.subject)
        ):
            continue
        if restricted == "rival":  # "the smallest country" against "the largest"
            contradiction = other
        else:
            contradiction = _conflict(fact, parts, sentence, hit, outcome, wrong, text.ok)
    if supported:
        # Of the sentences that state the base, the one writing most of the object's words
        # is quoted ("He became chief executive officer of Apple" before "Tim Cook joined
        # Apple" for "became CEO of Apple"); ties keep the alignment's order.
        supported.sort(key=lambda found: -written_share(parts.object, found[0].info))
        best, reason = supported[0]
        finding = on_sentence(Status.SUPPORTED, best, reason)
        return finding, [s for s, _ in supported]
    return contradiction or Finding(Status.INSUFFICIENT, top[0] if top else None), []


def _opposite(
    fact: Fact, parts: FactParts, sentence: Sentence, outcome: str, text_ok: bool
) -> Finding | None:
    """A sentence writing the opposite of the fact's word: a contradiction when it is crisp.

    "Exercise decreases the heart rate" for "… increases the heart rate": the sentence names
    the subject and the whole object, and the two words never both hold ("closed in 1961"
    may stand beside "opened in 1961"); short of that, None.
    """
    info = sentence.info
    opposite = opposite_in(parts.relation, parts.object, info, exclusive=True)
    if (
        opposite is None
        or outcome != "match"
        or not text_ok
        or not parts.object.content
        or sentence.subject < 0.6
        or parts.negated
    ):
        return None
    return on_sentence(
        Status.CONTRADICTED, sentence, f"the sentence states {opposite.text!r}", fact.relation
    )


def _conflict(
    fact: Fact,
    parts: FactParts,
    sentence: Sentence,
    hit: Token | bool,
    outcome: str,
    wrong: str | None,
    text_ok: bool,
) -> Finding | None:
    """A crisp conflict of the base with a sentence that does not state it, if any.

    Another value in the object's slot, or another name of the object's type after the
    relation ("born in Kraków" against "born in Warsaw"); not a count of a part ("ten
    medals, including nine gold") or of groups ("19 chromosome pairs" for "38 chromosomes").
    """
    info = sentence.info
    # A bare value after a contentless relation ("is 2017") has no slot to clash in,
    # unless it is a measured quantity ("is 9,000 metres" against "at 8,849 metres").
    if (
        outcome == "conflict"
        and text_ok
        and (parts.object.dates or not NAMED_BY_NUMBER.match(parts.object.text))
        and (hit is not True or parts.object.content or measured(parts.object))
        and not values_elsewhere(info, hit)
        and not states_count(info.text, parts.object.text)  # "ten medals, including nine gold"
        and not counts_groups(info.text, parts.object.text)  # "19 chromosome pairs"
    ):
        return on_sentence(
            Status.CONTRADICTED, sentence, "the aligned sentence states another value", wrong
        )
    if isinstance(hit, Token) and parts.object.is_name and not text_ok:
        rival = slot_rival(parts, info, hit)
        if rival:
            return on_sentence(
                Status.CONTRADICTED,
                sentence,
                f"the aligned sentence names {rival!r} instead",
                fact.object,
            )
    return None
