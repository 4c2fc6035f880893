"""Work shared with forked copies of this process. A copy starts with this process's memory
(a 400 MB text is not copied, nor pickled), so it suits work over data already loaded. Forking is
done only where the system forks and this process runs no other thread but waiting ones (see
`start_waiting_thread`): a fork copies none of the other threads, and a lock one of them holds
would stay held in the copy."""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from functools import partial
from multiprocessing import get_all_start_methods, get_context
from multiprocessing.connection import Connection
from typing import Any, Generic, TypeVar, cast
from weakref import WeakSet

T = TypeVar("T")
R = TypeVar("R")
_WAITING: WeakSet[threading.Thread] = WeakSet()


def fork_safe() -> bool:
    """Whether a child forked from this process starts sound: fork exists, and Ray's native core
    was never loaded here (a child inherits its threads and state half-copied, running or shut
    down: workers crashed in `_raylet.so`, and a pool forked after `ray.shutdown()` broke)."""
    return "fork" in get_all_start_methods() and "ray._raylet" not in sys.modules


def can_fork() -> bool:
    """Whether this process may fork copies of itself safely now: no other thread running but
    waiting ones."""
    main = threading.main_thread()
    return fork_safe() and all(t is main or t in _WAITING for t in threading.enumerate())


def start_waiting_thread(target: Callable[[], None], name: str) -> None:
    """Start a daemon thread that spends its life waiting in a system call and holds no lock
    between its waits (such as a signal watcher): one the process may fork beside."""
    thread = threading.Thread(target=target, name=name, daemon=True)
    _WAITING.add(thread)
    thread.start()


def settle_copy() -> None:
    """In a forked copy of this process: its signals made its own. Interrupts are for the process
    that forked it (which stops it); SIGTERM and SIGHUP end it; and the wakeup descriptor it
    inherited (the signal watcher's of the command line) is let go, else a signal sent to the copy
    would be read by the forking process as its own."""
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for stop in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(stop, signal.SIG_DFL)


def cores() -> int:
    """The cores this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity else os.cpu_count() or 1


class Forked(Generic[R]):
    """function() running in a forked copy of this process (which ignores interrupts: the
    process that forked it stops it)."""

    def __init__(self, function: Callable[[], R]):
        context = get_context("fork")
        self._pipe, theirs = context.Pipe(duplex=False)
        self._process = context.Process(target=_answer, args=(function, theirs), daemon=True)
        self._process.start()
        theirs.close()

    def result(self) -> R:
        """What function() returned, once it has; what it raised is raised here."""
        try:
            done, value = self._pipe.recv()
        except EOFError:
            self._process.join()
            ended = f"ended without an answer (exit code {self._process.exitcode})"
            raise OSError(f"a forked copy of this process {ended}") from None
        finally:
            self._process.join()
            self._pipe.close()
        if not done:
            raise value
        return cast(R, value)

    def stop(self) -> None:
        """End the copy if it still runs (its answer no longer wanted), and release it."""
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()
        self._pipe.close()


def forked_map(function: Callable[[T], R], items: Sequence[T]) -> list[R]:
    """function(item) for each item, in order: all but the last in forked copies of this process
    and the last here, at once; one after another here where forking cannot be done safely. What
    a copy raises is raised here; an interrupt stops the copies."""
    if len(items) < 2 or not can_fork():
        return [function(item) for item in items]
    copies = [Forked(partial(function, item)) for item in items[:-1]]
    try:
        last = function(items[-1])
        return [copy.result() for copy in copies] + [last]
    finally:
        for copy in copies:
            copy.stop()


def _answer(function: Callable[[], Any], pipe: Connection) -> None:
    """In a copy: send (True, the result) or (False, what was raised)."""
    settle_copy()
    try:
        pipe.send((True, function()))
    except Exception as error:
        pipe.send((False, error))
