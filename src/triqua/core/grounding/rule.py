"""The grounding rule: "supported" must rest on a cited window of this run that entails the unit.

A unit may be "supported" only when it cites an evidence id of this run and quotes that
passage verbatim (after normalising case, whitespace, unicode quotes and dashes, accents,
punctuation and symbols). Then one of three rules reads the quote (``Context.grounding``):

- **judged** (the default, :mod:`triqua.core.grounding.stated`): a cited window (the quoted
  sentences, 1–3 within a paragraph) supports the unit when no value gate fires
  (:mod:`triqua.core.grounding.gates`: the unit's numbers, dates, units and names are in
  the quote; no year bound to another event; no restrictor such as "one of the largest";
  no other holder of a role only one holds; no negation of the unit's words) and one of
  its sentences writes the unit's words or the entailment judge finds it entailing the
  unit (at the card's ``judged`` threshold, ``judged_some`` when a sentence writes some
  of its words; words spread over two sentences are the judge's to read);
- **judge** (:mod:`triqua.core.grounding.judged`): the cited windows support the unit when
  the entailment judge finds one entailing it at its card's ``grounding`` threshold and no
  value gate fires;
- **strict** (:mod:`triqua.core.grounding.strict`): the quote's sentence carries the unit's
  values in one place and states its relation and object words (stems, the lexicon's word
  forms and relation groups), the judge reading only paraphrase; no restrictor.

Under every rule a support that another passage of the run disputes (a rival value in the
slot of a relation only one value fills, the judge confirming it: ``core.grounding.disputes``)
is left insufficient, its reason naming both passages.

Every rule reads the passage as the sentences it states (``core.reading.restated``: a label
line or table row about the page's subject, an object pronoun as its name, a part's count),
as the offline verifier does. A label line's label is its relation: read as a sentence
("Died: Passy" as "… died in Passy."), it grounds a base unit only when that sentence
writes the unit's words, so "Died: Passy" never grounds a birth in Passy. Under every
rule the reader's statement gates (a keyword list, the other polarity, another name in the
relation's slot) refuse the cited sentences whatever was read, and a window that quotes a
heading, a question, an instruction to the reader, a verdict record or a passage in another
language (``core.reading.stating``) states nothing, nor does code (a Markdown code span or
fenced block: ``core.reading.code_spans``).

Without a judge (verifier "rules") the strict rule applies whatever the setting.

"Contradicted" needs a cited passage of this run (and its quote, when it gives one, must be
found there). Whatever the judge said, anything short of that is insufficient evidence, with
the reason recorded.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from triqua.context import GroundingMode
from triqua.core.grounding.disputes import disputed_quote
from triqua.core.grounding.judged import not_entailed
from triqua.core.grounding.meaning_reader import MeaningReader
from triqua.core.grounding.stated import not_stated
from triqua.core.grounding.statement import unstated_words
from triqua.core.grounding.strict import unstated
from triqua.core.reading.code_spans import blank_code, inside_code
from triqua.core.reading.quote_values import missing_values, unit_values
from triqua.core.reading.quotes import locate_quote, normalise
from triqua.core.reading.restated import Restated, restate
from triqua.core.reading.stating import unstated_window
from triqua.core.reading.titles import after_title
from triqua.schema import FactUnit, Status
from triqua.sentences import sentence_spans

__all__ = [
    "DEFAULT_GROUNDING",
    "Grounding",
    "GroundingMode",
    "MeaningReader",
    "check_quote",
    "locate_quote",
    "missing_values",
    "normalise",
    "unit_values",
]


#: The grounding rule a run uses unless told otherwise.
DEFAULT_GROUNDING: GroundingMode = "judged"


@dataclass(frozen=True)
class Grounding:
    """The outcome of the grounding check on one unit verdict.

    Attributes:
        ok: The verdict may keep its status.
        reason: Why it may not (recorded with the downgraded unit), else None.
        evidence_ids: The cited ids of this run, the passage holding the quote first.
        quote: The quote as the passage writes it (whole words), when found.
    """

    ok: bool
    reason: str | None = None
    evidence_ids: tuple[str, ...] = ()
    quote: str | None = None


def check_quote(
    unit: FactUnit,
    status: Status,
    evidence_ids: Sequence[str],
    quote: str | None,
    passages: Mapping[str, str],
    *,
    source: str = "",
    reader: MeaningReader | None = None,
    grounding: GroundingMode = DEFAULT_GROUNDING,
    read_before: Mapping[str, str] | None = None,
    opening: Collection[str] = (),
) -> Grounding:
    """Apply the grounding rule to one unit verdict.

    Args:
        unit: The unit judged.
        status: The judge's status for it; only supported and contradicted need grounding.
        evidence_ids: The ids the judge cited for it.
        quote: The judge's verbatim quote, if any.
        passages: This run's evidence passages for the fact, by id.
        source: The sentence the unit's fact came from (a second hypothesis for ``reader``).
        reader: The entailment judge; without one, the strict rule applies and every
            content word must be stated.
        grounding: The rule that reads a supported unit's quote: "judged", "judge" or
            "strict".
        read_before: What a reader has read before each passage, by id: its document's
            title (:func:`triqua.core.reading.titles.heading`), so "She" in it may stand
            for the page's subject.
        opening: The ids of the passages that open their document: only there may a pronoun
            with no name before it stand for the subject (``core.reading.orphans``).

    Returns:
        The outcome: ``ok`` False with the reason when the verdict must become
        insufficient evidence.
    """
    if status not in (Status.SUPPORTED, Status.CONTRADICTED):
        return Grounding(ok=True, evidence_ids=tuple(evidence_ids), quote=quote)
    cited = list(dict.fromkeys(i for i in evidence_ids if i in passages))
    unknown = [i for i in evidence_ids if i not in passages]
    if not cited:
        if unknown:
            shown = ", ".join(unknown[:3])
            verb = "is" if len(unknown) == 1 else "are"
            return Grounding(ok=False, reason=f"cited id {shown} {verb} not evidence of this run")
        return Grounding(ok=False, reason="no evidence id cited")
    quote = (quote or "").strip()
    if not quote:
        if status is Status.CONTRADICTED:
            return Grounding(ok=True, evidence_ids=tuple(cited))
        return Grounding(ok=False, reason=f"no quote from {cited[0]}", evidence_ids=tuple(cited))
    for evidence_id in cited:
        found = locate_quote(passages[evidence_id], quote)
        if found is None:
            continue
        exact = passages[evidence_id][found[0] : found[1]]
        ids = (evidence_id, *(i for i in cited if i != evidence_id))
        if status is Status.SUPPORTED:
            quoted = (evidence_id, found[0], found[1])
            opens = evidence_id in opening
            why = _ungrounded(unit, quoted, passages, source, reader, grounding, read_before, opens)
            if why is None:
                # Another passage of the run giving a value only one holds disputes it.
                why = disputed_quote(unit, quoted, passages, reader, read_before)
            if why:
                return Grounding(ok=False, reason=why, evidence_ids=ids, quote=exact)
        return Grounding(ok=True, evidence_ids=ids, quote=exact)
    return Grounding(
        ok=False, reason=f"quote not found in {', '.join(cited)}", evidence_ids=tuple(cited)
    )


def _ungrounded(
    unit: FactUnit,
    quoted: tuple[str, int, int],
    passages: Mapping[str, str],
    source: str,
    reader: MeaningReader | None,
    grounding: GroundingMode,
    read_before: Mapping[str, str] | None,
    opens: bool,
) -> str | None:
    """Why the quote at ``quoted`` (id, start, end) does not ground the unit, else None.

    The passage is read after its document's title, and as the sentences it states (a
    label line about the page's subject, an object pronoun as its name:
    ``core.reading.restated``), as the offline verifier reads it; the quote stays the
    passage as written. A sentence read again (a part's count) is a reading of its own:
    either may ground the unit. Code states nothing: a quote inside it grounds nothing, and
    code around a quote is read blank.
    """
    evidence_id, start, end = quoted
    written = passages[evidence_id]
    if inside_code(written, start, end):
        return "the quote is code, which states nothing"
    passage, moved = after_title(written, (read_before or {}).get(evidence_id, ""))
    span = (start + moved, end + moved)
    read = restate(blank_code(passage))  # offsets kept
    why = None
    for option in (read.to_read(*span), *read.added(*span)):
        # A label line's label is its relation ("Died: Passy"): it grounds only a unit
        # whose words it writes, never a paraphrase a judge reads into it.
        why = _other_label(unit, read, option) or _unsupported(
            unit, read.text, option, source, reader, grounding, opens
        )
        if why is None:
            break
    return why


def _other_label(unit: FactUnit, read: Restated, span: tuple[int, int]) -> str | None:
    """Why a label line the span touches cannot ground the unit: its label is another relation.

    A label line or table row read as a sentence ("Died: Passy" read "Marie Curie died in
    Passy.") states the relation its label names; it grounds a base unit only when that
    sentence itself writes the unit's words, never by a judge's paraphrase nor by the words
    of the line beside it ("Born: Warsaw"). A title kept as written is no label line.
    """
    if unit.kind != "base":
        return None
    for e in read.edits:
        if not (e.alone and e.raw[0] < e.raw[1] and e.new[0] < span[1] and span[0] < e.new[1]):
            continue
        said = read.text[e.new[0] : e.new[1]].strip()
        if said == read.written[e.raw[0] : e.raw[1]].strip():
            continue  # kept as written: a title, not a label read as a sentence
        missing = unstated_words(unit, said)
        if missing:
            return f"the cited label line states another relation: it does not write '{missing[0]}'"
    return None


def _unsupported(
    unit: FactUnit,
    passage: str,
    span: tuple[int, int],
    source: str,
    reader: MeaningReader | None,
    grounding: GroundingMode,
    opens: bool = False,
) -> str | None:
    """Why the window around ``span`` of ``passage`` does not ground the unit, else None.

    A heading, a question, an instruction, a verdict record or a passage in another
    language states nothing, whatever its words or any judge's reading of them; a quote
    that runs over such a sentence and others is read as its other sentences ("What is a
    gene? A gene is …" may ground by its answer), each run of them in turn.
    """
    said = unstated_window(passage, *span)
    if not said:
        return _read(unit, passage, span, source, reader, grounding, opens)
    why: str | None = said
    for run in _stating_runs(passage, span):
        why = _read(unit, passage, run, source, reader, grounding, opens)
        if why is None:
            return None
    return why


def _stating_runs(passage: str, span: tuple[int, int]) -> list[tuple[int, int]]:
    """The runs of the quote's sentences that may state (no heading, question, …), as spans."""
    runs: list[tuple[int, int]] = []
    open_run = False
    for a, b in sentence_spans(passage) or [(0, len(passage))]:
        if not (a < span[1] and span[0] < b):
            continue
        part = (max(a, span[0]), min(b, span[1]))
        if unstated_window(passage, *part):
            open_run = False
        elif open_run:
            runs[-1] = (runs[-1][0], part[1])
        else:
            runs.append(part)
            open_run = True
    return runs


def _read(
    unit: FactUnit,
    passage: str,
    span: tuple[int, int],
    source: str,
    reader: MeaningReader | None,
    grounding: GroundingMode,
    opens: bool,
) -> str | None:
    """Why the window around ``span`` does not ground the unit by the rule, else None.

    ``opens``: the passage opens its document (see :func:`check_quote`'s ``opening``).
    """
    if grounding == "strict" or reader is None:
        why = unstated(unit, passage, span, source, reader, opens)
    elif grounding == "judged":
        why = not_stated(unit, passage, span, source, reader, opens)
    else:
        why = not_entailed(unit, passage, span, source, reader, opens)
    return why or _refused(reader, unit, passage, span)


def _refused(
    reader: MeaningReader | None, unit: FactUnit, passage: str, span: tuple[int, int]
) -> str | None:
    """The reader's value gates on the sentences the quote lies in (None: they pass).

    A reader without gates (one built outside triqua) refuses nothing, so the check is
    read off the object rather than required by ``MeaningReader``.
    """
    gate = getattr(reader, "refusal", None)
    if gate is None:
        return None
    around = [(a, b) for a, b in sentence_spans(passage) if a < span[1] and span[0] < b]
    window = passage[around[0][0] : around[-1][1]] if around else passage[span[0] : span[1]]
    why = gate(unit, window)
    return str(why) if why else None
