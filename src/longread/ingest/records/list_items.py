"""The items of bulleted or numbered lists (`- Added …`, `* Fixed …`, `3. …`): each item a record,
its text the item's own lines (a line indented under it goes on; a deeper item is part of it),
with the section it stands in, as every table has: a changelog's changes under each release, a
report's findings. A text of few list items has no such table."""

from __future__ import annotations

import re

from longread.ingest.records.cells import ColumnType
from longread.ingest.records.kind import lines
from longread.ingest.records.table import Column, Role, Table, build

name = "list"
NOUNS = ("item", "point", "bullet")
WHOLE: tuple[str, ...] = ()
MIN_ITEMS = 10  # a text's items at its outer depth, for a table
SAMPLE_ITEMS = 3  # items a sample must show
_ITEM = re.compile(r"([ \t]{0,3})(?:[-*+•]|\d{1,3}[.)])[ \t]+(?=\S)")
_COLUMNS = (Column("text", ColumnType.TEXT, Role.BODY, aliases=("item", "description")),)


def opens_item(line: str) -> bool:
    """Whether the line opens a list's item (`- …`, `3. …`)."""
    return _ITEM.match(line) is not None


def detect(sample: str) -> bool:
    return sum(1 for _ in _items(sample)) >= SAMPLE_ITEMS


def records(text: str, file_name: str) -> list[Table]:
    items = list(_items(text))
    if len(items) < MIN_ITEMS:
        return []
    cells = [(s, e, [" ".join(text[b:e].split())]) for s, b, e in items]
    return [build("items", name, list(_COLUMNS), cells, NOUNS)]


def _items(text: str) -> list[tuple[int, int, int]]:
    """(start, where its words begin, end) of each item at the text's outer depth of items: its
    line, and the lines after it that are indented past its mark (not blank, not a new item at
    its depth)."""
    found: list[tuple[int, int, int]] = []
    depth: int | None = None
    open_item: list[int] | None = None  # [start, words, end, indent of its words]
    for start, end in lines(text):
        line = text[start:end]
        match = _ITEM.match(line)
        indent = len(line) - len(line.lstrip(" \t"))
        if match and (depth is None or len(match.group(1)) <= depth):
            depth = len(match.group(1)) if depth is None else depth
            if open_item is not None:
                found.append((open_item[0], open_item[1], open_item[2]))
            open_item = [start, start + match.end(), end, match.end()]
        elif open_item is not None and line.strip() and indent >= min(open_item[3], 2):
            open_item[2] = end  # (the item goes on, or holds a deeper item)
        elif open_item is not None:
            found.append((open_item[0], open_item[1], open_item[2]))
            open_item = None
    if open_item is not None:
        found.append((open_item[0], open_item[1], open_item[2]))
    return found
