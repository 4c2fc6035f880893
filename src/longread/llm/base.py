"""The one model protocol every provider implements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from longread.errors import ModelError
from longread.llm.types import Completion, Message, Request


class TransientModelError(ModelError):
    """A failure worth retrying: rate limit (429), server error (5xx), timeout, dropped
    connection."""

    def __init__(self, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.retry_after = retry_after


class LM(ABC):
    """A chat model. `name` is its spec (e.g. `openai:gpt-4o-mini`); `writes_code` says whether it
    can drive the code-writing RLM loop; `context_window` is in tokens; `on_cpu` says that each
    call costs seconds of this machine's CPU, one at a time (a local model); `writes_queries`
    whether it writes a counting question's query itself (None: as `query_writer` decides)."""

    name: str = "lm"
    context_window: int = 8192
    writes_code: bool = True
    on_cpu: bool = False
    writes_queries: bool | None = None  # writes a counting question's SQL (None: see query_writer)
    reads_images: bool = False  # may be sent pictures (a request's `images`)

    @abstractmethod
    def complete(self, request: Request) -> Completion:
        """Send one request and return the reply; raise TransientModelError for retryable
        failures."""

    def cancel_pending(self) -> None:
        """Drop the calls this model has queued elsewhere (such as on a cluster); none here."""
        return None

    def count_tokens(self, text: str) -> int:
        """Tokens in `text`: the provider's tokenizer where we have it, else about four chars a
        token."""
        return len(text) // 4 + 1

    def count_prompt(self, messages: Sequence[Message]) -> int:
        """Tokens a request of these messages sends: their text and a few per message for the
        chat template."""
        return sum(self.count_tokens(m["content"]) + 4 for m in messages)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
