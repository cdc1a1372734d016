"""Reading evidence files (text, Markdown, HTML, JSONL) and splitting them into passages.

Shared by supplied-document retrieval and corpus ingestion, so both read files, reject
bad ones and compute passage offsets the same way.

Why not ``langchain_community``'s document loaders: its HTML loaders need BeautifulSoup or
unstructured and its ``JSONLoader`` needs ``jq`` (none of them a dependency here), and
``TextLoader`` reads the whole file with no size bound checked first, does not notice binary
data, and wraps every failure in ``RuntimeError("Error loading <path>")``. Evidence files
must be size-checked before they are read (``max_evidence_bytes``), confined to the allowed
folders (``evidence_files.PathPolicy``), rejected with one clear ``"<path>: <why>"`` error,
and JSONL lines bounded in length and nesting depth (``triqua.support.jsonl``) with bad lines
reported and skipped; the readers below do exactly that with the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml
from markdown_it import MarkdownIt

from triqua.core.text.inputs import evidence_limit_error
from triqua.schema import Document
from triqua.support.encoding import not_utf8
from triqua.support.jsonl import read_jsonl
from triqua.tools.evidence_files import PathPolicy, check_readable_file
from triqua.tools.evidence_files import expand_paths as _expand_paths
from triqua.tools.html_text import TextExtractor as _TextExtractor
from triqua.tools.passages import Passage, split_passages

__all__ = [
    "HTML_SUFFIXES",
    "JSONL_SUFFIXES",
    "SUPPORTED_SUFFIXES",
    "JsonlRecord",
    "Passage",
    "decode_text",
    "expand_paths",
    "html_to_text",
    "load_documents",
    "parse_jsonl",
    "read_bytes",
    "read_evidence_paths",
    "read_text",
    "split_passages",
    "text_title",
]

TEXT_SUFFIXES = frozenset({".txt", ".text", ".md", ".markdown", ".rst"})
HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml"})
JSONL_SUFFIXES = frozenset({".jsonl", ".ndjson"})
SUPPORTED_SUFFIXES = TEXT_SUFFIXES | HTML_SUFFIXES | JSONL_SUFFIXES

_BINARY_SNIFF_BYTES = 8192
#: Enough of a document's opening to hold its title heading.
_TITLE_HEAD_CHARS = 2000
#: A YAML front matter block opening a Markdown page.
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)


def read_bytes(path: Path) -> bytes:
    """Read a file's bytes.

    Raises:
        ValueError: ``"<path>: <why>"`` when the file is missing, unreadable or larger than
            the memory left.
    """
    try:
        return path.read_bytes()
    except MemoryError:  # a file larger than memory (or a sparse one): that file fails alone
        size = path.stat().st_size
        raise ValueError(f"{path}: too large to read into memory ({size:,} bytes)") from None
    except IsADirectoryError:
        raise ValueError(f"{path}: is a directory, not a file") from None
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except OSError as exc:
        raise ValueError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def decode_text(data: bytes, path: Path) -> str:
    """Decode a file's bytes as UTF-8 text (BOM stripped).

    Raises:
        ValueError: ``"<path>: <why>"`` when the data is binary, not UTF-8 or has no text.
    """
    if b"\x00" in data[:_BINARY_SNIFF_BYTES]:
        raise ValueError(f"{path}: looks binary (contains NUL bytes); expected a text file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(not_utf8(str(path), exc)) from None
    if not text.strip():
        raise ValueError(f"{path}: is empty")
    return text


def read_text(path: Path) -> str:
    """Read a UTF-8 text file; raises ``ValueError("<path>: <why>")`` when it is not one."""
    return decode_text(read_bytes(path), path)


def text_title(text: str) -> str | None:
    """The title a text or Markdown document opens with, or None.

    A first block that is a level-1 heading ("# Ada Lovelace", or a line underlined with
    "=") names what the document is about, as an HTML page's ``<title>`` does, so the
    verifier and the grounding rule read "She" in any of its passages as that subject.
    CommonMark's reader (markdown-it, already installed with rich) decides what a heading
    is; inline markup ("**Ada**", links) is read as its text. A YAML front matter's
    ``title`` (a static-site page opening "---") comes first.
    """
    head = text.lstrip()[:_TITLE_HEAD_CHARS]
    front = _FRONT_MATTER.match(head)
    if front is not None:  # a static-site page: "---\ntitle: Ada Lovelace\n---"
        try:
            meta = yaml.safe_load(front.group(1))
        except yaml.YAMLError:
            meta = None
        named = meta.get("title") if isinstance(meta, dict) else None
        if isinstance(named, str) and named.strip():
            return " ".join(named.split())
        head = head[front.end() :].lstrip()
    tokens = MarkdownIt("commonmark").parse(head)
    if len(tokens) < 2 or tokens[0].type != "heading_open" or tokens[0].tag != "h1":
        return None
    words = [t.content for t in tokens[1].children or () if t.type in ("text", "code_inline")]
    title = " ".join("".join(words).split())
    return title or None


def html_to_text(html: str, *, checked: bool = False) -> tuple[str, str | None]:
    """Extract the visible text of an HTML page (blocks separated by blank lines) and its title.

    ``checked``: the page is the text to check, not evidence: its navigation (nav, header,
    footer, aside, forms) is left out and its headings become Markdown heading lines, which
    the check keeps as context and never checks.
    """
    parser = _TextExtractor(checked=checked)
    parser.feed(html)
    parser.close()
    paragraphs = [" ".join("".join(parts).split()) for parts in parser.blocks]
    text = "\n\n".join(p for p in paragraphs if p)
    title = " ".join("".join(parser.title_parts).split()) or None
    return text, title


@dataclass(frozen=True)
class JsonlRecord:
    """One JSONL line's text, with its 1-based line number, optional title and ``url``."""

    line: int
    text: str
    title: str | None = None
    url: str | None = None


def parse_jsonl(data: bytes | str, path: Path, field: str) -> tuple[list[JsonlRecord], list[str]]:
    """Parse JSONL (bytes, or text) into records taken from ``field``; bad lines become messages.

    A bad line (malformed, nested too deeply, over-long, not UTF-8, no text) is reported as
    ``"<path>:<line>: <why>"`` and the other lines are still read.
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    problems: list[str] = []

    def record(obj: object) -> tuple[str, str | None, str | None]:
        value = obj.get(field) if isinstance(obj, dict) else None
        if not isinstance(value, str):
            raise ValueError(f"no string field {field!r}")
        if not value.strip():
            raise ValueError(f"field {field!r} is empty")
        title = obj.get("title") if isinstance(obj, dict) else None
        url = obj.get("url") if isinstance(obj, dict) else None
        return (
            value,
            title if isinstance(title, str) else None,
            url.strip() if isinstance(url, str) and url.strip() else None,
        )

    records = [
        JsonlRecord(number, text, title, url)
        for number, (text, title, url) in read_jsonl(
            data, problems.append, parse=record, where=path
        )
    ]
    return records, problems


def expand_paths(paths: Iterable[str | Path], *, problems: list[str] | None = None) -> list[Path]:
    """Expand folders into their evidence files (see :func:`evidence_files.expand_paths`)."""
    return _expand_paths(paths, SUPPORTED_SUFFIXES, problems=problems)


def load_documents(
    paths: Sequence[str | Path],
    *,
    field: str = "text",
    problems: list[str] | None = None,
    policy: PathPolicy | None = None,
    max_bytes: int | None = None,
    spent_bytes: int = 0,
) -> list[Document]:
    """Load text, Markdown, HTML and JSONL files as documents (one per JSONL line).

    Args:
        paths: Files and folders (walked without leaving them; see ``expand_paths``).
        field: JSONL field holding the text.
        problems: Receives the JSONL lines and walked files that were skipped; without it,
            the first such problem is raised.
        policy: When given, every path must lie inside its folders.
        max_bytes: Most bytes read in all; checked against each file's size before it is
            read, so over-large evidence is refused before it fills memory.
        spent_bytes: Bytes of evidence the caller already holds (counted against
            ``max_bytes``).

    Raises:
        ValueError: ``"<path>: <why>"`` for the first unreadable, binary, non-UTF-8,
            empty or disallowed file, a folder with nothing readable, or evidence over
            ``max_bytes``.
    """
    skipped: list[str] = []
    if policy is not None:
        for raw in paths:
            policy.check(Path(raw).expanduser())
    documents: list[Document] = []
    total = spent_bytes
    for path in expand_paths(paths, problems=skipped):
        if policy is not None:
            policy.check(path)
            if path.suffix.lower() not in SUPPORTED_SUFFIXES:  # named in data: known kinds only
                raise ValueError(
                    f"{path}: not a text, Markdown, HTML or JSONL file, never read from a path "
                    "in data"
                )
        info = check_readable_file(path)
        if max_bytes is not None and total + info.st_size > max_bytes:
            raise evidence_limit_error(max_bytes, total + info.st_size, path)
        data = read_bytes(path)
        total += len(data)
        if max_bytes is not None and total > max_bytes:  # grew since stat
            raise evidence_limit_error(max_bytes, total, path)
        suffix = path.suffix.lower()
        if suffix in JSONL_SUFFIXES:
            if b"\x00" in data[:_BINARY_SNIFF_BYTES] or not data.strip():
                decode_text(data, path)  # raises the one clear error: binary or empty
            records, bad = parse_jsonl(data, path, field)
            skipped.extend(bad)
            if not records:
                raise ValueError(f"{path}: no usable lines" + (f" ({bad[0]})" if bad else ""))
            documents.extend(
                Document(text=r.text, source=f"{path}#{r.line}", title=r.title, url=r.url)
                for r in records
            )
            continue
        text = decode_text(data, path)
        if suffix in HTML_SUFFIXES:
            body, title = html_to_text(text)
            if not body:
                raise ValueError(f"{path}: HTML page has no visible text")
            documents.append(Document(text=body, source=str(path), title=title))
        else:
            documents.append(Document(text=text, source=str(path), title=text_title(text)))
    if problems is not None:
        problems.extend(skipped)
    elif skipped:
        raise ValueError(skipped[0])
    return documents


def read_evidence_paths(
    paths: Sequence[Path], *, max_bytes: int, problems: list[str] | None = None
) -> list[Document]:
    """Evidence named on the command line: files, folders and shell pipes, within ``max_bytes``.

    Paths typed by the user are allowed as given; folder walks keep to their folder. A
    process substitution (``-e <(cmd)``) is read as one document. Skipped JSONL lines and
    files are added to ``problems``; a folder with nothing readable is an error.
    """
    piped = [p for p in paths if _is_shell_pipe(p)]
    documents = [_read_pipe(p, max_bytes) for p in piped]
    spent = sum(len(d.text.encode("utf-8")) for d in documents)
    files = [p for p in paths if p not in piped]
    if files:
        documents += load_documents(
            files, problems=problems, max_bytes=max_bytes, spent_bytes=spent
        )
    return documents


def _is_shell_pipe(path: Path) -> bool:
    """True for a shell's process substitution (``-e <(cmd)``): a pipe under /dev/fd."""
    import stat

    if not str(path).startswith(("/dev/fd/", "/proc/self/fd/")):
        return False
    try:
        return stat.S_ISFIFO(path.stat().st_mode)
    except OSError:
        return False


def _read_pipe(path: Path, max_bytes: int) -> Document:
    """A process substitution's output as one document, read up to ``max_bytes``.

    Other files under /dev stay refused (a device can block or never end); a pipe the user
    made on the command line ends when its command does.
    """
    with path.open("rb") as handle:
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise evidence_limit_error(max_bytes, len(data), path)
    text = data.decode("utf-8", errors="replace")
    if not text.strip():
        raise ValueError(f"{path}: the command gave no text")
    return Document(text=text, source=str(path), title=text_title(text))
