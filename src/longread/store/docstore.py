"""The SQLite store of indexed documents: text in fixed-size blocks (so a range read touches one or
two rows, never the whole document), sections, per-section summaries, a full-text index over
each document's sections that is built on first search, and the smart chunks and summary tree
(tables `chunks` and `summaries`, see tree_tables; the full-text index, see section_search).
One database file per index; it is a
cache, so a file written by another schema version is deleted and started afresh. Every SQL
statement for documents lives here."""

from __future__ import annotations

import fcntl
import json
import sqlite3
from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, NamedTuple

from longread import deadline
from longread.store.damage import FILES, recovering
from longread.store.locked import patiently
from longread.store.record_tables import RECORDS_SCHEMA, RecordTables
from longread.store.rows import rows_text
from longread.store.section_rows import SectionRows
from longread.store.section_search import FTS_BATCH_CHARS, SectionSearch
from longread.store.text_hash import content_hash
from longread.store.tree_tables import TREE_SCHEMA, TreeTables

BLOCK_CHARS = 65_536
SCHEMA_VERSION = 7  # 7: the full-text index in parts, its rows keyed by section position
PAGE_BYTES = (
    65_536  # a text block spills into one overflow page, not a chain of 16: 2x faster loads
)
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
CREATE TABLE IF NOT EXISTS section_summaries (
    section_id INTEGER PRIMARY KEY REFERENCES sections(id) ON DELETE CASCADE,
    summary TEXT NOT NULL,
    keywords TEXT NOT NULL DEFAULT '[]',
    model TEXT NOT NULL
);
"""
    + TREE_SCHEMA
    + RECORDS_SCHEMA
)


class NewText(NamedTuple):
    """A document's text to store, with what the documents table records of it."""

    path: str
    kind: str
    text: str
    doc_type: str
    pages: list[tuple[int, int, int]] | None
    digest: str
    structured: bool = True


class DocStore(TreeTables, SectionSearch, SectionRows, RecordTables):
    """Documents, their text, sections and summaries in one SQLite file (WAL mode)."""

    def __init__(
        self,
        path: str | Path,
        block_chars: int = BLOCK_CHARS,
        fts_batch_chars: int = FTS_BATCH_CHARS,
    ):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.block_chars = block_chars
        self.fts_batch_chars = fts_batch_chars
        recovering(self.path, self._open)

    def _open(self) -> None:
        """Connect, and bring the file to this schema (a file of another version is begun
        again)."""
        self.db = self._connect()
        if self._stored_version() == 6:
            self._upgrade_from_6()
        if self._stored_version() not in (None, SCHEMA_VERSION):
            self.db.close()
            for suffix in FILES:
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
            self.db = self._connect()
        self.db.executescript(_SCHEMA)
        self.db.execute(
            "INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
        )
        self.db.commit()

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False)
        db.execute(f"PRAGMA page_size={PAGE_BYTES}")  # takes effect only on a new file
        patiently(lambda: db.execute("PRAGMA journal_mode=WAL"))
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        db.set_progress_handler(_past_deadline, 50_000)  # a query made for a REPL cell ends with it
        return db

    def _upgrade_from_6(self) -> None:
        """A store written with schema 6 brought to 7 in place, nothing lost but what the first
        search builds again: each document's full-text index (one table, keyed by section id)."""
        with self._bulk():
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

    def setting(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_setting(self, key: str, value: str) -> None:
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def _stored_version(self) -> int | None:
        """The schema version the file was written with; None for a new file."""
        if not self.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone():
            return None
        row = self.db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        return int(row[0]) if row else None

    @contextmanager
    def _bulk(self) -> Iterator[None]:
        """One write transaction without fsyncs, for bulk writes of what can always be rebuilt (a
        crashed process loses nothing committed; a power cut may cost the cache file)."""
        self.db.execute("PRAGMA synchronous=OFF")
        try:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                yield
        finally:
            self.db.execute("PRAGMA synchronous=NORMAL")

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
        if not self.document_ids():
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

    def close(self) -> None:
        self.db.close()

    # -- documents and text ----------------------------------------------------------------
    def find(self, digest: str) -> int | None:
        """The id of the document with this content hash, if stored."""
        row = self.db.execute(
            "SELECT id FROM documents WHERE content_hash = ?", (digest,)
        ).fetchone()
        return row[0] if row else None

    def find_source(self, path: str, size: int, mtime_ns: int, inode: int) -> int | None:
        """The id of the document read from the file with this stamp, if stored."""
        row = self.db.execute(
            "SELECT doc_id FROM source_files WHERE path = ? AND size = ? AND mtime_ns = ? "
            "AND inode = ?",
            (path, size, mtime_ns, inode),
        ).fetchone()
        return row[0] if row else None

    def find_file_hash(self, file_hash: str) -> int | None:
        """The id of a document read from a file with these bytes, if stored."""
        row = self.db.execute(
            "SELECT doc_id FROM source_files WHERE file_hash = ?", (file_hash,)
        ).fetchone()
        return row[0] if row else None

    def note_source(
        self, store_id: int, path: str, size: int, mtime_ns: int, inode: int, file_hash: str
    ) -> None:
        """Record the file a document was read from (replacing what was recorded of it)."""
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO source_files VALUES (?, ?, ?, ?, ?, ?)",
                (store_id, path, size, mtime_ns, inode, file_hash),
            )

    def add_document(
        self,
        path: str,
        kind: str,
        text: str,
        *,
        doc_type: str = "other",
        pages: list[tuple[int, int, int]] | None = None,
        digest: str | None = None,
        structured: bool = True,
    ) -> int:
        """Store a document's text in blocks; returns its id (the existing one if unchanged).
        `digest` is the text's content_hash, if the caller has it already; `structured` tells
        whether headings were found in it."""
        digest = digest or content_hash(text)
        existing = self.find(digest)
        if existing is not None:
            return existing
        with self._bulk():
            return self._insert_documents(
                [NewText(path, kind, text, doc_type, pages, digest, structured)]
            )[0]

    def _insert_documents(self, new: Sequence[NewText]) -> list[int]:
        """Insert new documents and their text blocks, inside the caller's transaction (a statement
        per table, not per document); returns their ids."""
        first = self.db.execute("SELECT coalesce(max(id), 0) + 1 FROM documents").fetchone()[0]
        ids = list(range(first, first + len(new)))
        self.db.executemany(
            "INSERT INTO documents "
            "(id, path, content_hash, kind, doc_type, chars, pages, structured) "
            "VALUES (?,?,?,?,?,?,?,?)",
            [
                (
                    i,
                    d.path,
                    d.digest,
                    d.kind,
                    d.doc_type,
                    len(d.text),
                    json.dumps(d.pages) if d.pages else "[]",
                    d.structured,
                )
                for i, d in zip(ids, new, strict=True)
            ],
        )
        self.db.executemany(
            "INSERT INTO text_blocks VALUES (?, ?, ?)",
            (
                (i, s, d.text[s : s + self.block_chars])
                for i, d in zip(ids, new, strict=True)
                for s in range(0, len(d.text), self.block_chars)
            ),
        )
        return ids

    def remove_document(self, store_id: int) -> None:
        with self._bulk():
            self._drop_text(store_id)

    def _drop_text(self, store_id: int) -> None:
        """Delete a document's text and all that was built on it, in the caller's transaction."""
        self._drop_fts(store_id)
        self._drop_tree(store_id)
        self._drop_records(store_id)
        self.db.execute(
            "DELETE FROM section_summaries "
            "WHERE section_id IN (SELECT id FROM sections WHERE doc_id = ?)",
            (store_id,),
        )
        self.db.execute("DELETE FROM sections WHERE doc_id = ?", (store_id,))
        self.db.execute("DELETE FROM text_blocks WHERE doc_id = ?", (store_id,))
        self.db.execute("DELETE FROM documents WHERE id = ?", (store_id,))

    def set_doc_type(self, store_id: int, doc_type: str) -> None:
        with self.db:
            self.db.execute("UPDATE documents SET doc_type = ? WHERE id = ?", (doc_type, store_id))

    def document(self, store_id: int) -> dict[str, Any]:
        keys = ("id", "path", "content_hash", "kind", "doc_type", "chars", "pages", "structured")
        row = self.db.execute(
            f"SELECT {', '.join(keys)} FROM documents WHERE id = ?", (store_id,)
        ).fetchone()
        if row is None:
            raise KeyError(f"no document {store_id}")
        return {
            **dict(zip(keys, row, strict=True)),
            "pages": json.loads(row[6]),
            "structured": bool(row[7]),
        }

    def document_ids(self) -> list[int]:
        """The ids of every stored document."""
        return [row[0] for row in self.db.execute("SELECT id FROM documents ORDER BY id")]

    def read_range(self, store_id: int, start: int, end: int) -> str:
        """Characters [start, end) of the document, reading only the blocks that hold them."""
        start, end = max(0, start), max(0, end)
        if end <= start:
            return ""
        first = start - start % self.block_chars
        rows = self.db.execute(
            "SELECT start, body FROM text_blocks WHERE doc_id = ? AND start >= ? "
            "AND start < ? ORDER BY start",
            (store_id, first, end),
        ).fetchall()
        return "".join(rows_text(rows, start, end))

    def iter_blocks(
        self, store_id: int, start: int = 0, end: int | None = None
    ) -> Generator[tuple[int, str], None, None]:
        """(offset, text) blocks in order, for streaming searches over huge documents."""
        first = start - start % self.block_chars
        query = "SELECT start, body FROM text_blocks WHERE doc_id = ? AND start >= ?"
        args: list[Any] = [store_id, first]
        if end is not None:
            query += " AND start < ?"
            args.append(end)
        yield from self.db.execute(query + " ORDER BY start", args)

    # -- sections and summaries -------------------------------------------------------------


def _past_deadline() -> bool:
    """SQLite's progress handler: stop the statement once the current deadline has passed."""
    return deadline.remaining() == 0.0
