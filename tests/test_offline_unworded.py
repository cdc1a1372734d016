"""A relation the lexicon does not know, in a window that writes nothing of the fact.

"Marie Curie campaigned for reform" is a relation ("campaigned for") the lexicon has no
group for, so the judge reads it in other words at the card's ``supports`` bar. A window
about the subject that writes neither the relation's word nor any word of the object (the
lead "Marie Curie was a Polish … physicist") states nothing of the fact for the judge to
read: it needs the card's ``entailed`` bar, which the lead does not reach. A window that
writes the object ("exchanged letters with Albert Einstein") is read at ``supports`` as
before.
"""

from __future__ import annotations

import pytest

from triqua.engines.offline.verify.verifier import get_verifier
from triqua.schema import Evidence, Fact, Status

LEAD = (
    "Marie Curie was a Polish and naturalised-French physicist and chemist who conducted "
    "pioneering research on radioactivity."
)


def _status(relation: str, obj: str, text: str) -> Status:
    fact = Fact(subject="Marie Curie", relation=relation, object=obj)
    evidence = Evidence.build(document_id="doc", text=text, retriever="supplied")
    return get_verifier().verify(fact, [evidence]).unit_verdicts[0].status


@pytest.mark.parametrize(
    ("relation", "obj"),
    [("campaigned for", "reform"), ("supervised", "a laboratory"),
     ("corresponded with", "scientists")],
)  # fmt: skip
def test_a_lead_writing_nothing_of_the_fact_does_not_support_it(relation: str, obj: str) -> None:
    assert _status(relation, obj, LEAD) != Status.SUPPORTED


def test_a_window_writing_the_object_is_read_at_the_supports_bar() -> None:
    text = (
        "Marie Curie was a Polish physicist. She exchanged letters with Albert Einstein for years."
    )
    assert _status("corresponded with", "Albert Einstein", text) == Status.SUPPORTED
