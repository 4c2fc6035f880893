"""What models wrote of a document, as summaries: each section's (`section_summaries`, saved one
at a time, so a killed build never pays for one again), the smart chunker's cuts (`chunks`) and
the summary tree (`summaries`, level 0 upwards). Each chunk is saved with its level-0 summary in
one transaction, and each tree node with the links from its children, so an interrupted build
resumes where it stopped without paying twice."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import NamedTuple

from longread.store.rows import SectionRow
from longread.store.section_rows import Sections

SUMMARIES_SCHEMA = """
CREATE TABLE IF NOT EXISTS section_summaries (
    section_id INTEGER PRIMARY KEY REFERENCES sections(id) ON DELETE CASCADE,
    summary TEXT NOT NULL,
    keywords TEXT NOT NULL DEFAULT '[]',
    model TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS chunks (
    id INTEGER PRIMARY KEY,
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    ord INTEGER NOT NULL,
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,         -- the cut: the chunk is [start, end)
    next_start INTEGER NOT NULL,  -- where the next chunk starts (before `end` when they overlap)
    cut_by TEXT NOT NULL,         -- 'model'; 'rule' (model refused or not asked); 'end' (the rest)
    UNIQUE (doc_id, ord)
);
CREATE TABLE IF NOT EXISTS summaries (
    id INTEGER PRIMARY KEY,
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    level INTEGER NOT NULL,
    ord INTEGER NOT NULL,
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    summary TEXT NOT NULL,
    parent_id INTEGER,
    chunk_id INTEGER,  -- level 0 of a tree over smart chunks
    model TEXT NOT NULL,
    UNIQUE (doc_id, level, ord)
);
"""


class ChunkRow(NamedTuple):
    id: int
    ord: int
    start: int
    end: int
    next_start: int
    cut_by: str


class NodeRow(NamedTuple):
    id: int
    level: int
    ord: int
    start: int
    end: int
    summary: str
    parent_id: int | None
    chunk_id: int | None


class Summaries:
    """Section summaries, chunks and tree nodes, over a store's connection (a document's sections
    read through `sections`)."""

    def __init__(self, db: sqlite3.Connection, sections: Sections):
        self.db = db
        self._sections = sections

    def put(self, section_id: int, summary: str, keywords: list[str], model: str) -> None:
        """Save one section's summary at once, so a killed build never pays for it again."""
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO section_summaries VALUES (?, ?, ?, ?)",
                (section_id, summary, json.dumps(keywords, ensure_ascii=False), model),
            )

    def by_section(self, store_id: int) -> dict[int, tuple[str, list[str]]]:
        """Section id -> (summary, keywords) of the document's summarized sections."""
        rows = self.db.execute(
            "SELECT s.id, m.summary, m.keywords FROM section_summaries m JOIN sections s "
            "ON s.id = m.section_id WHERE s.doc_id = ?",
            (store_id,),
        ).fetchall()
        return {sid: (summary, json.loads(keywords)) for sid, summary, keywords in rows}

    def missing(self, store_id: int) -> list[SectionRow]:
        """Sections that still need a summary (what a resumed build has left to do)."""
        done = set(self.by_section(store_id))
        return [s for s in self._sections.all(store_id) if s.id not in done]

    def add_chunk(
        self,
        store_id: int,
        span: tuple[int, int],
        next_start: int,
        cut_by: str,
        summary: str,
        model: str,
    ) -> ChunkRow:
        """Append the document's next chunk and its level-0 summary, together."""
        with self.db:
            ord_ = self.db.execute(
                "SELECT count(*) FROM chunks WHERE doc_id = ?", (store_id,)
            ).fetchone()[0]
            chunk_id = _row_id(
                self.db.execute(
                    "INSERT INTO chunks (doc_id, ord, start, end, next_start, cut_by) "
                    "VALUES (?,?,?,?,?,?)",
                    (store_id, ord_, *span, next_start, cut_by),
                )
            )
            self.db.execute(
                "INSERT INTO summaries (doc_id, level, ord, start, end, summary, chunk_id, model) "
                "VALUES (?, 0, ?, ?, ?, ?, ?, ?)",
                (store_id, ord_, *span, summary, chunk_id, model),
            )
        return ChunkRow(chunk_id, ord_, *span, next_start, cut_by)

    def chunks(self, store_id: int) -> list[ChunkRow]:
        rows = self.db.execute(
            "SELECT id, ord, start, end, next_start, cut_by FROM chunks WHERE doc_id = ? "
            "ORDER BY ord",
            (store_id,),
        ).fetchall()
        return list(map(ChunkRow._make, rows))

    def add_leaves(self, store_id: int, leaves: Iterable[tuple[int, int, str]], model: str) -> None:
        """Level 0 of a tree over existing spans (a structured document's sections)."""
        with self.db:
            self.db.executemany(
                "INSERT INTO summaries (doc_id, level, ord, start, end, summary, model) "
                "VALUES (?, 0, ?, ?, ?, ?, ?)",
                (
                    (store_id, n, start, end, summary, model)
                    for n, (start, end, summary) in enumerate(leaves)
                ),
            )

    def add_node(
        self,
        store_id: int,
        level: int,
        ord_: int,
        children: list[NodeRow],
        summary: str,
        model: str,
    ) -> int:
        """Save a node over `children` (consecutive nodes of the level below) and link them to
        it."""
        with self.db:
            node_id = _row_id(
                self.db.execute(
                    "INSERT INTO summaries (doc_id, level, ord, start, end, summary, model) "
                    "VALUES (?,?,?,?,?,?,?)",
                    (
                        store_id,
                        level,
                        ord_,
                        children[0].start,
                        max(c.end for c in children),
                        summary,
                        model,
                    ),
                )
            )
            self.db.executemany(
                "UPDATE summaries SET parent_id = ? WHERE id = ?",
                ((node_id, child.id) for child in children),
            )
        return node_id

    def nodes(self, store_id: int) -> list[NodeRow]:
        """Every node of the document's summary tree, by level, then in document order."""
        rows = self.db.execute(
            "SELECT id, level, ord, start, end, summary, parent_id, chunk_id FROM summaries "
            "WHERE doc_id = ? ORDER BY level, ord",
            (store_id,),
        ).fetchall()
        return list(map(NodeRow._make, rows))

    def drop_upper_levels(self, store_id: int) -> None:
        """Forget every tree node above level 0 (to regroup the leaves)."""
        with self.db:
            self.db.execute("DELETE FROM summaries WHERE doc_id = ? AND level > 0", (store_id,))
            self.db.execute("UPDATE summaries SET parent_id = NULL WHERE doc_id = ?", (store_id,))

    def drop_tree(self, store_id: int) -> None:
        """Forget the document's chunks and summary tree."""
        with self.db:
            self._drop_tree(store_id)

    def drop(self, store_id: int) -> None:
        """Delete all the document's summaries, inside the caller's transaction."""
        self._drop_tree(store_id)
        self.db.execute(
            "DELETE FROM section_summaries "
            "WHERE section_id IN (SELECT id FROM sections WHERE doc_id = ?)",
            (store_id,),
        )

    def _drop_tree(self, store_id: int) -> None:
        self.db.execute("DELETE FROM summaries WHERE doc_id = ?", (store_id,))
        self.db.execute("DELETE FROM chunks WHERE doc_id = ?", (store_id,))


def _row_id(cursor: sqlite3.Cursor) -> int:
    """The id of the row an INSERT made."""
    if cursor.lastrowid is None:
        raise sqlite3.DatabaseError("the insert made no row")
    return cursor.lastrowid
