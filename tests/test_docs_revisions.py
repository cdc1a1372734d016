"""The engine revisions the README and docs name as what a run records are the current ones.

A verdict records its judge as ``offline-align/N+<judge>``; the README quotes that string
where it tells users what to expect in a report, and names the shipped judge's file id. When
the verifier's rules or the judge's weights change, those quotes must change with them, or a
user comparing a report with the README sees a revision that no triqua of this version wrote.
Historical mentions (the CHANGELOG's past entries, dated benchmark runs) name a revision
without the ``+<judge>`` part and are not checked.
"""

from __future__ import annotations

import re
from pathlib import Path

from triqua.engines.revisions import ALIGN_REVISION
from triqua.models.entailment import shipped_revision

ROOT = Path(__file__).resolve().parents[1]
RECORDED = re.compile(r"offline-align/\d+(?=\+)")
JUDGE_FILE = re.compile(r"minilm-nli-int8-[0-9a-f]{12}")


def test_readme_quotes_the_recorded_verifier_revision() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    quoted = set(RECORDED.findall(text))
    assert quoted, "the README quotes no recorded verifier revision"
    assert quoted == {ALIGN_REVISION}


def test_readme_names_the_shipped_judge_file() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert set(JUDGE_FILE.findall(text)) == {shipped_revision()}


def test_changelog_unreleased_names_the_current_verifier_revision() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    unreleased = text.split("## [Unreleased]", 1)[1].split("\n## [", 1)[0]
    assert f"`{ALIGN_REVISION}`" in unreleased
    assert shipped_revision() in unreleased
