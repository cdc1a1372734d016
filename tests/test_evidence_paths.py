"""Evidence paths: what may be read, how folders are walked, and how much, via CLI and API.

Batch ``path`` values resolve against the batch file and may not leave its folder, the
current folder or an ``--allow-path`` folder; walks never follow links out of their folder
and skip special files; system roots are refused; an evidence folder with nothing readable
is an error (exit 2), never a silent closed-book run; evidence over ``max_evidence_bytes``
is refused while it is read.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import triqua
from tests.conftest_chroma import ChromaStore, chroma_server, chroma_store  # noqa: F401
from triqua.batch import run_batch
from triqua.cli import app
from triqua.engines.factory import register_model
from triqua.schema import Report, Status
from triqua.tools.documents import SUPPORTED_SUFFIXES, load_documents
from triqua.tools.ingest import ingest_paths

pytestmark = pytest.mark.timeout(180)

runner = CliRunner()
PARIS = "Paris is the capital of France."
CURIE = "Marie Curie won the Nobel Prize in Physics in 1903."
DEEP = "[" * 100_000 + "]" * 100_000


@pytest.fixture
def model(scripted: Any) -> str:
    return register_model(f"paths-{os.urandom(4).hex()}", scripted())


def check_cli(*args: str) -> Any:
    return runner.invoke(app, ["check", *args, "--no-cache", "--no-store"])


def one_line_error(result: Any, *words: str) -> str:
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: ")
    for word in words:
        assert word in line, line
    return line


def jsonl(path: Path, *lines: str) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def reports(path: Path) -> dict[str, Report]:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        obj = json.loads(line)
        out[str(obj.pop("id"))] = Report.model_validate(obj)
    return out


# --- deep JSON: the valid lines around it still run ---------------------------------------


def test_batch_runs_the_lines_around_a_deep_one(tmp_path: Path, model: str) -> None:
    source = jsonl(
        tmp_path / "in.jsonl",
        json.dumps({"id": "a", "text": PARIS, "evidence": [PARIS]}),
        DEEP,
        json.dumps({"id": "b", "text": CURIE, "evidence": [CURIE]}),
    )
    out = tmp_path / "out.jsonl"
    summary = run_batch(source, out, quiet=True, model=model, cache=False)
    assert set(reports(out)) == {"a", "b"}
    assert summary.problems == [f"{source}:2: JSON nested too deeply"]
    cli_out = tmp_path / "cli.jsonl"
    result = runner.invoke(app, ["batch", str(source), "-o", str(cli_out), "-m", model])
    assert result.exit_code == 1, result.output
    assert set(reports(cli_out)) == {"a", "b"}
    assert f"{source}:2: JSON nested too deeply" in result.stderr


def test_check_evidence_jsonl_uses_the_lines_around_a_deep_one(tmp_path: Path, model: str) -> None:
    lines = [json.dumps({"text": "Nothing here."}), DEEP, json.dumps({"text": PARIS})]
    evidence = jsonl(tmp_path / "e.jsonl", *lines)
    result = check_cli(PARIS, "-e", str(evidence), "-m", model, "--json")
    assert result.exit_code == 0, result.output
    report = Report.model_validate_json(result.stdout)
    assert report.records[0].verdict.status is Status.SUPPORTED
    assert report.records[0].evidence[0].source == f"{evidence}#3"
    assert f"warning: {evidence}:2: JSON nested too deeply" in result.stderr
    skipped: list[str] = []
    documents = load_documents([evidence], problems=skipped)
    api = triqua.check(PARIS, documents=documents, model=model, cache=False)
    assert api.records[0].verdict.status is Status.SUPPORTED
    assert skipped == [f"{evidence}:2: JSON nested too deeply"]


def test_ingest_keeps_the_lines_around_a_deep_one(
    tmp_path: Path,
    chroma_store: ChromaStore,  # noqa: F811
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    jsonl(corpus / "a.jsonl", json.dumps({"text": PARIS}), DEEP, json.dumps({"text": CURIE}))
    summary = ingest_paths([corpus], chroma_store.collection, **chroma_store.options)
    assert summary.count("added") == 1 and summary.chunks_added == 2
    assert any("a.jsonl:2: JSON nested too deeply" in p for p in summary.problems)
    again = runner.invoke(
        app,
        [
            "ingest",
            str(corpus / "a.jsonl"),
            *("-c", "cli-" + chroma_store.collection),
            *chroma_store.cli_args,
        ],
    )
    assert again.exit_code == 0, again.output
    assert "a.jsonl:2: JSON nested too deeply" in again.stderr
    assert "1 added" in again.stdout and "2 chunks written" in again.stdout


# --- the path policy of batch files -------------------------------------------------------


def test_batch_path_outside_its_folder_is_refused_until_allowed(
    tmp_path: Path, model: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    inside = tmp_path / "batch"
    inside.mkdir()
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text(PARIS, encoding="utf-8")
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    source = jsonl(
        inside / "in.jsonl",
        json.dumps({"id": "up", "text": PARIS, "evidence": [{"path": "../outside/secret.txt"}]}),
        json.dumps({"id": "etc", "text": PARIS, "evidence": [{"path": "../../../../etc/passwd"}]}),
    )
    out = inside / "out.jsonl"
    summary = run_batch(source, out, quiet=True, model=model, cache=False)
    assert not out.exists() or out.read_text() == ""
    assert len(summary.problems) == 2
    assert all("outside the allowed folders" in p for p in summary.problems)
    assert "--allow-path" in summary.problems[0]
    result = runner.invoke(app, ["batch", str(source), "-o", str(out), "-m", model])
    assert result.exit_code == 1
    assert result.stderr.count("outside the allowed folders") == 2
    allowed = runner.invoke(
        app,
        ["batch", str(source), "-o", str(out), "-m", model, "--allow-path", str(secret.parent)],
    )
    assert allowed.exit_code == 1  # /etc/passwd is still refused
    done = reports(out)
    assert set(done) == {"up"}
    assert done["up"].records[0].evidence[0].source == str(inside / "../outside/secret.txt")
    api = run_batch(
        source, tmp_path / "api.jsonl", quiet=True, model=model, allow_paths=[str(secret.parent)]
    )
    assert api.checked == 1 and len(api.problems) == 1


def test_batch_link_out_of_its_folder_is_refused(tmp_path: Path, model: str) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text(PARIS, encoding="utf-8")
    inside = tmp_path / "batch"
    inside.mkdir()
    (inside / "link.txt").symlink_to(outside)
    source = jsonl(
        inside / "in.jsonl",
        json.dumps({"id": 1, "text": PARIS, "evidence": [{"path": "link.txt"}]}),
    )
    summary = run_batch(source, inside / "out.jsonl", quiet=True, model=model)
    (problem,) = summary.problems
    assert "link.txt: outside the allowed folders" in problem


def test_batch_dotfiles_and_unknown_kinds_are_never_evidence(tmp_path: Path, model: str) -> None:
    inside = tmp_path / "batch"
    (inside / ".ssh").mkdir(parents=True)
    (inside / ".env").write_text(PARIS, encoding="utf-8")
    (inside / ".ssh" / "notes.txt").write_text(PARIS, encoding="utf-8")
    (inside / "id_rsa").write_text(PARIS, encoding="utf-8")
    lines = [
        json.dumps({"id": name, "text": PARIS, "evidence": [{"path": name}]})
        for name in (".env", ".ssh/notes.txt", "id_rsa")
    ]
    summary = run_batch(
        jsonl(inside / "in.jsonl", *lines), inside / "out.jsonl", quiet=True, model=model
    )
    assert summary.checked == 0 and len(summary.problems) == 3
    assert sum("a hidden file or folder" in p for p in summary.problems) == 2
    assert sum("not a text, Markdown, HTML or JSONL file" in p for p in summary.problems) == 1


# --- folder walks ---------------------------------------------------------------------------


def test_a_link_out_of_an_evidence_folder_is_skipped(tmp_path: Path, model: str) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("The launch code is 0000.", encoding="utf-8")
    folder = tmp_path / "evidence"
    folder.mkdir()
    (folder / "paris.txt").write_text(PARIS, encoding="utf-8")
    (folder / "leak.txt").symlink_to(secret)
    (folder / "same.txt").symlink_to(folder / "paris.txt")  # in-tree link: read once
    skipped: list[str] = []
    documents = load_documents([folder], problems=skipped)
    assert [Path(d.source or "").name for d in documents] == ["paris.txt"]
    assert len(skipped) == 1 and "leak.txt: skipped, a link out of" in skipped[0]
    result = check_cli(PARIS, "-e", str(folder), "-m", model, "--json")
    assert result.exit_code == 0, result.output
    assert "launch code" not in result.stdout
    assert "leak.txt: skipped, a link out of" in result.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_special_files_are_skipped_in_walks_and_refused_by_name(tmp_path: Path, model: str) -> None:
    folder = tmp_path / "evidence"
    folder.mkdir()
    (folder / "paris.txt").write_text(PARIS, encoding="utf-8")
    os.mkfifo(folder / "pipe.txt")  # reading it would block forever
    skipped: list[str] = []
    assert len(load_documents([folder], problems=skipped)) == 1
    assert "pipe.txt: skipped, not a regular file" in skipped[0]
    result = check_cli(PARIS, "-e", str(folder / "pipe.txt"), "-m", model)
    one_line_error(result, "pipe.txt", "not a regular file")
    one_line_error(check_cli("-f", str(folder / "pipe.txt"), "-m", model), "not a regular file")


def test_readme_names_the_suffixes_a_folder_walk_reads(tmp_path: Path) -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `-e, --evidence"))
    named = {word for word in row.replace("`", " ").split() if word.startswith(".")}
    assert named == set(SUPPORTED_SUFFIXES)
    for suffix in sorted(SUPPORTED_SUFFIXES | {".csv", ".pdf"}):
        body = '{"text": "Ada Lovelace was born in London."}' if "json" in suffix else "Ada."
        (tmp_path / f"doc{suffix}").write_text(body + "\n", encoding="utf-8")
    read = {Path(doc.source.split("#")[0]).suffix for doc in load_documents([tmp_path])}
    assert read == set(SUPPORTED_SUFFIXES)


def test_an_evidence_folder_with_nothing_readable_is_an_error(
    tmp_path: Path,
    model: str,
    chroma_store: ChromaStore,  # noqa: F811
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "image.png").write_bytes(b"\x89PNG")
    one_line_error(check_cli(PARIS, "-e", str(empty), "-m", model), "no readable evidence files")
    with pytest.raises(ValueError, match="no readable evidence files"):
        load_documents([empty])
    with pytest.raises(ValueError, match="no readable evidence files"):
        ingest_paths([empty], chroma_store.collection, **chroma_store.options)
    result = runner.invoke(
        app, ["ingest", str(empty), "-c", "x-" + chroma_store.collection, *chroma_store.cli_args]
    )
    one_line_error(result, "no readable evidence files")


@pytest.mark.parametrize("root", ["/", "/proc", "/dev"])
def test_system_roots_are_refused(root: str, model: str) -> None:
    one_line_error(check_cli(PARIS, "-e", root, "-m", model), root)
    with pytest.raises(ValueError, match=r"refusing to walk|system files"):
        load_documents([root])
    result = runner.invoke(app, ["ingest", root, "-c", "never"])
    one_line_error(result)


def test_a_file_under_proc_is_refused(model: str) -> None:
    one_line_error(check_cli(PARIS, "-e", "/proc/self/status", "-m", model), "system files")


# --- max_evidence_bytes ---------------------------------------------------------------------


def test_evidence_over_max_evidence_bytes_is_refused_before_indexing(
    tmp_path: Path, model: str
) -> None:
    folder = tmp_path / "evidence"
    folder.mkdir()
    for index in range(5):
        (folder / f"{index}.txt").write_text(PARIS + " " + "x" * 1000, encoding="utf-8")
    result = check_cli(PARIS, "-e", str(folder), "-m", model, "--max-evidence-bytes", "3000")
    line = one_line_error(result, "max_evidence_bytes=3,000", "--max-evidence-bytes")
    assert "2.txt" in line  # stopped at the file that crossed the limit
    with pytest.raises(ValueError, match="max_evidence_bytes=3,000"):
        load_documents([folder], max_bytes=3000)
    with pytest.raises(ValueError, match="max_evidence_bytes=100"):
        triqua.check(PARIS, documents=[PARIS * 10], model=model, max_evidence_bytes=100)
    source = jsonl(
        tmp_path / "in.jsonl",
        json.dumps({"id": 1, "text": PARIS, "evidence": [PARIS, {"path": "evidence"}]}),
        json.dumps({"id": 2, "text": PARIS, "evidence": [PARIS]}),
    )
    summary = run_batch(
        source, tmp_path / "out.jsonl", quiet=True, model=model, max_evidence_bytes=3000
    )
    assert summary.checked == 1
    (problem,) = summary.problems
    prefix = f"{source}:1: id 1: evidence 2: evidence is larger than max_evidence_bytes=3,000"
    assert problem.startswith(prefix)


@pytest.mark.parametrize(
    ("setting", "value", "message"),
    [
        ("max_evidence_bytes", 0, "max_evidence_bytes must be >= 1"),
        ("max_calls", -1, "max_calls must be >= 0"),
        ("allow_paths", "/tmp", "allow_paths must be a list"),
    ],
)
def test_bad_limit_settings_are_clear_errors(setting: str, value: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        triqua.check(PARIS, documents=[PARIS], **{setting: value})
