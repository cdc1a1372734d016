"""A person called by the given name alone, once the passage has named them in full.

A biography names its subject in full ("Ada Lovelace", or longer: "Gilberto Aparecido da
Silva" for "Gilberto Silva") and goes on by the given name ("Ada translated …", "Gilberto
began his career …"). The given name is that person when nothing names another one with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from triqua.core.reading.quotes import normalise
from triqua.core.reading.values.names import STOP_NAMES, TITLES, name_runs, surname

__all__ = ["given_name_alone", "lengthened"]

#: Lower-case words inside a person's name ("Gilberto Aparecido da Silva", "Ludwig van
#: Beethoven").
_NAME_LINKS = frozenset(
    ("de", "da", "das", "do", "dos", "van", "von", "der", "den", "bin", "ibn", "al", "del")
) | frozenset(("di", "du", "la", "le"))
_MIDDLE_NAMES = 3  # words a name written longer may add between its given name and surname


def given_name_alone(name: str, text: str, before: str) -> bool:
    """True when ``text`` calls the person ``name`` by the given name alone, as named before.

    "Ada" is Ada Lovelace when ``before`` (the passage before, or its document's title)
    writes the whole name and neither text names anyone else with that given name ("Ada
    Byron", "Ada King": a reader of names cannot tell whether that is the same person). A
    given name of several words counts whole or shortened ("Siti Rahmah" for "Siti Rahmah
    Kassim"), and the name written longer (:func:`lengthened`), or after a title ("Datuk
    Siti Rahmah Kassim"), is the same person.
    """
    words = [w for w in name.split() if w not in TITLES]
    if len(words) < 2 or len(words[0]) < 3 or words[0] in STOP_NAMES:
        return False
    shortened = {" ".join(words[:k]) for k in range(1, len(words))}
    if not any(run.name in shortened and not run.possessor for run in name_runs(text)):
        return False
    if f" {' '.join(words)} " not in f" {normalise(before)} ":
        return False
    full = " ".join(words)
    own = {name, full, *shortened, *lengthened(words, before), *lengthened(words, text)}
    # A title the reader does not know before the full name keeps it hers ("Datuk Siti
    # Rahmah Kassim").
    return not any(
        words[0] in run.name.split()
        and run.name not in own
        and not run.name.endswith(f" {full}")
        and not _written_longer(words, run.name.split())
        for run in (*name_runs(before), *name_runs(text))
    )


def _written_longer(words: Sequence[str], run: Sequence[str]) -> bool:
    """True when a name run writes the name with words added before its surname.

    "Gilberto Aparecido da Silva" (one run: a particle joins it) is "Gilberto Silva".
    """
    return (
        len(run) > len(words)
        and run[0] == words[0]
        and surname(list(run)) == surname(list(words))
        and set(words) <= set(run)
    )


def lengthened(words: Sequence[str], raw: str) -> set[str]:
    """The name runs of ``raw`` that open the name ``words`` written longer.

    "Gilberto Aparecido da Silva" writes "Gilberto Silva" with middle names between its
    given name and its surname; its run "gilberto aparecido" (a lower-case particle closes
    a run) is that person's, no other Gilberto. Every word of the name is written, in up to
    three added capitalised words or particles ("da", "van"), up to the surname.
    """
    tokens = raw.split()
    last = surname(list(words))
    found = set()
    for i, token in enumerate(tokens):
        if normalise(token) != words[0]:
            continue
        run, closed, seen = [words[0]], False, set(words[:1])
        for later in tokens[i + 1 : i + 2 + _MIDDLE_NAMES]:
            word = normalise(later)
            if not word or not (later[:1].isupper() or word in _NAME_LINKS):
                break
            seen.update(word.split())
            if word == last:
                if set(words) <= seen and len(seen) > len(set(words)):
                    found.add(" ".join(run))
                break
            if later.endswith((",", ";", ":", ")")) or later.startswith(("(", "[")):
                break
            closed = closed or word in _NAME_LINKS
            if not closed:
                run.append(word)
    return found
