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


def test_a_switch_reads_afresh_and_leaves_nothing_remembered_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A reading remembered with every gate on must not answer for a gate switched off."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    ablation = importlib.import_module("gate_ablation")
    from triqua.core.reading import counts

    window, obj = "The tower is 553 metres tall and has 147 floors.", "553 floors"
    on = counts.counted_slot(window, obj)
    assert on == "553 metres"
    assert counts._counted.cache_info().currsize > 0
    with ablation.switched_off("counted-noun"):
        assert counts._counted.cache_info().currsize == 0
        counts.counted_slot(window, obj)  # remembered while the switch is off ...
    assert counts._counted.cache_info().currsize == 0  # ... and forgotten when it comes back on
    assert counts.counted_slot(window, obj) == on
