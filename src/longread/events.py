"""Progress events emitted by every long operation, and a JSONL trace that records them."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, TextIO


class EventKind(StrEnum):
    """What an event reports (the trace's `kind`; the CLI's progress and the web's stream read
    them)."""

    RUN = "run"  # a question's run begins: its question (a trace may hold several)
    MODE = "mode"  # the mode chosen, and why
    PHASE = "phase"  # a step of a fixed strategy (MAP, AGGREGATE, RESPOND...)
    PROGRESS = "progress"  # a long task: task, done, total
    LLM_START = "llm_start"
    LLM_END = "llm_end"
    LLM_RETRY = "llm_retry"
    ROOT_TURN = "root_turn"  # the rlm loop: the root model's reply
    CODE = "code"  # a code block about to run
    OUTPUT = "output"  # what it printed
    SANDBOX = "sandbox"  # the REPL worker's isolation layers
    WARNING = "warning"  # shown even when quiet (model code without OS isolation)
    NOTICE = "notice"
    CHUNK = "chunk"  # a passage given to the sub-model
    SLICE = "slice"
    ROUTE = "route"  # the tree walk's choice
    HYPOTHESIS = "hypothesis"
    FINAL = "final"


@dataclass
class Event:
    """One step of a run: `kind` says what happened, `data` the details, `depth` the RLM nesting
    level."""

    kind: EventKind
    data: dict[str, Any] = field(default_factory=dict)
    depth: int = 0
    t: float = field(default_factory=time.time)

    def to_dict(self) -> dict[str, Any]:
        return {"t": round(self.t, 3), "kind": self.kind, "depth": self.depth, **self.data}


EventSink = Callable[[Event], None]


def ignore(_: Event) -> None:
    """The sink used when nobody listens."""


def fan_out(*sinks: EventSink | None) -> EventSink:
    """One sink that forwards to several (None entries are skipped)."""
    live = [s for s in sinks if s is not None]

    def emit(event: Event) -> None:
        for sink in live:
            sink(event)

    return emit


class JsonlTrace:
    """Writes each event as one JSON line; usable as an event sink and as a context manager."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file: TextIO = self.path.open("w", encoding="utf-8")
        self._lock = threading.Lock()

    def __call__(self, event: Event) -> None:
        line = json.dumps(event.to_dict(), ensure_ascii=False, default=str)
        with self._lock:
            self._file.write(line + "\n")
            self._file.flush()

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> JsonlTrace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
