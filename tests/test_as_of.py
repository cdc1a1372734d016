"""The as-of date reaches the judge: every verification prompt says what date it judges at."""

from __future__ import annotations

from typing import Any

import pytest

import triqua

from .conftest import CURIE

DOCS = ["Marie Curie won the Nobel Prize in Physics in 1903, shared with Pierre Curie."]


@pytest.mark.slow
@pytest.mark.parametrize("batch", [1, 16])
def test_every_verification_prompt_carries_the_as_of_date(scripted: Any, batch: int) -> None:
    model = scripted()
    report = triqua.check(
        CURIE, documents=DOCS, model=model, as_of="2020-05-01", verify_batch=batch, cache=False
    )
    verify = [p for tool, p in model.calls if tool in ("Judgement", "Verdicts")]
    assert verify and all("as of 2020-05-01" in prompt for prompt in verify)
    assert str(report.spec.as_of) == "2020-05-01"
    plain = scripted()
    triqua.check(CURIE, documents=DOCS, model=plain, verify_batch=batch, cache=False)
    assert not any("as of" in p for tool, p in plain.calls if tool in ("Judgement", "Verdicts"))
