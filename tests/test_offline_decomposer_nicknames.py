"""A person named with a quoted nickname ('Saul "Canelo" Álvarez') is "he" in what follows.

The small tagger may read the quoted nickname and the surname as a title; the first name,
the quoted nickname and the surname are one person's name, so a later "he" resolves to it.
"""

from __future__ import annotations

import pytest

from triqua.engines.offline.decompose.decomposer import RuleDecomposer, get_decomposer


@pytest.fixture(scope="module")
def decomposer() -> RuleDecomposer:
    return get_decomposer()


def test_he_after_a_quoted_nickname_resolves_to_the_full_name(
    decomposer: RuleDecomposer,
) -> None:
    text = (
        'Saul "Canelo" Álvarez is a Mexican professional boxer born on July 18, 1990. '
        "He won his first world title at the age of 21."
    )
    facts = decomposer.decompose(text)
    assert ('Saul "Canelo" Álvarez', "won") in {(f.subject, f.relation) for f in facts}


def test_quoted_title_is_still_no_person(decomposer: RuleDecomposer) -> None:
    # A quoted title after a common noun is no nickname: "he" finds no person in it.
    facts = decomposer.decompose('The novel "Emma" is long. He liked it.')
    assert not any("Emma" in f.subject and f.relation == "liked" for f in facts)
