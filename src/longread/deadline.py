"""A deadline for work the host does on model code's behalf. The REPL sets one around each tool
call (the cell's time limit, or the run's if sooner); long loops (regex searches, scans) call
`check()`, and regex engines that take a timeout are given `remaining()`."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_deadline: ContextVar[float | None] = ContextVar("longread_deadline", default=None)


class DeadlineExceeded(TimeoutError):
    """Host-side work ran past the time its cell (or run) was given."""


@contextmanager
def until(when: float | None) -> Iterator[None]:
    """Within the block, work must end by `when` (a `time.monotonic()` value; None: no limit)."""
    token = _deadline.set(when)
    try:
        yield
    finally:
        _deadline.reset(token)


def current() -> float | None:
    """The deadline in force (a `time.monotonic()` value), or None."""
    return _deadline.get()


def remaining() -> float | None:
    """Seconds left before the deadline (never below 0), or None without one."""
    when = _deadline.get()
    return None if when is None else max(0.0, when - time.monotonic())


def check() -> None:
    """Raise DeadlineExceeded once the deadline has passed."""
    when = _deadline.get()
    if when is not None and time.monotonic() >= when:
        raise DeadlineExceeded(
            "the cell's time limit was reached during a search; narrow the pattern or the range"
        )
