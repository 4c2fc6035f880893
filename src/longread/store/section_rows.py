"""Reading a document's sections from the store a few at a time, so that a tool answering for one
section never loads a huge document's hundred thousand: by name, by id, the next in document order,
the innermost one at an offset, and the outline's shallow levels."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

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


class SectionRows:
    """The section queries of DocStore (its `db`)."""

    db: sqlite3.Connection

    def sections(self, store_id: int) -> list[SectionRow]:
        """Every section of a document, in document order."""
        rows = self.db.execute(
            f"SELECT {_COLUMNS} FROM sections WHERE doc_id = ? ORDER BY ord", (store_id,)
        ).fetchall()
        return list(map(SectionRow._make, rows))

    def section_count(self, store_id: int) -> int:
        return int(
            self.db.execute(
                "SELECT count(*) FROM sections WHERE doc_id = ?", (store_id,)
            ).fetchone()[0]
        )

    def section_names(self, store_id: int) -> list[str]:
        """The sections' unique names, in document order."""
        rows = self.db.execute(
            "SELECT name FROM sections WHERE doc_id = ? ORDER BY ord", (store_id,)
        )
        return [name for (name,) in rows]

    def section_named(self, store_id: int, name: str) -> SectionRow | None:
        return self._one("doc_id = ? AND name = ?", (store_id, name))

    def section_rows(self, ids: Iterable[int]) -> dict[int, SectionRow]:
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
        rows = self.db.execute(
            "SELECT depth, count(*) FROM sections WHERE doc_id = ? GROUP BY depth", (store_id,)
        )
        return dict(rows.fetchall())

    def outline_rows(self, store_id: int, max_depth: int, limit: int) -> list[tuple[int, str]]:
        """(depth, name) of the first `limit` sections at most `max_depth` deep, in order."""
        return self.db.execute(
            "SELECT depth, name FROM sections WHERE doc_id = ? AND depth <= ? ORDER BY ord LIMIT ?",
            (store_id, max_depth, limit),
        ).fetchall()

    def _one(self, where: str, args: tuple[object, ...]) -> SectionRow | None:
        row = self.db.execute(f"SELECT {_COLUMNS} FROM sections WHERE {where}", args).fetchone()
        return None if row is None else SectionRow._make(row)
