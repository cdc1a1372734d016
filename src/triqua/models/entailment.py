"""Entailment judges: NLI cross-encoders run with ONNX Runtime, no PyTorch.

A judge reads (premise, hypothesis) pairs and answers, for each, the probabilities that the
premise entails, is neutral to, or contradicts the hypothesis (always in that order,
whatever order the model's own labels use). Three sources, one class:

- the judge shipped with triqua (``data/entailment.onnx``): all-MiniLM-L6-v2 fine-tuned as a
  3-way cross-encoder by ``training/`` and quantised to int8; its thresholds, calibrated on
  held-out data, ship beside it in ``data/entailment.json``;
- ``nli:<local folder>``: any exported NLI or MiniCheck-style sequence-pair classifier —
  a folder with ``model.onnx`` (or ``onnx/model.onnx``), ``tokenizer.json`` and
  ``config.json`` whose ``id2label`` names the labels;
- ``nli:<hub id>``: the same folder fetched from the Hugging Face Hub with
  ``huggingface_hub`` (only its ONNX file, tokenizer and config), for users who can download.

Hand-written where no library does it without PyTorch: sentence-transformers' CrossEncoder
and transformers' pipelines both need PyTorch at run time, which triqua never loads.
"""

from __future__ import annotations

import functools
import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from triqua.models.sessions import cpu_session

if TYPE_CHECKING:
    from tokenizers import Tokenizer

__all__ = [
    "CONTRADICTED",
    "ENTAILED",
    "NEUTRAL",
    "RULES_ONLY",
    "SHIPPED",
    "EntailmentModel",
    "Thresholds",
    "check_judge_setting",
    "get_entailment",
    "judge_name",
    "label_columns",
    "load_entailment",
    "shipped_revision",
]

ENTAILED, NEUTRAL, CONTRADICTED = 0, 1, 2
#: The setting value that names the judge shipped with triqua.
SHIPPED = "shipped"
#: The setting value that turns the learned judge off (the rules alone).
RULES_ONLY = "rules"

_DATA = Path(__file__).parent / "data"
_SHIPPED_MODEL = _DATA / "entailment.onnx"
_SHIPPED_CARD = _DATA / "entailment.json"
_SHIPPED_TOKENIZER = _DATA / "minilm_tokenizer.json"
_CACHE_SIZE = 8192

#: Label names of public NLI and fact-checking classifiers, by the column triqua reads.
_LABEL_NAMES: dict[str, int] = {
    "entailment": ENTAILED,
    "entailed": ENTAILED,
    "entails": ENTAILED,
    "supported": ENTAILED,
    "support": ENTAILED,
    "supports": ENTAILED,
    "neutral": NEUTRAL,
    "not_entailment": NEUTRAL,
    "not entailment": NEUTRAL,
    "unsupported": NEUTRAL,
    "not_supported": NEUTRAL,
    "not enough info": NEUTRAL,
    "nei": NEUTRAL,
    "contradiction": CONTRADICTED,
    "contradicted": CONTRADICTED,
    "contradicts": CONTRADICTED,
    "refuted": CONTRADICTED,
    "refutes": CONTRADICTED,
}

Probabilities = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Thresholds:
    """Probabilities at which a judged pair counts.

    ``supports`` is the entailment at which the offline verifier's judge supports a unit
    (behind the value gates; ``entailed`` when the card names none), and ``contradicted``
    the contradiction at which it contradicts one (and takes a support back); ``entailed``
    is the strict grounding rule's threshold for a paraphrase; ``veto`` is the entailment
    below which the strict grounding rule withholds a "supported" whose cited text states
    some of its words; ``grounding`` is the entailment a cited window needs to support a
    unit under the "judge" grounding rule; ``judged`` the entailment a cited window that
    writes none of a unit's words needs under the default "judged" rule, ``judged_some``
    the one a window writing some of them needs (all three chosen by
    ``benchmarks/grounding_rule.py``, so a retrained judge is re-calibrated by running it
    again); ``rival`` is the contradiction at
    which a sentence naming a rival value in the object's slot contradicts a unit (gate and
    judge must agree: ``verify.rivals``), and the entailment at which a window ending the
    object's phrase on another word still supports it (the judge outweighs the gate: a
    synonym it is sure of). Above 1.0 a threshold is never reached.
    """

    entailed: float = 0.5
    veto: float = 0.05
    grounding: float = 0.5
    judged: float = 0.5
    judged_some: float = 0.5
    contradicted: float = 1.01
    supports: float = 0.5
    rival: float = 1.01


def label_columns(id2label: dict[int, str]) -> list[int]:
    """For each output of a model, the column (entailed, neutral, contradicted) it feeds.

    A two-label model (MiniCheck style: supported / unsupported, or entailment /
    not_entailment) feeds entailed and neutral only; ``LABEL_1`` of an unnamed two-label
    model is taken as "supported", as MiniCheck and most binary checkers order them.

    Raises:
        ValueError: when a label name is not one triqua knows.
    """
    names = [id2label[i].strip().lower() for i in range(len(id2label))]
    if names == ["label_0", "label_1"]:
        return [NEUTRAL, ENTAILED]
    unknown = [n for n in names if n not in _LABEL_NAMES]
    if unknown:
        raise ValueError(
            f"cannot map the model's labels {names} to entailment/neutral/contradiction "
            f"(unknown: {unknown})"
        )
    columns = [_LABEL_NAMES[n] for n in names]
    if ENTAILED not in columns:
        raise ValueError(f"the model's labels {names} have no entailment (or supported) label")
    return columns


def _load_tokenizer(path: Path, max_tokens: int) -> Tokenizer:
    """A pair tokenizer that truncates the premise first (and pads, should a batch be run)."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(path))
    tokenizer.enable_truncation(max_length=max_tokens, strategy="only_first")
    pad_id = tokenizer.token_to_id("[PAD]")
    pad_token = "[PAD]"
    if pad_id is None:
        pad_id, pad_token = tokenizer.token_to_id("<pad>") or 0, "<pad>"
    tokenizer.enable_padding(pad_id=pad_id, pad_token=pad_token)
    return tokenizer


class EntailmentModel:
    """An NLI cross-encoder: (premise, hypothesis) pairs in, 3-way probabilities out."""

    def __init__(
        self,
        model_path: Path,
        tokenizer_path: Path,
        id2label: dict[int, str],
        *,
        revision: str,
        thresholds: Thresholds | None = None,
        max_tokens: int = 256,
    ) -> None:
        """Open the ONNX model and its tokenizer (checked: missing files raise here).

        Raises:
            FileNotFoundError: when the model or tokenizer file is missing.
            ValueError: when the labels cannot be mapped or the model lacks inputs.
        """
        for path in (model_path, tokenizer_path):
            if not path.is_file():
                raise FileNotFoundError(f"entailment model file not found: {path}")
        self.revision = revision
        self.thresholds = thresholds or Thresholds()
        self._columns = label_columns(id2label)
        self._tokenizer = _load_tokenizer(tokenizer_path, max_tokens)
        self._session = cpu_session(model_path)
        self._inputs = {node.name for node in self._session.get_inputs()}
        missing = {"input_ids", "attention_mask"} - self._inputs
        if missing:
            raise ValueError(f"entailment model lacks inputs {sorted(missing)}: {model_path}")
        outputs = self._session.get_outputs()[0].shape
        width = outputs[-1] if outputs else None
        if isinstance(width, int) and width != len(self._columns):
            raise ValueError(
                f"entailment model has {width} outputs but its config names "
                f"{len(self._columns)} labels: {model_path}"
            )
        self._cache: OrderedDict[tuple[str, str], Probabilities] = OrderedDict()
        self._lock = threading.Lock()
        self.calls = 0  # forward passes run, for benchmarks

    def predict(self, pairs: Sequence[tuple[str, str]]) -> Probabilities:
        """Probabilities (entailed, neutral, contradicted) for each (premise, hypothesis).

        Pairs already judged come from a bounded cache; each of the rest runs in a forward
        pass of its own. The int8 kernels scale activations once per pass, and a batch pads
        its pairs to the longest, so a pair judged beside others would get probabilities that
        depend on its neighbours; alone, a pair's probabilities are a function of the pair,
        whatever else is checked in the run and whatever the cache holds (and a pass over one
        short pair costs no more CPU per pair than a padded batch).
        """
        out = np.zeros((len(pairs), 3), dtype=np.float32)
        todo: dict[tuple[str, str], list[int]] = {}
        with self._lock:
            for i, pair in enumerate(pairs):
                known = self._cache.get(pair)
                if known is not None:
                    self._cache.move_to_end(pair)
                    out[i] = known
                else:
                    todo.setdefault(pair, []).append(i)
        if not todo:
            return out
        for pair, places in todo.items():
            row = self._run([pair])[0]
            with self._lock:
                for i in places:
                    out[i] = row
                self._cache[pair] = row
                while len(self._cache) > _CACHE_SIZE:
                    self._cache.popitem(last=False)
        return out

    def _run(self, pairs: Sequence[tuple[str, str]]) -> Probabilities:
        """One forward pass over ``pairs``; softmax, then the model's labels to triqua's."""
        encodings = self._tokenizer.encode_batch([(p, h) for p, h in pairs])
        feed = {
            "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
        }
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.array([e.type_ids for e in encodings], dtype=np.int64)
        logits = np.asarray(self._session.run(None, feed)[0], dtype=np.float64)
        self.calls += 1
        logits -= logits.max(axis=1, keepdims=True)
        softmax = np.exp(logits)
        softmax /= softmax.sum(axis=1, keepdims=True)
        out = np.zeros((len(pairs), 3), dtype=np.float32)
        for column, target in enumerate(self._columns):
            out[:, target] += softmax[:, column]
        return out


def _model_folder(reference: str) -> Path:
    """A local folder for ``reference``: the folder itself, or a Hub snapshot of it.

    Raises:
        ValueError: when it is neither a folder nor a Hub id that can be fetched.
    """
    local = Path(reference).expanduser()
    if local.is_dir():
        return local
    if local.exists() or reference.startswith((".", "/", "~")) or reference.count("/") != 1:
        raise ValueError(
            f"nli:{reference}: not a model folder (expected a folder with model.onnx, "
            "tokenizer.json and config.json, or a Hugging Face Hub id such as "
            "'cross-encoder/nli-deberta-v3-xsmall')"
        )
    try:
        from huggingface_hub import snapshot_download
    except ImportError as exc:  # pragma: no cover - huggingface_hub comes with tokenizers
        raise ValueError(f"nli:{reference} needs huggingface_hub (pip install it)") from exc
    try:
        folder = snapshot_download(
            reference,
            allow_patterns=["config.json", "tokenizer.json", "model.onnx", "onnx/model.onnx"],
        )
    except Exception as exc:
        raise ValueError(
            f"nli:{reference}: could not fetch it from the Hugging Face Hub ({exc}); "
            "download it where you can and pass its folder as nli:/path/to/folder"
        ) from exc
    return Path(folder)


def check_judge_setting(spec: str) -> None:
    """Check the form of a judge setting without loading anything.

    Raises:
        ValueError: when it is not "shipped", "rules" or "nli:<model folder or hub id>".
    """
    kind, sep, reference = spec.strip().partition(":")
    if spec.strip() in ("", SHIPPED, RULES_ONLY) or (kind == "nli" and sep and reference.strip()):
        return
    raise ValueError(
        f"unknown verifier {spec!r}: use 'shipped', 'rules' or 'nli:<model folder or hub id>'"
    )


def load_entailment(spec: str) -> EntailmentModel | None:
    """The judge a setting names: "shipped", "rules" (none) or "nli:<folder or hub id>".

    Raises:
        ValueError: when the setting is malformed or the model cannot be loaded.
    """
    spec = spec.strip()
    if spec == RULES_ONLY:
        return None
    if spec in ("", SHIPPED):
        return _shipped()
    check_judge_setting(spec)
    reference = spec.partition(":")[2]
    folder = _model_folder(reference.strip())
    places = (folder / "model.onnx", folder / "onnx" / "model.onnx")
    model = next((p for p in places if p.is_file()), None)
    if model is None:
        raise ValueError(
            f"nli:{reference}: no ONNX model in {folder} (model.onnx or onnx/model.onnx); "
            "export one with `optimum-cli export onnx --model <id> <folder>`"
        )
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        id2label = {int(k): str(v) for k, v in config["id2label"].items()}
    except (OSError, KeyError, ValueError) as exc:
        raise ValueError(f"nli:{reference}: config.json with id2label is needed: {exc}") from exc
    max_tokens = int(config.get("max_position_embeddings", 512))
    return EntailmentModel(
        model,
        folder / "tokenizer.json",
        id2label,
        revision=f"nli:{reference}",
        max_tokens=min(512, max(16, max_tokens)),
    )


def _shipped() -> EntailmentModel:
    """The judge shipped in ``data/``, with its calibrated thresholds.

    Raises:
        RuntimeError: when the shipped files are missing or unreadable.
    """
    try:
        card = json.loads(_SHIPPED_CARD.read_text(encoding="utf-8"))
        read = card["thresholds"]
        thresholds = Thresholds(
            entailed=float(read["entailed"]),
            veto=float(read["veto"]),
            grounding=float(read.get("grounding", Thresholds.grounding)),
            judged=float(read.get("judged", read.get("grounding", Thresholds.judged))),
            judged_some=float(
                read.get("judged_some", read.get("judged", read.get("grounding", 0.5)))
            ),
            contradicted=float(read.get("contradicted", Thresholds.contradicted)),
            supports=float(read.get("supports", read["entailed"])),
            rival=float(read.get("rival", Thresholds.rival)),
        )
        id2label = {int(k): str(v) for k, v in card["id2label"].items()}
        return EntailmentModel(
            _SHIPPED_MODEL,
            _SHIPPED_TOKENIZER,
            id2label,
            revision=str(card["revision"]),
            thresholds=thresholds,
            max_tokens=int(card.get("max_tokens", 256)),
        )
    except (OSError, KeyError, ValueError) as exc:
        raise RuntimeError(f"the shipped entailment judge is unreadable: {exc}") from exc


def shipped_revision() -> str:
    """The shipped judge's revision, read from its card without loading the model."""
    try:
        return str(json.loads(_SHIPPED_CARD.read_text(encoding="utf-8"))["revision"])
    except (OSError, KeyError, ValueError):
        return "entailment-missing"


def judge_name(spec: str) -> str:
    """What a judge setting names, as records show it: the shipped revision, or the setting."""
    spec = spec.strip()
    return shipped_revision() if spec in ("", SHIPPED) else spec


@functools.lru_cache(maxsize=8)
def get_entailment(spec: str = SHIPPED) -> EntailmentModel | None:
    """The process-wide judge for a setting (loaded once; None for "rules")."""
    return load_entailment(spec)
