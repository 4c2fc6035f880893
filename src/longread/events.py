"""Progress events emitted by every long operation, and a JSONL trace that records them."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO


@dataclass
class Event:
    """One step of a run: `kind` says what happened, `data` the details, `depth` the RLM nesting level."""

    kind: str
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
