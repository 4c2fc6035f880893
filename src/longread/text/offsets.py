"""Several texts laid end to end in one offset space, a fixed gap apart: where each starts, and
which one an offset falls in."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from itertools import accumulate


class JoinedOffsets:
    """The start of each of texts of the given `lengths`, joined with `gap` characters between."""

    def __init__(self, lengths: Sequence[int], gap: int):
        self.starts = (
            list(accumulate((length + gap for length in lengths[:-1]), initial=0))
            if lengths
            else []
        )

    def index_at(self, offset: int) -> int:
        """The text holding a joint offset (the one before it, for a gap)."""
        return max(0, bisect.bisect_right(self.starts, offset) - 1)

    def locate(self, offset: int) -> tuple[int, int]:
        """(text index, offset in that text) of a joint offset."""
        at = self.index_at(offset)
        return at, offset - self.starts[at]


class JoinedTexts:
    """Named texts of known lengths laid end to end, one newline apart (a corpus as one text): a
    read of [start, end) of the whole reads the parts it spans."""

    GAP = "\n"

    def __init__(self, names: Sequence[str], lengths: Sequence[int]):
        self.names = {name: number for number, name in enumerate(names)}
        self._order, self._lengths = list(names), list(lengths)
        self._offsets = JoinedOffsets(lengths, len(self.GAP))
        self.length = sum(lengths) + len(self.GAP) * max(0, len(lengths) - 1)

    def locate(self, offset: int) -> tuple[str, int]:
        """(name of the text, offset in it) of a joint offset."""
        number, local = self._offsets.locate(offset)
        return self._order[number], local

    def read(self, start: int, end: int, read_one: Callable[[str, int, int], str]) -> str:
        """Characters [start, end) of the whole; `read_one(name, start, end)` reads one text."""
        at, end, parts = max(0, start), min(end, self.length), []
        while at < end:
            number, offset = self._offsets.locate(at)
            if offset >= self._lengths[number]:  # in the gap after this text
                parts.append(self.GAP)
                at += len(self.GAP)
                continue
            stop = min(self._lengths[number], offset + end - at)
            parts.append(read_one(self._order[number], offset, stop))
            at += stop - offset
        return "".join(parts)
