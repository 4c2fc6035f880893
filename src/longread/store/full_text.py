"""A document's full-text index, in parts. A part indexes a run of the document's sections (each
row keyed by the section's position in the document) in a database in memory, set up for a bulk
load, and is then copied whole into the index file: FTS5's own tables, row for row, in one
transaction. So several processes can each build a part at once, and write one at a time."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

# Contentless, since the text is in text_blocks already; full detail (the default), since BM25
# over a contentless table needs the term positions.
FTS_OPTIONS = "content='', tokenize='unicode61 remove_diacritics 2'"
# Buffer 16 MB of terms before writing a segment, merge segments 16 at a time: a bulk load runs
# about twice as fast as with the defaults (1 MB, 4), and searches take the same time.
BULK_SETTINGS = (("hashsize", 16 << 20), ("automerge", 16))
_SHADOWS = ("data", "idx", "docsize", "config")  # a contentless FTS5 table's own tables
_BUSY_SECONDS = 600.0  # how long a part waits for the index file to take its copy


def part_table(store_id: int, part: int) -> str:
    """The name of part `part` of document `store_id`'s full-text index."""
    return f"section_fts_{int(store_id)}_{int(part)}"


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


def copy_part(
    built: sqlite3.Connection, path: Path, store_id: int, part: int, sections: tuple[int, int]
) -> None:
    """Copy the part built in memory into the index file at `path` as the document's part
    `part` (`sections`: the positions [first, stop) it covers), replacing any earlier copy, and
    record it; one transaction, waiting for the file's other writers. `built` is closed."""
    table = part_table(store_id, part)
    try:
        built.execute("ATTACH DATABASE ? AS store", (str(path),))
        built.execute("BEGIN IMMEDIATE")
        built.execute(f"DROP TABLE IF EXISTS store.{table}")
        create_table(built, f"store.{table}")
        for shadow in _SHADOWS:
            built.execute(f"DELETE FROM store.{table}_{shadow}")
            built.execute(f"INSERT INTO store.{table}_{shadow} SELECT * FROM main.part_{shadow}")
        built.execute(
            "INSERT OR REPLACE INTO store.fts_parts (doc_id, part, first, stop) VALUES (?,?,?,?)",
            (store_id, part, *sections),
        )
        built.execute("COMMIT")
    except BaseException:
        if built.in_transaction:
            built.execute("ROLLBACK")
        raise
    finally:
        built.close()
