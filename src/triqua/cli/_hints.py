"""One-line hints the CLI says before a run, so a surprising default is never silent."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from triqua.context import Context
from triqua.schema import Mode

NO_EVIDENCE_HINT = (
    "note: no evidence source given, so this is a closed-book check; give one with "
    "-e FILE_OR_FOLDER, --retriever chroma --collection NAME, or --retriever tavily"
)


def no_evidence_hint(settings: dict[str, Any], mode: Mode, *, has_evidence: bool) -> str | None:
    """The closed-book hint when a check ran without any evidence source, else None.

    'auto' with no documents means closed book (``resources.retriever_kind``); a retriever
    the user chose, even ``closed_book``, is their choice and gets no hint. It is said
    once the run is done, before its output, so that an error stays a single line.
    """
    if has_evidence or mode is not Mode.CLOSED_BOOK:
        return None
    retriever = settings.get("retriever") or Context().retriever
    return NO_EVIDENCE_HINT if retriever == "auto" else None


#: Endings that make a one-word TEXT a file name, beyond the ones -f and -e read.
_OTHER_FILE_SUFFIXES = frozenset({".json", ".csv", ".pdf", ".doc", ".docx", ".log"})


def file_name_problem(text: str) -> str | None:
    """Why a TEXT argument looks like a file name rather than text to check, else None.

    ``triqua check answer.txt`` would check the nine characters "answer.txt": nothing, and
    with no word of warning. A one-word TEXT that names an existing file, or ends like a
    file name (.txt, .md, .html, ...), is refused with the option that reads the file.
    """
    from triqua.tools.documents import SUPPORTED_SUFFIXES

    stripped = text.strip()
    if not stripped or len(stripped.split()) != 1 or len(stripped) > 4096:
        return None
    path = Path(stripped).expanduser()
    try:
        exists = path.is_file()
    except OSError:  # a name too long for the file system is no file
        exists = False
    if not exists and path.suffix.lower() not in SUPPORTED_SUFFIXES | _OTHER_FILE_SUFFIXES:
        return None
    where = "" if exists else " (no such file here)"
    return (
        f"TEXT {stripped!r} is a file name, not text to check: check the file with "
        f"-f {stripped}{where}"
    )


#: Endings of files that hold JSON (one document, or one record per line), not prose.
JSON_SUFFIXES = frozenset({".json", ".jsonl", ".ndjson"})


def json_records_problem(file: Path, text: str) -> str | None:
    """Why ``-f FILE`` holds JSON records rather than prose to check, else None.

    ``triqua check -f answers.jsonl`` would check the braces, keys and quotes as one text.
    A file is JSON when its name ends in .json, .jsonl or .ndjson, when every non-empty
    line of it is a JSON object, or when the whole of it is one JSON object or array.
    """
    if file.suffix.lower() not in JSON_SUFFIXES and not _is_json(text):
        return None
    name = shlex.quote(str(file))
    return (
        f"{file} holds JSON records, not prose: check each record's text with --batch {name} "
        f"(facts from 'triqua extract': triqua verify {name}); to check its characters as "
        f"text anyway: triqua check - < {name}"
    )


def _is_json(text: str) -> bool:
    """Whether ``text`` is JSON: one object or array, or one object per non-empty line."""
    stripped = text.strip()
    if not stripped or stripped[0] not in "{[":
        return False
    try:
        whole = json.loads(stripped)
    except ValueError:
        whole = None
    if isinstance(whole, dict | list):
        return True
    for line in stripped.splitlines():
        if not line.strip():
            continue
        try:
            if not isinstance(json.loads(line), dict):
                return False
        except ValueError:
            return False
    return True
