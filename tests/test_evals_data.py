"""Evaluation data: the data folder, the FActScore and claim loaders, label mapping, sampling."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from triqua.evals.claims_data import CLAIMS_FILE, DEFAULT_LABEL_MAP, load_claims, parse_label_map
from triqua.evals.data import eval_data_dir, resolve_data_file, sample, stamp, stamp_folder
from triqua.evals.factscore import BIO_FOLDER, KnowledgeSource, load_bios


def _bios(name: str) -> Path:
    return resolve_data_file(name, None, BIO_FOLDER)


def test_eval_data_dir_is_beside_the_repository(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRIQUA_DATA", raising=False)
    folder = eval_data_dir()
    repo = Path(__file__).resolve().parents[1]
    assert folder == repo.parent / "shared" / "data"
    assert (folder / BIO_FOLDER / "ChatGPT.jsonl").is_file()


def test_data_dir_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / BIO_FOLDER).mkdir()
    (tmp_path / BIO_FOLDER / "Mine.jsonl").write_text("", encoding="utf-8")
    monkeypatch.setenv("TRIQUA_DATA", str(tmp_path))
    assert eval_data_dir() == tmp_path
    assert resolve_data_file("Mine", None, BIO_FOLDER) == tmp_path / BIO_FOLDER / "Mine.jsonl"
    with pytest.raises(ValueError, match="Nope: no such file"):
        resolve_data_file("Nope", None, BIO_FOLDER)


def test_chatgpt_gold_factscore_is_58_3() -> None:
    bios = load_bios(_bios("ChatGPT"))
    eligible = [b.gold_score for b in bios if b.gold_score is not None]
    assert len(bios) == 183
    assert len(eligible) == 157
    assert round(100 * sum(eligible) / len(eligible), 1) == 58.3


def test_declined_bios_are_counted_not_scored() -> None:
    bios = load_bios(_bios("ChatGPT"))
    declined = [b for b in bios if not b.annotated]
    assert len(declined) == 26
    assert all(b.gold_score is None and not b.labels for b in declined)
    # InstructGPT has one annotated bio without any human fact: eligible for nothing.
    instruct = load_bios(_bios("InstructGPT"))
    assert sum(not b.annotated for b in instruct) == 1
    assert sum(b.annotated and b.gold_score is None for b in instruct) == 1


def test_bio_question_and_sentences_come_from_the_record(tmp_path: Path) -> None:
    path = tmp_path / "bios.jsonl"
    record = {
        "input": "Question: Tell me a bio of Ada Lovelace.",
        "output": "Ada Lovelace was a mathematician. She wrote notes.",
        "topic": "Ada Lovelace",
        "annotations": [
            {
                "text": "Ada Lovelace was a mathematician.",
                "human-atomic-facts": [{"text": "a", "label": "S"}, {"text": "b", "label": "IR"}],
            },
            {"text": "She wrote notes.", "human-atomic-facts": [{"text": "c", "label": "NS"}]},
        ],
    }
    path.write_text(json.dumps(record) + "\n\n", encoding="utf-8")
    (bio,) = load_bios(path)
    assert bio.question == "Tell me a bio of Ada Lovelace."
    assert bio.sentences == ("Ada Lovelace was a mathematician.", "She wrote notes.")
    assert bio.gold_score == pytest.approx(1 / 3)


def test_malformed_bio_line_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"topic": "x", "output": "y", "annotations": null}\n{"output": 1}\n')
    with pytest.raises(ValueError, match=r"bad\.jsonl:2"):
        load_bios(path)


def test_default_label_map_reads_factcheck_bench_as_it_is() -> None:
    path = eval_data_dir() / CLAIMS_FILE
    rows, skipped = load_claims(path)
    assert skipped == 0
    counts: dict[str, int] = {}
    for row in rows:
        counts[row.gold] = counts.get(row.gold, 0) + 1
    assert counts == {
        "supported": 696,
        "contradicted": 161,
        "insufficient_evidence": 2057,
        "partial": 391,
    }
    assert DEFAULT_LABEL_MAP["partially-support"] == "partial"


def test_label_map_parsing_and_custom_fields(tmp_path: Path) -> None:
    mapping = parse_label_map("SUP=supported, REF=contradicted,NEI=insufficient_evidence,X=skip")
    assert mapping == {
        "SUP": "supported",
        "REF": "contradicted",
        "NEI": "insufficient_evidence",
        "X": "skip",
    }
    path = tmp_path / "claims.jsonl"
    lines = [{"c": "A is B.", "e": "A is B.", "g": "SUP"}, {"c": "C.", "e": "D.", "g": "X"}]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    rows, skipped = load_claims(
        path, claim_field="c", evidence_field="e", label_field="g", label_map=mapping
    )
    assert skipped == 1
    assert [(r.index, r.claim, r.gold, r.label) for r in rows] == [
        (1, "A is B.", "supported", "SUP")
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [("SUP", "not 'gold=target'"), ("SUP=true", "not one of"), ("=supported", "not 'gold=target'")],
)
def test_bad_label_maps_are_rejected(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_label_map(text)


def test_labels_outside_the_map_are_listed(tmp_path: Path) -> None:
    path = tmp_path / "claims.jsonl"
    path.write_text('{"claim": "a", "evidence": "b", "stance": "maybe"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"'maybe' \(1\)"):
        load_claims(path)
    with pytest.raises(ValueError, match=r"claims\.jsonl:1"):
        load_claims(path, claim_field="text")


def test_sample_is_seeded_and_keeps_order() -> None:
    items = list(range(100))
    first = sample(items, 10, seed=3)
    assert first == sample(items, 10, seed=3)
    assert first == sorted(first) and len(set(first)) == 10
    assert first != sample(items, 10, seed=4)
    assert sample(items, None, 0) == items
    assert sample(items, 500, 0) == items


def test_stamp_hashes_the_file(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    path.write_bytes(b"abc\n")
    assert stamp(path, rows=1).sha256 == hashlib.sha256(b"abc\n").hexdigest()


def test_proxy_answers_are_labelled_and_skip_declined(tmp_path: Path) -> None:
    path = tmp_path / "Other.jsonl"
    rows = [
        {"topic": "A", "output": "A was born in 1900.", "annotations": []},
        {"topic": "B", "output": "I cannot answer.", "annotations": None},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    source = KnowledgeSource.evidence_answers(path)
    assert "NOT ground truth" in source.label
    documents = source.documents_for("A")
    assert documents is not None and documents[0].text == "A was born in 1900."
    assert source.documents_for("B") is None


def test_evidence_dir_finds_topic_files(tmp_path: Path) -> None:
    (tmp_path / "Ada Lovelace.md").write_text("Ada wrote notes.", encoding="utf-8")
    (tmp_path / "alan_turing.txt").write_text("Alan broke codes.", encoding="utf-8")
    source = KnowledgeSource.evidence_dir(tmp_path)
    assert [d.text for d in source.documents_for("Ada Lovelace") or []] == ["Ada wrote notes."]
    assert [d.text for d in source.documents_for("Alan Turing") or []] == ["Alan broke codes."]
    assert source.documents_for("Grace Hopper") is None
    with pytest.raises(ValueError, match="no such folder"):
        KnowledgeSource.evidence_dir(tmp_path / "missing")


def test_stamp_folder_changes_with_any_evidence_file(tmp_path: Path) -> None:
    (tmp_path / "A.txt").write_text("one", encoding="utf-8")
    (tmp_path / "ignored.json").write_text("{}", encoding="utf-8")
    first = stamp_folder(tmp_path)
    assert first.rows == 1 and stamp_folder(tmp_path) == first
    (tmp_path / "A.txt").write_text("two", encoding="utf-8")
    assert stamp_folder(tmp_path).sha256 != first.sha256
