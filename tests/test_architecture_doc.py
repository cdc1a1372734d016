"""The architecture guide names every module of the readers and the checks that share them.

``docs/architecture.md`` is where a newcomer looks for the module that reads a value, gates
a window or judges a fact. The shared reader (``core/reading``), the grounding rule
(``core/grounding``) and the offline verifier (``engines/offline/verify``) grow by modules;
one the guide leaves out cannot be found from it, and a name the guide keeps after its module
moved sends the reader to nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "triqua"
GUIDE = ROOT / "docs" / "architecture.md"
PACKAGES = ("core/reading", "core/grounding", "engines/offline/verify")


def _section(package: str) -> str:
    """The guide's layout entry of ``package``: its line and the indented lines after it."""
    name = package.rsplit("/", 1)[-1]
    text = GUIDE.read_text(encoding="utf-8")
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if re.match(rf"\s*{re.escape(name)}/\s", line):
            indent = len(line) - len(line.lstrip())
            block = [line]
            for following in lines[index + 1 :]:
                if following.strip() and len(following) - len(following.lstrip()) <= indent:
                    break
                block.append(following)
            return "\n".join(block)
    return ""


@pytest.mark.parametrize("package", PACKAGES)
def test_guide_names_every_module_of_the_package(package: str) -> None:
    entry = _section(package)
    assert entry, f"docs/architecture.md has no layout entry for {package}/"
    modules = sorted(p.name for p in (PACKAGE / package).glob("*.py") if p.name != "__init__.py")
    assert modules
    missing = [m for m in modules if not re.search(rf"\b{re.escape(m)}\b", entry)]
    assert not missing, f"docs/architecture.md's {package}/ entry leaves out {missing}"


@pytest.mark.parametrize("package", PACKAGES)
def test_every_module_the_guide_names_exists(package: str) -> None:
    named = set(re.findall(r"\b([a-z_]+\.py)\b", _section(package)))
    assert named
    here = {p.name for p in (PACKAGE / package).rglob("*.py")}
    missing = sorted(named - here)
    assert not missing, f"docs/architecture.md names {missing} under {package}/, not there"
