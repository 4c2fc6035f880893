"""A source's record tables as it has them: each a view over the stored tables holding its rows
(one a database and shape), and the SQL making it, each row given its document's name and its
span (`document`, `_start`, `_end`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from longread.store.record_tables import StoredColumn, StoredTable, quoted


@dataclass(frozen=True)
class ViewPart:
    """Rows of one stored table (in the database `database`) that belong to these documents."""

    database: Path
    table: StoredTable
    store_ids: tuple[int, ...]


@dataclass(frozen=True)
class View:
    """A record table as the source has it: its name, its columns (every part's, in order) and
    where its rows are stored."""

    name: str
    columns: tuple[StoredColumn, ...]
    parts: tuple[ViewPart, ...]


PARTS_PER_VIEW = 100  # a view of more stored tables is copied into a table of its own, this
# many at a time (a compound SELECT has 500 terms at most, and a union of thousands is slow)


def view_statements(
    view: View, aliases: dict[Path, str], names: dict[tuple[Path, int], str]
) -> list[str]:
    """The statements making the view: a view over its stored tables, or, for one of many (a
    folder's documents each with a table of its own), a temporary table they are copied into
    PARTS_PER_VIEW at a time, so no statement grows with the folder and each query reads one
    table."""
    name = quoted(view.name)
    if len(view.parts) <= PARTS_PER_VIEW:
        return [f"CREATE TEMP VIEW {name} AS {_union_sql(view, view.parts, aliases, names)}"]
    chunks = [view.parts[n : n + PARTS_PER_VIEW] for n in range(0, len(view.parts), PARTS_PER_VIEW)]
    first, *rest = (_union_sql(view, chunk, aliases, names) for chunk in chunks)
    return [f"CREATE TEMP TABLE {name} AS {first}", *(f"INSERT INTO temp.{name} {u}" for u in rest)]


def _union_sql(
    view: View,
    parts: Sequence[ViewPart],
    aliases: dict[Path, str],
    names: dict[tuple[Path, int], str],
) -> str:
    """One SELECT of the view's columns over these stored tables."""
    selects = []
    for part in parts:
        alias = aliases[part.database]
        held = {c.name for c in part.table.columns}
        cells = ", ".join(
            (f"r.{quoted(c.name)}" if c.name in held else "NULL") + f" AS {quoted(c.name)}"
            for c in view.columns
        )
        only = names.get((part.database, part.store_ids[0])) if len(part.store_ids) == 1 else None
        document = (
            f"(SELECT name FROM temp._docs d WHERE d.db = '{alias}' AND d.id = r.doc_id)"
            if only is None
            else _literal(only)
        )
        selects.append(  # (`+`: the rows are scanned, not looked up one by one by the index)
            f'SELECT {document} AS document, r.start AS _start, r."end" AS _end, {cells}, '
            f"r.rowid AS _row FROM {alias}.{part.table.physical} r WHERE +r.doc_id IN "
            f"(SELECT id FROM temp._docs WHERE db = '{alias}')"
        )
    return " UNION ALL ".join(selects)


def _literal(text: str) -> str:
    """An SQL string literal."""
    return "'" + text.replace("'", "''") + "'"
