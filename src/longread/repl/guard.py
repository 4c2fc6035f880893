"""The worker's audit hook. It protects nothing (model code can remove it): the kernel does that
(`confine.py`). It turns what the kernel would refuse with a bare "Permission denied" into a
message saying what the sandbox does not allow: writing files, reads outside Python's own files,
network use, new processes and signals to other processes."""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Iterable

_PROCESS_EVENTS = frozenset(
    {
        "subprocess.Popen",
        "os.system",
        "os.exec",
        "os.spawn",
        "os.posix_spawn",
        "os.fork",
        "os.forkpty",
        "pty.spawn",
        "os.startfile",
    }
)
_NETWORK_EVENTS = frozenset(
    {
        "socket.connect",
        "socket.bind",
        "socket.sendto",
        "socket.sendmsg",
        "socket.getaddrinfo",
        "socket.gethostbyname",
        "socket.gethostbyaddr",
    }
)
_PATH_WRITE_EVENTS = frozenset(
    {
        "os.remove",
        "os.rmdir",
        "os.mkdir",
        "os.chmod",
        "os.chown",
        "os.truncate",
        "os.utime",
        "os.link",
        "os.symlink",
        "os.rename",
        "shutil.rmtree",
        "shutil.move",
        "shutil.copyfile",
        "shutil.copytree",
        "os.chflags",
        "os.setxattr",
        "os.removexattr",
    }
)
_DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random")
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


class SandboxViolation(PermissionError):
    """Raised inside model code for something the sandbox does not allow."""


def _real(path: object) -> str | None:
    if isinstance(path, int):
        return None
    try:
        return os.path.realpath(os.fsdecode(path))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return ""


def _inside(path: str, roots: Iterable[str]) -> bool:
    return any(path == root or path.startswith(root.rstrip("/") + "/") for root in roots)


def _is_write(mode: object, flags: object) -> bool:
    if isinstance(mode, str):
        return any(c in mode for c in "wax+")
    return isinstance(flags, int) and bool(flags & _WRITE_FLAGS)


def install(read_roots: Iterable[str]) -> None:
    """Install the hook (for the rest of this process's life; hooks cannot be removed)."""
    readable = tuple(os.path.realpath(r) for r in (*read_roots, *_DEVICES) if r)
    me = os.getpid()

    def refuse(what: str) -> None:
        raise SandboxViolation(f"sandbox: {what} is not allowed")

    def hook(event: str, args: tuple) -> None:
        if event == "open":
            path = _real(args[0])
            if path is None:
                return
            if _is_write(args[1], args[2] if len(args) > 2 else None) and path != "/dev/null":
                refuse(f"writing {args[0]!r} (nothing is writable here: keep results in variables)")
            elif not _inside(path, readable):
                refuse(f"reading {args[0]!r}")
        elif event in _PATH_WRITE_EVENTS:
            refuse(f"{event} (nothing is writable here)")
        elif event in _PROCESS_EVENTS:
            refuse(f"starting a process ({event})")
        elif event in _NETWORK_EVENTS or (event == "socket.__new__" and args[1] != socket.AF_UNIX):
            refuse(f"network access ({event})")
        elif event in ("os.kill", "os.killpg") and args and args[0] not in (me, 0):
            refuse("sending signals to other processes")
        elif event in ("resource.setrlimit", "resource.prlimit"):
            refuse(event)

    sys.addaudithook(hook)
