"""What is checked: facts, their units and qualifiers, documents and chunks of the text."""

from __future__ import annotations

import functools
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from triqua.schema.common import Span, sha256_text

_GROUP = re.compile(r"\(([^()]*)\)")


class Qualifier(BaseModel):
    """A Wikidata-style qualifier ``(label, value)`` that modifies a base triple only."""

    model_config = ConfigDict(frozen=True)

    label: str = Field(description="Qualifier property, e.g. 'point in time', 'location'.")
    value: str = Field(description="Qualifier value, e.g. '2026', 'Paris'.")

    def __str__(self) -> str:
        return f"({self.label}, {self.value})"


UnitKind = Literal["base", "qualifier"]


class FactUnit(BaseModel):
    """One scoring unit: the base triple of a fact, or one of its qualifiers.

    A qualifier unit's identity includes the subject of its fact, so the same
    ``(point in time, 1990)`` on two different subjects is two units.
    """

    model_config = ConfigDict(frozen=True)

    kind: UnitKind
    subject: str
    relation: str
    object: str
    label: str | None = None
    value: str | None = None

    @property
    def text(self) -> str:
        """The unit as written in a fact string: ``(s, r, o)`` or ``(label, value)``."""
        if self.kind == "base":
            return f"({self.subject}, {self.relation}, {self.object})"
        return f"({self.label}, {self.value})"


class Fact(BaseModel):
    """A TriQua fact: base triple ``(subject, relation, object)`` plus independent qualifiers."""

    id: str = Field(default="", description="Run-unique fact id, e.g. 'f3'.")
    subject: str
    relation: str
    object: str
    qualifiers: list[Qualifier] = Field(default_factory=list)
    span: Span | None = Field(default=None, description="Source span in the checked text.")
    chunk_index: int = 0
    source_text: str = Field(default="", description="The sentence or clause it came from.")

    @property
    def has_qualifiers(self) -> bool:
        """True when the fact carries at least one qualifier."""
        return bool(self.qualifiers)

    @property
    def triple_text(self) -> str:
        """The base triple as ``(s, r, o)``."""
        return f"({self.subject}, {self.relation}, {self.object})"

    def to_string(self) -> str:
        """Fact string form: ``(s, r, o)`` or ``(s, r, o)-(q1, v1)-…-(qm, vm)``."""
        return "-".join([self.triple_text, *(str(q) for q in self.qualifiers)])

    def query(self) -> str:
        """Retrieval query form: ``s r o`` or ``s r o q1 v1 … qm vm``."""
        parts = [self.subject, self.relation, self.object]
        for qualifier in self.qualifiers:
            parts.extend([qualifier.label, qualifier.value])
        return " ".join(p for p in parts if p)

    def units(self) -> list[FactUnit]:
        """The fact's units: the base triple first, then one per qualifier.

        Units are frozen and a function of the triple and qualifiers, so the readers that
        ask again and again (each gate, each settling) share them (:func:`_units`).
        """
        return list(_units(self.subject, self.relation, self.object, tuple(self.qualifiers)))

    @classmethod
    def parse(cls, text: str, **fields: Any) -> Fact:
        """Parse the fact string form ``(s, r, o)-(q, v)-…`` back into a ``Fact``.

        Raises:
            ValueError: when the text is not in fact string form.
        """
        groups = _GROUP.findall(text.strip())
        if not groups or _GROUP.sub("", text).strip("- \t") != "":
            raise ValueError(f"not a fact string: {text!r}")
        base = [p.strip() for p in groups[0].split(",")]
        if len(base) < 3:
            raise ValueError(f"base triple needs 3 parts: {groups[0]!r}")
        subject, relation, obj = base[0], base[1], ", ".join(base[2:])
        qualifiers = []
        for group in groups[1:]:
            label, sep, value = group.partition(",")
            if not sep:
                raise ValueError(f"qualifier needs a label and a value: {group!r}")
            qualifiers.append(Qualifier(label=label.strip(), value=value.strip()))
        return cls(subject=subject, relation=relation, object=obj, qualifiers=qualifiers, **fields)


@functools.lru_cache(maxsize=8192)  # a run's facts, each asked for its units many times
def _units(
    subject: str, relation: str, obj: str, qualifiers: tuple[Qualifier, ...]
) -> tuple[FactUnit, ...]:
    """The units of a fact with this triple and these qualifiers (see :meth:`Fact.units`)."""
    base = {"subject": subject, "relation": relation, "object": obj}
    qualified = (
        FactUnit(kind="qualifier", label=q.label, value=q.value, **base) for q in qualifiers
    )
    return (FactUnit(kind="base", **base), *qualified)


class Document(BaseModel):
    """A document supplied by the caller (or ingested into a corpus)."""

    id: str = ""
    text: str
    source: str | None = Field(default=None, description="URL or file path.")
    title: str | None = None
    url: str | None = Field(
        default=None, description="The URL the text was taken from (a JSONL line's ``url``)."
    )

    def model_post_init(self, __context: Any) -> None:
        """Give the document a content-derived id when none was set."""
        if not self.id:
            self.id = "doc-" + sha256_text(self.text)[:12]


class Chunk(BaseModel):
    """A piece of the input text with its position."""

    index: int
    text: str
    start: int
    end: int
