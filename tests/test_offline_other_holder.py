"""A window beside another holder's sentence does not state that holder's predicate.

"Sydney is a harbour city. Canberra is the seat of government." gives "the seat of
government" to Canberra; the judge may read Sydney beside those words as entailing "Sydney is
the seat of government", and the gate takes that support back. Canberra's claim and Sydney's
own predicate stay supported.
"""

from __future__ import annotations

import pytest

from triqua.engines.offline.verify.verifier import get_verifier
from triqua.schema import Evidence, Fact, Status

PASSAGE = "Sydney is a harbour city. Canberra is the seat of government."


def status(subject: str, obj: str, text: str = PASSAGE) -> Status:
    evidence = Evidence.build(document_id="doc", text=text, retriever="supplied")
    fact = Fact(subject=subject, relation="is", object=obj)
    return get_verifier().verify(fact, [evidence]).status


def test_another_names_predicate_is_not_supported_for_the_subject() -> None:
    assert status("Sydney", "the seat of government") != Status.SUPPORTED


@pytest.mark.parametrize(
    ("subject", "obj"), [("Canberra", "the seat of government"), ("Sydney", "a harbour city")]
)
def test_each_holders_own_predicate_stays_supported(subject: str, obj: str) -> None:
    assert status(subject, obj) == Status.SUPPORTED
