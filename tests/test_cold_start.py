"""Cold start: importing triqua and building its command load no heavy library they do not use.

Pydantic counts as heavy here: building triqua's schema alone costs ~0.45 s of ``--help``.

Each check runs in a fresh interpreter, since this test process has long loaded everything.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parents[1] / "src")
HEAVY = ("scipy", "spacy", "onnxruntime", "chromadb", "langgraph", "langchain_core", "pydantic")
PROBED = (*HEAVY, "scipy.stats", "numpy")


def loaded_after(code: str) -> dict[str, bool]:
    """Which of ``PROBED`` a fresh interpreter holds after running ``code``."""
    probe = (
        f"{code}\nimport json, sys\n"
        f"print(json.dumps({{m: m in sys.modules for m in {list(PROBED)!r}}}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin", "TRIQUA_HOME": os.environ["TRIQUA_HOME"]},
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize(
    "code",
    [
        "import triqua",
        "from triqua.cli import app",
        "import typer.main\nfrom triqua.cli import app\ntyper.main.get_command(app)",
    ],
)
def test_import_and_cli_load_no_heavy_library(code: str) -> None:
    loaded = loaded_after(code)
    assert not any(loaded[m] for m in HEAVY), loaded


def test_help_runs_without_heavy_libraries() -> None:
    code = (
        "import sys\nsys.argv = ['triqua', '--help']\nfrom triqua.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass"
    )
    loaded = loaded_after(code)
    assert not any(loaded[m] for m in HEAVY), loaded


@pytest.mark.slow
def test_a_check_loads_no_scipy_stats() -> None:
    """Scoring is run-time code; only evaluation statistics need ``scipy.stats``.

    (The BM25 index of supplied documents uses ``scipy.sparse``, which is the retriever's.)
    """
    loaded = loaded_after(
        "import triqua\n"
        "report = triqua.check('Paris is the capital of France.', "
        "documents=['Paris is the capital of France.'], cache=False)\n"
        "assert report.records"
    )
    assert not loaded["scipy.stats"]
    assert loaded["langgraph"]  # the probe did run a check


def test_public_names_load_on_first_use() -> None:
    import triqua
    from triqua.api import check
    from triqua.schema import Report

    assert triqua.check is check
    assert triqua.Report is Report
    assert set(triqua.__all__) <= set(dir(triqua))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = triqua.nothing  # type: ignore[attr-defined]


@pytest.mark.slow
def test_evaluation_statistics_stay_importable_from_metrics() -> None:
    from triqua import metrics
    from triqua.evals.stats import pearson_spearman_mae

    assert metrics.pearson_spearman_mae is pearson_spearman_mae
    assert metrics.pearson_spearman_mae([0.1, 0.5, 0.9], [0.2, 0.4, 1.0])["n"] == 3


def test_the_local_models_load_no_chroma() -> None:
    """The offline engine's embedder and sentence vectors serve runs that never use Chroma."""
    loaded = loaded_after("import triqua.models.embeddings, triqua.models.vectors")
    assert not loaded["chromadb"], loaded
    chroma = loaded_after("import triqua.tools.chroma")
    assert chroma["chromadb"]  # the probe sees Chroma where it is used
