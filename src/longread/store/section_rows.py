"""A document's sections, saved in one go and read a few at a time, so that a tool answering for one
section never loads a huge document's hundred thousand: by name, by id, the innermost one at an
offset, and the outline's shallow levels."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Iterable, Sequence

from longread.store.connection import bulk
from longread.store.full_text import drop_index
from longread.store.rows import SectionRow

_COLUMNS = "id, parent_id, ord, title, level, start, end, name"


def display_names(titles: Sequence[str]) -> list[str]:
    """A unique name per section: its title, then `title (2)`, `title (3)`… for repeats."""
    seen: dict[str, int] = {}
    names = []
    for title in titles:
        seen[title] = count = seen.get(title, 0) + 1
        names.append(title if count == 1 else f"{title} ({count})")
    return names


def tree_shape(parents: Sequence[int | None]) -> tuple[list[int], list[bool]]:
    """(depth, is a leaf) of each section, given each one's parent index (parents come first)."""
    depths: list[int] = []
    leaf = [True] * len(parents)
    for parent in parents:
        depths.append(1 if parent is None else depths[parent] + 1)
        if parent is not None:
            leaf[parent] = False
    return depths, leaf


class Sections:
    """The sections table, over a store's connection."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def save(
        self,
        store_id: int,
        sections: Iterable[tuple[int | None, str, int, int, int]],
    ) -> list[int]:
        """Replace the document's sections (and drop its full-text index, built again by the
        search's `build` or on the first search). Each entry is (parent index or None, title, level,
        start, end) in document order; a parent comes before its children. Returns the new section
        ids, which run on from the first in that order."""
        entries = list(sections)
        with bulk(self.db):
            drop_index(self.db, store_id)
            self.drop(store_id)
            first = self.db.execute("SELECT coalesce(max(id), 0) + 1 FROM sections").fetchone()[0]
            ids = list(range(first, first + len(entries)))
            names = display_names([entry[1] for entry in entries])
            depths, leaves = tree_shape([entry[0] for entry in entries])
            self.db.executemany(
                "INSERT INTO sections (id, doc_id, parent_id, ord, title, level, start, end, "
                "name, depth, leaf) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (
                    (
                        ids[i],
                        store_id,
                        None if parent is None else ids[parent],
                        i,
                        title,
                        level,
                        start,
                        end,
                        names[i],
                        depths[i],
                        leaves[i],
                    )
                    for i, (parent, title, level, start, end) in enumerate(entries)
                ),
            )
            self.db.execute(
                "UPDATE documents SET section_names = ?, depth_counts = ? WHERE id = ?",
                (json.dumps(names, ensure_ascii=False), json.dumps(Counter(depths)), store_id),
            )
        return ids

    def drop(self, store_id: int) -> None:
        """Delete the document's sections, inside the caller's transaction."""
        self.db.execute("DELETE FROM sections WHERE doc_id = ?", (store_id,))

    def all(self, store_id: int) -> list[SectionRow]:
        """Every section of a document, in document order."""
        rows = self.db.execute(
            f"SELECT {_COLUMNS} FROM sections WHERE doc_id = ? ORDER BY ord", (store_id,)
        ).fetchall()
        return list(map(SectionRow._make, rows))

    def count(self, store_id: int) -> int:
        return int(
            self.db.execute(
                "SELECT count(*) FROM sections WHERE doc_id = ?", (store_id,)
            ).fetchone()[0]
        )

    def names(self, store_id: int) -> list[str]:
        """The sections' unique names, in document order."""
        return json.loads(self.names_json(store_id))

    def names_json(self, store_id: int) -> str:
        """The sections' unique names, in document order, as the JSON array saved with them."""
        return self._saved_json("section_names", store_id, "[]")

    def named(self, store_id: int, name: str) -> SectionRow | None:
        return self._one("doc_id = ? AND name = ?", (store_id, name))

    def by_id(self, ids: Iterable[int]) -> dict[int, SectionRow]:
        """The sections with these ids, by id."""
        wanted = list(ids)
        marks = ", ".join("?" * len(wanted))
        rows = self.db.execute(f"SELECT {_COLUMNS} FROM sections WHERE id IN ({marks})", wanted)
        return {row[0]: SectionRow._make(row) for row in rows}

    def own_span(self, row: SectionRow) -> tuple[int, int]:
        """The section's own text: from its start to its first subsection's, else its end."""
        first_child = self.db.execute(
            "SELECT start FROM sections WHERE parent_id = ? ORDER BY ord LIMIT 1", (row.id,)
        ).fetchone()
        return row.start, first_child[0] if first_child else row.end

    def leaf_at(self, store_id: int, offset: int) -> SectionRow | None:
        """The innermost section (a leaf) starting at or before `offset`, else the first leaf."""
        return self._one(
            "doc_id = ? AND leaf = 1 AND start <= ? ORDER BY start DESC, ord DESC LIMIT 1",
            (store_id, offset),
        ) or self._one("doc_id = ? AND leaf = 1 ORDER BY ord LIMIT 1", (store_id,))

    def depth_counts(self, store_id: int) -> dict[int, int]:
        """How many sections lie at each depth (1: the top)."""
        counts = json.loads(self._saved_json("depth_counts", store_id, "{}"))
        return {int(depth): count for depth, count in counts.items()}

    def _saved_json(self, column: str, store_id: int, empty: str) -> str:
        """A JSON column of the document's row, saved with its sections (`empty`: no such row)."""
        row = self.db.execute(
            f"SELECT {column} FROM documents WHERE id = ?", (store_id,)
        ).fetchone()
        return str(row[0]) if row else empty

    def outline_rows(self, store_id: int, max_depth: int, limit: int) -> list[tuple[int, str]]:
        """(depth, name) of the first `limit` sections at most `max_depth` deep, in order."""
        return self.db.execute(
            "SELECT depth, name FROM sections WHERE doc_id = ? AND depth <= ? ORDER BY ord LIMIT ?",
            (store_id, max_depth, limit),
        ).fetchall()

    def _one(self, where: str, args: tuple[object, ...]) -> SectionRow | None:
        row = self.db.execute(f"SELECT {_COLUMNS} FROM sections WHERE {where}", args).fetchone()
        return None if row is None else SectionRow._make(row)
