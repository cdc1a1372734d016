"""The value gates a qualifier's support passes: the grounding rule's, read by the rules.

A qualifier ("in 1959", "in Beijing", "for The Reader") is judged in the window its base is
bound to, where its value may stand in another clause than the base's: "started in 1959,
and … opened in 1973" writes 1959 beside "opened"; "ran the 4x100 metres relay in Beijing
and won gold in the 100 metres there" writes the relay beside "won". The shared readers
that keep an LLM judge's cited window from supporting a qualifier keep the offline rules'
reading from supporting it too: the relation's value slot for a bare year or number
(:func:`triqua.core.reading.value_slot.qualifier_slot`), a coordinated verb's slot
(:func:`triqua.core.reading.value_slot.coordinated_slot`), a belief, rumour or fiction frame
(:func:`triqua.core.reading.frames.frame_of`), a name governed only by another occurrence of
the relation's verb ("runs from Dover to Dunkirk, and the train runs from Folkestone to
Calais": :func:`triqua.core.reading.value_slot.other_occurrence`), for an agent qualifier
("by: …") another "by" agent of the relation (:func:`triqua.core.reading.agents.other_agent`),
and for a provenance qualifier ("stated by: the Supreme Court") a reporting word governed by
that source ("the Court ruled", "according to the Court":
:func:`triqua.core.reading.restrictors.markers.reported_by`): a window that only names the
source ("The Supreme Court building opened …, and the law is …") reports nothing of it. A gate
only takes a support away; it never supports.
"""

from __future__ import annotations

from triqua.core.reading.agents import other_agent
from triqua.core.reading.analysis import TextInfo, analyse, stems_match
from triqua.core.reading.clause_owners import held_by_another
from triqua.core.reading.fact_parts import FactParts
from triqua.core.reading.frames import frame_of
from triqua.core.reading.restrictors.markers import reported_by
from triqua.core.reading.value_slot import coordinated_slot, other_occurrence, qualifier_slot
from triqua.engines.offline.labels import STATED_BY
from triqua.schema import FactUnit

__all__ = ["qualifier_refusal"]

#: Label words that make a qualifier's value the relation's agent ("by", "performer").
_AGENT_LABELS = frozenset({"by"})


def qualifier_refusal(parts: FactParts, unit: FactUnit, text: str) -> str | None:
    """Why ``text`` cannot state the qualifier ``unit`` of the fact ``parts`` reads; else None.

    Args:
        parts: The analysed base triple of the qualifier's fact.
        unit: The qualifier unit (its ``label`` and ``value``).
        text: The sentence (or window) the rules found the qualifier's value in.
    """
    if unit.kind != "qualifier" or not unit.value or not text.strip():
        return None
    value = analyse(unit.value)
    if (unit.label or "").strip().lower() == STATED_BY and _named_unreported(value, text):
        return f"the cited text has no reporting word governed by {unit.value!r}"
    governed = qualifier_slot(unit, text)
    if governed:
        return f"the cited text's {unit.relation!r} governs {governed}, not {unit.value}"
    relation = frozenset().union(*parts.relation_words) if parts.relation_words else frozenset()
    subject = frozenset(t.stem for t in parts.subject.content)
    objects = frozenset(t.stem for t in parts.object.content)
    values = frozenset(t.stem for t in value.content)
    stated = objects | values
    frame = frame_of(text, relation, stated, relation | subject | stated)
    if frame is not None:
        return f"the cited text states it only inside a frame ({frame!r})"
    head = value.content[-1:]  # the value's head word ("Beijing" of "the relay in Beijing")
    filler = coordinated_slot(text, relation, frozenset(t.stem for t in head))
    if filler is not None:
        return f"the cited text's {parts.relation.text!r} governs {filler!r}, not {unit.value}"
    # A clause of another name holds the value: "John XXIII was elected pope in 1958, and
    # John Paul II … in 1978" gives 1958 to John XXIII; the fact's own object is no other
    # ("Athens hosted the Games in 1896" for "the Games were held in Athens in 1896").
    holder = held_by_another(parts.subject, value, text, relation)
    if holder is not None and not objects & {t.stem for t in analyse(holder).content}:
        return f"the cited text gives {unit.value!r} to the clause of {holder!r}"
    if value.is_name:
        other = other_occurrence(text, relation, objects, values)
        if other is not None:
            return f"the cited text gives {unit.value!r} to another {unit.relation!r}: {other!r}"
    label = {t.text.lower() for t in analyse(unit.label or "").tokens}
    if label & _AGENT_LABELS and values:
        agent = other_agent(text, relation, values, subject)
        if agent is not None:
            return f"the cited text gives the relation to {agent!r} (by {agent})"
    return None


def _named_unreported(source: TextInfo, text: str) -> bool:
    """True when the window names the source, or another "according to", without its report.

    "The Supreme Court building opened in 1935, and the law is constitutional" names the
    Court in another part, and "…, according to the manufacturer" gives the statement to
    another source; a window that names no source ("It could destroy civilization, he
    said") leaves the qualifier to the judge, as any other unit.
    """
    info = analyse(text)
    head = source.content[-1].stem if source.content else ""
    named = any(stems_match(t.stem, head) for t in info.tokens) if head else False
    another = any(t.text.lower() == "according" for t in info.tokens)
    return (named or another) and not reported_by(source, info)
