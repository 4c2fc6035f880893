"""Where the codes a question names are held in a source's record tables: each word written as a
code (a digit in it, or all capitals: an id, a version, a hash) that is a whole value of a column,
with the rows holding it (`'1d6b' is a value of vendor.vendor (1 row)`). A model writing a query
learns which column to filter on; code finds the values, no word is read for its meaning."""

from __future__ import annotations

import re

from longread.query.core.catalog import SCAN_ROWS, Catalog
from longread.query.core.keys import key
from longread.query.core.schema_prompt import STRUCTURAL, literal

HINTS = 8  # words hinted at most
PLACES = 3  # columns named for one word at most
_TOKEN = re.compile(r"[^\s,;?!()\"“”'‘’]+")
_CODE = re.compile(r"\d|^[A-Z][A-Z0-9_-]+$")  # a word with a digit, or in capitals: a code


def value_hints(question: str, catalog: Catalog) -> list[str]:
    """One line per code of the question held as a whole value of a record table's column (case
    aside), the columns holding it and how many rows."""
    words = _codes(question)
    if not words:
        return []
    places: dict[str, list[str]] = {}
    for table in catalog.tables.values():
        if table.name in STRUCTURAL:
            continue
        for column in table.columns:
            if column.type == "number" or column.name == "document":
                continue
            for value, rows in _held(catalog, table.name, column.name, table.rows, words):
                said = f"{table.name}.{column.name} ({rows:,} row{'s' if rows != 1 else ''})"
                places.setdefault(key(str(value)), []).append(said)
    lines: list[str] = []
    for word in words:
        found = places.get(key(word))
        if found and len(lines) < HINTS:
            more = f" and {len(found) - PLACES} more" if len(found) > PLACES else ""
            lines.append(f"{literal(word)} is a value of {', '.join(found[:PLACES])}{more}")
    return lines


def _codes(question: str) -> list[str]:
    """The question's codes and their parts (`046d:c52b`, `046d`, `c52b`), as typed."""
    found: list[str] = []
    for token in _TOKEN.findall(question):
        token = token.strip(".:")
        parts = [token, *re.split(r"[:/]", token)]  # (a token with no mark: itself twice)
        found += [p for p in parts if len(p) > 1 and is_code(p)]
    return list(dict.fromkeys(found))


def is_code(word: str) -> bool:
    """Whether a word is written as a code: a digit in it, or all capitals (`1d6b`, `LTS`)."""
    return _CODE.search(word) is not None


def _held(
    catalog: Catalog, table: str, column: str, rows: int, words: list[str]
) -> list[tuple[object, int]]:
    """The column's values that are one of the words (case aside), with their rows: a listed
    column's compared in memory, another's by a bounded query."""
    keys = {key(w) for w in words}
    if catalog.listed(table, column):
        return [(v, n) for v, n in catalog.values(table, column) if key(str(v)) in keys]
    if rows > SCAN_ROWS:
        return []
    return catalog.holding(table, column, [w.lower() for w in words])
