"""A tiny NLI cross-encoder built by the tests themselves: ONNX graph, tokenizer, config.

It has the shape of an exported BERT sequence-pair classifier (word and token-type
embeddings, one masked self-attention layer with a residual, masked mean pooling and a
linear head over ``input_ids``, ``attention_mask`` and ``token_type_ids``) with seeded
random weights, and :func:`reference_logits` computes the same network in numpy, one pair
at a time and unpadded, so a test can prove what triqua's loader, batching and label
mapping return.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

WORDS = [
    "the", "a", "is", "was", "in", "of", "and", "not", "born", "london", "paris", "rome",
    "tower", "eiffel", "alan", "turing", "marie", "curie", "won", "prize", "physics", "nobel",
    "worked", "at", "park", "bletchley", "war", "during", "second", "world", "moon", "rocky",
]  # fmt: skip
HIDDEN = 8


def build_tokenizer() -> Tokenizer:
    """A lower-casing WordPiece tokenizer over :data:`WORDS` with BERT's pair template."""
    vocab = {tok: i for i, tok in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", *WORDS])}
    tokenizer = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])],
    )
    return tokenizer


def weights(labels: int, seed: int = 7) -> dict[str, np.ndarray]:
    """Seeded random weights of the tiny network."""
    rng = np.random.default_rng(seed)
    vocab = len(WORDS) + 4

    def draw(*shape: int) -> np.ndarray:
        return rng.normal(0, 1.0, size=shape).astype(np.float32)

    return {
        "word": draw(vocab, HIDDEN),
        "type": draw(2, HIDDEN),
        "wq": draw(HIDDEN, HIDDEN),
        "wk": draw(HIDDEN, HIDDEN),
        "wv": draw(HIDDEN, HIDDEN),
        "head": draw(HIDDEN, labels),
        "bias": draw(labels),
        "scale": np.array(1.0 / np.sqrt(HIDDEN), dtype=np.float32),
        "neg": np.array(-1e4, dtype=np.float32),
        "one": np.array(1.0, dtype=np.float32),
    }


def build_graph(w: dict[str, np.ndarray], *, token_types: bool = True) -> onnx.ModelProto:
    """The ONNX graph of the tiny network (dynamic batch and sequence length)."""
    n = helper.make_node
    nodes = [
        n("Gather", ["word", "input_ids"], ["e_word"]),
        n("Cast", ["attention_mask"], ["mask_f"], to=TensorProto.FLOAT),
    ]
    if token_types:
        nodes += [
            n("Gather", ["type", "token_type_ids"], ["e_type"]),
            n("Add", ["e_word", "e_type"], ["e"]),
        ]
    else:
        nodes += [n("Identity", ["e_word"], ["e"])]
    nodes += [
        n("MatMul", ["e", "wq"], ["q"]),
        n("MatMul", ["e", "wk"], ["k"]),
        n("MatMul", ["e", "wv"], ["v"]),
        n("Transpose", ["k"], ["kt"], perm=[0, 2, 1]),
        n("MatMul", ["q", "kt"], ["s0"]),
        n("Mul", ["s0", "scale"], ["s1"]),
        n("Unsqueeze", ["mask_f", "axis1"], ["m1"]),
        n("Sub", ["one", "m1"], ["m2"]),
        n("Mul", ["m2", "neg"], ["m3"]),
        n("Add", ["s1", "m3"], ["s2"]),
        n("Softmax", ["s2"], ["att"], axis=-1),
        n("MatMul", ["att", "v"], ["a"]),
        n("Add", ["e", "a"], ["x"]),
        n("Unsqueeze", ["mask_f", "axis2"], ["m4"]),
        n("Mul", ["x", "m4"], ["xm"]),
        n("ReduceSum", ["xm", "axis1"], ["summed"], keepdims=0),
        n("ReduceSum", ["mask_f", "axis1"], ["count"], keepdims=1),
        n("Div", ["summed", "count"], ["pooled"]),
        n("MatMul", ["pooled", "head"], ["h"]),
        n("Add", ["h", "bias"], ["logits"]),
    ]
    inits = [numpy_helper.from_array(v, name=k) for k, v in w.items()]
    inits += [
        numpy_helper.from_array(np.array([1], dtype=np.int64), name="axis1"),
        numpy_helper.from_array(np.array([2], dtype=np.int64), name="axis2"),
    ]
    names = ["input_ids", "attention_mask"] + (["token_type_ids"] if token_types else [])
    inputs = [helper.make_tensor_value_info(x, TensorProto.INT64, ["batch", "seq"]) for x in names]
    labels = w["head"].shape[1]
    output = helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", labels])
    graph = helper.make_graph(nodes, "tiny_nli", inputs, [output], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def build_model_folder(
    folder: Path,
    id2label: dict[int, str],
    *,
    hub_layout: bool = False,
    token_types: bool = True,
    seed: int = 7,
) -> dict[str, np.ndarray]:
    """Write model.onnx (or onnx/model.onnx), tokenizer.json and config.json; return weights."""
    folder.mkdir(parents=True, exist_ok=True)
    w = weights(len(id2label), seed)
    model_path = folder / "onnx" / "model.onnx" if hub_layout else folder / "model.onnx"
    model_path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(build_graph(w, token_types=token_types), str(model_path))
    build_tokenizer().save(str(folder / "tokenizer.json"))
    config = {"id2label": {str(k): v for k, v in id2label.items()}, "max_position_embeddings": 64}
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return w


def reference_logits(
    w: dict[str, np.ndarray], premise: str, hypothesis: str, *, token_types: bool = True
) -> np.ndarray:
    """The tiny network's logits for one pair, in numpy, without padding."""
    encoding = build_tokenizer().encode(premise, hypothesis)
    ids = np.array(encoding.ids)
    e = w["word"][ids]
    if token_types:
        e = e + w["type"][np.array(encoding.type_ids)]
    q, k, v = e @ w["wq"], e @ w["wk"], e @ w["wv"]
    scores = (q @ k.T) * w["scale"]
    scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
    att = scores / scores.sum(axis=-1, keepdims=True)
    x = e + att @ v
    return x.mean(axis=0) @ w["head"] + w["bias"]
