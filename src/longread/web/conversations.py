"""The web app's open conversations, by id: each about the documents its first question named,
answering one question at a time; beyond `limit`, the least recently used is closed (its REPL
stopped)."""

from __future__ import annotations

import secrets
import threading
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


class Conversations:
    def __init__(self, limit: int = 32):
        self.limit = limit
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
