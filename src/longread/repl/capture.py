"""Bounded output capture: keeps the head and the tail of what a cell prints, counts the rest."""

from __future__ import annotations

import io
from collections import deque

from longread.text.cut import cut_note


class CappedText(io.TextIOBase):
    """A text stream that stores at most `limit` characters: the first half and the latest half."""

    def __init__(self, limit: int):
        self.head_limit = limit // 2
        self.tail_limit = limit - self.head_limit
        self._head: list[str] = []
        self._head_size = 0
        self._tail: deque[str] = deque()
        self._tail_size = 0
        self.total = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        text = str(text)
        self.total += len(text)
        if self._head_size < self.head_limit:
            room = self.head_limit - self._head_size
            self._head.append(text[:room])
            self._head_size += min(room, len(text))
            text = text[room:]
        if text:
            self._tail.append(text[-self.tail_limit :])
            self._tail_size += min(len(text), self.tail_limit)
            while self._tail and self._tail_size - len(self._tail[0]) >= self.tail_limit:
                self._tail_size -= len(self._tail.popleft())
        return self.total

    def getvalue(self) -> str:
        head = "".join(self._head)
        tail = "".join(self._tail)
        if len(tail) > self.tail_limit:
            tail = tail[len(tail) - self.tail_limit :]
        cut = self.total - len(head) - len(tail)
        return head + (cut_note(cut) if cut > 0 else "") + tail
