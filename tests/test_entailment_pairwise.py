"""The shipped judge's probabilities for a pair depend on the pair alone.

Its int8 kernels scale activations once per forward pass, and a batch pads its pairs to the
longest, so a judge that batched pairs would answer the same pair differently beside other
pairs, in another order, or when some of them came from its cache. These tests hold it to
exact equality (not closeness): a verdict must not depend on what else a run checks.
"""

from __future__ import annotations

import numpy as np

from triqua.models.entailment import SHIPPED, EntailmentModel, load_entailment

PAIR = ("Marie Curie was born in Warsaw in 1867.", "Marie Curie was born in Poland.")
SHORT = [
    ("Paris is in France.", "Paris is in Italy."),
    ("It rained.", "The ground is dry."),
]
LONG = [
    (
        "The Eiffel Tower, built for the 1889 World's Fair on the Champ de Mars in Paris, was "
        "the tallest man-made structure in the world for forty-one years, until the Chrysler "
        "Building in New York City was finished in 1930; it is now the most visited paid "
        "monument in the world, with millions of visitors a year.",
        "The Eiffel Tower was the tallest structure in the world until 1930.",
    ),
    (
        "Alan Turing, an English mathematician, computer scientist and logician, worked "
        "during the Second World War at Bletchley Park, Britain's codebreaking centre, where "
        "he led Hut 8, the section responsible for German naval cryptanalysis, and devised "
        "techniques for speeding the breaking of German ciphers.",
        "Alan Turing worked at Bletchley Park.",
    ),
]


def fresh() -> EntailmentModel:
    """A newly loaded shipped judge, its cache empty."""
    model = load_entailment(SHIPPED)
    assert model is not None
    return model


def test_a_pair_gets_the_same_probabilities_alone_and_beside_long_and_short_pairs() -> None:
    alone = fresh().predict([PAIR])[0]
    batch = fresh().predict([*LONG, PAIR, *SHORT])
    assert np.array_equal(batch[2], alone)
    reordered = fresh().predict([*reversed(SHORT), PAIR, *reversed(LONG)])
    assert np.array_equal(reordered[2], alone)
    assert np.array_equal(reordered[0], batch[4]) and np.array_equal(reordered[4], batch[0])


def test_cached_neighbours_do_not_change_a_pairs_probabilities() -> None:
    model = fresh()
    model.predict(SHORT)  # cached: the next call runs the other pairs only
    mixed = model.predict([*SHORT, *LONG, PAIR])
    uncached = fresh().predict([*SHORT, *LONG, PAIR])
    assert np.array_equal(mixed, uncached)
    assert np.array_equal(mixed[4], fresh().predict([PAIR])[0])
