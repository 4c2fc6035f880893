"""Turn a model spec string (`local`, `local:qwen2.5-coder-1.5b`, `openai:gpt-4o-mini`,
`azure:my-deployment`, `anthropic:claude-sonnet-4-5`) into a client."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from longread.errors import MissingAPIKeyError, ModelSpecError
from longread.llm.base import LM

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
    provider, _, name = spec.strip().partition(":")
    provider = provider.lower()
    builders = {"openai": _openai, "azure": _azure, "anthropic": _anthropic}
    if provider == "local":
        return _local(name)
    if provider not in builders:
        raise ModelSpecError(f"unknown model spec '{spec}'; {SPEC_HELP}")
    if not name:
        raise ModelSpecError(f"model spec '{spec}' names no model; {SPEC_HELP}")
    return builders[provider](name, options)


def _local(name: str) -> LM:
    from longread.llm.local import LocalLM
    from longread.llm.local_models import DEFAULT_LOCAL, local_model_info, model_path

    if name.endswith(".gguf"):
        path = Path(name).expanduser()
        if not path.is_file():
            raise ModelSpecError(f"no GGUF model file at {path}")
        return LocalLM(path, name=f"local:{path.name}", writes_code=True)
    info = local_model_info(name or DEFAULT_LOCAL)
    return LocalLM(model_path(info), name=f"local:{info.key}", writes_code=info.writes_code)


def _openai(model: str, options: ClientOptions) -> LM:
    import openai

    from longread.llm.openai_client import OpenAILM

    base_url = options.base_url or os.environ.get("OPENAI_BASE_URL")
    api_key = options.api_key or os.environ.get("OPENAI_API_KEY")
    if not api_key:
        if not base_url:
            raise MissingAPIKeyError(
                f"openai:{model} needs OPENAI_API_KEY "
                "(or --base-url for a local OpenAI-compatible server)"
            )
        api_key = "not-needed"  # local servers (llama.cpp, vLLM, Ollama) accept any key
    client = openai.OpenAI(
        api_key=api_key, base_url=base_url, max_retries=0, timeout=options.timeout
    )
    return OpenAILM(model, client)


def _azure(deployment: str, options: ClientOptions) -> LM:
    import openai

    from longread.llm.openai_client import OpenAILM

    api_key = options.api_key or os.environ.get("AZURE_OPENAI_API_KEY")
    endpoint = options.base_url or os.environ.get("AZURE_OPENAI_ENDPOINT")
    version = os.environ.get("OPENAI_API_VERSION")
    missing = [
        n
        for n, v in (
            ("AZURE_OPENAI_API_KEY", api_key),
            ("AZURE_OPENAI_ENDPOINT", endpoint),
            ("OPENAI_API_VERSION", version),
        )
        if not v
    ]
    if missing or endpoint is None:
        raise MissingAPIKeyError(f"azure:{deployment} needs {', '.join(missing)}")
    client = openai.AzureOpenAI(
        api_key=api_key,
        azure_endpoint=endpoint,
        api_version=version,
        max_retries=0,
        timeout=options.timeout,
    )
    return OpenAILM(deployment, client, name=f"azure:{deployment}")


def _anthropic(model: str, options: ClientOptions) -> LM:
    import anthropic

    from longread.llm.anthropic_client import AnthropicLM

    api_key = options.api_key or os.environ.get("ANTHROPIC_API_KEY")
    if not api_key:
        raise MissingAPIKeyError(f"anthropic:{model} needs ANTHROPIC_API_KEY")
    client = anthropic.Anthropic(
        api_key=api_key, base_url=options.base_url, max_retries=0, timeout=options.timeout
    )
    return AnthropicLM(model, client)
