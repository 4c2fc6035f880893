"""Patterns RE2 cannot run (backreferences, lookaround) run in a helper process, so a wall-clock
limit holds whatever they do: no thread can be stopped in the middle of a match, but a process
can be killed. Past its time the helper is killed, and the next such search starts another."""

from __future__ import annotations

import multiprocessing
import threading
from multiprocessing.connection import Connection
from typing import Any

MAX_MATCHES = 100_000  # returned by one search of one text

Found = list[tuple[int, int, str]]


def _serve(conn: Connection) -> None:
    """The helper: (pattern, text) in, its case-insensitive matches out, until the pipe closes."""
    import regex

    compiled: dict[str, Any] = {}
    while True:
        try:
            pattern, text = conn.recv()
        except EOFError:
            return
        if pattern not in compiled:
            compiled[pattern] = regex.compile(pattern, regex.IGNORECASE | regex.V0)
        found: Found = []
        for m in compiled[pattern].finditer(text):
            found.append((m.start(), m.end(), m.group(0)))
            if len(found) >= MAX_MATCHES:
                break
        conn.send(found)


class _Helper:
    """One helper process and its end of the pipe."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")  # (the host has threads: no fork)
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs,), daemon=True)
        self.process.start()
        theirs.close()

    def kill(self) -> None:
        self.process.kill()
        self.process.join()
        self.conn.close()


_lock = threading.Lock()  # (one search at a time: such patterns are rare)
_helper: _Helper | None = None


def slow_matches(pattern: str, text: str, seconds: float) -> Found:
    """The matches of `pattern` in `text`, found by the helper within `seconds` of wall time
    (the wait for another search included); TimeoutError past them, the helper killed."""
    global _helper
    if not _lock.acquire(timeout=max(seconds, 0.0)):
        raise TimeoutError
    try:
        if _helper is None or not _helper.process.is_alive():
            _helper = _Helper()
        _helper.conn.send((pattern, text))
        if not _helper.conn.poll(max(seconds, 0.0)):
            _helper.kill()
            _helper = None
            raise TimeoutError
        found: Found = _helper.conn.recv()
        return found
    finally:
        _lock.release()
