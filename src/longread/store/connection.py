"""A store's SQLite connection, which its repositories all share: how it is opened (WAL mode, 64 KB
pages, every statement ended by the current deadline), its bulk write transactions, and a query of
one value."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from longread import deadline
from longread.store.locked import patiently

PAGE_BYTES = (
    65_536  # a text block spills into one overflow page, not a chain of 16: 2x faster loads
)


def connect(path: Path) -> sqlite3.Connection:
    """A connection to the store file at `path` (made if need be)."""
    db = sqlite3.connect(path, check_same_thread=False)
    db.execute(f"PRAGMA page_size={PAGE_BYTES}")  # takes effect only on a new file
    patiently(lambda: db.execute("PRAGMA journal_mode=WAL"))
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("PRAGMA foreign_keys=ON")
    db.set_progress_handler(_past_deadline, 50_000)  # a query made for a REPL cell ends with it
    return db


def first_value(db: sqlite3.Connection, sql: str, args: tuple[Any, ...] = ()) -> Any:
    """The first column of the first row `sql` reads, None if it reads none."""
    row = db.execute(sql, args).fetchone()
    return row[0] if row else None


@contextmanager
def bulk(db: sqlite3.Connection) -> Iterator[None]:
    """One write transaction without fsyncs, for bulk writes of what can always be rebuilt (a
    crashed process loses nothing committed; a power cut may cost the cache file)."""
    db.execute("PRAGMA synchronous=OFF")
    try:
        with db:
            db.execute("BEGIN IMMEDIATE")
            yield
    finally:
        db.execute("PRAGMA synchronous=NORMAL")


def _past_deadline() -> bool:
    """SQLite's progress handler: stop the statement once the current deadline has passed."""
    return deadline.remaining() == 0.0
