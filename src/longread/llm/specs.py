"""Turn a model spec string (`local`, `local:qwen2.5-coder-1.5b`, `openai:gpt-4o-mini`,
`azure:my-deployment`, `anthropic:claude-sonnet-4-5`) into a client."""

from __future__ import annotations

import importlib
import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from longread.errors import MissingAPIKeyError, ModelSpecError
from longread.llm.base import LM

if TYPE_CHECKING:
    from longread.llm.local_models import LocalModelInfo

SPEC_HELP = (
    "use local, local:<name>, local:/path/model.gguf, openai:<model>, azure:<deployment> "
    "or anthropic:<model>"
)


@dataclass(frozen=True)
class ClientOptions:
    """Overrides for what the provider SDKs read from the environment."""

    base_url: str | None = None
    api_key: str | None = None
    timeout: float = 120.0


def resolve_model(spec: str, options: ClientOptions = ClientOptions()) -> LM:
    """Build the client a spec names; raise a one-line error for unknown specs or missing keys."""
    provider, name = _parse(spec)
    if provider == "local":
        return _local(name)
    return _BUILDERS[provider](name, options)


def check_spec(spec: str, options: ClientOptions = ClientOptions()) -> None:
    """Raise what resolve_model would for an unknown spec or a missing key, without loading an
    SDK or a model."""
    provider, name = _parse(spec)
    if provider == "local":
        _local_source(name)
    else:
        _SETTINGS[provider](name, options)


def preload(spec: str) -> None:
    """Start importing the SDK a spec needs on a thread of its own (one takes up to a second),
    with the part its first request imports, so that other work goes on meanwhile;
    resolve_model then finds it loaded, or waits for it."""
    modules = _SDKS.get(spec.strip().partition(":")[0].lower(), ())
    if modules and modules[-1] not in sys.modules:
        threading.Thread(target=_import_all, args=(modules,), daemon=True).start()


def _import_all(modules: tuple[str, ...]) -> None:
    for module in modules:
        importlib.import_module(module)


def _parse(spec: str) -> tuple[str, str]:
    """(provider, name) of a spec; ModelSpecError for an unknown provider or a missing name."""
    provider, _, name = spec.strip().partition(":")
    provider = provider.lower()
    if provider != "local" and provider not in _BUILDERS:
        raise ModelSpecError(f"unknown model spec '{spec}'; {SPEC_HELP}")
    if provider != "local" and not name:
        raise ModelSpecError(f"model spec '{spec}' names no model; {SPEC_HELP}")
    return provider, name


def _local_source(name: str) -> Path | LocalModelInfo:
    """A GGUF file's path, or the bundled or optional model a name means."""
    from longread.llm.local_models import DEFAULT_LOCAL, local_model_info

    if name.endswith(".gguf"):
        path = Path(name).expanduser()
        if not path.is_file():
            raise ModelSpecError(f"no GGUF model file at {path}")
        return path
    return local_model_info(name or DEFAULT_LOCAL)


def _local(name: str) -> LM:
    from longread.llm.local import LocalLM
    from longread.llm.local_models import model_path

    source = _local_source(name)
    if isinstance(source, Path):
        return LocalLM(source, name=f"local:{source.name}", writes_code=True)
    return LocalLM(
        model_path(source),
        name=f"local:{source.key}",
        writes_code=source.writes_code,
        chat_format=source.chat_format,
        prompt_cache_bytes=source.prompt_cache_bytes,
    )


def _openai_settings(model: str, options: ClientOptions) -> tuple[str, str | None]:
    """(api key, base url) for an OpenAI or OpenAI-compatible server."""
    base_url = options.base_url or os.environ.get("OPENAI_BASE_URL")
    api_key = options.api_key or os.environ.get("OPENAI_API_KEY")
    if not api_key:
        if not base_url:
            raise MissingAPIKeyError(
                f"openai:{model} needs OPENAI_API_KEY "
                "(or --base-url for a local OpenAI-compatible server)"
            )
        api_key = "not-needed"  # local servers (llama.cpp, vLLM, Ollama) accept any key
    return api_key, base_url


def _openai(model: str, options: ClientOptions) -> LM:
    api_key, base_url = _openai_settings(model, options)
    import openai

    from longread.llm.openai_client import OpenAILM

    client = openai.OpenAI(
        api_key=api_key, base_url=base_url, max_retries=0, timeout=options.timeout
    )
    return OpenAILM(model, client)


def _azure_settings(deployment: str, options: ClientOptions) -> tuple[str, str, str]:
    """(api key, endpoint, API version) for an Azure OpenAI deployment."""
    api_key = options.api_key or os.environ.get("AZURE_OPENAI_API_KEY")
    endpoint = options.base_url or os.environ.get("AZURE_OPENAI_ENDPOINT")
    version = os.environ.get("OPENAI_API_VERSION")
    if not (api_key and endpoint and version):
        missing = [
            n
            for n, v in (
                ("AZURE_OPENAI_API_KEY", api_key),
                ("AZURE_OPENAI_ENDPOINT", endpoint),
                ("OPENAI_API_VERSION", version),
            )
            if not v
        ]
        raise MissingAPIKeyError(f"azure:{deployment} needs {', '.join(missing)}")
    return api_key, endpoint, version


def _azure(deployment: str, options: ClientOptions) -> LM:
    api_key, endpoint, version = _azure_settings(deployment, options)
    import openai

    from longread.llm.openai_client import OpenAILM

    client = openai.AzureOpenAI(
        api_key=api_key,
        azure_endpoint=endpoint,
        api_version=version,
        max_retries=0,
        timeout=options.timeout,
    )
    return OpenAILM(deployment, client, name=f"azure:{deployment}")


def _anthropic_settings(model: str, options: ClientOptions) -> str:
    """The API key for Anthropic."""
    api_key = options.api_key or os.environ.get("ANTHROPIC_API_KEY")
    if not api_key:
        raise MissingAPIKeyError(f"anthropic:{model} needs ANTHROPIC_API_KEY")
    return api_key


def _anthropic(model: str, options: ClientOptions) -> LM:
    api_key = _anthropic_settings(model, options)
    import anthropic

    from longread.llm.anthropic_client import AnthropicLM

    client = anthropic.Anthropic(
        api_key=api_key, base_url=options.base_url, max_retries=0, timeout=options.timeout
    )
    return AnthropicLM(model, client)


_BUILDERS: dict[str, Callable[[str, ClientOptions], LM]] = {
    "openai": _openai,
    "azure": _azure,
    "anthropic": _anthropic,
}
_SETTINGS: dict[str, Callable[[str, ClientOptions], object]] = {
    "openai": _openai_settings,
    "azure": _azure_settings,
    "anthropic": _anthropic_settings,
}
# each SDK, then the module its client imports on the first request
_OPENAI = ("openai", "openai.resources.chat.completions")
_SDKS = {
    "openai": _OPENAI,
    "azure": _OPENAI,
    "anthropic": ("anthropic", "anthropic.resources.messages"),
}
