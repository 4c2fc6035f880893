"""ScriptedLM: a deterministic stand-in model for tests only. Never chosen by a model spec."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable

from longread.llm.base import LM
from longread.llm.types import Completion, Request

Reply = str | Exception | Callable[[Request], str]


class ScriptedLM(LM):
    """Replies from a script: a list consumed in order (strings, exceptions to raise, or functions
    of the request), or one function answering every request. Records every request it gets."""

    def __init__(
        self,
        replies: Iterable[Reply] | Callable[[Request], str],
        *,
        latency: float = 0.0,
        writes_code: bool = True,
        context_window: int = 32_000,
        name: str = "scripted:test",
        writes_queries: bool = False,
        reads_images: bool = False,
    ):
        self._responder = replies if callable(replies) else None
        self._script = [] if callable(replies) else list(replies)
        self.latency = latency
        self.writes_code = writes_code
        self.context_window = context_window
        self.name = name
        self.writes_queries = writes_queries
        self.reads_images = reads_images
        self.requests: list[Request] = []
        self._lock = threading.Lock()

    def complete(self, request: Request) -> Completion:
        with self._lock:
            self.requests.append(request)
            reply: Reply = self._responder or (self._script.pop(0) if self._script else "")
        if self.latency:
            time.sleep(self.latency)
        if isinstance(reply, Exception):
            raise reply
        text = reply(request) if callable(reply) else reply
        prompt = " ".join(m["content"] for m in request.messages)
        return Completion(
            text=text,
            input_tokens=self.count_tokens(prompt),
            output_tokens=self.count_tokens(text),
            model=self.name,
        )
