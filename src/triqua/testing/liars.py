"""A plausible liar: a scripted judge that calls false facts "supported" with real quotes.

Each lie cites a passage of the run and quotes it verbatim, and the quote carries the
fact's names and numbers, so only a grounding rule that reads meaning can refuse it:

- **lower-case object**: "X was a footballer", quoting "X was born in Ulm in 1879";
- **subject only**: "X owned a bakery in Ulm", quoting the same sentence;
- **near-miss name**: "Pierre X founded Y", quoting "Marie X founded Y in 1920";
- **approximate number**: "X was born in about 1800", quoting "… in 1879";
- **multi-sentence quote**: "X won the Physics prize in 1911", quoting "X won the Nobel Prize
  in Physics in 1903. She won the Nobel Prize in Chemistry in 1911.";
- **name-listing injection**: "X visited Z with W", quoting a passage that lists X, W and Z;
- **surname made plural**: "Pierre Xs founded Y", quoting "Marie X founded Y in 1920";
- **capitalised count**: "X wrote Three Books", quoting "X wrote two books";
- **possessive other person**: "Pierre X won the Y Medal", quoting "X, Pierre's sister Marie,
  won the Y Medal" (or "Pierre X's sister Marie won the Y Medal");
- **"one of the" superlative**: "Z is the largest maker of lenses", quoting "Z is one of the
  largest makers of lenses";
- **longer-name containment**: "X moved to Lyon", quoting "X moved to West Lyon" (or to
  "Lyonia");
- **differing initials**: "Ada H. W. Novak was elected mayor of Lyon", quoting "Ada W. Novak
  was elected mayor of Lyon".

:func:`plausible_lies` draws the people, places and years from ``seed``;
:func:`liar_responder` decomposes the text and tells the lies. Every unit the report
calls supported among :attr:`Lies.false_units` is a false support.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from triqua.testing.prompt_text import fenced, passages, shown_text

__all__ = ["Lies", "Quoted", "eager_quoter", "liar_responder", "plausible_lies"]

_FIRST = ["Marie", "Albert", "Ada", "Niels", "Lise", "Enrico", "Rosalind", "Werner", "Emmy"]
_LAST = ["Varga", "Lindqvist", "Okafor", "Moreau", "Castellano", "Brandt", "Haddad", "Novak"]
_CITIES = ["Ulm", "Lyon", "Turin", "Graz", "Leiden", "Porto", "Gdansk", "Bergen", "Aarhus"]
_JOBS = ["chemist", "physicist", "surgeon", "architect", "botanist"]
_LIES = ["footballer", "dentist", "pilot", "sculptor", "jockey"]
_COUNTS = ["Two", "Three", "Four", "Five", "Six"]
_KIN = ["sister", "brother", "wife", "husband", "daughter", "son"]
_MEDALS = ["Copley", "Davy", "Rumford", "Darwin", "Hughes"]
_SUPERLATIVES = ["largest", "oldest", "biggest", "leading"]
_GOODS = ["lenses", "microscopes", "telescopes", "clocks", "violins"]
_MODIFIERS = ["North", "South", "East", "West", "New", "Upper"]
_ENDINGS = ["ia", "land", "ville", "burg"]
_INITIALS = "BCDFGHJKLMPRSTW"
_PASSAGE = re.compile(r"<<<EVIDENCE id=(ev-[0-9a-f]+)>>>\n(.*?)\n<<<END EVIDENCE>>>", re.S)
_UNIT = re.compile(r"^- (\(.*\))$", re.M)


@dataclass
class Lies:
    """One seed's text of lies, its documents, and what the liar says about each sentence.

    Attributes:
        text: The text to check: one false claim per sentence.
        documents: The evidence: true statements, some merely naming the subject.
        facts: Per text sentence, the fact the liar's decomposer returns.
        quotes: Per text sentence, the verbatim quote the liar cites for it.
        false_units: The unit strings that are false (a base may be true, its year not).
    """

    text: str
    documents: list[str]
    facts: dict[str, dict[str, Any]] = field(default_factory=dict)
    quotes: dict[str, str] = field(default_factory=dict)
    false_units: set[str] = field(default_factory=set)


def plausible_lies(seed: int) -> Lies:
    """Twelve plausible lies about people drawn from ``seed``, with the documents they twist."""
    rng = random.Random(seed)
    first, rival, other_first = rng.sample(_FIRST, 3)
    last, other_last = rng.sample(_LAST, 2)
    born, works, visited = rng.sample(_CITIES, 3)
    year, founded = rng.randint(1850, 1899), rng.randint(1905, 1935)
    physics, chemistry = rng.randint(1900, 1920), rng.randint(1921, 1940)
    job, lie_job = rng.choice(_JOBS), rng.choice(_LIES)
    name, twin, other = f"{first} {last}", f"{rival} {last}", f"{other_first} {other_last}"
    company = f"{last} Instruments"
    documents = [
        f"{name} was born in {born} in {year}. Later {name} worked as a {job} in {works}.",
        f"{twin} founded {company} in {founded}.",
        f"{name} won the Nobel Prize in Physics in {physics}. "
        f"{name} won the Nobel Prize in Chemistry in {chemistry}.",
        f"Notable people of the region: {name}, {other}, {visited}.",
        f"{name} wrote two books.",
    ]
    lies = Lies(text="", documents=documents)
    birth = f"{name} was born in {born} in {year}"

    def lie(sentence: str, fact: dict[str, Any], quote: str, false: list[str]) -> None:
        lies.facts[sentence] = {**fact, "source_sentence": sentence}
        lies.quotes[sentence] = quote
        lies.false_units.update(false)

    def base(s: str, r: str, o: str) -> dict[str, Any]:
        return {"subject": s, "relation": r, "object": o, "qualifiers": []}

    lie(f"{name} was a {lie_job}.", base(name, "was", f"a {lie_job}"), birth,
        [f"({name}, was, a {lie_job})"])  # fmt: skip
    lie(f"{name} owned a bakery in {born}.", base(name, "owned a bakery in", born), birth,
        [f"({name}, owned a bakery in, {born})"])  # fmt: skip
    impostor = f"{rng.choice([f for f in _FIRST if f not in (first, rival)])} {last}"
    founding = f"{twin} founded {company} in {founded}"
    lie(f"{impostor} founded {company}.", base(impostor, "founded", company), founding,
        [f"({impostor}, founded, {company})"])  # fmt: skip
    approx = f"about {year - 60}"
    lie(f"{name} was born in {approx}.", base(name, "was born in", approx), birth,
        [f"({name}, was born in, {approx})"])  # fmt: skip
    prize = {
        **base(name, "won", "the Nobel Prize in Physics"),
        "qualifiers": [{"label": "point in time", "value": str(chemistry)}],
    }
    lie(f"{name} won the Nobel Prize in Physics in {chemistry}.", prize, documents[2].rstrip("."),
        [f"(point in time, {chemistry})"])  # fmt: skip
    lie(f"{name} visited {visited} with {other}.", base(name, "visited", visited),
        documents[3].split(": ", 1)[1].rstrip("."), [f"({name}, visited, {visited})"])  # fmt: skip
    plural = f"{rng.choice([f for f in _FIRST if f not in (first, rival)])} {last}s"
    lie(f"{plural} founded {company}.", base(plural, "founded", company), founding,
        [f"({plural}, founded, {company})"])  # fmt: skip
    books = f"{rng.choice(_COUNTS[1:])} Books"
    lie(f"{name} wrote {books}.", base(name, "wrote", books), f"{name} wrote two books",
        [f"({name}, wrote, {books})"])  # fmt: skip
    _name_lies(rng, lie, lies.documents, (first, rival, last), company, works)
    lies.text = " ".join(lies.facts)
    return lies


def _name_lies(
    rng: random.Random,
    lie: Any,
    documents: list[str],
    people: tuple[str, str, str],
    company: str,
    city: str,
) -> None:
    """The lies a name's referent tells apart: possessor, restrictor, longer name, initials."""
    first, rival, last = people
    name = f"{first} {last}"

    def base(s: str, r: str, o: str) -> dict[str, Any]:
        return {"subject": s, "relation": r, "object": o, "qualifiers": []}

    medal = f"the {rng.choice(_MEDALS)} Medal"
    kin = rng.choice(_KIN)
    won = rng.choice(
        [f"{last}, {first}'s {kin} {rival}, won {medal}", f"{name}'s {kin} {rival} won {medal}"]
    )
    documents.append(f"{won}.")
    lie(f"{name} won {medal}.", base(name, "won", medal), won, [f"({name}, won, {medal})"])
    most, goods = rng.choice(_SUPERLATIVES), rng.choice(_GOODS)
    group = f"{company} is one of the {most} makers of {goods}"
    documents.append(f"{group}.")
    claim = f"the {most} maker of {goods}"
    lie(f"{company} is {claim}.", base(company, "is", claim), group,
        [f"({company}, is, {claim})"])  # fmt: skip
    longer = rng.choice([f"{rng.choice(_MODIFIERS)} {city}", f"{city}{rng.choice(_ENDINGS)}"])
    moved = f"{name} moved to {longer}"
    documents.append(f"{moved}.")
    lie(f"{name} moved to {city}.", base(name, "moved to", city), moved,
        [f"({name}, moved to, {city})"])  # fmt: skip
    one, two, three = rng.sample(_INITIALS, 3)
    mayor, impostor = f"{rival} {one}. {two}. {last}", f"{rival} {three}. {two}. {last}"
    elected = f"{mayor} was elected mayor of {city}"
    documents.append(f"{elected}.")
    office = f"mayor of {city}"
    lie(f"{impostor} was elected {office}.", base(impostor, "was elected", office), elected,
        [f"({impostor}, was elected, {office})"])  # fmt: skip


def liar_responder(lies: Lies) -> Any:
    """A responder that decomposes ``lies.text`` and calls every fact supported, as scripted.

    The judge cites the passage of its prompt that holds the lie's quote (or the first one)
    and quotes it verbatim for every unit asked about.
    """

    def respond(tool: str, prompt: str) -> dict[str, Any]:
        if tool == "ExtractedFacts":
            shown = shown_text(prompt)
            return {"facts": [fact for s, fact in lies.facts.items() if s in shown]}
        if tool == "Judgement":
            claim = fenced(prompt, "FACT")
            sentence = next(
                (
                    s
                    for s, f in lies.facts.items()
                    if f"({f['subject']}, {f['relation']}, {f['object']})" in claim
                ),
                "",
            )
            quote = lies.quotes.get(sentence, "It is so.")
            found = _PASSAGE.findall(prompt)
            cited = next((i for i, body in found if quote in body), found[0][0] if found else "")
            units = [
                {"unit": u, "status": "supported", "evidence_ids": [cited], "quote": quote}
                for u in _UNIT.findall(prompt)
            ]
            return {
                "status": "supported",
                "unit_verdicts": units,
                "evidence_ids": [cited],
                "quote": quote,
            }
        if tool == "RefinedQueries":
            return {"queries": [f"refined {u}" for u in _UNIT.findall(prompt)]}
        raise AssertionError(f"unexpected schema {tool!r}")

    return respond


@dataclass(frozen=True)
class Quoted:
    """One claim sentence, the fact an eager decomposer returns for it, the quote it cites.

    Attributes:
        sentence: The claim as it stands in the checked text.
        subject: The fact's subject.
        relation: The fact's relation.
        object: The fact's object.
        quote: The verbatim text (one passage's, one or more sentences) cited as support.
    """

    sentence: str
    subject: str
    relation: str
    object: str
    quote: str


def eager_quoter(claims: Sequence[Quoted]) -> Any:
    """A responder that decomposes into the listed facts and calls every unit supported.

    It plays an eager judge: for each fact it cites the passage of its prompt holding the
    claim's quote (the first passage when none does) and quotes it verbatim for every unit,
    so whether the unit stays supported is the grounding rule's decision alone.
    """

    def respond(tool: str, prompt: str) -> dict[str, Any]:
        if tool == "ExtractedFacts":
            shown = shown_text(prompt)
            return {
                "facts": [
                    {
                        "subject": c.subject,
                        "relation": c.relation,
                        "object": c.object,
                        "qualifiers": [],
                        "source_sentence": c.sentence,
                    }
                    for c in claims
                    if c.sentence in shown
                ]
            }
        if tool == "Judgement":
            fact = fenced(prompt, "FACT")
            quote = next(
                (c.quote for c in claims if f"({c.subject}, {c.relation}, {c.object})" in fact),
                "It is so.",
            )
            found = passages(prompt)
            cited = next((i for i, body in found.items() if quote in body), next(iter(found), ""))
            return {
                "status": "supported",
                "unit_verdicts": [
                    {"unit": u, "status": "supported", "evidence_ids": [cited], "quote": quote}
                    for u in _UNIT.findall(prompt)
                ],
                "evidence_ids": [cited],
                "quote": quote,
                "confidence": 0.9,
            }
        if tool == "RefinedQueries":
            return {"queries": [f"refined {u}" for u in _UNIT.findall(prompt)]}
        raise AssertionError(f"unexpected schema {tool!r}")

    return respond
