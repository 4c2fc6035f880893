"""The runs the run viewer shows: each question's events as the trace records them (root turns,
code and output, sub-calls with prompt, reply, seconds and tokens), kept in memory for the
server's life (the newest `limit`), or read from a trace file for `longread trace view`."""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from longread.errors import InputError
from longread.events import Event, EventSink
from longread.text.cut import truncate_middle

MAX_EVENTS = 5_000  # of one run (a run past it keeps its first ones and counts the rest)
MAX_RUN_CHARS = 2_000_000  # of one run's events, as JSON (so 100 runs hold at most ~200 MB)
MAX_FIELD_CHARS = 20_000  # of one text of an event (a reply, code, output), cut in the middle
MAX_TRACE_BYTES = 200 * 1024 * 1024  # the largest trace file `trace view` reads


@dataclass
class RecordedRun:
    """One question's run: its id, question and events (as the trace's JSON objects)."""

    id: str
    question: str
    started: float
    events: list[dict[str, Any]] = field(default_factory=list)
    dropped: int = 0
    chars: int = 0

    def add(self, event: dict[str, Any], chars: int) -> None:
        """Keep the event (`chars`: its size as JSON) while the run is within its bounds."""
        if len(self.events) < MAX_EVENTS and self.chars + chars <= MAX_RUN_CHARS:
            self.events.append(event)
            self.chars += chars
        else:
            self.dropped += 1

    def summary(self) -> dict[str, Any]:
        """The run in a line: its question, mode, calls, tokens, seconds and answer."""
        ends = [e for e in self.events if e.get("kind") == "llm_end"]
        mode = next((e.get("mode") for e in self.events if e.get("kind") == "mode"), None)
        final = next(
            (e.get("answer") for e in reversed(self.events) if e.get("kind") == "final"), None
        )
        last = self.events[-1]["t"] if self.events else self.started
        return {
            "id": self.id,
            "question": self.question,
            "started": self.started,
            "mode": mode,
            "calls": len(ends),
            "tokens": sum(e.get("input_tokens", 0) + e.get("output_tokens", 0) for e in ends),
            "seconds": round(max(0.0, last - self.started), 2),
            "answer": final,
            "events": len(self.events) + self.dropped,
        }


class RunLog:
    """The runs of this server (or of a trace file), newest last."""

    def __init__(self, limit: int = 100):
        self.limit = limit
        self._runs: OrderedDict[str, RecordedRun] = OrderedDict()
        self._count = 0
        self._lock = threading.Lock()

    def start(self, question: str) -> EventSink:
        """Record a new run: the sink its events go to."""
        with self._lock:
            run = self._opened(question, time.time())
            while len(self._runs) > self.limit:
                self._runs.popitem(last=False)

        def record(event: Event) -> None:
            kept, chars = bounded(event.to_dict())
            with self._lock:
                run.add(kept, chars)

        return record

    def list(self) -> list[dict[str, Any]]:
        """Every run in a line, newest first."""
        with self._lock:
            return [run.summary() for run in reversed(self._runs.values())]

    def get(self, run_id: str) -> dict[str, Any] | None:
        """The run with all its events, or None."""
        with self._lock:
            run = self._runs.get(run_id)
            return None if run is None else {**run.summary(), "timeline": list(run.events)}

    @classmethod
    def from_trace(cls, path: Path) -> RunLog:
        """The runs of a JSONL trace (a `run` event starts each; a trace without one is one
        run). Lines that are not JSON objects are skipped and counted in a `notice` event."""
        try:
            if path.stat().st_size > MAX_TRACE_BYTES:
                raise InputError(f"{path} is over {MAX_TRACE_BYTES >> 20} MB: not a trace to view")
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError as error:
            raise InputError(f"cannot read {path}: {error.strerror or error}") from None
        log, run, bad = cls(limit=max(100, len(lines))), None, 0
        for line in lines:
            try:
                event = json.loads(line)
            except ValueError:
                event = None
            if not isinstance(event, dict) or not isinstance(event.get("kind"), str):
                bad += line.strip() != ""
                continue
            if run is None or event["kind"] == "run":
                question = str(event.get("question", "(a run without its question)"))
                run = log._opened(question, float(event.get("t", 0) or 0))
            run.add(*bounded(event))
        if run is None:
            raise InputError(f"{path} holds no trace events")
        if bad:
            notice = {"t": run.started, "kind": "notice", "text": f"{bad} unreadable lines skipped"}
            run.events.append(notice)
        return log

    def _opened(self, question: str, started: float) -> RecordedRun:
        self._count += 1
        run_id = f"run-{self._count}"
        run = self._runs[run_id] = RecordedRun(run_id, question, started)
        return run


def bounded(event: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The event as JSON values, each text cut to MAX_FIELD_CHARS, and its size as JSON."""
    kept = {
        key: truncate_middle(value, MAX_FIELD_CHARS) if isinstance(value, str) else value
        for key, value in event.items()
    }
    text = json.dumps(kept, default=str)
    return json.loads(text), len(text)
