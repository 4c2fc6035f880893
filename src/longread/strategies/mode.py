"""What a mode declares about itself, once, in its own file under `strategies/declared/`: its
name, what it does, the questions it serves, its runner for each kind of source it answers about
and whether its answer's `[n]` marks are its citations' numbers. Light on purpose: listing the
modes (for `--help`, for checking a `--mode`) loads no strategy; a runner is imported when a
question is answered with it."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

SOURCE_KINDS = ("context", "texts", "document", "corpus")  # what a mode may answer about


@dataclass(frozen=True)
class Mode:
    """A strategy. `runners`: for each kind of source it reads (`context`: a str, dict or list in
    memory; `texts`: documents in memory; `document`: an indexed file; `corpus`: an indexed
    folder), the `module:function` answering `(question, source, run) -> Answer`. `order` places
    it in lists (lowest first). `seconds`: its default wall-clock budget, with a root model on
    this machine's CPU and with a hosted one (a run given no `--max-seconds` stops there, its
    answer so far printed)."""

    name: str
    summary: str
    serves: str
    runners: dict[str, str]
    cites_by_number: bool = False
    order: int = 100
    seconds: tuple[float, float] = (600.0, 900.0)

    def __post_init__(self) -> None:
        unknown = set(self.runners) - set(SOURCE_KINDS)
        if unknown or not self.runners:
            raise ValueError(f"mode {self.name}: runners for {sorted(unknown)} (not a source kind)")

    def runner(self, kind: str) -> Callable[[str, Any, Any], Any]:
        """The function answering about this kind of source (imported now)."""
        module, _, function = self.runners[kind].partition(":")
        found: Callable[[str, Any, Any], Any] = getattr(importlib.import_module(module), function)
        return found
