"""Secrets never stored: one function that removes keys from any text a run keeps or shows.

Provider errors echo what they were sent ("Incorrect API key provided: sk-…"), and raw model
output can quote anything. Every error text and raw output passes through :func:`redact`
before it reaches a report, the run store, a checkpoint, the HTML or a log. It replaces

* the values of environment variables whose names end in ``_API_KEY``, ``_TOKEN``,
  ``_SECRET`` or ``_PASSWORD`` (4 characters or more; one under 8 characters is masked only
  where it stands as a whole word, so "test" never eats "latest"), read at each call, so a
  key set after start-up is covered too;
* secrets registered with :func:`register_secret` (keys passed in settings or to clients);
* common key shapes: ``sk-…`` / ``sk-ant-…`` (OpenAI, Anthropic), ``tvly-…`` (Tavily),
  ``hf_…``, ``gh?_…``, ``AIza…``, ``Bearer …`` and ``api_key=…`` style assignments,

with ``[redacted]``. :data:`RedactedText` applies it at the schema boundary: a pydantic field
of that type is redacted when set and again when dumped.
"""

from __future__ import annotations

import os
import re
import threading
from functools import lru_cache
from typing import Annotated

from pydantic import AfterValidator, PlainSerializer

__all__ = [
    "MASK",
    "OptionalRedactedText",
    "RedactedText",
    "error_text",
    "redact",
    "redact_optional",
    "register_secret",
    "register_secrets_of",
    "register_url_secrets",
    "secret_env_names",
]

MASK = "[redacted]"
#: Environment variable name endings whose values are secrets.
SECRET_ENV_SUFFIXES = ("_API_KEY", "_TOKEN", "_SECRET", "_PASSWORD")
#: Shorter values are not treated as secrets (they would mask ordinary words).
MIN_SECRET_LENGTH = 4
#: Secrets shorter than this are masked only as whole words.
_WHOLE_WORD_BELOW = 8

_REGISTERED: set[str] = set()
_LOCK = threading.Lock()

# Key shapes. Each ends at the first character that cannot be part of a key.
_SHAPES = re.compile(
    r"""
    \bsk-(?:ant-)?[A-Za-z0-9_\-*.]{12,}          # OpenAI, Anthropic (also partly masked)
    | \btvly-[A-Za-z0-9_\-]{8,}                  # Tavily
    | \bhf_[A-Za-z0-9]{20,}                      # Hugging Face
    | \bgh[pousr]_[A-Za-z0-9]{20,}               # GitHub
    | \bAIza[0-9A-Za-z_\-]{30,}                  # Google
    """,
    re.VERBOSE,
)
# "Bearer <token>" and "api_key=<value>" / "x-api-key: <value>": keep the name, mask the value.
_ASSIGNED = re.compile(
    r"""
    (?P<name>\bBearer\s+
      | \b(?:x-)?api[_-]?key["']?\s*[=:]\s*["']?
      | \b(?:access|auth|refresh)[_-]?token["']?\s*[=:]\s*["']?
      | \b(?:client[_-]?)?secret["']?\s*[=:]\s*["']?
      | \bpassword["']?\s*[=:]\s*["']?
    )
    (?!\[redacted\])                          # already masked: a second pass keeps it as is
    (?P<value>[^\s"'&,;)}\]]{4,})
    """,
    re.VERBOSE | re.IGNORECASE,
)


def register_secret(value: str | None) -> None:
    """Have :func:`redact` mask ``value`` from now on (values under 8 characters are ignored)."""
    if value and len(value.strip()) >= _WHOLE_WORD_BELOW:
        with _LOCK:
            _REGISTERED.add(value.strip())


def register_url_secrets(url: str | None) -> None:
    """Register the password and key-like query values of ``url`` (e.g. ``?api_key=…``)."""
    if not url:
        return
    from urllib.parse import parse_qsl, urlsplit

    try:
        parts = urlsplit(url)
        register_secret(parts.password)
        for name, value in parse_qsl(parts.query):
            if re.search(r"key|token|secret|password|auth", name, re.IGNORECASE):
                register_secret(value)
    except ValueError:  # not a URL: nothing to find in it
        return


def register_secrets_of(model: object) -> None:
    """Register every ``SecretStr`` field value of a pydantic model (a chat model's API key)."""
    from pydantic import BaseModel, SecretStr

    if not isinstance(model, BaseModel):
        return
    for name in type(model).model_fields:
        value = getattr(model, name, None)
        if isinstance(value, SecretStr):
            register_secret(value.get_secret_value())


def secret_env_names() -> list[str]:
    """Names of the environment variables whose values are treated as secrets."""
    return sorted(name for name in os.environ if name.upper().endswith(SECRET_ENV_SUFFIXES))


_SUFFIXES_BYTES = tuple(s.encode() for s in SECRET_ENV_SUFFIXES)


@lru_cache(maxsize=4)
def _secret_names(names: tuple[bytes, ...]) -> tuple[bytes, ...]:
    """The secret-named variables among ``names`` (the environment's names, as bytes)."""
    return tuple(name for name in names if name.upper().endswith(_SUFFIXES_BYTES))


def _env_secrets() -> list[str]:
    """Values of the secret-named environment variables.

    Read on every call (a key may be set after start-up). On POSIX the raw bytes mapping is
    read, and which names are secret is worked out once per set of names: this runs on every
    dump of a verdict.
    """
    raw = getattr(os.environ, "_data", None)
    if isinstance(raw, dict) and all(isinstance(k, bytes) for k in list(raw)[:1]):
        values = (raw.get(name, b"") for name in _secret_names(tuple(raw)))
        return [os.fsdecode(value) for value in values if len(value) >= MIN_SECRET_LENGTH]
    return [
        value
        for name, value in os.environ.items()
        if name.upper().endswith(SECRET_ENV_SUFFIXES) and len(value) >= MIN_SECRET_LENGTH
    ]


def _secrets() -> frozenset[str]:
    found = set(_env_secrets())
    with _LOCK:
        found |= _REGISTERED
    return frozenset(found)


@lru_cache(maxsize=8)
def _literal_pattern(secrets: frozenset[str]) -> re.Pattern[str]:
    # Longest first, so a secret that contains another is masked whole.
    alternatives = sorted(secrets, key=len, reverse=True)
    return re.compile(
        "|".join(
            re.escape(s) if len(s) >= _WHOLE_WORD_BELOW else rf"(?<!\w){re.escape(s)}(?!\w)"
            for s in alternatives
        )
    )


# Cheap substring tests that rule the patterns out for most texts (regexes with many
# alternatives cost a millisecond per kilobyte; ``in`` costs microseconds).
_SHAPE_HINTS = ("sk-", "tvly-", "hf_", "gh", "AIza")
_ASSIGNED_HINTS = ("bearer", "key", "token", "secret", "password")


def redact(text: str) -> str:
    """``text`` with every known secret and every key-shaped string replaced by ``[redacted]``."""
    if not text:
        return text
    present = frozenset(s for s in _secrets() if s in text)
    if present:
        text = _literal_pattern(present).sub(MASK, text)
    if any(hint in text for hint in _SHAPE_HINTS):
        text = _SHAPES.sub(MASK, text)
    lowered = text.lower()
    if any(hint in lowered for hint in _ASSIGNED_HINTS):
        text = _ASSIGNED.sub(lambda m: m.group("name") + MASK, text)
    return text


def redact_optional(text: str | None) -> str | None:
    """:func:`redact` that lets None through."""
    return None if text is None else redact(text)


def error_text(exc: BaseException) -> str:
    """An exception as ``'Type: message'``, redacted: the form errors are recorded in."""
    message = str(exc)
    return redact(f"{type(exc).__name__}: {message}" if message else type(exc).__name__)


#: A string redacted when a model is built or validated and again whenever it is dumped (so
#: values set without validation, e.g. by ``model_copy(update=...)``, are masked as well).
RedactedText = Annotated[str, AfterValidator(redact), PlainSerializer(redact, return_type=str)]
#: The optional form of :data:`RedactedText`.
OptionalRedactedText = Annotated[
    str | None,
    AfterValidator(redact_optional),
    PlainSerializer(redact_optional, return_type=str | None),
]
