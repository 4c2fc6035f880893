"""What bench/faults.py's trials share: the tally of a kind of fault, the `longread` command with a
cache folder of its own, and the checks after a kill (SQLite files sound, no process left)."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import sys
import time
from collections import Counter
from contextlib import closing, suppress
from dataclasses import dataclass, field
from pathlib import Path

LONGREAD = str(Path(sys.executable).with_name("longread"))


@dataclass
class Trials:
    """What a kind of fault did over its trials."""

    name: str
    outcomes: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)

    def row(self) -> str:
        tried = sum(self.outcomes.values())
        shown = ", ".join(f"{n} {what}" for what, n in self.outcomes.most_common())
        return f"| {self.name} | {tried} | {shown} |"


def environment(cache: Path, **more: str) -> dict[str, str]:
    """A `longread` run's whole environment: its cache folder, the folder above it as home."""
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(cache.parent),
        "LONGREAD_CACHE_DIR": str(cache),
        **more,
    }


def reset(folder: Path, start: Path | None = None) -> Path:
    """`folder` emptied, or made a copy of `start`."""
    shutil.rmtree(folder, ignore_errors=True)
    if start is None:
        folder.mkdir(parents=True)
    else:
        shutil.copytree(start, folder)
    return folder


def sound(cache: Path) -> bool:
    """Whether every SQLite file under the cache passes the integrity check (opened as the next
    run opens it: a killed writer's log is rolled back or replayed first)."""
    for path in cache.rglob("*.sqlite"):
        with closing(sqlite3.connect(path)) as db:
            if db.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                return False
    return True


def leftovers(group: int, under: Path | None = None) -> set[int]:
    """The live processes (zombies are dead) of process group `group`, or working in a folder
    under `under`: what a run of ours, started in a session of its own (and with `under` as its
    TMPDIR), left. Nothing else is counted, so other longread work on the machine is not."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            state, _, pgrp = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[:3]
        except (OSError, IndexError):
            continue
        if state != "Z" and (int(pgrp) == group or _works_in(entry, under)):
            found.add(int(entry))
    return found


def _works_in(pid: str, under: Path | None) -> bool:
    try:
        return under is not None and os.readlink(f"/proc/{pid}/cwd").startswith(f"{under}/")
    except OSError:
        return False


def outlived(group: int, under: Path | None = None, wait: float = 5.0) -> int:
    """How many processes of the run (as `leftovers` finds them) are still alive `wait` seconds
    after it was killed; those are killed then (by pid: they are the run's own)."""
    deadline = time.monotonic() + wait
    while (left := leftovers(group, under)) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in left:
        with suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    return len(left)
