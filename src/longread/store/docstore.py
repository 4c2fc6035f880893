"""The SQLite store of indexed documents: one database file per index, opened here, brought to this
schema and closed, with its transactions. Each job over it is a repository of its own, sharing the
connection: `documents` (the text in fixed-size blocks), `sections`, `search` (each document's
full-text index over its sections, built on first search), `summaries` (section summaries, smart
chunks and the summary tree) and `records` (the record tables). The file is a cache, so one
written by another schema version is deleted and started afresh."""

from __future__ import annotations

import fcntl
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from longread.store.connection import bulk, connect
from longread.store.damage import FILES, recovering
from longread.store.documents import BLOCK_CHARS, Documents
from longread.store.full_text import drop_index
from longread.store.record_tables import RECORDS_SCHEMA, Records
from longread.store.section_rows import Sections
from longread.store.section_search import FTS_BATCH_CHARS, SectionSearch
from longread.store.summaries import SUMMARIES_SCHEMA, Summaries

SCHEMA_VERSION = 7  # 7: the full-text index in parts, its rows keyed by section position
FILL_CACHE_KB = 256 * 1024  # SQLite's page cache while a document is written (see `filling`)

_SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS documents (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    content_hash TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    doc_type TEXT NOT NULL DEFAULT 'other',
    chars INTEGER NOT NULL,
    pages TEXT NOT NULL DEFAULT '[]',
    structured INTEGER NOT NULL DEFAULT 1,  -- 0: no headings were found in the text
    fts_parts INTEGER NOT NULL DEFAULT 0,  -- the parts its full-text index is planned in
    fts_complete INTEGER NOT NULL DEFAULT 0,
    -- what every REPL is given, saved with the sections: a JSON array of their unique names in
    -- document order, and a JSON object of how many lie at each depth
    section_names TEXT NOT NULL DEFAULT '[]',
    depth_counts TEXT NOT NULL DEFAULT '{}'
);
-- the file a document was read from, as the file system stamps it, and the hash of its bytes
CREATE TABLE IF NOT EXISTS source_files (
    doc_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    inode INTEGER NOT NULL,
    file_hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS source_files_by_hash ON source_files(file_hash);
CREATE TABLE IF NOT EXISTS text_blocks (
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    start INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (doc_id, start)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sections (
    id INTEGER PRIMARY KEY,
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    parent_id INTEGER,  -- not a foreign key: checking it made deleting many sections quadratic
    ord INTEGER NOT NULL,
    title TEXT NOT NULL,
    level INTEGER NOT NULL,
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    name TEXT NOT NULL,  -- unique within the document
    depth INTEGER NOT NULL,  -- 1 at the top
    leaf INTEGER NOT NULL  -- 1: no subsections
);
CREATE INDEX IF NOT EXISTS sections_by_doc ON sections(doc_id, ord);
CREATE INDEX IF NOT EXISTS sections_by_name ON sections(doc_id, name);
CREATE INDEX IF NOT EXISTS sections_by_parent ON sections(parent_id, ord);
CREATE INDEX IF NOT EXISTS leaves_by_start ON sections(doc_id, start) WHERE leaf = 1;
-- the parts of a document's full-text index built so far, each indexing its sections at
-- positions [first, stop) (see full_text.py)
CREATE TABLE IF NOT EXISTS fts_parts (
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    part INTEGER NOT NULL,
    first INTEGER NOT NULL,
    stop INTEGER NOT NULL,
    PRIMARY KEY (doc_id, part)
);
"""
    + SUMMARIES_SCHEMA
    + RECORDS_SCHEMA
)


class DocStore:
    """Documents, their text, sections, summaries and records in one SQLite file (WAL mode)."""

    def __init__(
        self,
        path: str | Path,
        block_chars: int = BLOCK_CHARS,
        fts_batch_chars: int = FTS_BATCH_CHARS,
    ):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        recovering(self.path, self._open)
        self.documents = Documents(self.db, block_chars)
        self.sections = Sections(self.db)
        self.search = SectionSearch(
            self.db, self.path, self.sections, self.documents, fts_batch_chars
        )
        self.summaries = Summaries(self.db, self.sections)
        self.records = Records(self.db)

    def _open(self) -> None:
        """Connect, and bring the file to this schema (a file of another version is begun
        again)."""
        self.db = connect(self.path)
        if self._stored_version() == 6:
            self._upgrade_from_6()
        if self._stored_version() not in (None, SCHEMA_VERSION):
            self.db.close()
            for suffix in FILES:
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
            self.db = connect(self.path)
        self.db.executescript(_SCHEMA)
        self.db.execute(
            "INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
        )
        self.db.commit()

    def _upgrade_from_6(self) -> None:
        """A store written with schema 6 brought to 7 in place, nothing lost but what the first
        search builds again: each document's full-text index (one table, keyed by section id)."""
        with bulk(self.db):
            if self._stored_version() != 6:  # (another process upgraded it meanwhile)
                return
            for (name,) in self.db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name GLOB 'section_fts_[0-9]*' AND sql LIKE 'CREATE VIRTUAL%'"
            ).fetchall():
                self.db.execute(f"DROP TABLE IF EXISTS {name}")
            self.db.execute("ALTER TABLE documents RENAME COLUMN fts_next TO fts_parts")
            self.db.execute("UPDATE documents SET fts_parts = 0, fts_complete = 0")
            self.db.execute(
                "UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),)
            )

    def _stored_version(self) -> int | None:
        """The schema version the file was written with; None for a new file."""
        if not self.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone():
            return None
        row = self.db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        return int(row[0]) if row else None

    @contextmanager
    def building(self) -> Iterator[None]:
        """While a document is indexed into this store: other threads and processes indexing
        into it wait (an advisory lock on a file beside it), so that a file two of them index at
        once is read and stored once."""
        with open(f"{self.path}-lock", "ab") as handle:  # (closing it releases the lock)
            fcntl.flock(handle, fcntl.LOCK_EX)
            yield

    @contextmanager
    def filling(self) -> Iterator[None]:
        """While a document is written in bulk: a page cache of FILL_CACHE_KB (its sections'
        indexes take rows out of order), and, in a store holding no document yet, a rollback
        journal (each page written once, not to the log and then again into the file); the
        defaults again after."""
        cache = self.db.execute("PRAGMA cache_size").fetchone()[0]
        self.db.execute(f"PRAGMA cache_size=-{FILL_CACHE_KB}")
        rollback = False
        if not self.documents.ids():
            with suppress(sqlite3.OperationalError):  # (another connection has it open)
                mode = self.db.execute("PRAGMA journal_mode=DELETE").fetchone()[0]
                rollback = mode == "delete"
        try:
            yield
        finally:
            self.db.execute(f"PRAGMA cache_size={int(cache)}")
            if rollback:  # (refused while another connection reads: the next one sets it)
                with suppress(sqlite3.OperationalError):
                    self.db.execute("PRAGMA journal_mode=WAL")

    def remove_document(self, store_id: int) -> None:
        """Delete a document's text and all that was built on it."""
        with bulk(self.db):
            self.drop_document(store_id)

    def drop_document(self, store_id: int) -> None:
        """Delete a document's text and all that was built on it, in the caller's transaction."""
        drop_index(self.db, store_id)
        self.summaries.drop(store_id)
        self.records.drop(store_id)
        self.sections.drop(store_id)
        self.documents.drop(store_id)

    def close(self) -> None:
        self.db.close()
