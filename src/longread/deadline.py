"""A deadline for work the host does on model code's behalf: the REPL sets one around each tool
call (the cell's time limit, or the run's if sooner); long loops (regex searches, scans) call
`check()`, and regex engines that take a timeout are given `remaining()`. A question being
answered has one too (`answering`: its time budget), for the work done for the question itself
(records found on first need, in a process of their own, ended by it). Beside them, a stop for
the whole process (`request_stop`, when a signal comes): every deadline counts as passed, model
calls and cells end, a local model stops generating."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from longread.errors import BudgetExceededError

SEARCHING = "the cell's time limit was reached during a search; narrow the pattern or the range"
_deadline: ContextVar[float | None] = ContextVar("longread_deadline", default=None)
_question: ContextVar[float | None] = ContextVar("longread_question_deadline", default=None)
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


@contextmanager
def answering(when: float | None) -> Iterator[None]:
    """Within the block a question is answered that must end by `when` (None: no limit): work
    the host does for the question itself, beyond any cell's (records found on first need), ends
    by then; searches and model calls keep to the run's budget as they do."""
    token = _question.set(when)
    try:
        yield
    finally:
        _question.reset(token)


def current(question: bool = False) -> float | None:
    """The deadline in force (a `time.monotonic()` value), or None; with `question`, the sooner
    of it and the deadline of the question being answered."""
    held = [t for t in (_deadline.get(), _question.get() if question else None) if t is not None]
    return min(held) if held else None


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


def check(during: str = SEARCHING, question: bool = False) -> None:
    """Raise DeadlineExceeded (saying `during`) once the deadline has passed (`question`: the
    question's too), or a stop was requested."""
    if _stop.is_set():
        raise DeadlineExceeded(f"the run was stopped ({_stopped_by[0][0]})")
    when = current(question)
    if when is not None and time.monotonic() >= when:
        raise DeadlineExceeded(during)


def as_spent(error: DeadlineExceeded, seconds: float | None) -> BudgetExceededError:
    """A question's deadline passed in work of the host's (no answer reached): its time budget
    spent."""
    if stop_requested() is not None:
        return BudgetExceededError(f"budget exceeded: {error}", "signal")
    budget = f"time budget of {seconds:g} s" if seconds is not None else "time limit"
    return BudgetExceededError(f"budget exceeded: the {budget} is used up: {error}", "max_seconds")
