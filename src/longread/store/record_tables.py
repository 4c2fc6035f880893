"""The records found in documents, stored as tables: one physical table per record shape (a name,
a kind and typed columns), shared by every document whose records have that shape, each row with
its document and its [start, end) in the document's text. `record_scans` says which documents have
been read for records, and by which version of the finders."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from operator import itemgetter
from typing import Any

from longread.store.connection import bulk, first_value

RECORDS_SCHEMA = """
CREATE TABLE IF NOT EXISTS record_tables (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    columns TEXT NOT NULL,  -- JSON [[name, type, role, [aliases…]]…]
    nouns TEXT NOT NULL DEFAULT '[]',
    signature TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS record_counts (
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    table_id INTEGER NOT NULL REFERENCES record_tables(id),
    rows INTEGER NOT NULL,
    PRIMARY KEY (doc_id, table_id)
);
CREATE TABLE IF NOT EXISTS record_values (
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    table_id INTEGER NOT NULL REFERENCES record_tables(id),
    name TEXT NOT NULL,  -- the column
    value,  -- NULL: the rows whose values are not listed (a column of too many values)
    n INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS record_values_by_column ON record_values (table_id, name, doc_id);
CREATE TABLE IF NOT EXISTS record_scans (
    doc_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
    version INTEGER NOT NULL
);
"""
Counts = tuple[Sequence[tuple[Any, int]], int]  # (values listed with their rows, rows not listed)
Columns = tuple[
    str,
    str,
    Sequence["StoredColumn"],
    Sequence[str],
    Sequence[int],
    Sequence[int],
    Sequence[Any],
    Sequence[Counts],
]  # (name, kind, columns, nouns, starts, ends, values column by column, counts column by column)
ROWS_PER_INSERT = 200
MAX_PARAMETERS = 32_766  # (SQLite's bound on a statement's parameters since 3.32)
_SQL_TYPES = {"number": "NUMERIC", "date": "TEXT", "text": "TEXT"}


@dataclass(frozen=True)
class StoredColumn:
    name: str
    type: str  # text, number, date
    role: str = ""
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class StoredTable:
    """One physical record table: `physical` is its SQL name (`records_3`)."""

    id: int
    name: str
    kind: str
    columns: tuple[StoredColumn, ...]
    nouns: tuple[str, ...]

    @property
    def physical(self) -> str:
        return f"records_{self.id}"


def quoted(name: str) -> str:
    """An SQL identifier, quoted."""
    return '"' + name.replace('"', '""') + '"'


class Records:
    """The record tables, over a store's connection."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def version(self, store_id: int) -> int | None:
        """The finders' version the document was read with for records, None if never."""
        return first_value(
            self.db, "SELECT version FROM record_scans WHERE doc_id = ?", (store_id,)
        )

    def save(self, store_id: int, tables: Iterable[Columns], version: int) -> None:
        """Replace the document's records: each table given as (name, kind, columns, nouns,
        starts, ends, values column by column, and each column's value counts)."""
        with bulk(self.db):
            self.drop(store_id)
            filled: dict[int, tuple[StoredTable, bool, list[tuple[Any, ...]]]] = {}
            for table_name, kind, columns, nouns, starts, ends, values, counts in tables:
                stored, made = self._table_for(table_name, kind, tuple(columns), tuple(nouns))
                rows = filled.setdefault(stored.id, (stored, made, []))[2]
                rows += zip(repeat(store_id), starts, ends, *values)  # (one shape: one table)
                for column, (listed, unlisted) in zip(stored.columns, counts, strict=True):
                    rows = [*listed, *([(None, unlisted)] if unlisted else [])]
                    self.db.executemany(
                        "INSERT INTO record_values VALUES (?, ?, ?, ?, ?)",
                        [(store_id, stored.id, column.name, v, n) for v, n in rows],
                    )
            for stored, made, rows in filled.values():
                self._fill(store_id, stored, made, rows)
            self.db.execute(
                "INSERT OR REPLACE INTO record_scans VALUES (?, ?)", (store_id, version)
            )

    def _fill(
        self, store_id: int, stored: StoredTable, made: bool, rows: list[tuple[Any, ...]]
    ) -> None:
        """A document's rows of one table, stored in the text's order (so reading the table in
        its stored order reads them so, without a sort)."""
        rows.sort(key=itemgetter(1))
        names = ", ".join(quoted(c.name) for c in stored.columns)
        self._insert(f'INSERT INTO {stored.physical} (doc_id, start, "end", {names})', rows)
        if made:  # (indexed once filled: faster than row by row)
            self.db.execute(
                f"CREATE INDEX {stored.physical}_by_doc ON {stored.physical} (doc_id, start)"
            )
        self.db.execute(
            "INSERT INTO record_counts VALUES (?, ?, ?)", (store_id, stored.id, len(rows))
        )

    def _insert(self, head: str, rows: list[tuple[Any, ...]]) -> None:
        """The rows inserted by `head` (`INSERT INTO t (…)`), many to a statement: binding a
        statement's rows at once costs about half of binding them one by one."""
        width = len(rows[0]) if rows else 1
        per = max(1, min(ROWS_PER_INSERT, MAX_PARAMETERS // width))
        one = f"({', '.join('?' * width)})"
        whole = len(rows) - len(rows) % per
        self.db.executemany(
            f"{head} VALUES {', '.join([one] * per)}",
            (list(chain.from_iterable(rows[at : at + per])) for at in range(0, whole, per)),
        )
        self.db.executemany(f"{head} VALUES {one}", rows[whole:])

    def _table_for(
        self, name: str, kind: str, columns: tuple[StoredColumn, ...], nouns: tuple[str, ...]
    ) -> tuple[StoredTable, bool]:
        """The physical table of this shape, and whether it was made now (on first use)."""
        signature = json.dumps([name, kind, [(c.name, c.type, c.role, c.aliases) for c in columns]])
        row = self.db.execute(
            "SELECT id, nouns FROM record_tables WHERE signature = ?", (signature,)
        ).fetchone()
        if row is None:
            described = json.dumps([[c.name, c.type, c.role, list(c.aliases)] for c in columns])
            cursor = self.db.execute(
                "INSERT INTO record_tables (name, kind, columns, nouns, signature) "
                "VALUES (?, ?, ?, ?, ?)",
                (name, kind, described, json.dumps(list(nouns)), signature),
            )
            stored = StoredTable(cursor.lastrowid or 0, name, kind, columns, nouns)
            body = ", ".join(f"{quoted(c.name)} {_SQL_TYPES[c.type]}" for c in columns)
            self.db.execute(
                f"CREATE TABLE {stored.physical} (doc_id INTEGER NOT NULL, start INTEGER NOT "
                f'NULL, "end" INTEGER NOT NULL, {body})'
            )
            return stored, True
        held = tuple(json.loads(row[1]))
        merged = tuple(dict.fromkeys((*held, *nouns)))  # (`play` of a folder's plays, its README)
        if merged != held:
            self.db.execute(
                "UPDATE record_tables SET nouns = ? WHERE id = ?", (json.dumps(merged), row[0])
            )
        return StoredTable(row[0], name, kind, columns, merged), False

    def tables(self, store_ids: Sequence[int] | None = None) -> list[tuple[StoredTable, int]]:
        """Each stored record table holding rows of these documents (all for None), with how
        many rows they hold, in the order the tables were made."""
        query = (
            "SELECT t.id, t.name, t.kind, t.columns, t.nouns, sum(c.rows) FROM record_tables t "
            "JOIN record_counts c ON c.table_id = t.id"
        )
        args: list[int] = []
        if store_ids is not None:
            query += f" WHERE c.doc_id IN ({', '.join('?' * len(store_ids))})"
            args = list(store_ids)
        found = []
        for table_id, name, kind, columns, nouns, rows in self.db.execute(
            query + " GROUP BY t.id ORDER BY t.id", args
        ):
            stored_columns = tuple(
                StoredColumn(n, t, r, tuple(a)) for n, t, r, a in json.loads(columns)
            )
            found.append(
                (StoredTable(table_id, name, kind, stored_columns, tuple(json.loads(nouns))), rows)
            )
        return found

    def values(
        self, tables: Sequence[StoredTable], column: str, store_ids: Sequence[int]
    ) -> tuple[list[tuple[Any, int]], int]:
        """A column's values in these tables' rows of these documents, with the rows holding
        each, and how many rows hold a value not listed (the column has too many to list). The
        ids are bound as one JSON list each, however many they are."""
        found = self.db.execute(
            "SELECT value, sum(n) FROM record_values WHERE name = ? "
            "AND table_id IN (SELECT value FROM json_each(?)) "
            "AND doc_id IN (SELECT value FROM json_each(?)) GROUP BY value",
            (column, json.dumps([t.id for t in tables]), json.dumps(list(store_ids))),
        ).fetchall()
        unlisted = sum(n for v, n in found if v is None)
        return [(v, n) for v, n in found if v is not None], unlisted

    def drop(self, store_id: int) -> None:
        """Delete a document's records (and tables left empty), in the caller's transaction."""
        for (table_id,) in self.db.execute(
            "SELECT table_id FROM record_counts WHERE doc_id = ?", (store_id,)
        ).fetchall():
            self.db.execute(f"DELETE FROM records_{int(table_id)} WHERE doc_id = ?", (store_id,))
        self.db.execute("DELETE FROM record_counts WHERE doc_id = ?", (store_id,))
        self.db.execute("DELETE FROM record_values WHERE doc_id = ?", (store_id,))
        self.db.execute("DELETE FROM record_scans WHERE doc_id = ?", (store_id,))
