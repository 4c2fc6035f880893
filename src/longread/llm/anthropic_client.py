"""Anthropic SDK client (Messages API)."""

from __future__ import annotations

import json
from typing import Any

import anthropic

from longread.errors import ModelError
from longread.llm.base import LM, TransientModelError
from longread.llm.types import Completion, Request

_TRANSIENT = (
    anthropic.RateLimitError,
    anthropic.APITimeoutError,
    anthropic.APIConnectionError,
    anthropic.InternalServerError,
)


class AnthropicLM(LM):
    reads_images = True
    """Claude models. System messages go to the `system` field; JSON replies are asked for in words
    (the JSON helper validates and retries)."""

    def __init__(self, model: str, client: anthropic.Anthropic, context_window: int = 200_000):
        self.model = model
        self.client = client
        self.name = f"anthropic:{model}"
        self.context_window = context_window

    def complete(self, request: Request) -> Completion:
        system = "\n\n".join(m["content"] for m in request.messages if m["role"] == "system")
        if request.json_schema is not None:
            system += "\n\nReply with one JSON value matching this schema, nothing else:\n"
            system += json.dumps(request.json_schema)
        kwargs: dict[str, Any] = {
            "model": self.model,
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "messages": _with_images(
                [m for m in request.messages if m["role"] != "system"], request
            ),
        }
        if system.strip():
            kwargs["system"] = system.strip()
        if request.stop:
            kwargs["stop_sequences"] = list(request.stop)
        if request.timeout is not None:
            kwargs["timeout"] = max(request.timeout, 0.1)
        try:
            response = self.client.messages.create(**kwargs)
        except _TRANSIENT as error:
            raise TransientModelError(f"{self.name}: {error}") from error
        except anthropic.APIStatusError as error:
            raise ModelError(f"{self.name}: HTTP {error.status_code}: {error.message}") from error
        text = "".join(block.text for block in response.content if block.type == "text")
        return Completion(
            text=text,
            input_tokens=response.usage.input_tokens,
            output_tokens=response.usage.output_tokens,
            model=self.name,
        )


def _with_images(messages: list[Any], request: Request) -> list[Any]:
    """The messages, the last one holding the request's images before its text (Claude's form)."""
    if not request.images:
        return messages
    blocks = [
        {"type": "image", "source": {"type": "base64", "media_type": i.media_type, "data": i.data}}
        for i in request.images
    ]
    last = messages[-1]
    return [
        *messages[:-1],
        {**last, "content": [*blocks, {"type": "text", "text": last["content"]}]},
    ]
