"""Ingestion into Chroma: formats, offsets, metadata, idempotence, replacement, bad files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import chromadb
import pytest
from chromadb.config import Settings

from tests.conftest_chroma import ChromaStore, chroma_server, chroma_store  # noqa: F401
from triqua.schema import sha256_text
from triqua.tools.chroma import ChromaRetriever, parse_server_url
from triqua.tools.ingest import FileOutcome, ingest_paths, list_collections

LONG = "\n\n".join(
    f"Section {i}. The archive records event number {i} in the harbour town of Kellby." * 2
    for i in range(8)
)


def _raw_collection(store: ChromaStore) -> Any:
    """The test's collection, opened straight with chromadb (not through triqua)."""
    settings = Settings(anonymized_telemetry=False)
    if store.url:
        host, port, _ = parse_server_url(store.url)
        client = chromadb.HttpClient(host=host, port=port, settings=settings)
    else:
        client = chromadb.PersistentClient(path=str(store.path), settings=settings)
    return client.get_collection(store.collection)


def _chunks(store: ChromaStore) -> dict[str, Any]:
    """Every chunk's document and metadata, read straight from Chroma."""
    return dict(_raw_collection(store).get(include=["documents", "metadatas"]))


@pytest.fixture
def files(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "long.txt").write_text(LONG, encoding="utf-8")
    (folder / "notes.md").write_text("# Notes\n\nKellby has a lighthouse.", encoding="utf-8")
    (folder / "page.html").write_text(
        "<html><head><title>Harbour</title><script>tracker()</script></head>"
        "<body><p>The harbour froze in 1947.</p></body></html>",
        encoding="utf-8",
    )
    (folder / "rows.jsonl").write_text(
        json.dumps({"body": "Row one about ferries.", "title": "Ferries"})
        + "\n"
        + json.dumps({"body": "Row two about gulls."})
        + "\n",
        encoding="utf-8",
    )
    (folder / ".hidden.txt").write_text("never ingested", encoding="utf-8")
    (folder / "image.png").write_bytes(b"\x89PNG\x00\x00")
    return folder


def test_ingest_reads_every_format_with_offsets_and_metadata(
    files: Path,
    chroma_store: ChromaStore,  # noqa: F811
) -> None:
    summary = ingest_paths(
        [files], chroma_store.collection, field="body", chunk_size=100, **chroma_store.options
    )
    assert summary.count("added") == 4 and summary.count("failed") == 0
    assert summary.collection_count == summary.chunks_added > 4
    data = _chunks(chroma_store)
    by_source: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for text, meta in zip(data["documents"], data["metadatas"], strict=True):
        by_source.setdefault(meta["source"], []).append((text, meta))
    root = files.resolve()
    assert set(by_source) == {
        str(root / "long.txt"),
        str(root / "notes.md"),
        str(root / "page.html"),
        f"{root / 'rows.jsonl'}#1",
        f"{root / 'rows.jsonl'}#2",
    }
    long_bytes = (files / "long.txt").read_bytes()
    for text, meta in by_source[str(root / "long.txt")]:
        assert LONG[meta["start"] : meta["end"]] == text and len(text) <= 100
        assert meta["content_hash"] == sha256_text(text)
        assert meta["file_hash"] == sha256_text(long_bytes.decode())
        assert meta["ingested_at"].endswith("+00:00")
        assert meta["file"] == str(root / "long.txt")
    [(html_text, html_meta)] = by_source[str(root / "page.html")]
    assert html_text == "The harbour froze in 1947." and html_meta["title"] == "Harbour"
    [(row_text, row_meta)] = by_source[f"{root / 'rows.jsonl'}#1"]
    assert row_text == "Row one about ferries." and row_meta["title"] == "Ferries"


def test_a_file_named_twice_is_ingested_once(
    files: Path,
    chroma_store: ChromaStore,  # noqa: F811
) -> None:
    summary = ingest_paths(
        [files / "notes.md", files, files / "notes.md"],
        chroma_store.collection,
        field="body",
        **chroma_store.options,
    )
    assert [Path(f.path).name for f in summary.files].count("notes.md") == 1
    assert summary.count("added") == 4


def test_reingesting_unchanged_files_adds_nothing(
    files: Path,
    chroma_store: ChromaStore,  # noqa: F811
) -> None:
    first = ingest_paths([files], chroma_store.collection, field="body", **chroma_store.options)
    ids_before = sorted(_chunks(chroma_store)["ids"])
    second = ingest_paths([files], chroma_store.collection, field="body", **chroma_store.options)
    assert second.count("unchanged") == 4 and second.chunks_added == 0
    assert second.collection_count == first.collection_count
    assert sorted(_chunks(chroma_store)["ids"]) == ids_before


def test_a_changed_file_replaces_its_old_chunks(
    files: Path,
    chroma_store: ChromaStore,  # noqa: F811
) -> None:
    ingest_paths(
        [files], chroma_store.collection, field="body", chunk_size=100, **chroma_store.options
    )
    (files / "long.txt").write_text("Kellby was renamed Northport in 1990.", encoding="utf-8")
    summary = ingest_paths(
        [files], chroma_store.collection, field="body", chunk_size=100, **chroma_store.options
    )
    outcomes = {Path(f.path).name: f.status for f in summary.files}
    assert outcomes["long.txt"] == "replaced" and outcomes["notes.md"] == "unchanged"
    texts = [
        t
        for t, m in zip(
            *(_chunks(chroma_store)[k] for k in ("documents", "metadatas")), strict=True
        )
        if m["source"].endswith("long.txt")
    ]
    assert texts == ["Kellby was renamed Northport in 1990."]
    hit = ChromaRetriever(chroma_store.collection, **chroma_store.options).search(
        "What was Kellby renamed to?", k=1
    )
    assert "Northport" in hit.evidence[0].text


def test_new_chunking_settings_replace_chunks(
    files: Path,
    chroma_store: ChromaStore,  # noqa: F811
) -> None:
    target = [files / "long.txt"]
    coarse = ingest_paths(target, chroma_store.collection, chunk_size=400, **chroma_store.options)
    fine = ingest_paths(target, chroma_store.collection, chunk_size=100, **chroma_store.options)
    assert fine.files[0].status == "replaced"
    assert fine.collection_count == fine.chunks_added > coarse.chunks_added


def test_bad_files_are_reported_and_the_rest_ingested(
    tmp_path: Path,
    chroma_store: ChromaStore,  # noqa: F811
) -> None:
    good = tmp_path / "good.txt"
    good.write_text("A good file about tides.", encoding="utf-8")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\x00\x01\x02 binary")
    latin = tmp_path / "latin.md"
    latin.write_bytes("Tromsø".encode("latin-1"))
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"text": "Fine row."}\nnot json\n{"other": 1}\n', encoding="utf-8")
    seen: list[tuple[str, int, int]] = []

    def progress(outcome: FileOutcome, done: int, total: int) -> None:
        seen.append((Path(outcome.path).name, done, total))

    summary = ingest_paths(
        [good, binary, latin, empty, rows, tmp_path / "missing.txt"],
        chroma_store.collection,
        progress=progress,
        **chroma_store.options,
    )
    status = {Path(f.path).name: f.status for f in summary.files}
    assert status == {
        "good.txt": "added",
        "binary.txt": "failed",
        "latin.md": "failed",
        "empty.txt": "failed",
        "rows.jsonl": "added",
        "missing.txt": "failed",
    }
    problems = "\n".join(summary.problems)
    assert f"{binary.resolve()}: looks binary" in problems
    assert f"{latin.resolve()}: not valid UTF-8" in problems
    assert f"{empty.resolve()}: is empty" in problems
    assert "missing.txt: no such file" in problems
    assert f"{rows.resolve()}:2: invalid JSON" in problems
    assert f"{rows.resolve()}:3: no string field 'text'" in problems
    assert summary.collection_count == 2
    assert [s[1:] for s in seen] == [(i, 6) for i in range(1, 7)]
    assert "2 added" in str(summary) and "4 failed" in str(summary)


def test_a_file_larger_than_memory_fails_alone(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    chroma_store: ChromaStore,  # noqa: F811
) -> None:
    good = tmp_path / "good.txt"
    good.write_text("A good file about tides.", encoding="utf-8")
    huge = tmp_path / "huge.txt"
    with huge.open("wb") as handle:  # sparse: 64 GiB of NUL bytes taking no disk
        handle.truncate(64 * 2**30)
    read = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self.name == huge.name:  # as a machine without 64 GiB to spare answers
            raise MemoryError
        return read(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    summary = ingest_paths([huge, good], chroma_store.collection, **chroma_store.options)
    assert {Path(f.path).name: f.status for f in summary.files} == {
        "huge.txt": "failed",
        "good.txt": "added",
    }
    problem = f"{huge.resolve()}: too large to read into memory (68,719,476,736 bytes)"
    assert problem in summary.problems
    assert summary.collection_count == 1


def test_list_collections_reports_names_and_counts(
    files: Path,
    chroma_store: ChromaStore,  # noqa: F811
) -> None:
    ingest_paths([files / "notes.md"], chroma_store.collection, **chroma_store.options)
    ingest_paths(
        [files / "long.txt"], chroma_store.collection + "-b", chunk_size=100, **chroma_store.options
    )
    found = dict(list_collections(**chroma_store.options))
    assert found[chroma_store.collection] == 1
    assert found[chroma_store.collection + "-b"] > 1


def test_invalid_names_and_settings_are_rejected(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="invalid collection name 'x'"):
        ingest_paths([], "x", path=tmp_path)
    with pytest.raises(ValueError, match="must be text"):
        ingest_paths([], 42, path=tmp_path)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="chunk_size"):
        ingest_paths([], "docs", chunk_size=10, path=tmp_path)
    with pytest.raises(ValueError, match="chunk_overlap"):
        ingest_paths([], "docs", chunk_size=100, chunk_overlap=100, path=tmp_path)


#: Names Chroma refuses, each with the rule it breaks as the refusal says it.
BAD_NAMES = [
    ("kb", "it has 2 characters"),
    ("k" * 513, "it has 513 characters"),
    ("my docs", "it contains ' '"),
    ("../other", "it contains '/'"),
    ("café", "it contains 'é'"),
    ("-kb-2026", "starts or ends with"),
    ("kb_", "starts or ends with"),
    ("kb..2026", "it contains '..'"),
    ("10.0.0.1", "it is an IP address"),
]
GOOD_NAMES = ["kb-2026-01", "Ab_C.d-1", "123", "1.2.3", "1.2.3.4.5", "256.1.1.1", "k" * 512]


@pytest.mark.parametrize(("name", "says"), BAD_NAMES)
def test_a_name_chroma_refuses_is_refused_before_any_file_or_store_is_touched(
    tmp_path: Path, name: str, says: str
) -> None:
    store = tmp_path / "store"
    with pytest.raises(ValueError, match="invalid collection name") as refused:
        ingest_paths([tmp_path / "absent"], name, path=store)
    message = str(refused.value)
    assert says in message and "Chroma accepts 3 to 512 characters" in message
    assert "no such file" not in message and not store.exists()  # nothing walked or opened
    assert len(message) < 300  # a long name is cut, not echoed whole


def test_the_collection_name_rules_are_chromas_own(tmp_path: Path) -> None:
    from triqua.tools.chroma_names import check_collection_name

    client = chromadb.PersistentClient(
        path=str(tmp_path / "raw"), settings=Settings(anonymized_telemetry=False)
    )
    for name in [*(bad for bad, _ in BAD_NAMES), *GOOD_NAMES]:
        try:
            client.get_or_create_collection(name)
            chroma_accepts = True
        except Exception:  # Chroma's own refusal, of whatever class
            chroma_accepts = False
        try:
            check_collection_name(name)
            triqua_accepts = True
        except ValueError:
            triqua_accepts = False
        assert triqua_accepts == chroma_accepts, name


def test_ingest_with_a_bad_collection_name_is_one_usage_error(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from triqua.cli import app

    page = tmp_path / "page.md"
    page.write_text("Kellby has a lighthouse.\n", encoding="utf-8")
    store = tmp_path / "store"
    args = ["ingest", str(page), "-c", "my docs", "--chroma-path", str(store)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: invalid collection name 'my docs'")
    assert not store.exists()


def test_ingested_vectors_are_minilm_and_the_collection_names_its_embedder(
    files: Path,
    chroma_store: ChromaStore,  # noqa: F811
) -> None:
    import numpy as np

    from triqua.models.embeddings import get_embedder

    ingest_paths([files], chroma_store.collection, field="body", **chroma_store.options)
    collection = _raw_collection(chroma_store)
    assert collection.configuration["embedding_function"].name() == "triqua_minilm"
    data = collection.get(include=["documents", "embeddings"])
    assert len(data["ids"]) > 0
    expected = get_embedder().embed(list(data["documents"]))
    np.testing.assert_allclose(np.asarray(data["embeddings"]), expected, atol=1e-6)


# --- the command's exit codes -----------------------------------------------------------------


def _ingest_cli(store: ChromaStore, *paths: Path) -> Any:
    from typer.testing import CliRunner

    from triqua.cli import app

    args = ["ingest", *map(str, paths), "-c", store.collection, *store.cli_args]
    return CliRunner().invoke(app, args)


def test_ingest_exits_1_naming_the_failed_files_after_ingesting_the_rest(
    tmp_path: Path,
    chroma_store: ChromaStore,  # noqa: F811
) -> None:
    good = tmp_path / "good.txt"
    good.write_text("A good file about tides.", encoding="utf-8")
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\x00\x01\x02" * 100)
    result = _ingest_cli(chroma_store, good, empty, binary)
    assert result.exit_code == 1, result.output
    assert "1 added" in result.stdout and "2 failed" in result.stdout
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("error: 2 of 3 files not ingested: ")
    assert str(empty.resolve()) in last and str(binary.resolve()) in last
    assert _raw_collection(chroma_store).count() == 1  # the good file is in


def test_ingest_exits_0_when_every_file_is_in_and_3_when_none_could_be(
    tmp_path: Path,
    chroma_store: ChromaStore,  # noqa: F811
) -> None:
    good = tmp_path / "good.txt"
    good.write_text("A good file about tides.", encoding="utf-8")
    assert _ingest_cli(chroma_store, good).exit_code == 0
    again = _ingest_cli(chroma_store, good)  # unchanged is not a failure
    assert again.exit_code == 0 and "1 unchanged" in again.stdout
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    none = _ingest_cli(chroma_store, empty)
    assert none.exit_code == 3, none.output
    assert none.stderr.strip().splitlines()[-1].startswith("error: 1 of 1 file not ingested: ")


def test_ingest_names_five_failed_files_and_counts_the_rest(
    tmp_path: Path,
    chroma_store: ChromaStore,  # noqa: F811
) -> None:
    good = tmp_path / "good.txt"
    good.write_text("A good file about tides.", encoding="utf-8")
    empties = []
    for i in range(7):
        empties.append(tmp_path / f"empty{i}.txt")
        empties[-1].write_text("", encoding="utf-8")
    result = _ingest_cli(chroma_store, good, *empties)
    assert result.exit_code == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("error: 7 of 8 files not ingested: ") and last.endswith("and 2 more")


def test_an_interrupted_ingest_exits_130_in_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    chroma_store: ChromaStore,  # noqa: F811
) -> None:
    import triqua.tools.ingest as tools_ingest

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(tools_ingest, "ingest_paths", interrupted)
    good = tmp_path / "good.txt"
    good.write_text("A good file about tides.", encoding="utf-8")
    result = _ingest_cli(chroma_store, good)
    assert result.exit_code == 130
    assert result.stderr.strip().splitlines()[-1].startswith("error: interrupted: ")
