"""A column no header names (`column_3` of a headerless table) named by what it holds: numbers,
dates, paths, addresses, links, codes, names, a few categories or long text; the name given is a
word of that kind (`path`, `code`, `category`), its values shown beside it to whoever reads the
table. A column of none of these kinds keeps its number."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from longread.ingest.records.cells import ColumnType

UNNAMED = re.compile(r"(?:c_)?column(?:_\d+)?")  # (what `identifier` calls an empty header)
SAMPLE = 500
SHARE = 0.9  # of the values that must be of a kind to name the column so
CATEGORIES = 20  # distinct values a column of categories holds at most
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_NAME_WORD = re.compile(r"[A-Z][\w'’.-]*")


def content_name(kind: ColumnType, values: Sequence[Any]) -> str | None:
    """The kind of thing a column's values are, as a column name (None: of no one kind)."""
    if kind is ColumnType.NUMBER:
        return "number"
    if kind is ColumnType.DATE:
        return "date"
    held = [str(v) for v in values[:SAMPLE] if v is not None and str(v).strip()]
    if not held:
        return None

    def most(test: Any) -> bool:
        return sum(1 for v in held if test(v)) >= SHARE * len(held)

    if most(lambda v: "://" in v):
        return "link"
    if most(lambda v: _EMAIL.fullmatch(v) is not None):
        return "email"
    if most(lambda v: "/" in v and " " not in v):
        return "path"
    if most(lambda v: 1 < len(v.split()) <= 4 and all(_NAME_WORD.fullmatch(w) for w in v.split())):
        return "name"  # (`Ada Brant`: capitalized words, two to four)
    if len(set(held)) <= CATEGORIES and len(held) >= 3 * len(set(held)):
        return "category"
    if most(
        lambda v: " " not in v and len(v) <= 16 and (any(c.isdigit() for c in v) or v.isupper())
    ):
        return "code"
    if sum(len(v) for v in held) / len(held) > 40:
        return "text"
    return None
