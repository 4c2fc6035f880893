"""The REPL's run folders, one per worker, in the temporary folder. Each is named after the host
process that made it (pid and start time), so the folders a killed host left behind are removed by
the next host to start a worker."""

from __future__ import annotations

import functools
import os
import shutil
import tempfile

PREFIX = "longread-repl-"


def create() -> str:
    """A new run folder holding an empty `work` folder. Others may pass through it (a worker that
    dropped root reaches its work folder by path) but not list it; files in it are the owner's."""
    me = os.getpid()
    run_dir = tempfile.mkdtemp(prefix=f"{PREFIX}{me}-{_started(me)}-")
    os.chmod(run_dir, 0o711)
    os.mkdir(os.path.join(run_dir, "work"), 0o755)
    return run_dir


def remove(run_dir: str) -> None:
    shutil.rmtree(run_dir, ignore_errors=True)


@functools.cache
def sweep() -> list[str]:
    """Remove the run folders of hosts that are gone (once per process); the folders removed."""
    removed = []
    root = tempfile.gettempdir()
    for name in os.listdir(root):
        if not name.startswith(PREFIX):
            continue
        pid, started = _owner(name)
        if pid is not None and not _alive(pid, started):
            remove(os.path.join(root, name))
            removed.append(name)
    return removed


def _owner(name: str) -> tuple[int | None, str]:
    parts = name[len(PREFIX) :].split("-")
    return (int(parts[0]), parts[1]) if len(parts) >= 3 and parts[0].isdigit() else (None, "")


def _alive(pid: int, started: str) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # someone else's process: alive
    return _started(pid) == started  # the pid may have been reused since


def _started(pid: int) -> str:
    """The process's start time in clock ticks since boot (0 where /proc does not tell)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[19].decode()
    except (OSError, IndexError):
        return "0"
