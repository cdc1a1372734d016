"""A damaged rules file of the shared reader is one clear error, whichever reader reads it.

The lexicon, the value rules and the restrictor word lists are JSON objects read by one
function (``core.reading.rules_file``): a missing file, broken JSON or a file that holds no
object is a ``RuntimeError`` naming the file, never a bare ``JSONDecodeError`` or
``AttributeError`` from deep inside a reader.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from triqua.core.reading.lexicon_file import read_lexicon
from triqua.core.reading.restrictors import words as restrictor_words
from triqua.core.reading.rules_file import read_rules_file
from triqua.core.reading.values import table

READERS: dict[str, Callable[[Path], Any]] = {
    "lexicon": read_lexicon,
    "value rules": table.load_rules,
    "value examples": table.examples,
    "restrictor words": restrictor_words._load,
    "restrictor examples": restrictor_words.examples,
}
DAMAGE = {"missing": None, "broken JSON": '{"markers": [', "not an object": "[1, 2]"}


@pytest.mark.parametrize("damage", DAMAGE)
@pytest.mark.parametrize("reader", READERS)
def test_a_damaged_rules_file_is_one_error_naming_it(
    tmp_path: Path, reader: str, damage: str
) -> None:
    path = tmp_path / f"{reader.replace(' ', '_')}.json"
    content = DAMAGE[damage]
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(RuntimeError, match="unreadable") as raised:
        READERS[reader](path)
    assert str(path) in str(raised.value)


def test_a_rules_file_is_read_as_written(tmp_path: Path) -> None:
    path = tmp_path / "rules.json"
    path.write_text('{"months": {"May": 5}, "_note": "kept"}', encoding="utf-8")
    assert read_rules_file(path, "lexicon") == {"months": {"May": 5}, "_note": "kept"}
