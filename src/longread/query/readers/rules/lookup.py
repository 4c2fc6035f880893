"""A fact one row of a table states: a question asking which or what (`Which version of numpy is
installed?`, `What is the hp of the Maserati Bora?`) that names a column of a table and a value
of another of its columns held by a few rows is answered with the column's values in those rows,
by code, citing them."""

from __future__ import annotations

import re

from longread.query.core.catalog import CatalogTable
from longread.query.readers.rules.links import STRUCTURAL
from longread.query.readers.rules.reading import Reading

MAX_ROWS = 20  # rows a value looked up may be held by (more: the question asks of many)
_ASKS = re.compile(r"^\s*(?:(?:in|on|at|for|of|from|to|by|with)\s+)?(?:which|what)\b", re.I)


def asks_which(question: str) -> bool:
    """Whether the question asks which or what (`Which version…`, `In what year…`)."""
    return _ASKS.match(question) is not None


def looked_up(reading: Reading) -> CatalogTable | None:
    """The record table the question looks a fact up in, if it asks which or what, names one of
    the table's columns (not a section's: where, not what) and a value of another held by
    MAX_ROWS rows at most."""
    if not asks_which(reading.asked):
        return None
    for table in reading.catalog.tables.values():
        if table.name in STRUCTURAL:
            continue
        own = reading.own(table)
        columns = {
            lk.column
            for lk in own
            if lk.what == "column"
            and getattr(table.column(lk.column or ""), "role", "") != "section"
        }
        values = [lk for lk in own if lk.what == "value" and lk.column not in columns]
        if columns and values and all(_rows(reading, table, lk.column, lk.value) for lk in values):
            return table
    return None


def _rows(reading: Reading, table: CatalogTable, column: str | None, values: tuple) -> bool:
    """Whether a few rows hold one of these values in the column."""
    counts = dict(reading.catalog.values(table.name, column or ""))
    held = sum(counts.get(value, 0) for value in values)
    return 0 < held <= MAX_ROWS
