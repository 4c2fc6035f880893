"""A document's records, found on first need (not while indexing: an index is built several times
faster than its records are read), once: callers needing them at once take turns, and the later
ones find them stored. Under a deadline (a question's time budget, a REPL cell's), a long text has
them found by a process of its own, ended when the deadline passes:

    python -m longread.index.first_need STORE STORE_ID NAME
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from contextlib import suppress
from pathlib import Path

from longread import deadline
from longread.errors import LongreadError
from longread.index.records import FINDERS_VERSION, find_records
from longread.store.docstore import DocStore

APART_CHARS = 2_000_000  # a longer text's are found apart under a deadline (a process: ~0.3 s)
WHY_CHARS = 200  # of what a finder raised, said of a skipped file
WAIT_SECONDS = 0.05  # how often the deadline is looked at while they are


def records_found(store: DocStore, store_id: int) -> bool:
    """Whether this version of the finders stored the document's records."""
    return store.records.version(store_id) == FINDERS_VERSION


def ensure_records(store: DocStore, store_id: int, name: str) -> None:
    """Find and store the document's records unless this version of the finders stored them."""
    if records_found(store, store_id):
        return
    if (
        deadline.current(question=True) is not None
        and store.documents.get(store_id)["chars"] > APART_CHARS
    ):
        _found_apart(store.path, store_id, name)
        return
    with store.building():
        if store.records.version(store_id) != FINDERS_VERSION:
            find_records(store, store_id, name)


def found_or_why(store: DocStore, store_id: int, name: str) -> str | None:
    """`ensure_records`, or, where a file breaks a finder, why its records were not read (one
    line): it is skipped, never the folder. A passed deadline or a stop still ends the work."""
    try:
        ensure_records(store, store_id, name)
    except (deadline.DeadlineExceeded, LongreadError):
        raise
    except Exception as error:  # (whatever a hostile file makes a finder raise)
        said = " ".join(str(error).split())[:WHY_CHARS]
        return f"the records of {name} were not read ({type(error).__name__}: {said})"
    return None


def _found_apart(path: Path, store_id: int, name: str) -> None:
    """The records found by this module run as a process (which takes its turn like any
    caller), waited for; a passed deadline or a stop requested ends it, and what it had not
    committed is not kept."""
    during = (
        f"the time ran out while finding the records of {name} (found once; `longread records "
        "FILE` finds them with no time budget)"
    )
    deadline.check(during, question=True)
    command = [sys.executable, "-m", __name__, str(path), str(store_id), name]
    with tempfile.TemporaryFile() as errors:
        finder = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors
        )
        try:
            while finder.poll() is None:
                deadline.check(during, question=True)
                with suppress(subprocess.TimeoutExpired):
                    finder.wait(WAIT_SECONDS)
        finally:
            if finder.poll() is None:
                finder.kill()
                finder.wait()
        if finder.returncode:
            errors.seek(0)
            said = errors.read().decode(errors="replace").strip().splitlines() or [
                f"exit code {finder.returncode}"
            ]
            raise OSError(f"finding the records of {name} failed: {said[-1]}")


def main(arguments: list[str]) -> None:
    path, store_id, name = arguments
    store = DocStore(Path(path))
    try:
        ensure_records(store, int(store_id), name)
    finally:
        store.close()


if __name__ == "__main__":
    main(sys.argv[1:])
