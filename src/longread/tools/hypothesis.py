"""The shared hypothesis that slice-by-slice refinement improves."""

from __future__ import annotations


class HypothesisTracker:
    """The current hypothesis and every earlier version, oldest first."""

    def __init__(self) -> None:
        self.current = ""
        self.history: list[str] = []

    def update(self, new_hypothesis: str) -> str:
        """Replace the hypothesis, keeping the previous one in the history."""
        if self.current:
            self.history.append(self.current)
        self.current = str(new_hypothesis)
        return self.current
