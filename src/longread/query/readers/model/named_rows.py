"""Whether a question names a few rows of a record table by a value they hold: a code, an id, a
version or a hash prefix (`Who wrote commit 3f2a9c?`, `What is the date of version 1.2.3?`), or a
name a few rows start with (`the Maserati Bora`). Such a question is a lookup the tables answer,
though it asks for no count. Code compares the question's words with the values held; no word of
the question is read for its meaning."""

from __future__ import annotations

import re

from longread.query.core.catalog import SCAN_ROWS, Catalog
from longread.query.core.keys import key
from longread.query.core.schema_prompt import STRUCTURAL
from longread.query.core.value_hints import is_code
from longread.store.record_query import QueryError
from longread.store.record_tables import quoted

MAX_ROWS = 20  # rows a value names at most (more: the question asks about many)
MIN_CHARS = 4  # a shorter word names no row
_TOKEN = re.compile(r"[^\s,;:?!()\"“”]+")


def names_rows(question: str, catalog: Catalog) -> bool:
    """Whether a word of the question starts the values of 1 to MAX_ROWS rows of a record table
    (a listed column's values compared in memory; a column of too many values, for a word
    written as a code, by a bounded query)."""
    words = [w.strip(".'’") for w in _TOKEN.findall(question)]
    words = [w for w in words if len(w) >= MIN_CHARS]
    codes = [w for w in words if is_code(w)]
    for table in catalog.tables.values():
        if table.name in STRUCTURAL:
            continue
        for column in table.columns:
            if column.type == "number":
                continue
            if catalog.listed(table.name, column.name):
                if _starts_few(words, catalog.values(table.name, column.name)):
                    return True
            elif (
                codes
                and table.rows <= SCAN_ROWS
                and _held_by_few(catalog, table.name, column.name, codes)
            ):
                return True
    return False


def _starts_few(words: list[str], values: list[tuple[object, int]]) -> bool:
    """Whether a word is a value, or starts values (a name's first word, a hash's first six
    characters), held by 1 to MAX_ROWS rows in all."""
    held = [(key(str(value)), rows) for value, rows in values]
    for word in words:
        k = key(word)
        if not k:
            continue
        rows = sum(
            n for v, n in held if v == k or v.startswith(k + " ") or len(k) >= 6 and v.startswith(k)
        )
        if 0 < rows <= MAX_ROWS:
            return True
    return False


def _held_by_few(catalog: Catalog, table: str, column: str, codes: list[str]) -> bool:
    name = quoted(column)
    for code in codes:
        sql = (
            f"SELECT count(*) FROM (SELECT 1 FROM {quoted(table)} "
            f"WHERE lower(substr({name}, 1, ?)) = ? LIMIT {MAX_ROWS + 1})"
        )
        try:
            rows = catalog.query.execute(sql, [len(code), code.lower()], max_rows=1).rows
        except QueryError:
            return False
        if rows and 0 < rows[0][0] <= MAX_ROWS:
            return True
    return False
