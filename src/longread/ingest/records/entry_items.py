"""The items of lists that entries read whole hold (a Debian changelog entry's changes): each a
record with its entry's key (the entry table's first column whose values tell its rows apart,
`version`), so what one entry lists is counted by its key; items no entry holds are kept as
before, off every span another kind took."""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Sequence

from longread.ingest.records.cells import ColumnType
from longread.ingest.records.kind import Taken
from longread.ingest.records.table import Role, Table, identifier

KEYED = 0.9  # of an entry table's rows that hold distinct values in its key column


def keyed(items: Table, found: Sequence[Table], taken: Taken) -> Table:
    """`items` with a column of their entry's key, where entries of one table hold some: each
    item in an entry, or on no span taken."""
    for entries in found:
        key = _key(entries) if entries.kind == "template" else None
        if key is None:
            continue
        held = [_entry(entries, start) for start in items.starts]
        if not any(at is not None for at in held):
            continue
        values = entries.values[key]
        kept = [
            at is not None or not taken.overlaps(s, e)
            for at, s, e in zip(held, items.starts, items.ends, strict=True)
        ]
        name = identifier(entries.columns[key].name, [c.name for c in items.columns])
        column = dataclasses.replace(entries.columns[key], name=name, role=Role.NONE)
        with_key = dataclasses.replace(
            items,
            columns=[*items.columns, column],
            values=[*items.values, [None if at is None else values[at] for at in held]],
        )
        return with_key.kept(kept)
    spans = zip(items.starts, items.ends, strict=True)
    return items.kept([not taken.overlaps(s, e) for s, e in spans])


def _key(entries: Table) -> int | None:
    """The first column of values (not the entry's text) that tells nearly every row apart."""
    for at, column in enumerate(entries.columns):
        held = [v for v in entries.values[at] if v is not None]
        of_values = column.type is not ColumnType.DATE and column.role is not Role.BODY
        if of_values and len(set(held)) >= KEYED * len(entries) > 0:
            return at
    return None


def _entry(entries: Table, start: int) -> int | None:
    """The entry whose span holds `start` past its first line, if one does (an item that is an
    entry's first line is the entry itself)."""
    at = bisect.bisect_right(entries.starts, start) - 1
    return at if at >= 0 and entries.starts[at] < start < entries.ends[at] else None
