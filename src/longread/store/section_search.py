"""Each document's full-text index over its sections (SQLite FTS5, BM25 ranking), in one part or
several (see `full_text`): a row is keyed by its section's position in the document. Built by the
index build or on the first search, a part at a time, each committed, so an interrupted build
resumes with the parts it has not made. A search over several parts scores each section as one
index of them all would."""

from __future__ import annotations

import heapq
import math
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from functools import reduce
from pathlib import Path

from longread.store.bm25 import Stats, scores, table_stats
from longread.store.connection import bulk
from longread.store.documents import Documents
from longread.store.full_text import build_part, copy_part, covers, part_ranges, part_table, spelled
from longread.store.rows import own_spans, rows_text
from longread.store.search_terms import MAX_QUERY_WORDS, distinctive, fts_query, rows_holding
from longread.store.section_rows import Sections
from longread.text.patterns import IndexTerm

FTS_BATCH_CHARS = 128_000_000  # section text a part of a document's full-text index holds at most
SMALL_INDEX = 1_000  # a search of fewer rows keeps even the common words


class SectionSearch:
    """Search and the resumable build of the section index of each document in the store file at
    `path` (its sections and text read through the repositories given)."""

    def __init__(
        self,
        db: sqlite3.Connection,
        path: Path,
        sections: Sections,
        documents: Documents,
        fts_batch_chars: int = FTS_BATCH_CHARS,
    ):
        self.db = db
        self.path = path
        self._sections = sections
        self._documents = documents
        self.fts_batch_chars = fts_batch_chars

    def sections_matching(self, store_id: int, query: str, k: int = 10) -> list[tuple[int, float]]:
        """(section id, BM25 score, higher is better) of the best k sections for the words of
        `query`. The first search of a document builds its full-text index."""
        words = list(dict.fromkeys(spelled(query)))[:MAX_QUERY_WORDS]
        tables = self.tables(store_id)
        if not words or not tables:
            return []
        words = self._search_words(store_id, tables, words)
        first = self._first_section(store_id)
        if len(tables) == 1:
            table = tables[0]
            rows = self.db.execute(
                f"SELECT rowid, bm25({table}) AS score FROM {table} WHERE {table} MATCH ? "
                "ORDER BY score LIMIT ?",
                (fts_query(words), k),
            ).fetchall()
            return [(first + position, -score) for position, score in rows]
        stats = reduce(
            Stats.__add__, (table_stats(self.db, t, self._vocab(t), words) for t in tables)
        )
        scored: dict[int, float] = {}
        for table in tables:
            scored.update(scores(self.db, table, self._instances(table), words, {}, stats))
        best = heapq.nsmallest(k, scored.items(), key=lambda found: (-found[1], found[0]))
        return [(first + position, score) for position, score in best]

    def _search_words(self, store_id: int, tables: list[str], words: list[str]) -> list[str]:
        """The words worth searching for in a document of many sections (see `distinctive`)."""
        total = self._sections.count(store_id)
        if len(words) < 2 or total < SMALL_INDEX:
            return words
        held = [self._holding(table, words) for table in tables]
        return distinctive(words, {w: sum(h[w] for h in held) for w in words}, total)

    def sections_holding(self, store_id: int, terms: Sequence[IndexTerm]) -> list[int] | None:
        """The sections whose text holds the rarest of `terms`, by the full-text index (see
        `rows_holding`); None without a complete one."""
        if not terms or not self.built(store_id):
            return None
        tables = [(t, self._vocab(t)) for t in self.tables(store_id)]
        found = rows_holding(self.db, tables, terms, self._sections.count(store_id))
        first = self._first_section(store_id)
        return None if found is None else [first + position for position in found]

    def _first_section(self, store_id: int) -> int:
        """The id of the document's first section (its sections' ids run on from it in order)."""
        row = self.db.execute(
            "SELECT id FROM sections WHERE doc_id = ? AND ord = 0", (store_id,)
        ).fetchone()
        return row[0] if row else 0

    def _vocab(self, table: str) -> str:
        """The name of the table of `table`'s words and how many rows hold each (made once)."""
        vocab = f"temp.{table}_vocab"
        self.db.execute(
            f"CREATE VIRTUAL TABLE IF NOT EXISTS {vocab} USING fts5vocab(main, {table}, row)"
        )
        return vocab

    def _instances(self, table: str) -> str:
        """The name of the table of each occurrence of each word of `table` (made once)."""
        instances = f"temp.{table}_instances"
        self.db.execute(
            f"CREATE VIRTUAL TABLE IF NOT EXISTS {instances} "
            f"USING fts5vocab(main, {table}, instance)"
        )
        return instances

    def _holding(self, table: str, words: Sequence[str]) -> dict[str, int]:
        """How many sections of `table` hold each word (as the index spells it)."""
        counts = dict(
            self.db.execute(
                f"SELECT term, doc FROM {self._vocab(table)} "
                f"WHERE term IN ({','.join('?' * len(words))})",
                list(words),
            )
        )
        return {word: counts.get(word, 0) for word in words}

    # -- the build ------------------------------------------------------------------------
    def tables(self, store_id: int) -> list[str]:
        """The tables of the document's full-text index, in order (built first if need be)."""
        self.build(store_id)
        return [
            part_table(store_id, part)
            for (part,) in self.db.execute(
                "SELECT part FROM fts_parts WHERE doc_id = ? ORDER BY part", (store_id,)
            )
        ]

    def plan(
        self,
        store_id: int,
        parts: int | None = None,
        spans: Sequence[tuple[int, int]] | None = None,
    ) -> list[tuple[int, int]]:
        """The parts of the document's full-text index, as [first, stop) runs of its sections'
        positions: as planned before, else `parts` of them (default: one per `fts_batch_chars`
        of text; fewer where there are fewer sections), recorded. `spans`: the sections' own
        spans, if the caller has them."""
        planned, _ = self._fts_state(store_id)
        spans = own_spans(self._sections.all(store_id)) if spans is None else spans
        if planned:
            return part_ranges(spans, planned)
        chars = sum(end - start for start, end in spans)
        ranges = part_ranges(spans, parts or max(1, math.ceil(chars / self.fts_batch_chars)))
        with bulk(self.db):
            self.db.execute(
                "UPDATE documents SET fts_parts = ? WHERE id = ?", (len(ranges), store_id)
            )
        return ranges

    def build(self, store_id: int, on_progress: Callable[[int, int], None] | None = None) -> None:
        """Build the parts of the document's full-text index not yet built (as `plan` planned
        them), each committed as it is done; on_progress(sections indexed, sections)
        after each, and once at the end."""
        planned, complete = self._fts_state(store_id)
        if complete:
            return
        recorded = self.db.execute(
            "SELECT part, first, stop FROM fts_parts WHERE doc_id = ? ORDER BY part", (store_id,)
        ).fetchall()
        total = self._sections.count(store_id)
        if planned and covers(recorded, planned, total):  # (all built beside the build, say)
            return self._completed(store_id, planned, on_progress)
        rows = self._sections.all(store_id)
        spans = own_spans(rows)
        ranges = self.plan(store_id, spans=spans)
        built = {
            part for part, *run in recorded if part < len(ranges) and ranges[part] == tuple(run)
        }
        done = sum(stop - first for part, (first, stop) in enumerate(ranges) if part in built)
        for part, (first, stop) in enumerate(ranges):
            if part in built:
                continue
            texts = self._span_texts(store_id, spans[first:stop])
            titles = (row.title for row in rows[first:stop])
            part_rows = zip(range(first, stop), titles, texts, strict=True)
            if not copy_part(build_part(part_rows), self.path, store_id, part, ranges):
                return  # (the sections were replaced meanwhile: the next search begins again)
            done += stop - first
            if on_progress is not None and done < len(rows):
                on_progress(done, len(rows))
        self._completed(store_id, len(ranges), on_progress)

    def _completed(
        self, store_id: int, planned: int, on_progress: Callable[[int, int], None] | None
    ) -> None:
        """Record the full-text index as complete, if its `planned` parts are all there, and say
        so."""
        with bulk(self.db):
            self.db.execute(
                "UPDATE documents SET fts_complete = 1 WHERE id = ? AND fts_parts = ? "
                "AND (SELECT count(*) FROM fts_parts WHERE doc_id = ?) = ?",
                (store_id, planned, store_id, planned),
            )
        if on_progress is not None:
            total = self._sections.count(store_id)
            on_progress(total, total)

    def built(self, store_id: int) -> bool:
        """Whether the document's full-text index is complete."""
        return self._fts_state(store_id)[1]

    def _fts_state(self, store_id: int) -> tuple[int, bool]:
        """(how many parts the full-text index is planned in, 0 if not yet; whether it is
        complete)."""
        row = self.db.execute(
            "SELECT fts_parts, fts_complete FROM documents WHERE id = ?", (store_id,)
        ).fetchone()
        if row is None:
            raise KeyError(f"no document {store_id}")
        return row[0], bool(row[1])

    def _span_texts(self, store_id: int, spans: Sequence[tuple[int, int]]) -> Iterator[str]:
        """The text of each span, from one forward pass over the stored blocks; only the blocks
        under the current span are held. The spans ascend and do not overlap."""
        if not spans:
            return
        blocks = self._documents.iter_blocks(store_id, spans[0][0], spans[-1][1])
        held: list[tuple[int, str]] = []
        try:
            for start, end in spans:
                held = [block for block in held if block[0] + len(block[1]) > start]
                while not held or held[-1][0] + len(held[-1][1]) < end:
                    block = next(blocks, None)
                    if block is None:
                        break
                    held.append(block)
                yield "".join(rows_text(held, start, end))
        finally:
            blocks.close()
