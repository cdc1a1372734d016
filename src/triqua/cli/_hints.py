"""One-line hints the CLI says before a run, so a surprising default is never silent."""

from __future__ import annotations

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
    from pathlib import Path

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
