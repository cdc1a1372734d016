"""The one way triqua opens an ONNX Runtime session: on CPU, single-threaded, never spinning.

Every model triqua runs itself (the entailment judge, the sentence embedder) is opened here,
so all of them run with the same settings. The offline engine runs one worker per core and
each worker runs its own forward passes, so a session needs no thread pool of its own: one
intra-op thread (the caller's), no inter-op parallelism, nodes run in order. A pool thread
would also spin between passes by default, waiting for work, which burns CPU time the other
worker needs; spinning is turned off for both pools should a caller ask for more threads.
The settings choose how the work is scheduled, not which kernels run: a model's outputs
are the same as with ONNX Runtime's defaults (the tests compare them).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnxruntime

__all__ = ["SPINNING_KEYS", "cpu_session", "session_options"]

#: Session config entries that keep ONNX Runtime's pool threads from spinning while idle.
SPINNING_KEYS = ("session.intra_op.allow_spinning", "session.inter_op.allow_spinning")


def session_options(threads: int = 1) -> onnxruntime.SessionOptions:
    """Options for a CPU session running on ``threads`` intra-op threads, none spinning."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    for key in SPINNING_KEYS:
        options.add_session_config_entry(key, "0")
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return options


def cpu_session(path: Path, threads: int = 1) -> onnxruntime.InferenceSession:
    """The model at ``path`` opened on CPU with :func:`session_options`.

    Raises:
        FileNotFoundError: when ``path`` is not a file.
    """
    if not path.is_file():
        raise FileNotFoundError(f"ONNX model not found: {path}")
    import onnxruntime as ort

    return ort.InferenceSession(
        str(path), sess_options=session_options(threads), providers=["CPUExecutionProvider"]
    )
