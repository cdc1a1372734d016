"""Every ONNX Runtime session triqua opens runs single-threaded, without spinning threads.

The judge and the embedder open their models through ``triqua.models.sessions``; its options
choose how the work is scheduled, not which kernels run, so the judge's probabilities and
the embedder's vectors are exactly those of a session with ONNX Runtime's defaults.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from triqua.models import entailment
from triqua.models.embeddings import MiniLMEmbedder
from triqua.models.entailment import EntailmentModel, get_entailment
from triqua.models.sessions import SPINNING_KEYS, cpu_session

PAIRS = [
    ("Marie Curie was born in Warsaw in 1867.", "Marie Curie was born in Warsaw."),
    ("Marie Curie was born in Warsaw in 1867.", "Marie Curie was born in Paris."),
    ("The Danube flows into the Black Sea.", "The Danube flows through Vienna."),
]


def assert_cpu_options(session: ort.InferenceSession) -> None:
    options = session.get_session_options()
    assert options.intra_op_num_threads == 1
    assert options.inter_op_num_threads == 1
    assert options.execution_mode == ort.ExecutionMode.ORT_SEQUENTIAL
    assert options.graph_optimization_level == ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    for key in SPINNING_KEYS:
        assert options.get_session_config_entry(key) == "0"


def shipped_judge() -> EntailmentModel:
    judge = get_entailment()
    assert judge is not None
    return judge


def test_the_judge_and_the_embedder_open_their_models_with_the_shared_options() -> None:
    assert_cpu_options(shipped_judge()._session)
    assert_cpu_options(MiniLMEmbedder()._session)


def test_a_missing_model_file_is_named() -> None:
    with pytest.raises(FileNotFoundError, match=r"nowhere\.onnx"):
        cpu_session(Path("nowhere.onnx"))


def test_the_judge_reads_the_same_probabilities_as_with_default_options(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    judge = shipped_judge()
    shared = np.vstack([judge._run([pair]) for pair in PAIRS])

    def default_session(path: Path, threads: int = 1) -> ort.InferenceSession:
        return ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])

    monkeypatch.setattr(entailment, "cpu_session", default_session)
    plain = entailment.load_entailment(entailment.SHIPPED)
    assert plain is not None
    assert plain._session.get_session_options().intra_op_num_threads == 0  # one per core
    defaults = np.vstack([plain._run([pair]) for pair in PAIRS])
    assert np.array_equal(shared, defaults)
    assert shared[0].argmax() == entailment.ENTAILED
