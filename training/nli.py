"""Training pairs from the shared NLI corpora (SNLI, MultiNLI, FEVER-symmetric).

``nli/pairs.jsonl`` of the data folder (``$TRIQUA_DATA``, else ``../shared/data``) holds
premise/hypothesis pairs with the judge's own labels (0 entailed, 1 neutral, 2
contradicted); its README names each source's repository, commit and licence. Each row
becomes a pair whose source kind names its corpus
(``nli-snli``, ``nli-mnli``, ``nli-fever``) and whose split is held out by premise: rows
that share a premise or a hypothesis (FEVER-symmetric pairs each claim with two pieces of
evidence, and its synthetic evidence with the claim and its counterpart) fall in one group,
and the group's hash puts all of them in train, dev or test, so no test premise or claim
is ever trained on.

Rows marked ``binary`` (a source that only says entailed vs not entailed) keep their label
and the flag: "not entailed" may be neutral or contradicted, so ``train.py`` scores them on
entailed vs not only (the loss of the entailed probability against the other two summed),
never as "neutral".
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

from triqua.evals.data import eval_data_dir

NLI = eval_data_dir() / "nli" / "pairs.jsonl"
#: Source kind of each corpus of the shared file.
KINDS = {
    "snli-dev": "nli-snli",
    "snli-test": "nli-snli",
    "mnli-dev-m": "nli-mnli",
    "fever-sym": "nli-fever",
}
#: Share of the hash range (of 256) held out as test and dev per kind. FEVER-symmetric is
#: small (1,087 rows) and is the one set of real claims against Wikipedia sentences, so a
#: larger share of it is kept for reporting. A corpus not named here gets SNLI's shares.
HELD = {"nli-snli": (38, 26), "nli-mnli": (38, 26), "nli-fever": (77, 26)}


def _bucket(text: str) -> int:
    """A stable byte (0-255) of ``text``'s hash, so the split does not move between runs."""
    return hashlib.sha1(("nli-split" + text).encode("utf-8")).digest()[0]


def _groups(rows: list[dict]) -> list[str]:
    """Per row, the key of its group: rows sharing a premise or a hypothesis, joined."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for row in rows:
        a, b = find("p:" + row["premise"]), find("h:" + row["hypothesis"])
        if a != b:
            parent[max(a, b)] = min(a, b)
    return [find("p:" + row["premise"]) for row in rows]


def split_of(kind: str, group: str) -> str:
    """Train, dev or test for a group of ``kind``, by its hash."""
    test, dev = HELD.get(kind, (38, 26))
    b = _bucket(group)
    return "test" if b < test else "dev" if b < test + dev else "train"


def nli_pairs(path: Path = NLI) -> Iterator[dict[str, object]]:
    """Rows of the shared NLI file as training pairs, split by premise group."""
    rows = [json.loads(line) for line in path.open(encoding="utf-8")]
    for row, group in zip(rows, _groups(rows), strict=True):
        kind = KINDS.get(row["source"], "nli-" + row["source"].split("-")[0])
        out: dict[str, object] = {
            "premise": row["premise"].strip(),
            "hypothesis": row["hypothesis"].strip(),
            "label": int(row["label"]),
            "split": split_of(kind, group),
            "source": f"{kind}:{row['source']}",
        }
        if row.get("binary"):
            out["binary"] = True
        yield out
