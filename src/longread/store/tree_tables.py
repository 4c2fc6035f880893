"""The store's tables for smart chunking and the summary tree: `chunks` (the smart chunker's cuts)
and `summaries` (the summary tree, level 0 upwards). Each chunk is saved with its level-0 summary in
one transaction, and each tree node with the links from its children, so an interrupted build
resumes where it stopped without paying twice."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import NamedTuple

TREE_SCHEMA = """
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


class TreeTables:
    """Chunk and tree-node reads and writes; mixed into DocStore, which owns the connection."""

    db: sqlite3.Connection

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

    def _drop_tree(self, store_id: int) -> None:
        self.db.execute("DELETE FROM summaries WHERE doc_id = ?", (store_id,))
        self.db.execute("DELETE FROM chunks WHERE doc_id = ?", (store_id,))


def _row_id(cursor: sqlite3.Cursor) -> int:
    """The id of the row an INSERT made."""
    if cursor.lastrowid is None:
        raise sqlite3.DatabaseError("the insert made no row")
    return cursor.lastrowid
