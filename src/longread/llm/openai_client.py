"""OpenAI SDK client: OpenAI, Azure OpenAI, and any OpenAI-compatible server (vLLM, Ollama,
llama.cpp server, LM Studio) through `base_url`."""

from __future__ import annotations

from typing import Any

import openai

from longread.errors import ModelError
from longread.llm.base import LM, TransientModelError
from longread.llm.types import Completion, Request

_TRANSIENT = (
    openai.RateLimitError,
    openai.APITimeoutError,
    openai.APIConnectionError,
    openai.InternalServerError,
)


def _retry_after(error: Exception) -> float | None:
    response = getattr(error, "response", None)
    value = response.headers.get("retry-after") if response is not None else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


class OpenAILM(LM):
    reads_images = True  # (the server may still refuse them: a model that reads none)
    """Chat completions through the official SDK. The SDK's own retries are off: the gateway
    retries."""

    def __init__(
        self,
        model: str,
        client: openai.OpenAI,
        *,
        name: str | None = None,
        context_window: int = 128_000,
    ):
        self.model = model
        self.client = client
        self.name = name or f"openai:{model}"
        self.context_window = context_window
        self._schema_style = "json_schema"  # switches to llama.cpp's style if a server rejects it

    def _response_format(self, schema: dict[str, Any]) -> dict[str, Any]:
        if self._schema_style == "json_schema":
            return {
                "type": "json_schema",
                "json_schema": {"name": "reply", "schema": schema, "strict": False},
            }
        return {"type": "json_object", "schema": schema}

    def _create(self, request: Request) -> Any:
        kwargs = {"model": self.model, **request.chat_kwargs()}
        if request.json_schema is not None:
            kwargs["response_format"] = self._response_format(request.json_schema)
        if request.timeout is not None:
            kwargs["timeout"] = max(request.timeout, 0.1)
        return self.client.chat.completions.create(**kwargs)

    def _rejects_schema_style(self, request: Request, error: openai.APIStatusError) -> bool:
        """Whether a server refused OpenAI's `json_schema` response format (llama.cpp's server wants
        `json_object` with a `schema`, and answers 500 rather than 400)."""
        return (
            request.json_schema is not None
            and self._schema_style == "json_schema"
            and (error.status_code in (400, 422) or "response_format" in str(error))
        )

    def complete(self, request: Request) -> Completion:
        try:
            try:
                response = self._create(request)
            except openai.APIStatusError as error:
                if not self._rejects_schema_style(request, error):
                    raise
                self._schema_style = "json_object"
                response = self._create(request)
        except _TRANSIENT as error:
            raise TransientModelError(f"{self.name}: {error}", _retry_after(error)) from error
        except openai.AuthenticationError as error:
            raise ModelError(
                f"{self.name}: the server refused the API key ({error.status_code})"
            ) from error
        except openai.APIStatusError as error:
            raise ModelError(f"{self.name}: HTTP {error.status_code}: {error.message}") from error
        choice = response.choices[0]
        text = choice.message.content or ""
        usage = response.usage
        return Completion(
            text=text,
            input_tokens=usage.prompt_tokens if usage else self.count_tokens(str(request.messages)),
            output_tokens=usage.completion_tokens if usage else self.count_tokens(text),
            model=self.name,
        )
