"""Export the trained cross-encoder to ONNX and quantise it to int8 (training venv).

Writes ``training/build/entailment-fp32.onnx`` and the shipped int8 file
``src/triqua/models/data/entailment.onnx``, and checks that the int8 model agrees
with PyTorch on a few pairs (largest probability difference printed).

Usage: python training/export.py [--model training/build/model]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import onnxruntime as ort
import torch
from onnxruntime.quantization import QuantType, quantize_dynamic
from transformers import AutoModelForSequenceClassification, AutoTokenizer

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "src" / "triqua" / "models" / "data" / "entailment.onnx"
CHECK = [
    ("Alan Turing was born in Maida Vale, London.", "Alan Turing was born in Paris."),
    (
        "During the Second World War, Turing worked at Bletchley Park.",
        "Turing worked at Bletchley Park.",
    ),
    ("The Rhine flows into the North Sea.", "The Rhine empties into the North Sea."),
]


class _Logits(torch.nn.Module):
    """The classifier with a plain tensor output, as ONNX export wants it."""

    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask, token_type_ids):
        return self.model(
            input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
        ).logits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", type=Path, default=ROOT / "training" / "build" / "model")
    parser.add_argument("--out", type=Path, default=SHIPPED)
    args = parser.parse_args()
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForSequenceClassification.from_pretrained(args.model).eval()
    wrapped = _Logits(model)
    sample = tokenizer(
        [p for p, _ in CHECK], [h for _, h in CHECK], padding=True, return_tensors="pt"
    )
    fp32 = ROOT / "training" / "build" / "entailment-fp32.onnx"
    names = ["input_ids", "attention_mask", "token_type_ids"]
    axes = {n: {0: "batch", 1: "sequence"} for n in names} | {"logits": {0: "batch"}}
    with torch.no_grad():
        torch.onnx.export(
            wrapped,
            tuple(sample[n] for n in names),
            str(fp32),
            input_names=names,
            output_names=["logits"],
            dynamic_axes=axes,
            opset_version=17,
            dynamo=False,
        )
        expected = torch.softmax(wrapped(*(sample[n] for n in names)), -1).numpy()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    # Signed 8-bit weights with per-channel scales, zero points and the full range: the same
    # grid as unsigned weights shifted by 128, so the judge reads exactly as with unsigned
    # ones (on 400 dev pairs the mean probability error to fp32 is 0.012, argmax agreeing on
    # 98.5 %), while ONNX Runtime runs its fast signed-weight kernels (1.65x less CPU than
    # with unsigned weights). Symmetric signed weights (no zero point) erred by 0.029 (95 %).
    quantize_dynamic(
        str(fp32),
        str(args.out),
        weight_type=QuantType.QInt8,
        per_channel=True,
        reduce_range=False,
        extra_options={"WeightSymmetric": False},
    )
    session = ort.InferenceSession(str(args.out), providers=["CPUExecutionProvider"])
    logits = session.run(None, {n: sample[n].numpy() for n in names})[0]
    got = np.exp(logits - logits.max(-1, keepdims=True))
    got /= got.sum(-1, keepdims=True)
    print(f"int8 model {args.out} ({args.out.stat().st_size / 1e6:.1f} MB)")
    print(f"largest probability difference to PyTorch fp32: {np.abs(got - expected).max():.4f}")
    for (premise, hypothesis), row in zip(CHECK, got, strict=True):
        print(f"  {row.round(3)}  {premise!r} => {hypothesis!r}")


if __name__ == "__main__":
    main()
