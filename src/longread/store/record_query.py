"""Reading record tables, and nothing else, with SQL: a connection opened read-only on the stores
that hold a source's documents, a view per record table of the source (see record_views), and an
authorizer that lets a statement read those views and call a few functions, nothing more. Every
statement is bounded in time (a progress handler) and in the rows it returns."""

from __future__ import annotations

import math
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from longread.errors import InputError
from longread.store.record_tables import quoted
from longread.store.record_views import View, view_statements

MAX_ROWS = 1_000  # rows a statement returns at most (more are counted as cut)
MAX_SECONDS = 5.0
MAX_VALUE_BYTES = 1_000_000  # the longest string or blob a statement may make
MAX_RESULT_BYTES = 32_000_000  # of strings and blobs a result holds, counted as rows are read
MAX_COLUMNS = 64  # a result's columns at most (or the widest table's, and a few more)
MAX_TERM_CHARS = 500  # a term mentions() looks for
MAX_SQL_CHARS = 100_000
_FUNCTIONS = frozenset(
    "abs avg count max min sum total group_concat lower upper length substr substring trim "
    "ltrim rtrim replace instr coalesce ifnull nullif round cast typeof date time datetime "
    "julianday strftime like glob iif mentions words unicode char hex quote".split()
)
_ALLOWED = {
    sqlite3.SQLITE_SELECT,
    sqlite3.SQLITE_READ,
    sqlite3.SQLITE_FUNCTION,
}


class QueryError(InputError):
    """A statement that may not run here, or failed, or ran out of time."""


@dataclass
class Result:
    columns: list[str]
    rows: list[tuple[Any, ...]]
    cut: bool  # more rows than were returned
    seconds: float


@lru_cache(maxsize=256)
def word_pattern(term: str) -> re.Pattern[str]:
    """A phrase as whole words, any space between them, in any case."""
    words = r"\s+".join(map(re.escape, term.split()))
    return re.compile(rf"(?<!\w){words}(?!\w)", re.IGNORECASE)


def mentions(text: object, term: object) -> int:
    """How many times `term` stands in `text` as whole words, in any case (a term of over
    MAX_TERM_CHARS is refused: the statement fails)."""
    if not isinstance(text, str) or not isinstance(term, str) or not term.split():
        return 0
    if len(term) > MAX_TERM_CHARS:
        raise ValueError(f"mentions() looks for a term of {MAX_TERM_CHARS} characters at most")
    return sum(1 for _ in word_pattern(term).finditer(text))


def _fetched(cursor: sqlite3.Cursor, most: int) -> list[tuple[Any, ...]]:
    """Up to `most` rows of the cursor, read one at a time; past MAX_RESULT_BYTES of strings
    and blobs, refused (before the rest is read)."""
    rows: list[tuple[Any, ...]] = []
    size = 0
    while len(rows) < most and (row := cursor.fetchone()) is not None:
        size += sum(len(v) for v in row if isinstance(v, str | bytes))
        if size > MAX_RESULT_BYTES:
            raise ValueError(
                f"its result is too large (over {MAX_RESULT_BYTES // 1_000_000} MB of text): "
                "select fewer rows or shorter values"
            )
        rows.append(row)
    return rows


def words(text: object) -> int:
    return len(text.split()) if isinstance(text, str) else 0


class RecordQuery:
    """A read-only SQL connection over the views of a source's record tables."""

    def __init__(self, views: Sequence[View], names: dict[tuple[Path, int], str]):
        databases = sorted({part.database for view in views for part in view.parts})
        self.views = {view.name: view for view in views}
        self._lock = threading.Lock()
        self._deadline = 0.0
        first = databases[0] if databases else None
        self.db = sqlite3.connect(
            f"file:{first}?mode=ro" if first else ":memory:", uri=True, check_same_thread=False
        )
        aliases = {path: "main" if path == first else f"s{n}" for n, path in enumerate(databases)}
        for path, alias in aliases.items():
            if alias != "main":
                self.db.execute(f"ATTACH DATABASE ? AS {alias}", (f"file:{path}?mode=ro",))
        self.db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
        widest = max((len(view.columns) for view in views), default=0)
        self.db.setlimit(sqlite3.SQLITE_LIMIT_COLUMN, max(MAX_COLUMNS, widest + 8))
        self.db.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, len(databases))
        self._failed = ""  # (what a function of ours said when it refused its arguments)
        self.db.create_function("mentions", 2, self._said(mentions), deterministic=True)
        self.db.create_function("words", 1, words, deterministic=True)
        self.db.execute(
            "CREATE TEMP TABLE _docs (db TEXT, id INTEGER, name TEXT, PRIMARY KEY (db, id))"
        )
        self.db.executemany(
            "INSERT INTO temp._docs VALUES (?, ?, ?)",
            [
                (aliases[path], store_id, name)
                for (path, store_id), name in names.items()
                if path in aliases
            ],
        )
        self._readable = {  # (database, table): a view of the source's tables reads only these
            (aliases[p.database], p.table.physical) for v in views for p in v.parts
        }
        self._readable.add(("temp", "_docs"))
        for view in views:
            for sql in view_statements(view, aliases, names):
                self.db.execute(sql)
            self._readable.add(("temp", view.name))
        self.db.setlimit(sqlite3.SQLITE_LIMIT_SQL_LENGTH, MAX_SQL_CHARS)  # (the views made)
        self.db.set_progress_handler(self._late, 10_000)

    def _said(self, function: Callable[..., Any]) -> Callable[..., Any]:
        """`function`, with what it says when it refuses its arguments kept for the error."""

        def called(*args: Any) -> Any:
            try:
                return function(*args)
            except ValueError as error:
                self._failed = str(error)
                raise

        return called

    def _late(self) -> int:
        return int(time.monotonic() > self._deadline)

    def _authorize(
        self, action: int, arg1: str | None, arg2: str | None, database: str | None, *_: object
    ) -> int:
        if action not in _ALLOWED:
            return sqlite3.SQLITE_DENY
        where = database or "temp"  # (a view read whole, `count(*)`, names no database)
        if action == sqlite3.SQLITE_READ and (where, arg1) not in self._readable:
            return sqlite3.SQLITE_DENY
        if action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() not in _FUNCTIONS:
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK

    def execute(
        self,
        sql: str,
        params: Sequence[Any] = (),
        max_rows: int = MAX_ROWS,
        seconds: float = MAX_SECONDS,
    ) -> Result:
        """Run one reading statement: its rows (at most `max_rows`), within `seconds`."""
        started = time.monotonic()
        with self._lock:
            self._deadline = started + seconds
            self._failed = ""
            self.db.set_authorizer(self._authorize)
            try:
                cursor = self.db.execute(sql, tuple(params))
                rows = _fetched(cursor, max_rows + 1)
                columns = [d[0] for d in cursor.description or ()]
            except sqlite3.DatabaseError as error:
                message = str(error)
                if "interrupted" in message:
                    message = f"the statement ran past {seconds:g} s and was stopped"
                elif "too big" in message or "too many columns" in message:
                    message = f"a value or row it makes is too large ({message})"
                elif "user-defined function raised exception" in message:
                    message = self._failed or message
                elif "not authorized" in message or "prohibited" in message:
                    message = "only reading the record tables is allowed (" + message + ")"
                raise QueryError(f"SQL refused or failed: {message}") from None
            except (sqlite3.Warning, ValueError, OverflowError) as error:
                raise QueryError(f"SQL refused: {error}") from None
            finally:
                self.db.set_authorizer(None)
        cut = len(rows) > max_rows
        return Result(columns, rows[:max_rows], cut, time.monotonic() - started)

    def text_order(self, view: str) -> str:
        """The ORDER BY that puts the view's rows in the text's order: the order they are stored
        in where they are one document's rows of one table (read without a sort, so the first
        rows come at once), else by document and place."""
        parts = self.views[view].parts if view in self.views else ()
        return "_row" if len(parts) == 1 and len(parts[0].store_ids) == 1 else "document, _start"

    def rows(self, view: str) -> Iterator[tuple[Any, ...]]:
        """Every row of a view, in the text's order, column names first (for an export: no
        limit; not for statements a model writes)."""
        columns = ", ".join(quoted(c.name) for c in self.views[view].columns)
        with self._lock:
            self._deadline = math.inf  # (an earlier statement's is long past)
            cursor = self.db.execute(
                f"SELECT document, _start, _end, {columns} FROM {quoted(view)} "
                f"ORDER BY {self.text_order(view)}"
            )
            yield tuple(d[0] for d in cursor.description)
            yield from cursor

    def add_table(self, name: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        """A temporary table of rows found at question time (a word's mentions, figures a text
        states), readable like the record tables."""
        with self._lock:
            self.db.execute(f"DROP TABLE IF EXISTS temp.{quoted(name)}")
            body = ", ".join(quoted(c) for c in columns)
            self.db.execute(f"CREATE TEMP TABLE {quoted(name)} ({body})")
            marks = ", ".join("?" * len(columns))
            self.db.executemany(f"INSERT INTO temp.{quoted(name)} VALUES ({marks})", rows)
            self._readable.add(("temp", name))

    def close(self) -> None:
        self.db.close()
