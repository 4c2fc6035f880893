"""Starting REPL worker processes: a worker's process, its run folder and pipes, started and
waiting for the init message with which it confines itself; one may be started ahead
(`prespawn`) for the next sandbox to take; and killing one, its folder removed."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from longread.repl import isolation, rundirs


def _clean_env(work: str) -> dict[str, str]:
    """The worker's whole environment: nothing inherited, so no API keys or other secrets."""
    return {
        "HOME": work,
        "TMPDIR": work,
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONIOENCODING": "utf-8",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def kill(process: subprocess.Popen, run_dir: str, fds: tuple[int, ...]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)  # (a process stuck in the kernel is left to it, not waited for)
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)
    rundirs.remove(run_dir)
    _SPAWNER.ended()


class _Spawner:
    """Starts worker processes from a thread of its own, which lasts while any worker it started
    lives: a worker dies with the thread that started it (PR_SET_PDEATHSIG, in the worker and in
    bubblewrap), and a conversation's REPL, started by one request's thread, must outlive that
    thread. With no worker left the thread ends, so the process may fork again (`can_fork`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self._live = 0
        self._here = threading.local()

    def popen(self, *args: Any, **kwargs: Any) -> subprocess.Popen:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(
                    1, "longread-spawner", initializer=setattr, initargs=(self._here, "on", True)
                )
            self._live += 1
            pool = self._pool
        try:
            return pool.submit(subprocess.Popen, *args, **kwargs).result()
        except BaseException:
            self.ended()
            raise

    def ended(self) -> None:
        """One worker this started is gone."""
        with self._lock:
            self._live -= 1
            if self._live or self._pool is None:
                return
            pool, self._pool = self._pool, None
        pool.shutdown(wait=not getattr(self._here, "on", False))  # (its own thread cannot wait)


_SPAWNER = _Spawner()


@dataclass
class Worker:
    """A worker process started and waiting for its init message (its policy, tools and context):
    nothing is confined yet, and it runs no code until it has confined itself."""

    process: subprocess.Popen
    run_dir: str
    cmd: int
    reply: int
    bwrap: str | None
    startup_log: str
    finalizer: weakref.finalize = field(init=False)

    def __post_init__(self) -> None:
        self.finalizer = weakref.finalize(
            self, kill, self.process, self.run_dir, (self.cmd, self.reply)
        )

    @classmethod
    def spawn(cls) -> Worker:
        rundirs.sweep()
        run_dir = rundirs.create()
        cmd_r, cmd_w = os.pipe()
        reply_r, reply_w = os.pipe()
        bwrap = isolation.bwrap()
        startup_log = os.path.join(run_dir, "startup.log")
        try:
            with open(
                os.open(startup_log, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb"
            ) as log:
                # (the worker's stderr until it is ready; then it points it at /dev/null)
                process = _SPAWNER.popen(
                    isolation.worker_command(run_dir, (cmd_r, reply_w), bwrap),
                    pass_fds=(cmd_r, reply_w),
                    cwd=isolation.work_dir(run_dir),
                    env=_clean_env(isolation.work_dir(run_dir)),
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=log,
                    start_new_session=True,
                )
        except BaseException:
            for fd in (cmd_r, cmd_w, reply_r, reply_w):
                os.close(fd)
            rundirs.remove(run_dir)
            raise
        os.close(cmd_r)
        os.close(reply_w)
        os.set_blocking(cmd_w, False)  # writes have deadlines: a worker that stops reading
        return cls(process, run_dir, cmd_w, reply_r, bwrap, startup_log)  # cannot hold us


_spare: list[Worker] = []
_spare_lock = threading.Lock()


def prespawn() -> None:
    """Start a worker process now, for the next Sandbox to take: its start (a second Python,
    its imports, bubblewrap's namespaces) then overlaps with other work, such as loading a model
    SDK. One at most waits; it is killed at exit if no Sandbox took it."""
    with _spare_lock:
        if not _spare:
            _spare.append(Worker.spawn())


def take_spare() -> Worker | None:
    with _spare_lock:
        worker = _spare.pop() if _spare else None
    if worker is not None and worker.process.poll() is not None:
        worker.finalizer()
        return None
    return worker
