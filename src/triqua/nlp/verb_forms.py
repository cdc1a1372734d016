"""English verb forms, read from the parser model's own lemmatizer tables.

The small parser sometimes tags a sentence's verb as a noun ("Wolves hunt in packs." read
as a "wolves hunt"). Whether the word can be a verb at all is in the lemmatizer tables that
ship with ``en_core_web_sm`` (WordNet's verb lemmas and irregular forms); the pipeline
leaves the lemmatizer out, so the tables are read here, once, from the model package. A
missing table makes every word read as no verb, so a repair that asks simply does nothing.
"""

from __future__ import annotations

from pathlib import Path

from triqua.nlp.pipeline import SPACY_MODEL
from triqua.support.once import once

__all__ = ["is_base_verb", "is_third_person_verb"]


@once
def _verbs() -> tuple[frozenset[str], dict[str, str]]:
    """The verb lemmas and the irregular forms (form -> lemma) of the model's tables."""
    from spacy.lookups import Lookups
    from spacy.util import get_package_path

    try:
        package = Path(get_package_path(SPACY_MODEL))
    except (ImportError, ModuleNotFoundError):
        return frozenset(), {}
    folders = sorted(package.glob("*/lemmatizer/lookups"))
    if not folders:
        return frozenset(), {}
    tables = Lookups().from_disk(folders[0])
    lemmas = frozenset(tables.get_table("lemma_index").get("verb", []))
    irregular = {
        form: found[0]
        for form, found in tables.get_table("lemma_exc").get("verb", {}).items()
        if found
    }
    return lemmas, irregular


def is_base_verb(word: str) -> bool:
    """True when lowercase ``word`` is a verb's base form ("hunt", "travel")."""
    return word in _verbs()[0]


def is_third_person_verb(word: str) -> bool:
    """True when lowercase ``word`` is a verb's third-person singular ("dances", "carries")."""
    lemmas, irregular = _verbs()
    if not word.endswith("s") or word.endswith("ss"):
        return False
    if word in irregular:
        return irregular[word] in lemmas
    stems = [word[:-1], word[:-2] if word.endswith("es") else ""]
    if word.endswith("ies"):
        stems.append(word[:-3] + "y")
    return any(stem in lemmas for stem in stems if stem)
