"""What a run cost: model calls, tokens and searches per role, and money when prices are set.

Costs are computed from a saved report (its ``usage_by_role`` and the models its spec names)
rather than stored in it: prices change and belong to whoever reads the report, while the
counts the report carries are facts of the run. Prices come from a JSON or TOML file, passed
in or named by the ``TRIQUA_PRICES`` environment variable.

When a provider reports no token usage, :func:`estimate_tokens` counts tokens with the
vendored MiniLM WordPiece tokenizer (no download), and the counts are marked as estimated.
"""

from __future__ import annotations

import functools
import json
import os
import re
import threading
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field, ValidationError

from triqua.schema import Report, Usage

if TYPE_CHECKING:
    from tokenizers import Tokenizer

__all__ = [
    "PRICES_ENV",
    "CostSummary",
    "ModelPrice",
    "Prices",
    "RoleCost",
    "cost_summary",
    "estimate_tokens",
    "load_prices",
    "prices_from_env",
]

#: Environment variable naming a prices file (JSON or TOML).
PRICES_ENV = "TRIQUA_PRICES"

#: Roles in the order reports show them; any other role follows, sorted by name.
ROLE_ORDER = ("decompose", "verify", "refine", "search")

_TOKENIZER_PATH = Path(__file__).parents[2] / "models" / "data" / "minilm_tokenizer.json"
_TOKENIZER_LOCK = threading.Lock()
_RETRIEVER_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


@functools.cache
def _tokenizer() -> Tokenizer:
    """The vendored WordPiece tokenizer, without the truncation and padding its file declares."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(_TOKENIZER_PATH))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def estimate_tokens(text: str) -> int:
    """Count the WordPiece tokens of ``text`` (no special tokens): an estimate of LLM tokens.

    Providers tokenize differently (BPE vocabularies, chat templates, tool schemas), so this
    is a stand-in used only when a provider reports no usage; it is marked as estimated.
    """
    if not text:
        return 0
    tokenizer = _tokenizer()
    with _TOKENIZER_LOCK:
        return len(tokenizer.encode(text, add_special_tokens=False).ids)


class ModelPrice(BaseModel):
    """Price of one model, per million tokens."""

    input_per_million: float = Field(ge=0.0, description="Price of 1M input tokens.")
    output_per_million: float = Field(ge=0.0, description="Price of 1M output tokens.")


class Prices(BaseModel):
    """Prices for models (by name) and searches (by retriever name), in one currency.

    Model names match a role's model revision exactly (``ChatOpenAI:gpt-4o-mini``), or by the
    name after the last ``:`` on either side (``gpt-4o-mini`` or ``openai:gpt-4o-mini``).
    Retriever names match the leading name of the run's retriever revision (``tavily``,
    ``chroma``, ``supplied``).
    """

    currency: str = "USD"
    models: dict[str, ModelPrice] = Field(default_factory=dict)
    searches: dict[str, float] = Field(
        default_factory=dict, description="Price of one search call, per retriever name."
    )

    def model_price(self, revision: str) -> ModelPrice | None:
        """The price of the model behind ``revision``, or ``None`` when none is configured."""
        if revision in self.models:
            return self.models[revision]
        name = revision.rsplit(":", 1)[-1]
        for key, price in self.models.items():
            if key.rsplit(":", 1)[-1] == name:
                return price
        return None

    def search_price(self, retriever: str) -> float | None:
        """The price of one search with ``retriever``, or ``None`` when none is configured.

        A combined retriever (``chroma:x then tavily/…``) cannot split its calls between its
        parts, so the highest configured price of its parts is used (an upper bound).
        """
        found = [
            self.searches[name]
            for part in retriever.split(" then ")
            if (match := _RETRIEVER_NAME.match(part.strip()))
            and (name := match.group()) in self.searches
        ]
        return max(found) if found else None


def load_prices(path: str | Path) -> Prices:
    """Read prices from a JSON or TOML file (by suffix; ``.toml`` is TOML, anything else JSON).

    Raises:
        ValueError: ``"<path>: <why>"`` when the file is missing, malformed or invalid.
    """
    file = Path(path).expanduser()
    try:
        raw = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"{file}: cannot read prices ({exc.strerror or exc})") from None
    try:
        data: Any = tomllib.loads(raw) if file.suffix.lower() == ".toml" else json.loads(raw)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{file}: malformed prices file ({exc})") from None
    try:
        return Prices.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "top level"
        raise ValueError(f"{file}: invalid prices at {where}: {first['msg']}") from None


def prices_from_env() -> Prices | None:
    """Prices from the file named by ``TRIQUA_PRICES``, or ``None`` when it is unset."""
    path = os.environ.get(PRICES_ENV)
    return load_prices(path) if path else None


class RoleCost(BaseModel):
    """What one role spent, and its price when one is configured."""

    role: str
    model: str | None = Field(default=None, description="Model or retriever revision.")
    model_calls: int = 0
    search_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    tokens_estimated: bool = False
    cost: float | None = Field(default=None, description="Money spent; None when unpriced.")


class CostSummary(BaseModel):
    """Costs of a run: per role and in total; money only when every spend has a price."""

    roles: list[RoleCost] = Field(default_factory=list)
    model_calls: int = 0
    search_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    tokens_estimated: bool = False
    cost: float | None = Field(default=None, description="Total money; None if any is unpriced.")
    currency: str | None = None
    unpriced: list[str] = Field(default_factory=list, description="Models/retrievers unpriced.")


def _role_key(role: str) -> tuple[int, str]:
    return (ROLE_ORDER.index(role), "") if role in ROLE_ORDER else (len(ROLE_ORDER), role)


def _price_role(
    role: str, usage: Usage, revision: str | None, prices: Prices
) -> tuple[float | None, str | None]:
    """(money, unpriced name) for one role's usage under ``prices``."""
    cost = 0.0
    if usage.model_calls or usage.input_tokens or usage.output_tokens:
        price = prices.model_price(revision) if revision else None
        if price is None:
            return None, revision or f"{role} model"
        cost += usage.input_tokens * price.input_per_million / 1e6
        cost += usage.output_tokens * price.output_per_million / 1e6
    if usage.search_calls:
        per_search = prices.search_price(revision) if revision else None
        if per_search is None:
            return None, revision or f"{role} retriever"
        cost += usage.search_calls * per_search
    return cost, None


def cost_summary(
    report: Report,
    prices: Prices | None = None,
    *,
    extra_usage: Mapping[str, Usage] | None = None,
) -> CostSummary:
    """Summarise what ``report``'s run cost, per role (decompose, verify, refine, search).

    Args:
        report: The run's report; its ``usage_by_role`` and ``spec.models`` are read.
        prices: Prices to turn usage into money; without them money stays ``None``.
        extra_usage: Usage spent after the run on the report (e.g. citation checks), per
            role; a role named like a spec model role is priced with that model.
    """
    by_role = dict(report.usage_by_role)
    for role, usage in (extra_usage or {}).items():
        by_role[role] = by_role.get(role, Usage()) + usage
    models = dict(report.spec.models)
    models.setdefault("search", report.spec.retriever)
    models.setdefault("cite", models.get("verify", ""))
    roles: list[RoleCost] = []
    unpriced: list[str] = []
    for role in sorted(by_role, key=_role_key):
        usage = by_role[role]
        revision = models.get(role) or None
        cost: float | None = None
        if prices is not None:
            cost, missing = _price_role(role, usage, revision, prices)
            if missing and missing not in unpriced:
                unpriced.append(missing)
        roles.append(
            RoleCost(
                role=role,
                model=revision,
                model_calls=usage.model_calls,
                search_calls=usage.search_calls,
                input_tokens=usage.input_tokens,
                output_tokens=usage.output_tokens,
                tokens_estimated=usage.tokens_estimated,
                cost=cost,
            )
        )
    total = sum((role_usage for role_usage in by_role.values()), Usage())
    money = [r.cost for r in roles]
    return CostSummary(
        roles=roles,
        model_calls=total.model_calls,
        search_calls=total.search_calls,
        input_tokens=total.input_tokens,
        output_tokens=total.output_tokens,
        tokens_estimated=total.tokens_estimated,
        cost=None if prices is None or None in money else sum(c or 0.0 for c in money),
        currency=prices.currency if prices is not None else None,
        unpriced=unpriced,
    )
