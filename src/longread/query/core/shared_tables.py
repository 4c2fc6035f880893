"""Tables of one shape in several documents, named alike: a folder of like documents, each naming
its table by its own heading (`report_1`, `report_2`), has one table of that shape."""

from __future__ import annotations

import os
from collections.abc import Sequence

from longread.store.record_views import ViewPart


def shared_name(part: ViewPart, named: dict[tuple[str, ...], str]) -> str:
    return named.get(columns_of(part), part.table.name)


def columns_of(part: ViewPart) -> tuple[str, ...]:
    return tuple(c.name for c in part.table.columns)


def shared_names(parts: Sequence[ViewPart]) -> dict[tuple[str, ...], str]:
    """The one name of tables of the same columns whose names differ only by how they end
    (`report_1`, `report_2`: a folder of like documents, each naming its table by its own
    heading): the start they share (`report`), so the folder has one table of that shape."""
    names: dict[tuple[str, ...], set[str]] = {}
    for part in parts:
        names.setdefault(columns_of(part), set()).add(part.table.name)
    every = {name for held in names.values() for name in held}
    shared = {}
    for columns, held in names.items():
        stem = os.path.commonprefix(sorted(held)).rstrip("_0123456789")
        if len(held) > 1 and len(stem) > 1 and stem not in every:  # (a table's own name: kept)
            shared[columns] = stem
    return shared
