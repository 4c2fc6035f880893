"""Each document's full-text index over its sections (SQLite FTS5, BM25 ranking): built on the
first search, in resumable steps of about `fts_batch_chars` of text, each committed; a mixin of
DocStore, which owns the connection."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager

from longread.store.rows import SectionRow, own_spans, rows_text
from longread.text.patterns import IndexTerm

FTS_BATCH_CHARS = 16_000_000  # section text indexed per committed step of a full-text build
MAX_QUERY_WORDS = 64  # distinct words of one full-text query
SMALL_INDEX = 1_000  # a search of fewer rows keeps even the common words
_FTS_TABLE = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS {table} USING fts5(title, body, content='', "
    "tokenize='unicode61 remove_diacritics 2')"
)


class SectionSearch:
    """Search and the resumable build of a document's section index."""

    db: sqlite3.Connection
    fts_batch_chars: int
    _bulk: Callable[[], AbstractContextManager[None]]
    sections: Callable[[int], list[SectionRow]]
    iter_blocks: Callable[..., Generator[tuple[int, str], None, None]]
    section_count: Callable[[int], int]

    def search_sections(self, store_id: int, query: str, k: int = 10) -> list[tuple[int, float]]:
        """(section id, BM25 score; lower is better in SQLite, so it is negated) for the best k.
        The first search of a document builds its full-text index."""
        words = list(dict.fromkeys(query.split()))
        if not words:
            return []
        self.ensure_fts(store_id)
        table = _fts_table(store_id)
        match = fts_query(self._search_words(store_id, table, words))
        rows = self.db.execute(
            f"SELECT rowid, bm25({table}) AS score FROM {table} WHERE {table} MATCH ? "
            "ORDER BY score LIMIT ?",
            (match, k),
        ).fetchall()
        return [(sid, -score) for sid, score in rows]

    def _search_words(self, store_id: int, table: str, words: list[str]) -> list[str]:
        """The words worth searching for in a document of many sections (see `distinctive`)."""
        total = self.section_count(store_id)
        if len(words) < 2 or total < SMALL_INDEX:
            return words
        held = self._holding(table, {w: w.lower() for w in words})
        return distinctive(words, held, total)

    def sections_holding(self, store_id: int, terms: Sequence[IndexTerm]) -> list[int] | None:
        """The sections whose text holds the rarest of `terms`, by the full-text index (see
        `rows_holding`); None without a complete one."""
        if not terms or not self._fts_state(store_id)[1]:
            return None
        table = _fts_table(store_id)
        return rows_holding(self.db, table, self._vocab(table), terms, self.section_count(store_id))

    def _vocab(self, table: str) -> str:
        """The name of the table of `table`'s words and how many rows hold each (made once)."""
        vocab = f"temp.{table}_vocab"
        self.db.execute(
            f"CREATE VIRTUAL TABLE IF NOT EXISTS {vocab} USING fts5vocab(main, {table}, row)"
        )
        return vocab

    def _holding(self, table: str, terms: Mapping[str, str]) -> dict[str, int]:
        """How many sections hold each word (`terms`: each word's term in the index)."""
        counts = dict(
            self.db.execute(
                f"SELECT term, doc FROM {self._vocab(table)} "
                f"WHERE term IN ({','.join('?' * len(terms))})",
                list(terms.values()),
            )
        )
        return {word: counts.get(term, 0) for word, term in terms.items()}

    def ensure_fts(
        self, store_id: int, on_progress: Callable[[int, int], None] | None = None
    ) -> None:
        """Build the document's full-text index unless it is complete. Each step indexes about
        `fts_batch_chars` of section text and commits, so an interrupted build resumes where it
        stopped; on_progress(sections indexed, sections) is called after each step."""
        if self._fts_state(store_id)[1]:
            return
        rows = self.sections(store_id)
        spans = own_spans(rows)
        indexed = -1
        while indexed < len(rows):
            indexed = self._index_step(store_id, rows, spans)
            if on_progress is not None:
                on_progress(indexed, len(rows))

    def _fts_state(self, store_id: int) -> tuple[int, bool]:
        """(how many sections, in document order, are indexed; whether the index is complete)."""
        row = self.db.execute(
            "SELECT fts_next, fts_complete FROM documents WHERE id = ?", (store_id,)
        ).fetchone()
        if row is None:
            raise KeyError(f"no document {store_id}")
        return row[0], bool(row[1])

    def _index_step(
        self, store_id: int, rows: Sequence[SectionRow], spans: Sequence[tuple[int, int]]
    ) -> int:
        """Index the next sections not yet indexed, in one transaction (so two processes never
        index a section twice); returns how many sections are indexed now. A build that starts at
        the first section starts from an empty table."""
        with self._bulk():
            first, complete = self._fts_state(store_id)
            if complete:
                return len(rows)
            if first == 0:
                self._drop_fts(store_id)
            stop = _step_end(spans, first, self.fts_batch_chars)
            texts = self._span_texts(store_id, spans[first:stop])
            step = (
                (row.id, row.title, text) for row, text in zip(rows[first:stop], texts, strict=True)
            )
            self._index_sections(store_id, step, stop, complete=stop == len(rows))
        return stop

    def _index_sections(
        self, store_id: int, rows: Iterable[tuple[int, str, str]], indexed: int, complete: bool
    ) -> None:
        """Add (section id, title, own text) rows to the document's index and record the
        progress."""
        table = _fts_table(store_id)
        self.db.execute(_FTS_TABLE.format(table=table))
        self.db.executemany(f"INSERT INTO {table} (rowid, title, body) VALUES (?, ?, ?)", rows)
        self.db.execute(
            "UPDATE documents SET fts_next = ?, fts_complete = ? WHERE id = ?",
            (indexed, complete, store_id),
        )

    def _drop_fts(self, store_id: int) -> None:
        self.db.execute(f"DROP TABLE IF EXISTS {_fts_table(store_id)}")
        self.db.execute(
            "UPDATE documents SET fts_next = 0, fts_complete = 0 WHERE id = ?", (store_id,)
        )

    def _span_texts(self, store_id: int, spans: Sequence[tuple[int, int]]) -> Iterator[str]:
        """The text of each span, from one forward pass over the stored blocks; only the blocks
        under the current span are held. The spans ascend and do not overlap."""
        if not spans:
            return
        blocks = self.iter_blocks(store_id, spans[0][0], spans[-1][1])
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


def distinctive(
    words: list[str],
    held: Mapping[str, int],
    total: int,
    common: float = 0.1,
    postings: int = 10_000,
) -> list[str]:
    """Of `words` (`held`: how many of the `total` rows hold each), those that at most `common`
    of the rows hold (BM25 weighs the others near zero, and each makes a search of a large index
    read a long list), or the two rarest if all are that common; of those, the rarest while the
    rows holding them number at most `postings` in all, and the rarest one always."""
    limit = common * total
    kept = [w for w in words if held.get(w, 0) <= limit] or sorted(
        words, key=lambda w: held.get(w, 0)
    )[:2]
    chosen: set[str] = set()
    count = 0
    for word in sorted(kept, key=lambda w: held.get(w, 0)):
        count += held.get(word, 0)
        if chosen and count > postings:
            break
        chosen.add(word)
    return [w for w in kept if w in chosen]


def rows_holding(
    db: sqlite3.Connection, table: str, vocab: str, terms: Sequence[IndexTerm], total: int
) -> list[int] | None:
    """The rows of the full-text `table` (`vocab`: its fts5vocab table, `total`: its rows) holding
    the rarest of `terms`, in order; None when there are no terms, or the rarest is in over a tenth
    of the rows (reading them all is then about as fast as reading around each)."""
    if not terms:
        return None
    held = {term: _rows_with(db, vocab, term) for term in terms}
    rarest = min(terms, key=held.__getitem__)
    if held[rarest] > 0.1 * total:
        return None
    match = f'"{rarest.word}"' + ("" if rarest.whole else " *")
    rows = db.execute(f"SELECT rowid FROM {table} WHERE {table} MATCH ? ORDER BY rowid", (match,))
    return [row for (row,) in rows]


def _rows_with(db: sqlite3.Connection, vocab: str, term: IndexTerm) -> int:
    """How many rows hold the term: exactly for a whole word, at most for the start of one (the
    rows holding each word it starts, summed)."""
    if term.whole:
        found = db.execute(f"SELECT doc FROM {vocab} WHERE term = ?", (term.word,)).fetchone()
    else:
        after = term.word[:-1] + chr(ord(term.word[-1]) + 1)  # the first word it does not start
        found = db.execute(
            f"SELECT sum(doc) FROM {vocab} WHERE term >= ? AND term < ?", (term.word, after)
        ).fetchone()
    return int(found[0] or 0) if found else 0


def fts_query(words: Iterable[str]) -> str:
    """An FTS5 query matching any of `words` (each quoted, so no word is read as an operator): the
    first MAX_QUERY_WORDS distinct ones (an FTS5 query costs about the square of its words)."""
    distinct = dict.fromkeys(w for w in (w.replace('"', " ").strip() for w in words) if w)
    return " OR ".join(f'"{w}"' for w in list(distinct)[:MAX_QUERY_WORDS])


def _step_end(spans: Sequence[tuple[int, int]], first: int, chars: int) -> int:
    """Where a step of the full-text build that starts at span `first` ends: after about `chars`
    characters of text, and after one span at least."""
    stop, size = first, 0
    while stop < len(spans) and (stop == first or size < chars):
        size += spans[stop][1] - spans[stop][0]
        stop += 1
    return stop


def _fts_table(store_id: int) -> str:
    return f"section_fts_{int(store_id)}"
