"""Several texts laid end to end in one offset space, a fixed gap apart: where each starts, and
which one an offset falls in."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
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
