"""Read the shipped int8 judge back into a PyTorch checkpoint, to continue training it.

The shipped file is the only copy of a trained judge that outlives a build folder, and
retraining it from all-MiniLM-L6-v2 takes an hour on two cores. This dequantises its
weights (int8 per-channel matrices and uint8 embeddings, as ``export.py`` quantises them)
into a ``BertForSequenceClassification`` folder that ``train.py --init`` reads. ONNX
Runtime names a quantised matrix after the graph value it replaced (``onnx::MatMul_892``),
so each matrix is matched to its layer by following the graph to the bias it is added to.
No library maps a dynamically quantised ONNX graph back to transformers' names, hence this.

Usage: python training/from_onnx.py [--onnx src/triqua/models/data/entailment.onnx]
       [--out training/build/model-shipped]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from train import LABELS, start_weights
from transformers import AutoConfig, AutoModelForSequenceClassification, AutoTokenizer

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "src" / "triqua" / "models" / "data" / "entailment.onnx"
PREFIX = "model."


def _dequantise(values: dict[str, np.ndarray], stem: str) -> np.ndarray:
    """``stem``'s int8/uint8 tensor as float32: (q - zero point) × scale, per channel or not."""
    q = values[f"{stem}_quantized"].astype(np.float32)
    scale = values[f"{stem}_scale"].astype(np.float32)
    zero = values[f"{stem}_zero_point"].astype(np.float32)
    return (q - zero) * scale


def _bias_of(graph: onnx.GraphProto, start: str, names: set[str]) -> str:
    """The bias initializer added to ``start``'s product, found a few nodes downstream."""
    consumers: dict[str, list[onnx.NodeProto]] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    frontier = [start]
    for _ in range(6):
        following = []
        for value in frontier:
            for node in consumers.get(value, []):
                bias = [n for n in node.input if n in names and n.endswith(".bias")]
                if node.op_type == "Add" and bias:
                    return bias[0]
                following += list(node.output)
        frontier = following
    raise ValueError(f"no bias found downstream of {start}")


def state_from_onnx(path: Path) -> dict[str, torch.Tensor]:
    """The transformers state dict of the classifier stored (quantised) in ``path``."""
    model = onnx.load(str(path))
    graph = model.graph
    values = {init.name: numpy_helper.to_array(init) for init in graph.initializer}
    state: dict[str, np.ndarray] = {}
    for name, array in values.items():
        quantised = name.endswith(("_quantized", "_scale", "_zero_point"))
        if name.startswith(PREFIX) and not quantised:
            state[name[len(PREFIX) :]] = array.astype(np.float32)
    for name in values:
        if name.startswith(PREFIX) and name.endswith(".weight_quantized"):
            stem = name[: -len("_quantized")]
            state[stem[len(PREFIX) :]] = _dequantise(values, stem)
    for node in graph.node:
        if node.op_type != "MatMulInteger":
            continue
        weight = node.input[1]
        stem = weight[: -len("_quantized")]
        bias = _bias_of(graph, node.output[0], set(values))
        # ONNX multiplies x @ W (in × out); a torch Linear stores W as out × in.
        state[bias[len(PREFIX) : -len(".bias")] + ".weight"] = _dequantise(values, stem).T
    return {name: torch.from_numpy(np.ascontiguousarray(a)) for name, a in state.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--onnx", type=Path, default=SHIPPED)
    parser.add_argument("--out", type=Path, default=ROOT / "training" / "build" / "model-shipped")
    args = parser.parse_args()
    base = start_weights()
    config = AutoConfig.from_pretrained(
        base,
        num_labels=len(LABELS),
        id2label=dict(enumerate(LABELS)),
        label2id={name: i for i, name in enumerate(LABELS)},
    )
    model = AutoModelForSequenceClassification.from_config(config)
    state = state_from_onnx(args.onnx)
    expected = set(model.state_dict())
    missing = sorted(expected - set(state) - {"bert.embeddings.position_ids"})
    unknown = sorted(set(state) - expected)
    if missing or unknown:
        raise SystemExit(f"weights do not match the model: missing {missing}, unknown {unknown}")
    model.load_state_dict(state, strict=False)
    model.save_pretrained(args.out)
    AutoTokenizer.from_pretrained(base).save_pretrained(args.out)
    card = json.loads(args.onnx.with_suffix(".json").read_text(encoding="utf-8"))
    (args.out / "training.json").write_text(
        json.dumps({"from_onnx": str(args.onnx), "revision": card.get("revision")}, indent=2)
    )
    print(f"{len(state)} tensors from {args.onnx.name} ({card.get('revision')}) -> {args.out}")


if __name__ == "__main__":
    main()
