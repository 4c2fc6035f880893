"""Shared pieces of the attack tests (fixtures are in conftest.py): the two isolation set-ups every
attack runs under (the kernel's layers alone, then with bubblewrap's namespaces where bwrap is
found), the prelude that
switches off the worker's audit hook (so that only the kernel stands in the way), and a victim
process holding a secret."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from longread.repl import isolation

MODES = ("kernel", "bwrap")
VICTIM_SECRET = "sk-victim-secret-4f2a9c"

# Model code that disables the audit hook two ways seen in the attack review: replacing the guard
# module's globals, and rewriting the hook's closure cells found through gc.
GUARD_OFF = """
import gc, sys
_g = sys.modules["longread.repl.guard"]
_g._inside = lambda *a: True
_g._PROCESS_EVENTS = _g._NETWORK_EVENTS = _g._PATH_WRITE_EVENTS = frozenset()
for _f in gc.get_objects():
    if getattr(_f, "__qualname__", "") == "install.<locals>.hook":
        for _cell in _f.__closure__ or ():
            if getattr(_cell.cell_contents, "__name__", "") == "refuse":
                _cell.cell_contents = lambda what: None
"""
IMPORTS = "import ctypes, multiprocessing, os, resource, signal, socket, sqlite3, subprocess\n"


def attempt(action: str, report: str = "print") -> str:
    """Code that runs `action` and reports (calls `report` with) ESCAPED if it completes, BLOCKED
    and why if it raises."""
    return (
        IMPORTS + "try:\n" + textwrap.indent(action, "    ") + f"\n    {report}('ESCAPED')\n"
        "except BaseException as error:\n"
        f"    {report}(f'BLOCKED {{type(error).__name__}} {{error}}')\n"
    )


def unconfined(code: str) -> str:
    """Run `code` in a plain Python process, as the host would without a sandbox (the control
    showing that an attack's code does what it claims when nothing stops it)."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    return done.stdout + done.stderr


@contextmanager
def isolation_mode(mode: str) -> Iterator[None]:
    """Within the block, workers start in `mode` (skipped when bwrap is not found)."""
    previous = os.environ.get("LONGREAD_BWRAP")
    os.environ["LONGREAD_BWRAP"] = "off" if mode == "kernel" else "auto"
    try:
        if mode == "bwrap" and isolation.bwrap() is None:
            pytest.skip("bubblewrap is not installed here")
        yield
    finally:
        if previous is None:
            os.environ.pop("LONGREAD_BWRAP", None)
        else:
            os.environ["LONGREAD_BWRAP"] = previous


# Runs a command, then says on its last line of stderr the command's peak memory (KB) and its exit
# code, or "timeout" when it was killed for running past its limit.
_MEASURED = (
    "import resource, subprocess, sys\n"
    "try:\n"
    "    code = subprocess.run(sys.argv[2:], timeout=float(sys.argv[1])).returncode\n"
    "except subprocess.TimeoutExpired:\n"
    "    code = 'timeout'\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, code, file=sys.stderr)\n"
)


def measured(
    args: list[str], cwd: Path, timeout: float = 240, **env: str
) -> tuple[subprocess.CompletedProcess, float]:
    """(the run of `args`, its peak resident memory in MB): stderr is the command's own; the
    return code is None when it ran past `timeout` seconds (it is then killed)."""
    done = subprocess.run(
        [sys.executable, "-c", _MEASURED, str(timeout), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, **env},
        timeout=timeout + 60,
    )
    *said, last = done.stderr.rstrip("\n").split("\n")
    peak_kb, code = last.split()
    returncode = None if code == "timeout" else int(code)
    return subprocess.CompletedProcess(args, returncode, done.stdout, "\n".join(said)), int(
        peak_kb
    ) / 1024
