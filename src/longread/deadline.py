"""A deadline for work the host does on model code's behalf. The REPL sets one around each tool
call (the cell's time limit, or the run's if sooner); long loops (regex searches, scans) call
`check()`, and regex engines that take a timeout are given `remaining()`. Beside it, a stop for
the whole process (`request_stop`, when a signal comes): every deadline counts as passed, model
calls and cells end, a local model stops generating."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from longread.errors import BudgetExceededError

_deadline: ContextVar[float | None] = ContextVar("longread_deadline", default=None)
_stop = threading.Event()
_stopped_by: list[tuple[str, int]] = []  # (why, the exit code it calls for), once set


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


def request_stop(why: str, exit_code: int) -> None:
    """End every run of this process as soon as each can (a signal came)."""
    if not _stop.is_set():
        _stopped_by.append((why, exit_code))
        _stop.set()


def stop_requested() -> tuple[str, int] | None:
    """(why, exit code) once a stop was requested, else None."""
    return _stopped_by[0] if _stop.is_set() else None


def end_if_stopped() -> None:
    """Raise BudgetExceededError (limit `signal`) once a stop was requested: the run ends as a
    spent budget ends it, its answer so far kept."""
    if _stop.is_set():
        raise BudgetExceededError(
            f"budget exceeded: the run was stopped ({_stopped_by[0][0]})", "signal"
        )


def check() -> None:
    """Raise DeadlineExceeded once the deadline has passed (or a stop was requested)."""
    if _stop.is_set():
        raise DeadlineExceeded(f"the run was stopped ({_stopped_by[0][0]})")
    when = _deadline.get()
    if when is not None and time.monotonic() >= when:
        raise DeadlineExceeded(
            "the cell's time limit was reached during a search; narrow the pattern or the range"
        )
