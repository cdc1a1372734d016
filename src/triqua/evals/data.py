"""Where evaluation data lives, how a data file is stamped, and how a run samples rows."""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

__all__ = [
    "DATA_ENV",
    "DataStamp",
    "data_file",
    "eval_data_dir",
    "resolve_data_file",
    "sample",
    "stamp",
    "stamp_folder",
]

#: Environment variable naming the data folder (overrides the default beside the repository).
DATA_ENV = "TRIQUA_DATA"

T = TypeVar("T")


def _repo_root() -> Path | None:
    """The source checkout holding triqua, found from the package file or the working folder."""
    for start in (Path(__file__).resolve(), Path.cwd().resolve()):
        for folder in (start, *start.parents):
            if (folder / "pyproject.toml").is_file() and (folder / "src" / "triqua").is_dir():
                return folder
    return None


def eval_data_dir() -> Path:
    """The evaluation data folder: ``$TRIQUA_DATA``, else ``<repository root>/../shared/data``.

    Raises:
        ValueError: when neither is set nor found.
    """
    configured = os.environ.get(DATA_ENV)
    if configured:
        return Path(configured).expanduser()
    root = _repo_root()
    if root is None:
        raise ValueError(f"no data folder: set {DATA_ENV} or pass --data-dir")
    return root.parent / "shared" / "data"


def data_file(data_dir: Path | None, relative: str) -> Path:
    """A file of the data folder; a missing one is a one-line error naming it and the fix.

    Raises:
        ValueError: when the file does not exist.
    """
    path = (data_dir or eval_data_dir()) / relative
    if not path.is_file():
        raise ValueError(
            f"{path}: no such file; set {DATA_ENV} (or --data-dir) to the folder holding {relative}"
        )
    return path


def resolve_data_file(value: str | Path, data_dir: Path | None, default_folder: str) -> Path:
    """A data file given as a path, or as a name (with or without ``.jsonl``) in the data folder.

    Raises:
        ValueError: when no such file exists.
    """
    path = Path(value).expanduser()
    if path.is_file():
        return path
    base = (data_dir or eval_data_dir()) / default_folder
    for candidate in (base / str(value), base / f"{value}.jsonl"):
        if candidate.is_file():
            return candidate
    raise ValueError(f"{value}: no such file (nor in {base}); set {DATA_ENV} or --data-dir")


class DataStamp(BaseModel):
    """Identity of a data file used by a run: where it was and the SHA-256 of its bytes."""

    path: str
    sha256: str
    rows: int | None = None


def stamp(path: Path, rows: int | None = None) -> DataStamp:
    """Stamp ``path`` with the SHA-256 of its content."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return DataStamp(path=str(path), sha256=digest.hexdigest(), rows=rows)


def stamp_folder(folder: Path, patterns: Sequence[str] = ("*.txt", "*.md")) -> DataStamp:
    """Stamp a folder of evidence files: SHA-256 over each file's name and content hash."""
    files = sorted({p for pattern in patterns for p in folder.glob(pattern) if p.is_file()})
    digest = hashlib.sha256()
    for file in files:
        digest.update(f"{file.name}\0{stamp(file).sha256}\n".encode())
    return DataStamp(path=str(folder), sha256=digest.hexdigest(), rows=len(files))


def sample(items: Sequence[T], limit: int | None, seed: int) -> list[T]:
    """All items, or ``limit`` of them drawn with ``seed`` and kept in their original order."""
    if limit is None or limit >= len(items):
        return list(items)
    if limit < 0:
        raise ValueError(f"limit must be >= 0, got {limit}")
    chosen = sorted(random.Random(seed).sample(range(len(items)), limit))
    return [items[i] for i in chosen]
