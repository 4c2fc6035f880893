"""A run's events as the stream's messages: the phases INIT, CHUNK, SUBCALL, AGGREGATE, RESPOND,
each sent once and in that order (a phase a mode has no use for is sent as skipped), sub-call
starts and ends with their chunk id, and log lines for the terminal panel."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from longread.events import Event
from longread.llm.usage import Purpose

PHASES = ("INIT", "CHUNK", "SUBCALL", "AGGREGATE", "RESPOND")
ROOT_CALLS = frozenset(
    {
        Purpose.ROOT,
        Purpose.ROOT_FINAL,
        Purpose.BASE,
        Purpose.RETRIEVAL,
        Purpose.JOIN,
        Purpose.STATE,
        Purpose.REWRITE,
        Purpose.ROUTE,
        Purpose.RECALL,
    }
)
LINE_CHARS = 160  # a log line's longest shown detail

Send = Callable[[str, dict[str, Any]], None]


def _short(text: object) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= LINE_CHARS else flat[: LINE_CHARS - 1] + "…"


class Progress:
    """An event sink (for the run and its gateway) that sends stream messages through `send`."""

    def __init__(self, send: Send):
        self.send = send
        self.at = -1  # index in PHASES of the last phase sent
        self.started = time.monotonic()
        self._lock = threading.Lock()  # sub-calls report from several threads

    def log(self, line: str) -> None:
        self.send("log", {"line": line, "t": round(time.monotonic() - self.started, 2)})

    def phase(self, name: str, detail: str = "") -> None:
        """Enter phase `name`, first sending any phase before it that was not reached as skipped."""
        with self._lock:
            target = PHASES.index(name)
            while self.at < target:
                self.at += 1
                current = PHASES[self.at]
                self.send(
                    "phase",
                    {
                        "name": current,
                        "skipped": current != name,
                        "detail": detail if current == name else "",
                    },
                )
                if current == name:
                    self.log(f"── {name}" + (f": {detail}" if detail else ""))

    def __call__(self, event: Event) -> None:
        handler = getattr(self, f"_on_{event.kind}", None)
        if handler is not None:
            handler(event.data)

    def _on_mode(self, data: dict[str, Any]) -> None:
        self.log(f"mode {data['mode']}: {data['reason']}")

    def _on_phase(self, data: dict[str, Any]) -> None:
        name = data.get("name")
        if name == "MAP":
            self.log(f"map: reading {data['chunks']} passages chosen by relevance")
        elif name == "RETRIEVE":
            self.log(
                f"retrieve: the best {len(data['chunks'])} of {data['total']} passages: "
                f"{_short(', '.join(data['chunks']))}"
            )
        elif name in ("AGGREGATE", "RESPOND"):
            self.phase(name)
        elif name == "STATE" and data.get("shape"):
            self.phase("AGGREGATE", f"a {data['shape']}: each step searched for and stated")
        elif name == "STATE":
            self.phase("AGGREGATE", "a short answer stated from the findings' passages")
        elif name == "REWRITE":
            self.log("rewrite pass")
        elif name == "RECALL":
            self.log(
                f"recall: answered from {data['passages']} passages earlier answers cited"
                if data["answered"]
                else f"recall: read afresh, as {data['why']}"
            )
        elif name == "VERIFY":
            self.log(
                f"verify: the sub-model judges {data['claims']} claims against their citations"
            )

    def _on_llm_start(self, data: dict[str, Any]) -> None:
        purpose, label = data["purpose"], data.get("label")
        if purpose in ROOT_CALLS:
            self.log(f"root model {data['model']}: {purpose}…")
            return
        self.phase("SUBCALL")
        self.send("subcall", {"status": "start", "chunk_id": label, "purpose": purpose})
        self.log(f"sub-call {label or purpose} started")

    def _on_llm_end(self, data: dict[str, Any]) -> None:
        purpose, label = data["purpose"], data.get("label")
        cached = " (cached)" if data.get("cached") else ""
        if purpose in ROOT_CALLS:
            self.log(f"root model replied in {data['seconds']:.1f} s{cached}")
            return
        self.send(
            "subcall",
            {
                "status": "end",
                "chunk_id": label,
                "purpose": purpose,
                "seconds": data["seconds"],
                "reply": _short(data["reply"]),
            },
        )
        self.log(f"sub-call {label or purpose} done in {data['seconds']:.1f} s{cached}")

    def _on_llm_retry(self, data: dict[str, Any]) -> None:
        self.log(
            f"retry {data['attempt']} of a {data['purpose']} call in {data['delay']} s: "
            f"{_short(data['error'])}"
        )

    def _on_root_turn(self, data: dict[str, Any]) -> None:
        self.log(f"rlm turn {data['turn']}: {_short(data['reply'])}")

    def _on_code(self, data: dict[str, Any]) -> None:
        self.log(f"run code: {_short(data['code'])}")

    def _on_output(self, data: dict[str, Any]) -> None:
        self.log(f"output: {_short(data['output'])}")

    def _on_route(self, data: dict[str, Any]) -> None:
        self.log(f"route: {_short(', '.join(data['picked']))}")

    def _on_final(self, _: dict[str, Any]) -> None:
        self.phase("RESPOND")
