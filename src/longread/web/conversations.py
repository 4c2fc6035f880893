"""The web app's open conversations, by id: each about the documents its first question named,
answering one question at a time. A conversation (and its REPL) lives from question to question
until it has been idle `idle_seconds`, or, beyond `limit`, it is the least recently used."""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from longread.errors import InputError
from longread.strategies.conversation import Conversation


class UnknownConversationError(InputError):
    """A conversation id the server does not hold (ended, or never started here)."""


@dataclass
class _Open:
    about: tuple[str, ...]
    conversation: Conversation = field(default_factory=Conversation)
    busy: bool = False
    used: float = field(default_factory=time.monotonic)  # (when its last question ended)


IDLE_SECONDS = 1800.0  # a conversation untouched this long is closed


class Conversations:
    def __init__(self, limit: int = 32, idle_seconds: float = IDLE_SECONDS):
        self.limit = limit
        self.idle_seconds = idle_seconds
        self._open: OrderedDict[str, _Open] = OrderedDict()
        self._lock = threading.Lock()

    def check(self, conversation_id: str | None, about: list[str]) -> None:
        """Raise if a follow-up in `conversation_id` about `about` could not be answered."""
        if conversation_id is None:
            return
        with self._lock:
            held = self._open.get(conversation_id)
        if held is None:
            raise UnknownConversationError(
                "that conversation has ended on this server (restarted, or closed for newer "
                "ones): ask the question afresh"
            )
        if held.about != tuple(about):
            raise InputError("a follow-up must be about the documents of its conversation")

    @contextmanager
    def using(
        self, conversation_id: str | None, about: list[str]
    ) -> Iterator[tuple[str, Conversation]]:
        """The conversation (a new one for None) and its id, held for one question."""
        self.expire_idle()
        self.check(conversation_id, about)
        with self._lock:
            if conversation_id is None or conversation_id not in self._open:
                conversation_id = secrets.token_urlsafe(12)
                self._open[conversation_id] = _Open(tuple(about))
            held = self._open[conversation_id]
            if held.busy:
                raise InputError("this conversation is still answering its last question")
            held.busy = True
            self._open.move_to_end(conversation_id)
            evicted = self._evicted()
        for old in evicted:
            old.close()
        try:
            yield conversation_id, held.conversation
        finally:
            with self._lock:
                held.busy = False
                held.used = time.monotonic()

    def expire_idle(self) -> int:
        """Close the conversations idle for `idle_seconds` or more; how many were closed."""
        oldest = time.monotonic() - self.idle_seconds
        with self._lock:
            gone = [k for k, held in self._open.items() if not held.busy and held.used <= oldest]
            closed = [self._open.pop(key).conversation for key in gone]
        for conversation in closed:
            conversation.close()
        return len(closed)

    def _evicted(self) -> list[Conversation]:
        """The least recently used idle conversations beyond the limit, taken out (lock held)."""
        idle = [key for key, held in self._open.items() if not held.busy]
        gone = idle[: max(0, len(self._open) - self.limit)]
        return [self._open.pop(key).conversation for key in gone]

    def close(self) -> None:
        """Close every conversation (the server is stopping)."""
        with self._lock:
            held, self._open = list(self._open.values()), OrderedDict()
        for one in held:
            one.conversation.close()
