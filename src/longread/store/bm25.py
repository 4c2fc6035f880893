"""BM25 as SQLite's FTS5 computes it (`bm25()`: k1 1.2, b 0.75, column weights scaling a word's
frequency, a row's length in all its columns), from statistics that can be summed over several
full-text tables: a corpus split into shards scores each document as one table would. The
statistics are read from FTS5's own records (the row count and token totals it keeps, each
row's column sizes, its vocabulary), so nothing is tokenized twice."""

from __future__ import annotations

import math
import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

K1, B = 1.2, 0.75
MIN_IDF = 1e-6  # FTS5's floor for a word most rows hold
_AVERAGES_ROW = 1  # the %_data record of the row count and each column's token total


@dataclass(frozen=True)
class Stats:
    """What BM25 needs of the whole collection: rows, tokens in all their columns, and how many
    rows hold each word searched for."""

    rows: int
    tokens: int
    held: Mapping[str, int]

    def __add__(self, other: Stats) -> Stats:
        held = {w: self.held.get(w, 0) + other.held.get(w, 0) for w in {*self.held, *other.held}}
        return Stats(self.rows + other.rows, self.tokens + other.tokens, held)

    def idf(self, word: str) -> float:
        held = self.held.get(word, 0)
        return max(math.log((self.rows - held + 0.5) / (held + 0.5)), MIN_IDF)


def table_stats(db: sqlite3.Connection, table: str, vocab: str, words: Sequence[str]) -> Stats:
    """The statistics of one FTS5 `table` (`vocab`: an fts5vocab `row` table over it) for
    `words`, as the index spells them; as last committed (FTS5 writes its totals when a
    transaction ends)."""
    record = db.execute(f"SELECT block FROM {table}_data WHERE id = ?", (_AVERAGES_ROW,)).fetchone()
    rows, *columns = varints(record[0]) if record and record[0] else (0,)
    marks = ",".join("?" * len(words))
    held = dict(db.execute(f"SELECT term, doc FROM {vocab} WHERE term IN ({marks})", words))
    return Stats(rows, sum(columns), {w: held.get(w, 0) for w in words})


def scores(
    db: sqlite3.Connection,
    table: str,
    instances: str,
    words: Sequence[str],
    weights: Mapping[str, float],
    stats: Stats,
) -> dict[int, float]:
    """rowid -> BM25 score (higher is better) of every row of `table` holding any of `words`,
    under the collection-wide `stats` (`instances`: an fts5vocab `instance` table over it;
    `weights`: per column name, 1.0 where not given)."""
    if not words or not stats.rows:
        return {}
    frequency: dict[int, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    marks = ",".join("?" * len(words))
    for word, row, column, count in db.execute(
        f"SELECT term, doc, col, count(*) FROM {instances} WHERE term IN ({marks}) "
        "GROUP BY term, doc, col",
        words,
    ):
        frequency[row][word] += weights.get(column, 1.0) * count
    lengths = row_lengths(db, table, frequency)
    average = stats.tokens / stats.rows
    return {
        row: sum(
            stats.idf(word) * f * (K1 + 1) / (f + K1 * (1 - B + B * lengths[row] / average))
            for word, f in found.items()
        )
        for row, found in frequency.items()
    }


def row_lengths(db: sqlite3.Connection, table: str, rows: Iterable[int]) -> dict[int, int]:
    """rowid -> tokens in all its columns, from FTS5's record of each row's column sizes."""
    wanted = list(rows)
    lengths: dict[int, int] = {}
    for start in range(0, len(wanted), 500):
        part = wanted[start : start + 500]
        marks = ",".join("?" * len(part))
        for row, sizes in db.execute(
            f"SELECT id, sz FROM {table}_docsize WHERE id IN ({marks})", part
        ):
            lengths[row] = sum(varints(sizes))
    return lengths


def varints(blob: bytes) -> list[int]:
    """The integers of an SQLite varint sequence (big-endian groups of 7 bits, a set high bit
    for more to come; a ninth byte gives all 8 bits)."""
    values, at = [], 0
    while at < len(blob):
        value = 0
        for position in range(9):
            byte = blob[at]
            at += 1
            if position == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if byte < 0x80:
                break
        values.append(value)
    return values
