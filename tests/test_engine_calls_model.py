"""Engines say whether they call a model through their protocol (``calls_model``).

Run resources count model calls against ``max_calls`` by asking the engine, never by testing
for the offline engine's classes, so a new engine that calls no model says so itself.
"""

from __future__ import annotations

from triqua.context import Context
from triqua.engines.base import TemplateRefiner
from triqua.engines.factory import register_model, resolve_engines
from triqua.engines.offline.engine import OfflineDecomposer, OfflineJudge
from triqua.runtime.resources import calls_model
from triqua.testing import ScriptedChatModel


class Wrapper:
    """A cache-like wrapper: the engine it wraps is ``inner``."""

    def __init__(self, inner: object) -> None:
        self.inner = inner


def test_the_offline_engine_and_the_template_refiner_call_no_model() -> None:
    for engine in (OfflineDecomposer(), OfflineJudge(), TemplateRefiner()):
        assert engine.calls_model is False
        assert not calls_model(engine)
        assert not calls_model(Wrapper(Wrapper(engine)))


def test_a_chat_model_engine_calls_a_model() -> None:
    name = register_model("calls-model", ScriptedChatModel(responder=lambda *_: {}))
    engines = resolve_engines(Context(model=name))
    assert calls_model(engines.judge) and calls_model(engines.decomposer)
    assert not engines.offline
    assert resolve_engines(Context()).offline
