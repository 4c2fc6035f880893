"""The web app served by uvicorn with the bounds a server facing any client needs: a connection
that never finishes its headers (or its body) is closed, one client holds a bounded number of
connections, and the log is rate-limited, never a traceback for what a client did wrong."""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time
from collections import Counter
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0  # for a request's headers, from the connection on
KEEP_ALIVE_SECONDS = 15.0  # an idle kept-alive connection's life: longer than clients keep one
# idle (httpx 5 s, most), so that they drop it first: a server closing it as a request is sent
# on it fails that request
BODY_SECONDS = 300.0  # for its body, once the headers are in (a 50 MB upload on a slow link)
# How long a thread holds the interpreter while others wait (Python's default: 5 ms). The event
# loop waits this long, times the busy analysis threads, each time it takes the interpreter back.
SWITCH_SECONDS = 0.0005
PER_CLIENT = 64  # connections one address may hold open at once
LOG_BURST = 20  # log records let through per LOG_WINDOW seconds, per logger
LOG_WINDOW = 10.0


class BoundedH11(H11Protocol):
    """uvicorn's h11 protocol, each connection timed while its client sends, and counted."""

    open_per_client: Counter[str] = Counter()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self.timers: list[asyncio.TimerHandle] = []
        super().connection_made(transport)
        self.address = self.client[0] if self.client else ""
        BoundedH11.open_per_client[self.address] += 1
        if BoundedH11.open_per_client[self.address] > PER_CLIENT:
            transport.close()  # (one client cannot hold the server's connections)
            return
        self._watch(HEADER_SECONDS, h11.IDLE)

    def connection_lost(self, exc: Exception | None) -> None:
        for timer in self.timers:
            timer.cancel()
        BoundedH11.open_per_client[self.address] -= 1
        if BoundedH11.open_per_client[self.address] <= 0:
            del BoundedH11.open_per_client[self.address]
        super().connection_lost(exc)

    def handle_events(self) -> None:
        waiting = self.conn.their_state is h11.IDLE
        super().handle_events()
        if waiting and self.conn.their_state is h11.SEND_BODY:
            self._watch(BODY_SECONDS, h11.SEND_BODY)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch(KEEP_ALIVE_SECONDS, h11.IDLE)  # (the next request on a kept-alive connection)

    def _watch(self, seconds: float, state: object) -> None:
        """Close the connection if the client is still in `state` (an h11 state) after
        `seconds`."""
        watched = self.conn

        def expire() -> None:
            alive = not self.transport.is_closing()
            if alive and self.conn is watched and self.conn.their_state is state:
                self.transport.close()

        for timer in self.timers:  # (an earlier wait ends here: it must not fire later)
            timer.cancel()
        self.timers = [self.loop.call_later(seconds, expire)]


class RateLimited(logging.Filter):
    """At most LOG_BURST records a LOG_WINDOW per logger; none carries a traceback below ERROR
    (a client's fault is one line)."""

    def __init__(self) -> None:
        super().__init__()
        self.window: dict[str, tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        started, seen = self.window.get(record.name, (now, 0))
        if now - started > LOG_WINDOW:
            started, seen = now, 0
        self.window[record.name] = (started, seen + 1)
        if record.levelno < logging.ERROR:
            record.exc_info, record.exc_text = None, None
        return seen < LOG_BURST


def serve_app(app: Any, host: str, port: int) -> None:
    """Run `app` on host:port until interrupted, with these bounds."""
    import uvicorn

    sys.setswitchinterval(SWITCH_SECONDS)
    gc.collect()
    gc.freeze()  # (what the server started with lives as long as it: no collection rescans it)
    limit = RateLimited()
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "longread"):
        logging.getLogger(name).addFilter(limit)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        http=BoundedH11,
        timeout_keep_alive=int(KEEP_ALIVE_SECONDS),
    )
