"""A store's documents: each text stored once (its identity is its content hash), in fixed-size
blocks, so that a range read touches one or two rows, never the whole document; with what it is
(kind, type, pages) and the file it was read from."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Generator, Sequence
from typing import Any, NamedTuple

from longread.store.connection import bulk, first_value
from longread.store.rows import rows_text
from longread.store.text_hash import content_hash

BLOCK_CHARS = 65_536


class NewText(NamedTuple):
    """A document's text to store, with what the documents table records of it."""

    path: str
    kind: str
    text: str
    doc_type: str
    pages: list[tuple[int, int, int]] | None
    digest: str
    structured: bool = True


class Documents:
    """The documents table, their text blocks and source files, over a store's connection."""

    def __init__(self, db: sqlite3.Connection, block_chars: int = BLOCK_CHARS):
        self.db = db
        self.block_chars = block_chars

    def find(self, digest: str) -> int | None:
        """The id of the document with this content hash, if stored."""
        return first_value(self.db, "SELECT id FROM documents WHERE content_hash = ?", (digest,))

    def find_all(self, digests: set[str]) -> dict[str, int]:
        """Content hash -> id of the stored texts among `digests` (one query)."""
        marks = ",".join("?" * len(digests))
        return dict(
            self.db.execute(
                f"SELECT content_hash, id FROM documents WHERE content_hash IN ({marks})",
                list(digests),
            )
        )

    def find_source(self, path: str, size: int, mtime_ns: int, inode: int) -> int | None:
        """The id of the document read from the file with this stamp, if stored."""
        return first_value(
            self.db,
            "SELECT doc_id FROM source_files WHERE path = ? AND size = ? AND mtime_ns = ? "
            "AND inode = ?",
            (path, size, mtime_ns, inode),
        )

    def find_file_hash(self, file_hash: str) -> int | None:
        """The id of a document read from a file with these bytes, if stored."""
        return first_value(
            self.db, "SELECT doc_id FROM source_files WHERE file_hash = ?", (file_hash,)
        )

    def note_source(
        self, store_id: int, path: str, size: int, mtime_ns: int, inode: int, file_hash: str
    ) -> None:
        """Record the file a document was read from (replacing what was recorded of it)."""
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO source_files VALUES (?, ?, ?, ?, ?, ?)",
                (store_id, path, size, mtime_ns, inode, file_hash),
            )

    def add(
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
        with bulk(self.db):
            return self.insert([NewText(path, kind, text, doc_type, pages, digest, structured)])[0]

    def insert(self, new: Sequence[NewText]) -> list[int]:
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

    def drop(self, store_id: int) -> None:
        """Delete a document's row and text, inside the caller's transaction."""
        self.db.execute("DELETE FROM text_blocks WHERE doc_id = ?", (store_id,))
        self.db.execute("DELETE FROM documents WHERE id = ?", (store_id,))

    def set_type(self, store_id: int, doc_type: str) -> None:
        with self.db:
            self.db.execute("UPDATE documents SET doc_type = ? WHERE id = ?", (doc_type, store_id))

    def get(self, store_id: int) -> dict[str, Any]:
        """What the documents table records of a document (KeyError if it holds no such one)."""
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

    def ids(self) -> list[int]:
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
