"""Loading NLI cross-encoders for the offline verifier: folders, Hub ids, labels, batching."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.tiny_nli import build_model_folder, reference_logits
from triqua.engines.offline.engine import OfflineJudge
from triqua.engines.offline.verify.verifier import AlignmentVerifier
from triqua.models.entailment import (
    CONTRADICTED,
    ENTAILED,
    NEUTRAL,
    check_judge_setting,
    label_columns,
    load_entailment,
)
from triqua.schema import Evidence, Fact

# The label order of the public cross-encoder/nli-* models.
CROSS_ENCODER_LABELS = {0: "contradiction", 1: "entailment", 2: "neutral"}
PAIRS = [
    ("Alan Turing was born in London.", "Alan Turing was born in Paris."),
    ("The Eiffel Tower is in Paris.", "The tower is in Rome."),
    (
        "During the Second World War, Turing worked at Bletchley Park in London.",
        "Turing worked at Bletchley Park.",
    ),
]


def softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max())
    return e / e.sum()


def test_label_columns_map_public_label_orders() -> None:
    assert label_columns(CROSS_ENCODER_LABELS) == [CONTRADICTED, ENTAILED, NEUTRAL]
    assert label_columns({0: "ENTAILMENT", 1: "NEUTRAL", 2: "CONTRADICTION"}) == [0, 1, 2]
    assert label_columns({0: "not_entailment", 1: "entailment"}) == [NEUTRAL, ENTAILED]
    assert label_columns({0: "LABEL_0", 1: "LABEL_1"}) == [NEUTRAL, ENTAILED]  # MiniCheck order
    with pytest.raises(ValueError, match="unknown"):
        label_columns({0: "positive", 1: "negative"})
    with pytest.raises(ValueError, match="no entailment"):
        label_columns({0: "neutral", 1: "contradiction"})


def test_local_folder_gives_the_networks_probabilities_in_triqua_order(tmp_path: Path) -> None:
    w = build_model_folder(tmp_path / "m", CROSS_ENCODER_LABELS)
    model = load_entailment(f"nli:{tmp_path / 'm'}")
    assert model is not None
    got = model.predict(PAIRS)  # one padded batch of pairs of different lengths
    for row, (premise, hypothesis) in zip(got, PAIRS, strict=True):
        expected = softmax(reference_logits(w, premise, hypothesis))  # model order
        assert row[ENTAILED] == pytest.approx(expected[1], abs=1e-4)
        assert row[NEUTRAL] == pytest.approx(expected[2], abs=1e-4)
        assert row[CONTRADICTED] == pytest.approx(expected[0], abs=1e-4)
    assert np.allclose(got.sum(axis=1), 1.0, atol=1e-5)
    # One pair alone (no padding) gives the same answer as inside the batch.
    alone = model.predict([PAIRS[0]])
    assert np.allclose(alone[0], got[0], atol=1e-5)
    assert model.revision == f"nli:{tmp_path / 'm'}"


def test_repeated_pairs_are_judged_once(tmp_path: Path) -> None:
    build_model_folder(tmp_path / "m", CROSS_ENCODER_LABELS)
    model = load_entailment(f"nli:{tmp_path / 'm'}")
    assert model is not None
    first = model.predict(PAIRS + PAIRS)
    calls = model.calls
    again = model.predict(PAIRS)
    assert model.calls == calls  # answered from the cache
    assert np.allclose(first[:3], first[3:]) and np.allclose(again, first[:3])


def test_two_label_checker_feeds_entailed_and_neutral_only(tmp_path: Path) -> None:
    w = build_model_folder(
        tmp_path / "mc", {0: "unsupported", 1: "supported"}, hub_layout=True, token_types=False
    )
    model = load_entailment(f"nli:{tmp_path / 'mc'}")
    assert model is not None
    got = model.predict(PAIRS[:1])[0]
    expected = softmax(reference_logits(w, *PAIRS[0], token_types=False))
    assert got[ENTAILED] == pytest.approx(expected[1], abs=1e-4)
    assert got[NEUTRAL] == pytest.approx(expected[0], abs=1e-4)
    assert got[CONTRADICTED] == 0.0


def test_broken_folders_and_settings_fail_with_what_is_missing(tmp_path: Path) -> None:
    build_model_folder(tmp_path / "m", CROSS_ENCODER_LABELS)
    (tmp_path / "m" / "config.json").unlink()
    with pytest.raises(ValueError, match=r"config\.json"):
        load_entailment(f"nli:{tmp_path / 'm'}")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no ONNX model"):
        load_entailment(f"nli:{tmp_path / 'empty'}")
    with pytest.raises(ValueError, match="not a model folder"):
        load_entailment(f"nli:{tmp_path / 'nowhere'}")
    for bad in ("nli:", "bert", "onnx:/x"):
        with pytest.raises(ValueError, match="unknown verifier"):
            check_judge_setting(bad)
    check_judge_setting("rules")
    check_judge_setting("shipped")


def test_hub_id_that_cannot_be_fetched_says_how_to_pass_a_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # never touch the network
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    with pytest.raises(ValueError, match="could not fetch it"):
        load_entailment("nli:cross-encoder/nli-deberta-v3-xsmall")


@pytest.mark.slow
def test_offline_judge_with_a_loaded_checker(tmp_path: Path) -> None:
    build_model_folder(tmp_path / "m", CROSS_ENCODER_LABELS)
    spec = f"nli:{tmp_path / 'm'}"
    judge = OfflineJudge(spec)
    assert judge.revision.endswith(spec)
    fact = Fact(subject="Alan Turing", relation="worked at", object="Bletchley Park")
    evidence = Evidence.build(
        document_id="d", text="Alan Turing worked at Bletchley Park.", retriever="t"
    )
    verdict = judge.verify(fact, [evidence]).verdict
    assert verdict.judge == judge.revision
    with pytest.raises(ValueError, match="not a model folder"):
        OfflineJudge(f"nli:{tmp_path / 'missing'}")


def test_rules_only_verifier_loads_no_model() -> None:
    verifier = AlignmentVerifier(judge="rules")
    assert verifier.revision.endswith("+rules")
