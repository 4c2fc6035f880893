"""Patience with SQLite's locks where it gives none: a file several processes create at the same
moment answers `database is locked` at once to all but one (changing the journal mode does not
wait for a lock as statements do)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
PATIENCE_SECONDS = 10.0
_PAUSE_SECONDS = 0.02


def patiently(step: Callable[[], T], seconds: float = PATIENCE_SECONDS) -> T:
    """`step()`, tried again while the database is locked, for `seconds` at most."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return step()
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
        time.sleep(_PAUSE_SECONDS)
