"""Facts written as "subject | relation | object", as the reading data files give them."""

from __future__ import annotations

from triqua.schema import Fact


def written_fact(written: str) -> Fact:
    """The fact a data example writes as "subject | relation | object"."""
    subject, relation, obj = (part.strip() for part in written.split("|"))
    return Fact(subject=subject, relation=relation, object=obj)
