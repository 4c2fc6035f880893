"""Plain data passed between strategies, the gateway and model clients."""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field
from typing import Any

Message = dict[str, str]  # {"role": "system" | "user" | "assistant", "content": "..."}


@dataclass(frozen=True)
class Image:
    """A picture sent with a request: its media type (`image/png`) and its bytes, base64."""

    media_type: str
    data: str

    @property
    def data_url(self) -> str:
        return f"data:{self.media_type};base64,{self.data}"


@dataclass(frozen=True)
class Request:
    """One chat completion request, independent of the provider."""

    messages: tuple[Message, ...]
    max_tokens: int = 1024
    temperature: float = 0.0
    json_schema: dict[str, Any] | None = None
    stop: tuple[str, ...] = ()
    timeout: float | None = (
        None  # seconds the provider may take (a REPL cell's time left); not cached
    )
    prose: bool = False  # a reply in words (not code, not JSON): a loop in it may end it early
    cancelled: threading.Event | None = None  # set when the run is cancelled; not cached
    images: tuple[Image, ...] = ()  # shown with the last message (a model that reads images)
    keep_prefix: bool = False  # the first message starts later prompts too: keep its evaluation
    grammar: str | None = None  # llama.cpp's GBNF the reply must follow (a local model's)

    def chat_kwargs(self) -> dict[str, Any]:
        """The arguments every chat-completions API shares."""
        messages: list[Any] = list(self.messages)
        if self.images:  # (the OpenAI form: the last message's text, then its images)
            parts = [{"type": "image_url", "image_url": {"url": i.data_url}} for i in self.images]
            last = messages[-1]
            messages[-1] = {**last, "content": [{"type": "text", "text": last["content"]}, *parts]}
        kwargs: dict[str, Any] = {
            "messages": messages,
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
        }
        if self.stop:
            kwargs["stop"] = list(self.stop)
        return kwargs

    def cache_fields(self) -> dict[str, Any]:
        return {
            "messages": list(self.messages),
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
            "json_schema": self.json_schema,
            "stop": list(self.stop),
            "images": [hashlib.sha256(i.data.encode()).hexdigest() for i in self.images],
            **({"grammar": self.grammar} if self.grammar else {}),
        }


@dataclass
class Completion:
    """A model's reply with the token counts the provider reported (or an estimate)."""

    text: str
    input_tokens: int
    output_tokens: int
    model: str = ""
    cached: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    # the model's own time on the call, where the client knows it better than the caller's clock
    # (a local model's time computing, not the time the call waited for the model)
    seconds: float | None = None
