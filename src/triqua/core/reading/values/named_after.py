"""A person's name written only inside a longer name: "Trump Tower" is no Donald Trump.

Read by the name reader (``name_rivals``) when it looks for a subject in a quote.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from triqua.core.reading.values.names import GENERATIONAL, POST_NOMINALS, Run, surname
from triqua.nlp.parses import parse_many

__all__ = ["a_person", "named_after"]


def named_after(name: str, runs: Sequence[Run], padded: str) -> bool:
    """True when a person's name is written only inside a longer name, past its surname.

    Such a run names another one after the person or with them: "Trump Tower" is a
    building, not Donald Trump; "Elizabeth Taylor" is not Queen Elizabeth. A run closing
    with the surname (its numeral or "Jr." aside) is the name itself, and so is the surname
    as a possessor ("Newton's Principia"). Only a name the parser reads as a person's is
    read so: "Toyota City" or "ICD-9-CM" is the thing's own longer name.
    """
    if len(name.split()) < 2:
        return False  # "Lawson" alone may be the company of "Daiei Lawson Co., Ltd."
    last = surname(name.split())
    holding = [run.name.split() for run in runs if last in run.name.split()]
    if not holding or f" {last} s " in padded:
        return False
    # A letter after the surname is markup or a stray initial ("Marie Curie</b>"), no word;
    # post-nominal letters ("Bruce Middleton Hope Shand MC") close a name as "Jr." does.
    closing = [
        [w for w in words if w not in GENERATIONAL | POST_NOMINALS and len(w) > 1] or words
        for words in holding
    ]
    return all(surname(words) != last for words in closing) and a_person(name)


@functools.lru_cache(maxsize=4096)
def a_person(name: str) -> bool:
    """True when the parser reads ``name`` (normalised), written capitalised, as a person's."""
    written = " ".join(w.capitalize() for w in name.split())
    doc = parse_many([written])[0]
    return (
        doc is not None
        and len(doc) > 0
        and doc[-1].ent_type_ == "PERSON"
        and all(t.pos_ == "PROPN" for t in doc)  # "Echarts Java": "Java" read as no name
    )
