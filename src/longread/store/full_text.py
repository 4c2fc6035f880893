"""A document's full-text index, in parts. A part indexes a run of the document's sections (each
row keyed by the section's position in the document) in a database in memory, set up for a bulk
load, and is then copied whole into the index file: FTS5's own tables, row for row, in one
transaction. So several processes can each build a part at once, and write one at a time. Here
too: how a document's sections are cut into parts, and the index dropped."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

# Contentless, since the text is in text_blocks already; full detail (the default), since BM25
# over a contentless table needs the term positions.
FTS_OPTIONS = "content='', tokenize='unicode61 remove_diacritics 2'"
# Buffer 16 MB of terms before writing a segment, merge segments 16 at a time: a bulk load runs
# about twice as fast as with the defaults (1 MB, 4), and searches take the same time.
BULK_SETTINGS = (("hashsize", 16 << 20), ("automerge", 16))
_SHADOWS = ("data", "idx", "docsize", "config")  # a contentless FTS5 table's own tables
_BUSY_SECONDS = 600.0  # how long a part waits for the index file to take its copy


_speller = threading.local()  # its database in memory, on each thread that spells


def spelled(text: str) -> list[str]:
    """The words of `text` as the full-text index spells them, in order: SQLite's own tokenizer
    reads it, in a table of a database in memory (one a thread), emptied each time."""
    db = getattr(_speller, "db", None)
    if db is None:
        db = _speller.db = sqlite3.connect(":memory:", isolation_level=None)
        db.execute(f"CREATE VIRTUAL TABLE spelling USING fts5(text, {FTS_OPTIONS})")
        db.execute("CREATE VIRTUAL TABLE spelled USING fts5vocab(spelling, instance)")
    db.execute("INSERT INTO spelling (spelling) VALUES ('delete-all')")
    db.execute("INSERT INTO spelling (rowid, text) VALUES (1, ?)", (text,))
    return [term for (term,) in db.execute("SELECT term FROM spelled ORDER BY offset")]


Plan = Sequence[tuple[int, int]]  # each part's [first, stop) run of section positions


def part_table(store_id: int, part: int) -> str:
    """The name of part `part` of document `store_id`'s full-text index."""
    return f"section_fts_{int(store_id)}_{int(part)}"


def part_ranges(spans: Sequence[tuple[int, int]], parts: int) -> list[tuple[int, int]]:
    """`spans` cut into `parts` runs [first, stop) of about the same number of characters (fewer
    runs where there are fewer spans; none empty)."""
    total = sum(end - start for start, end in spans)
    ranges: list[tuple[int, int]] = []
    first, size = 0, 0
    for position, (start, end) in enumerate(spans):
        size += end - start
        if size * parts >= total * (len(ranges) + 1) and len(ranges) < parts - 1:
            ranges.append((first, position + 1))
            first = position + 1
    if first < len(spans) or not ranges:
        ranges.append((first, len(spans)))
    return ranges


def covers(recorded: Sequence[tuple[int, int, int]], planned: int, total: int) -> bool:
    """Whether the recorded parts (part, first, stop) are the `planned` runs that, end to end,
    index all `total` sections."""
    numbered = [part for part, _, _ in recorded] == list(range(planned))
    ends = [0] + [stop for _, _, stop in recorded]
    return numbered and [first for _, first, _ in recorded] == ends[:-1] and ends[-1] == total


def drop_index(db: sqlite3.Connection, store_id: int) -> None:
    """Drop the document's full-text index (inside the caller's transaction)."""
    for (name,) in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB ?",
        (part_table(store_id, 0)[:-1] + "[0-9]*",),
    ).fetchall():
        if not name.endswith(("_data", "_idx", "_docsize", "_config")):
            db.execute(f"DROP TABLE IF EXISTS {name}")
    db.execute("DELETE FROM fts_parts WHERE doc_id = ?", (store_id,))
    db.execute("UPDATE documents SET fts_parts = 0, fts_complete = 0 WHERE id = ?", (store_id,))


def create_table(db: sqlite3.Connection, table: str) -> None:
    """An empty full-text table with the bulk-load settings (the schema may be `main.` or an
    attached one)."""
    db.execute(f"CREATE VIRTUAL TABLE {table} USING fts5(title, body, {FTS_OPTIONS})")
    bare = table.rsplit(".", 1)[-1]
    for key, value in BULK_SETTINGS:
        db.execute(f"INSERT INTO {table} ({bare}, rank) VALUES (?, ?)", (key, value))


def build_part(rows: Iterable[tuple[int, str, str]]) -> sqlite3.Connection:
    """A database in memory whose table `part` indexes `rows` (section position, title, text)."""
    db = sqlite3.connect(":memory:", timeout=_BUSY_SECONDS, check_same_thread=False)
    db.execute("PRAGMA cache_size=-262144")  # (a part is a few hundred MB at most)
    create_table(db, "part")
    with db:
        db.executemany("INSERT INTO part (rowid, title, body) VALUES (?, ?, ?)", rows)
    return db


def copy_part(built: sqlite3.Connection, path: Path, store_id: int, part: int, plan: Plan) -> bool:
    """Copy the part built in memory into the index file at `path` as part `part` of the
    document's index planned as `plan` (the [first, stop) runs of section positions each part
    covers), replacing any earlier copy, and record it; one transaction, waiting for the file's
    other writers. False, and nothing written, when the document's index is no longer planned
    so (its sections were replaced meanwhile, say). `built` is closed."""
    table = part_table(store_id, part)
    try:
        built.execute("ATTACH DATABASE ? AS store", (str(path),))
        built.execute("BEGIN IMMEDIATE")
        row = built.execute(
            "SELECT fts_parts FROM store.documents WHERE id = ?", (store_id,)
        ).fetchone()
        if row is None or row[0] != len(plan):
            built.execute("ROLLBACK")
            return False
        built.execute(f"DROP TABLE IF EXISTS store.{table}")
        create_table(built, f"store.{table}")
        for shadow in _SHADOWS:
            built.execute(f"DELETE FROM store.{table}_{shadow}")
            built.execute(f"INSERT INTO store.{table}_{shadow} SELECT * FROM main.part_{shadow}")
        built.execute(
            "INSERT OR REPLACE INTO store.fts_parts (doc_id, part, first, stop) VALUES (?,?,?,?)",
            (store_id, part, *plan[part]),
        )
        built.execute("COMMIT")
        return True
    except BaseException:
        if built.in_transaction:
            built.execute("ROLLBACK")
        raise
    finally:
        built.close()
