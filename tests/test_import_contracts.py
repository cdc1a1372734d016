"""The import contracts say what they mean: the CLI's list is an allow-list, the rules are there.

import-linter forbids; it has no allow-list. The CLI's contract forbids every package the CLI
may not import, and this test keeps that list complete: every package of triqua is either on
the CLI's allowed list below or forbidden by the contract, so a new package is forbidden to
the CLI until it is allowed here on purpose.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "triqua"
CONTRACTS: list[dict[str, Any]] = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))[
    "tool"
]["importlinter"]["contracts"]

#: The packages (and top-level modules) the CLI may import: it parses options, runs checks
#: through the API and prints what they return.
CLI_MAY_IMPORT = {
    "api",
    "batch",
    "citations",
    "context",
    "core",
    "engines",
    "evals",
    "execution",
    "models",
    "regrade",
    "rendering",
    "runtime",
    "schema",
    "store",
    "support",
    "tools",
    "web",
}

#: Packages of data only (no module to import).
DATA_ONLY = {"demo", "templates"}


def _contract(starting: str) -> dict[str, Any]:
    found = [c for c in CONTRACTS if c["name"].startswith(starting)]
    assert len(found) == 1, starting
    return found[0]


def _top_level() -> set[str]:
    """Every top-level package and module of triqua (but ``cli`` and the entry points)."""
    names = {p.name for p in SRC.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    names |= {p.stem for p in SRC.glob("*.py")}
    return names - {"cli", "__init__", "__main__"}


def test_every_package_is_allowed_to_the_cli_or_forbidden() -> None:
    """A package on neither list fails: the CLI's contract is an allow-list."""
    contract = _contract("The CLI imports only its allowed list")
    forbidden = {m.removeprefix("triqua.") for m in contract["forbidden_modules"]}
    forbidden_top = {m for m in forbidden if "." not in m}
    assert contract["source_modules"] == ["triqua.cli"]
    assert not CLI_MAY_IMPORT & forbidden_top
    assert _top_level() - DATA_ONLY == CLI_MAY_IMPORT | forbidden_top
    # what is forbidden inside an allowed package is inside one
    assert {m.split(".")[0] for m in forbidden - forbidden_top} <= CLI_MAY_IMPORT


def test_the_must_never_rules_are_contracts() -> None:
    """Each rule is a contract over the modules it names."""
    offline = _contract("Only the engine factory imports the offline engine")
    assert "triqua.engines.offline" in offline["protected_modules"]
    assert offline["allowed_importers"] == [
        "triqua.engines.factory",
        "triqua.engines.second_opinion",
    ]
    assert set(offline["protected_modules"]) - {"triqua.engines.offline"} == {
        "triqua.engines.second_opinion"
    }  # the second opinion is itself built only by the factory
    decomposer = _contract("The offline decomposer never reads the offline verifier")
    assert decomposer["forbidden_modules"] == ["triqua.engines.offline.verify"]
    owners = {
        "spacy": ["triqua.nlp"],
        "onnxruntime": ["triqua.models"],
        "ray": ["triqua.batch.ray_batch", "triqua.batch.ray_cluster"],
        "psycopg": ["triqua.store.postgres", "triqua.store.pg_roles"],
    }
    protected = {
        module: c["allowed_importers"]
        for c in CONTRACTS
        if c["type"] == "protected"
        for module in c["protected_modules"]
    }
    for library, importers in owners.items():
        assert protected[library] == importers, library
    assert protected["chromadb"][0] == "triqua.tools.chroma"
    assert all(m.startswith("triqua.tools.") for m in protected["chromadb"])
    scipy = _contract("SciPy is not a dependency")
    assert scipy["source_modules"] == ["triqua"] and scipy["forbidden_modules"] == ["scipy"]
