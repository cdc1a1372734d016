"""Results folders of evaluation runs, stamped for comparison, and the difference of two runs.

Every run writes ``<root>/<eval>-<UTC timestamp>-<spec hash[:8]>/`` holding ``result.json``
(the :class:`EvalRun`), ``result.md`` (a Markdown table for people) and its plots. The stamp
(spec hash, model revisions, SHA-256 of each data file) says whether two runs are comparable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from triqua.evals.data import DataStamp
from triqua.schema import FactualitySpec, Usage, utc_now

__all__ = [
    "RESULT_JSON",
    "RESULT_MD",
    "Comparison",
    "EvalRun",
    "compare_runs",
    "load_run",
    "stamp_markdown",
    "write_run",
]

RESULT_JSON = "result.json"
RESULT_MD = "result.md"


class EvalRun(BaseModel):
    """One evaluation run: what was run on what, with which models, and what it measured."""

    eval: str = Field(description="Which evaluation: factscore-bio, claims, diagnostics.")
    created_at: datetime = Field(default_factory=utc_now)
    engine: str = Field(default="", description="'offline' or the judge's model revision.")
    spec: FactualitySpec | None = None
    spec_hash: str = ""
    models: dict[str, str] = Field(default_factory=dict, description="Revision per role.")
    data: list[DataStamp] = Field(default_factory=list, description="Data files, main first.")
    options: dict[str, Any] = Field(default_factory=dict)
    headline: dict[str, float | int | None] = Field(
        default_factory=dict, description="The metrics that `triqua eval compare` diffs."
    )
    details: dict[str, Any] = Field(default_factory=dict)
    usage: Usage = Field(default_factory=Usage)
    runs: dict[str, int] | None = Field(
        default=None,
        description="The check runs it made ('check_runs') and how many had the stamp's "
        "settings but for their own evidence ('with_stamp_settings'); None when it makes "
        "none by design (diagnostics).",
    )
    notes: list[str] = Field(default_factory=list)

    @classmethod
    def stamped(cls, eval_name: str, spec: FactualitySpec, engine: str, **fields: Any) -> EvalRun:
        """A run stamped with ``spec``: its hash and its model revisions."""
        return cls(
            eval=eval_name,
            spec=spec,
            spec_hash=spec.hash,
            models=dict(spec.models),
            engine=engine,
            **fields,
        )

    @property
    def folder_name(self) -> str:
        """``<eval>-<UTC timestamp>-<spec hash[:8]>``."""
        when = self.created_at.strftime("%Y%m%dT%H%M%SZ")
        return f"{self.eval}-{when}-{(self.spec_hash or 'nospec')[:8]}"


def stamp_markdown(run: EvalRun) -> str:
    """The Markdown header of a run: engine, spec hash, models and data hashes."""
    lines = [
        f"# triqua eval {run.eval}",
        "",
        "| stamp | value |",
        "| --- | --- |",
        f"| created | {run.created_at.isoformat(timespec='seconds')} |",
        f"| engine | {run.engine or '-'} |",
        f"| spec hash | `{run.spec_hash or '-'}` |",
    ]
    lines += [f"| model ({role}) | `{rev}` |" for role, rev in sorted(run.models.items())]
    lines += [f"| data | `{Path(d.path).name}` sha256 `{d.sha256[:16]}…` |" for d in run.data]
    if run.runs is not None:
        made, same = run.runs["check_runs"], run.runs["with_stamp_settings"]
        lines.append(
            f"| check runs | {made}; {same} with this spec but for their own evidence |"
            if made
            else "| check runs | none: facts verified directly, as this spec says |"
        )
    if run.usage.model_calls or run.usage.search_calls:
        lines.append(
            f"| usage | {run.usage.model_calls} model calls, {run.usage.search_calls} searches |"
        )
    return "\n".join(lines) + "\n"


def write_run(run: EvalRun, root: Path, markdown: str, files: dict[str, str] | None = None) -> Path:
    """Write the run's folder under ``root`` (JSON, Markdown, extra text files) and return it.

    A second run stamped in the same second gets a numbered folder instead of overwriting.
    """
    folder = root / run.folder_name
    number = 1
    while folder.exists():
        number += 1
        folder = root / f"{run.folder_name}-{number}"
    folder.mkdir(parents=True)
    (folder / RESULT_JSON).write_text(run.model_dump_json(indent=2) + "\n", encoding="utf-8")
    (folder / RESULT_MD).write_text(markdown, encoding="utf-8")
    for name, content in (files or {}).items():
        if Path(name).name != name:
            raise ValueError(f"result file names may not contain folders: {name!r}")
        (folder / name).write_text(content, encoding="utf-8")
    return folder


def load_run(path: Path) -> EvalRun:
    """Load a run from its folder or its ``result.json``.

    Raises:
        ValueError: when the path holds no readable run.
    """
    file = path / RESULT_JSON if path.is_dir() else path
    try:
        return EvalRun.model_validate_json(file.read_bytes())
    except OSError as exc:
        raise ValueError(f"{file}: {exc.strerror or exc}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "top level"
        raise ValueError(f"{file}: not a triqua eval result ({where}: {first['msg']})") from None


@dataclass
class Comparison:
    """The headline metrics of two runs side by side, and why they may not be comparable."""

    rows: list[tuple[str, float | int | None, float | int | None, float | None]]
    warnings: list[str] = field(default_factory=list)


def compare_runs(a: EvalRun, b: EvalRun) -> Comparison:
    """Headline metrics of ``a`` and ``b`` with ``b - a``; warns when the stamps differ.

    Metrics are listed in ``a``'s order, then those only ``b`` has. The difference is
    ``None`` when either value is missing.
    """
    warnings = []
    if a.eval != b.eval:
        warnings.append(f"different evaluations: {a.eval} vs {b.eval}")
    if a.spec_hash != b.spec_hash:
        warnings.append(f"different specs: {a.spec_hash[:8]} vs {b.spec_hash[:8]}")
    for role in sorted(set(a.models) | set(b.models)):
        if a.models.get(role) != b.models.get(role):
            warnings.append(f"{role}: {a.models.get(role)} vs {b.models.get(role)}")
    data_a = [d.sha256 for d in a.data]
    data_b = [d.sha256 for d in b.data]
    if data_a != data_b:
        warnings.append("different data files (sha256 differs)")
    if a.options != b.options:
        changed = sorted(
            k for k in set(a.options) | set(b.options) if a.options.get(k) != b.options.get(k)
        )
        warnings.append(f"different options: {', '.join(changed)}")
    names = list(a.headline) + [k for k in b.headline if k not in a.headline]
    rows = []
    for name in names:
        x, y = a.headline.get(name), b.headline.get(name)
        delta = None if x is None or y is None else float(y) - float(x)
        rows.append((name, x, y, delta))
    return Comparison(rows=rows, warnings=warnings)
