"""Every switch of the gate-ablation benchmarks names a function that still exists.

``benchmarks/gate_ablation.py`` (and ``claim_losses.py``, which adds finer switches) turn a
gate off by replacing a module attribute; a gate moved to another module would leave a
switch that fails only when a long benchmark reaches it.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def test_every_ablation_switch_names_an_existing_attribute(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    importlib.import_module("claim_losses")
    ablation = importlib.import_module("gate_ablation")
    missing = [
        f"{gate}: {owner.__name__}.{name}"
        for gate, switches in ablation.GATES.items()
        for owner, name, _ in switches
        if not hasattr(owner, name)
    ]
    assert len(ablation.GATES) > 20
    assert missing == []
