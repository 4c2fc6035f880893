"""The SQLite store of indexed documents: text in fixed-size blocks (so a range read touches one or
two rows, never the whole document), sections, per-section summaries, and FTS5 over sections.
One database file per index; every SQL statement for documents lives here."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BLOCK_CHARS = 65_536
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS documents (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    content_hash TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    doc_type TEXT NOT NULL DEFAULT 'other',
    chars INTEGER NOT NULL,
    pages TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS text_blocks (
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    start INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (doc_id, start)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sections (
    id INTEGER PRIMARY KEY,
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    parent_id INTEGER REFERENCES sections(id),
    ord INTEGER NOT NULL,
    title TEXT NOT NULL,
    level INTEGER NOT NULL,
    start INTEGER NOT NULL,
    end INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS sections_by_doc ON sections(doc_id, ord);
CREATE TABLE IF NOT EXISTS summaries (
    section_id INTEGER PRIMARY KEY REFERENCES sections(id) ON DELETE CASCADE,
    summary TEXT NOT NULL,
    keywords TEXT NOT NULL DEFAULT '[]',
    model TEXT NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS section_fts USING fts5(title, body, tokenize = 'unicode61');
"""


def content_hash(text: str) -> str:
    """The identity of a document: a hash of its normalized text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class SectionRow:
    id: int
    parent_id: int | None
    ord: int
    title: str
    level: int
    start: int
    end: int


class DocStore:
    """Documents, their text, sections and summaries in one SQLite file (WAL mode)."""

    def __init__(self, path: str | Path, block_chars: int = BLOCK_CHARS):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.block_chars = block_chars
        self.db = sqlite3.connect(self.path, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(_SCHEMA)
        self.db.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        self.db.commit()

    def close(self) -> None:
        self.db.close()

    # -- documents and text ----------------------------------------------------------------
    def find(self, digest: str) -> int | None:
        """The id of the document with this content hash, if stored."""
        row = self.db.execute("SELECT id FROM documents WHERE content_hash = ?", (digest,)).fetchone()
        return row[0] if row else None

    def add_document(self, path: str, kind: str, text: str, *, doc_type: str = "other",
                     pages: list[tuple[int, int, int]] | None = None, digest: str | None = None) -> int:
        """Store a document's text in blocks; returns its id (the existing one if unchanged).
        `digest` is the text's content_hash, if the caller has it already."""
        digest = digest or content_hash(text)
        existing = self.find(digest)
        if existing is not None:
            return existing
        with self.db:
            cursor = self.db.execute(
                "INSERT INTO documents (path, content_hash, kind, doc_type, chars, pages) VALUES (?,?,?,?,?,?)",
                (path, digest, kind, doc_type, len(text), json.dumps(pages or [])))
            doc_id = cursor.lastrowid
            self.db.executemany("INSERT INTO text_blocks VALUES (?, ?, ?)",
                                ((doc_id, s, text[s:s + self.block_chars])
                                 for s in range(0, len(text), self.block_chars)))
        return doc_id

    def remove_document(self, doc_id: int) -> None:
        with self.db:
            self.db.execute("DELETE FROM section_fts WHERE rowid IN (SELECT id FROM sections WHERE doc_id = ?)",
                            (doc_id,))
            self.db.execute("DELETE FROM summaries WHERE section_id IN (SELECT id FROM sections WHERE doc_id = ?)",
                            (doc_id,))
            self.db.execute("DELETE FROM sections WHERE doc_id = ?", (doc_id,))
            self.db.execute("DELETE FROM text_blocks WHERE doc_id = ?", (doc_id,))
            self.db.execute("DELETE FROM documents WHERE id = ?", (doc_id,))

    def document(self, doc_id: int) -> dict[str, Any]:
        row = self.db.execute("SELECT id, path, content_hash, kind, doc_type, chars, pages FROM documents "
                              "WHERE id = ?", (doc_id,)).fetchone()
        if row is None:
            raise KeyError(f"no document {doc_id}")
        keys = ("id", "path", "content_hash", "kind", "doc_type", "chars", "pages")
        return {**dict(zip(keys, row, strict=True)), "pages": json.loads(row[6])}

    def read_range(self, doc_id: int, start: int, end: int) -> str:
        """Characters [start, end) of the document, reading only the blocks that hold them."""
        start, end = max(0, start), max(0, end)
        if end <= start:
            return ""
        first = start - start % self.block_chars
        rows = self.db.execute("SELECT start, body FROM text_blocks WHERE doc_id = ? AND start >= ? "
                               "AND start < ? ORDER BY start", (doc_id, first, end)).fetchall()
        return "".join(rows_text(rows, start, end))

    def iter_blocks(self, doc_id: int, start: int = 0, end: int | None = None) -> Iterator[tuple[int, str]]:
        """(offset, text) blocks in order, for streaming searches over huge documents."""
        first = start - start % self.block_chars
        query = "SELECT start, body FROM text_blocks WHERE doc_id = ? AND start >= ?"
        args: list[Any] = [doc_id, first]
        if end is not None:
            query += " AND start < ?"
            args.append(end)
        yield from self.db.execute(query + " ORDER BY start", args)

    # -- sections and summaries -------------------------------------------------------------
    def save_sections(self, doc_id: int, sections: Iterable[tuple[int | None, str, int, int, int]],
                      bodies: Iterable[str] | None = None) -> list[int]:
        """Replace the document's sections. Each entry is (parent index or None, title, level, start,
        end) in document order; a parent comes before its children. Returns the new section ids."""
        entries = list(sections)
        with self.db:
            self.db.execute("DELETE FROM section_fts WHERE rowid IN (SELECT id FROM sections WHERE doc_id = ?)",
                            (doc_id,))
            self.db.execute("DELETE FROM sections WHERE doc_id = ?", (doc_id,))
            ids: list[int] = []
            for ord_, (parent, title, level, start, end) in enumerate(entries):
                parent_id = ids[parent] if parent is not None else None
                cursor = self.db.execute(
                    "INSERT INTO sections (doc_id, parent_id, ord, title, level, start, end) VALUES (?,?,?,?,?,?,?)",
                    (doc_id, parent_id, ord_, title, level, start, end))
                ids.append(cursor.lastrowid)
            texts = bodies if bodies is not None else (self.read_range(doc_id, e[3], e[4]) for e in entries)
            self.db.executemany("INSERT INTO section_fts (rowid, title, body) VALUES (?, ?, ?)",
                                ((sid, entry[1], body) for sid, entry, body in zip(ids, entries, texts, strict=True)))
        return ids

    def sections(self, doc_id: int) -> list[SectionRow]:
        rows = self.db.execute("SELECT id, parent_id, ord, title, level, start, end FROM sections "
                               "WHERE doc_id = ? ORDER BY ord", (doc_id,)).fetchall()
        return [SectionRow(*row) for row in rows]

    def put_summary(self, section_id: int, summary: str, keywords: list[str], model: str) -> None:
        """Save one section's summary at once, so a killed build never pays for it again."""
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO summaries VALUES (?, ?, ?, ?)",
                            (section_id, summary, json.dumps(keywords, ensure_ascii=False), model))

    def summaries(self, doc_id: int) -> dict[int, tuple[str, list[str]]]:
        rows = self.db.execute("SELECT s.id, m.summary, m.keywords FROM summaries m JOIN sections s "
                               "ON s.id = m.section_id WHERE s.doc_id = ?", (doc_id,)).fetchall()
        return {sid: (summary, json.loads(keywords)) for sid, summary, keywords in rows}

    def unsummarized(self, doc_id: int) -> list[SectionRow]:
        """Sections that still need a summary (what a resumed build has left to do)."""
        done = set(self.summaries(doc_id))
        return [s for s in self.sections(doc_id) if s.id not in done]

    def search_sections(self, doc_id: int, query: str, k: int = 10) -> list[tuple[int, float]]:
        """(section id, BM25 score; lower is better in SQLite, so it is negated) for the best k."""
        match = " OR ".join(f'"{t}"' for t in query.replace('"', " ").split() if t.strip())
        if not match:
            return []
        rows = self.db.execute(
            "SELECT f.rowid, bm25(section_fts) AS score FROM section_fts f JOIN sections s ON s.id = f.rowid "
            "WHERE section_fts MATCH ? AND s.doc_id = ? ORDER BY score LIMIT ?", (match, doc_id, k)).fetchall()
        return [(sid, -score) for sid, score in rows]


def rows_text(rows: Iterable[tuple[int, str]], start: int, end: int) -> Iterator[str]:
    """The parts of consecutive (offset, text) blocks that fall inside [start, end)."""
    for offset, body in rows:
        lo, hi = max(start - offset, 0), min(end - offset, len(body))
        if lo < hi:
            yield body[lo:hi]
