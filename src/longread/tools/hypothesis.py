"""The shared hypothesis that slice-by-slice refinement improves."""

from __future__ import annotations

from collections import deque

from longread.text.cut import truncate_middle

MAX_HYPOTHESIS_CHARS = 20_000
MAX_HISTORY = 50


class HypothesisTracker:
    """The current hypothesis and the earlier versions (the last MAX_HISTORY), oldest first."""

    def __init__(self) -> None:
        self.current = ""
        self.history: deque[str] = deque(maxlen=MAX_HISTORY)

    def update(self, new_hypothesis: str) -> str:
        """Replace the hypothesis (its middle cut past MAX_HYPOTHESIS_CHARS), keeping the previous
        one in the history."""
        if self.current:
            self.history.append(self.current)
        self.current = truncate_middle(str(new_hypothesis), MAX_HYPOTHESIS_CHARS)
        return self.current
