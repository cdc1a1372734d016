"""Chat-model providers: which package each 'provider:' prefix needs and how to install it.

One table, so that every message about a missing provider names the right install command
(the README's install table lists the same extras).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

__all__ = ["PROVIDERS", "Provider", "install_command", "missing_provider_error", "provider_of"]


@dataclass(frozen=True)
class Provider:
    """A LangChain chat-model provider: its importable module, pip package and triqua extra."""

    module: str
    package: str
    extra: str | None = None

    @property
    def install(self) -> str:
        """The command that installs this provider's package."""
        if self.extra:
            return f"pip install 'triqua[{self.extra}]'"
        return f"pip install {self.package}"


#: Provider prefix of ``--model provider:model`` → what it needs. Prefixes with an extra
#: are the ones the README's install table lists; the others name their package.
PROVIDERS: dict[str, Provider] = {
    "openai": Provider("langchain_openai", "langchain-openai", "openai"),
    "azure_openai": Provider("langchain_openai", "langchain-openai", "openai"),
    "anthropic": Provider("langchain_anthropic", "langchain-anthropic", "anthropic"),
    "ollama": Provider("langchain_ollama", "langchain-ollama", "ollama"),
    "google_genai": Provider("langchain_google_genai", "langchain-google-genai", "google"),
    "mistralai": Provider("langchain_mistralai", "langchain-mistralai", "mistral"),
    "groq": Provider("langchain_groq", "langchain-groq", "groq"),
    "bedrock": Provider("langchain_aws", "langchain-aws"),
    "bedrock_converse": Provider("langchain_aws", "langchain-aws"),
    "cohere": Provider("langchain_cohere", "langchain-cohere"),
    "deepseek": Provider("langchain_deepseek", "langchain-deepseek"),
    "fireworks": Provider("langchain_fireworks", "langchain-fireworks"),
    "google_vertexai": Provider("langchain_google_vertexai", "langchain-google-vertexai"),
    "huggingface": Provider("langchain_huggingface", "langchain-huggingface"),
    "together": Provider("langchain_together", "langchain-together"),
    "xai": Provider("langchain_xai", "langchain-xai"),
}


def provider_of(spec: str) -> str | None:
    """The provider prefix of a 'provider:model' spec, or None when it has none."""
    prefix, sep, _ = spec.partition(":")
    return prefix.strip().lower() if sep else None


def install_command(provider: str) -> str | None:
    """The install command for ``provider``'s package, or None for an unknown provider."""
    known = PROVIDERS.get(provider)
    return known.install if known else None


def missing_provider_error(spec: str) -> str | None:
    """A one-line error when ``spec``'s provider package is not installed, else None.

    Checked before LangChain imports it: for 'ollama' LangChain would otherwise fall back
    to a langchain-community class that no longer exists and fail with an AttributeError.
    """
    name = provider_of(spec)
    known = PROVIDERS.get(name or "")
    if known is None or importlib.util.find_spec(known.module) is not None:
        return None
    return f"model {spec!r} needs the {known.package} package: {known.install}"
