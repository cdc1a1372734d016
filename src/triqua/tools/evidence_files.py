"""Which evidence files may be read: the path policy, safe directory walks and system roots.

A path named in a batch file (or any other data) may only point inside the folders a
:class:`PathPolicy` allows; paths typed on the command line are allowed by being typed.
Directory walks never follow a symbolic link out of the walked folder, skip special files
(FIFOs, sockets, devices) and refuse system roots and pseudo file systems (``/``, ``/proc``,
``/sys``, ``/dev``), whose files are endless, special or none of the evidence's business.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "MAX_WALK_ENTRIES",
    "PathPolicy",
    "check_readable_file",
    "expand_paths",
    "refuse_system_path",
]

#: Directory entries a walk may visit before it stops with an error (a walk of a whole
#: disk is a mistake, not evidence).
MAX_WALK_ENTRIES = 200_000

#: Pseudo file systems: their files are special (endless, blocking or generated) everywhere.
_PSEUDO_ROOTS = tuple(Path(p) for p in ("/proc", "/sys", "/dev"))


def _within(path: Path, root: Path) -> bool:
    """True when ``path`` is ``root`` or inside it (both resolved)."""
    return path == root or root in path.parents


def refuse_system_path(path: Path, *, walking: bool) -> None:
    """Refuse pseudo file systems always, and the root of a file system as a folder to walk.

    Raises:
        ValueError: ``"<path>: <why>"``.
    """
    resolved = path.resolve()
    if any(_within(resolved, root) for root in _PSEUDO_ROOTS):
        raise ValueError(f"{path}: system files (/proc, /sys, /dev) are never read as evidence")
    if walking and resolved == Path(resolved.anchor):
        raise ValueError(
            f"{path}: refusing to walk the root of the file system; give the folder that "
            "holds the evidence"
        )


def check_readable_file(path: Path) -> os.stat_result:
    """The ``stat`` of a regular file (links followed), or a one-line error.

    FIFOs, sockets and devices are refused: reading them blocks or never ends.

    Raises:
        ValueError: ``"<path>: <why>"``.
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except OSError as exc:
        raise ValueError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if stat.S_ISDIR(info.st_mode):
        raise ValueError(f"{path}: is a directory, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"{path}: not a regular file (FIFO, socket or device), not read")
    return info


@dataclass(frozen=True)
class PathPolicy:
    """The folders that paths found in data (batch files, citations) may point into."""

    roots: tuple[Path, ...]

    @classmethod
    def of(cls, *folders: str | Path | None, allow: Iterable[str | Path] = ()) -> PathPolicy:
        """A policy allowing ``folders`` and ``allow`` (``None`` entries ignored), resolved."""
        roots = [Path(f).expanduser().resolve() for f in (*folders, *allow) if f is not None]
        return cls(tuple(dict.fromkeys(roots)))

    def allows(self, path: Path) -> bool:
        """True when ``path`` (links followed) lies inside an allowed folder."""
        resolved = path.expanduser().resolve()
        return any(_within(resolved, root) for root in self.roots)

    def check(self, path: Path) -> None:
        """Raise a clear ``ValueError`` when ``path`` lies outside every allowed folder.

        A path named in data is refused too where it (links followed) is hidden below every
        allowed folder it lies in (``.env``, ``.ssh/…``), as a folder walk skips it: a text's
        source list or a batch line must not make a dotfile evidence.
        """
        if not self.allows(path):
            where = ", ".join(str(r) for r in self.roots) or "none"
            raise ValueError(
                f"{path}: outside the allowed folders ({where}); "
                "allow its folder with --allow-path DIR (allow_paths=[...])"
            )
        resolved = path.expanduser().resolve()
        if all(
            any(part.startswith(".") for part in resolved.relative_to(root).parts)
            for root in self.roots
            if _within(resolved, root)
        ):
            raise ValueError(f"{path}: a hidden file or folder, never read from a path in data")


def _walk(
    root: Path, suffixes: frozenset[str], problems: list[str], max_entries: int
) -> list[Path]:
    """Supported regular files under ``root``: sorted, hidden ones skipped, links kept in-tree.

    ``os.walk(followlinks=False)`` never descends into a linked folder; a linked file is
    read only when its target lies inside ``root``.
    """
    real_root = root.resolve()
    found: list[Path] = []
    visited = 0
    for folder, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        visited += len(dirnames) + len(filenames)
        if visited > max_entries:
            raise ValueError(
                f"{root}: more than {max_entries:,} files and folders to walk; give the "
                "folder that holds the evidence"
            )
        for name in sorted(filenames):
            if name.startswith(".") or Path(name).suffix.lower() not in suffixes:
                continue
            path = Path(folder) / name
            try:
                info = path.lstat()
            except OSError:
                continue  # vanished during the walk
            if stat.S_ISLNK(info.st_mode):
                target = path.resolve()
                if not _within(target, real_root):
                    problems.append(f"{path}: skipped, a link out of {root} (to {target})")
                    continue
                try:
                    info = path.stat()
                except OSError:
                    problems.append(f"{path}: skipped, a broken link")
                    continue
            if not stat.S_ISREG(info.st_mode):
                problems.append(f"{path}: skipped, not a regular file (FIFO, socket or device)")
                continue
            found.append(path)
    return found


def expand_paths(
    paths: Sequence[str | Path] | Iterable[str | Path],
    suffixes: frozenset[str],
    *,
    problems: list[str] | None = None,
    max_entries: int = MAX_WALK_ENTRIES,
) -> list[Path]:
    """Expand directories into their supported files (sorted, hidden skipped), once each.

    Args:
        paths: Files and folders.
        suffixes: File suffixes a walk keeps (lower case, with the dot).
        problems: Receives one message per file a walk skipped (links out, special files).
        max_entries: Entries a walk may visit before it fails.

    Raises:
        ValueError: ``"<path>: <why>"`` for a missing path, a system root or pseudo file
            system, a walk too large, or a folder with no readable evidence file.
    """
    skipped = problems if problems is not None else []
    out: list[Path] = []
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw).expanduser()
        if path.is_dir():
            refuse_system_path(path, walking=True)
            before = len(skipped)
            found = _walk(path, suffixes, skipped, max_entries)
            if not found:
                kinds = " ".join(sorted(suffixes))
                why = "; ".join(skipped[before:][:3])
                raise ValueError(
                    f"{path}: no readable evidence files ({kinds})" + (f": {why}" if why else "")
                )
        else:
            refuse_system_path(path, walking=False)
            found = [path]
        for p in found:
            key = p.resolve()
            if key not in seen:
                seen.add(key)
                out.append(p)
    return out
