"""A damaged SQLite file (not a database, a malformed page), set aside and begun again: every
file longread writes is a cache or is built again from the documents, so a damaged one costs a
rebuild, never a crash. The damaged copy is kept beside it (`….damaged-<time>`), not deleted.

Damage found when a file is opened is handled there; damage found later, in the middle of a
run, is found by `damaged_files` (an integrity check of every file opened so far, made only
then)."""

from __future__ import annotations

import sqlite3
import time
import warnings
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

_OPENED: set[Path] = set()  # the files opened by this process


class DamagedFileWarning(UserWarning):
    """A damaged file was set aside and begun again."""


def is_damage(error: BaseException) -> bool:
    """Whether an SQLite error says the file itself is damaged (not busy, not full): its message
    says so, or SQLite's message could not even be decoded."""
    if isinstance(error, UnicodeDecodeError):
        return True
    text = str(error).lower()
    return isinstance(error, sqlite3.DatabaseError) and any(
        sign in text for sign in ("malformed", "not a database", "encrypted", "corrupt")
    )


def recovering(path: Path, open_file: Callable[[], None]) -> None:
    """`open_file()`; where it finds the file damaged, the file set aside and `open_file()` again
    (on a new, empty file). The file is then noted for `damaged_files`."""
    try:
        open_file()
    except (sqlite3.DatabaseError, UnicodeDecodeError) as error:  # (a message of garbage bytes)
        if not is_damage(error):
            raise
        set_aside(path)  # (the damaged file's connection, if made, goes with it)
        open_file()
    _OPENED.add(path)


FILES = ("", "-wal", "-shm", "-journal", "-lock")  # a database's file and those kept beside it


def set_aside(path: Path) -> Path:
    """Move the damaged file (with its WAL and shared-memory files) aside; its new name."""
    aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    for suffix in FILES:
        source = Path(f"{path}{suffix}")
        if source.exists():
            source.rename(f"{aside}{suffix}")
    _OPENED.discard(path)
    warnings.warn(
        f"{path.name} was damaged: it was set aside as {aside.name} and is built again",
        DamagedFileWarning,
        stacklevel=2,
    )
    return aside


def damaged_files() -> list[Path]:
    """The files opened so far that fail SQLite's integrity check (read-only; checked now)."""
    found = []
    for path in sorted(_OPENED):
        try:
            with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
                verdict = db.execute("PRAGMA quick_check(1)").fetchone()
            if not verdict or verdict[0] != "ok":
                found.append(path)
        except sqlite3.DatabaseError as error:
            if is_damage(error):
                found.append(path)
    return found
