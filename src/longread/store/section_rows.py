"""Reading a document's sections from the store a few at a time, so that a tool answering for one
section never loads a huge document's hundred thousand: by name, by id, the next in document order,
the innermost one at an offset, and the outline's shallow levels; and their summaries."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager

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
    """The section and section-summary queries of DocStore (its `db`), and the saving of a
    document's sections."""

    db: sqlite3.Connection
    _bulk: Callable[[], AbstractContextManager[None]]
    _drop_fts: Callable[[int], None]

    def save_sections(
        self,
        store_id: int,
        sections: Iterable[tuple[int | None, str, int, int, int]],
    ) -> list[int]:
        """Replace the document's sections (and drop its full-text index, built again by
        `ensure_fts` or on the first search). Each entry is (parent index or None, title, level,
        start, end) in document order; a parent comes before its children. Returns the new section
        ids, which run on from the first in that order."""
        entries = list(sections)
        with self._bulk():
            self._drop_fts(store_id)
            self.db.execute("DELETE FROM sections WHERE doc_id = ?", (store_id,))
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
        return json.loads(self.section_names_json(store_id))

    def section_names_json(self, store_id: int) -> str:
        """The sections' unique names, in document order, as the JSON array saved with them."""
        return self._saved_json("section_names", store_id, "[]")

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
        counts = json.loads(self._saved_json("depth_counts", store_id, "{}"))
        return {int(depth): count for depth, count in counts.items()}

    def put_summary(self, section_id: int, summary: str, keywords: list[str], model: str) -> None:
        """Save one section's summary at once, so a killed build never pays for it again."""
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO section_summaries VALUES (?, ?, ?, ?)",
                (section_id, summary, json.dumps(keywords, ensure_ascii=False), model),
            )

    def summaries(self, store_id: int) -> dict[int, tuple[str, list[str]]]:
        rows = self.db.execute(
            "SELECT s.id, m.summary, m.keywords FROM section_summaries m JOIN sections s "
            "ON s.id = m.section_id WHERE s.doc_id = ?",
            (store_id,),
        ).fetchall()
        return {sid: (summary, json.loads(keywords)) for sid, summary, keywords in rows}

    def unsummarized(self, store_id: int) -> list[SectionRow]:
        """Sections that still need a summary (what a resumed build has left to do)."""
        done = set(self.summaries(store_id))
        return [s for s in self.sections(store_id) if s.id not in done]

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
