"""Parts of a date that a question groups by (`In which month…`, `per year`, `by hour`, `on
which day of the week`): the words that name them, and each part as SQL over a stored date
(`2024-05-16 10:00:05`, or a yearless `--05-16 10:00:05`), named as people name them (`May`)."""

from __future__ import annotations

import re

from longread.ingest.records.cells import MONTHS, WEEKDAYS
from longread.query import cues
from longread.query.catalog import CatalogTable
from longread.query.links import STRUCTURAL
from longread.query.plan import Part
from longread.query.reading import Reading, role

_NAMED = re.compile(  # (the words naming a part, at the start of a phrase a question groups by)
    r"(?P<weekday>day\s+of\s+(?:the\s+)?week|weekday|week\s*day)|(?P<year>years?)"
    r"|(?P<month>months?)|(?P<day>days?|dates?)|(?P<hour>hours?|time\s+of\s+day)\b",
    re.I,
)


def date_group(reading: Reading, table: CatalogTable) -> tuple[str, Part, tuple[int, int]] | None:
    """The table's date column and the part of it the question groups by, with the words that
    name the part; None where it names none or the table has no date."""
    column = role(table, "when") or next((c.name for c in table.columns if c.type == "date"), None)
    if column is None:
        return None
    for _, start in cues.groups(reading.asked):
        found = _NAMED.match(reading.asked, start)
        if found and found.lastgroup:
            return column, Part(found.lastgroup), (start, found.end())
    return None


def dated_table(reading: Reading) -> CatalogTable | None:
    """The one table of records with a date, where the question groups by a part of a date and
    names no table (`Which was the quietest day?` of a log)."""
    dated = [
        t
        for t in reading.catalog.tables.values()
        if t.name not in STRUCTURAL and date_group(reading, t) is not None
    ]
    return dated[0] if len(dated) == 1 else None


def part_sql(column: str, part: Part) -> str:
    """SQL for the part of a date column (`column` quoted already), NULL where it has none."""
    yearless = f"substr({column}, 1, 2) = '--'"
    month = f"CASE WHEN {yearless} THEN substr({column}, 3, 2) ELSE substr({column}, 6, 2) END"
    clock = f"instr({column}, ' ')"
    if part is Part.YEAR:
        return f"CASE WHEN {yearless} THEN NULL ELSE substr({column}, 1, 4) END"
    if part is Part.MONTH:
        return _named(month, MONTHS, 1)
    if part is Part.DAY:
        return f"CASE WHEN {clock} > 0 THEN substr({column}, 1, {clock} - 1) ELSE {column} END"
    if part is Part.HOUR:
        return f"CASE WHEN {clock} > 0 THEN substr({column}, {clock} + 1, 2) END"
    sunday_first = f"CAST(strftime('%w', {column}) AS INTEGER)"
    return _named(f"({sunday_first} + 6) % 7", WEEKDAYS, 0)  # (Monday first)


def _named(number_sql: str, names: tuple[str, ...], first: int) -> str:
    """SQL naming a part's number (`05` → `May`)."""
    cases = " ".join(f"WHEN {n} THEN '{name}'" for n, name in enumerate(names, first))
    return f"CASE CAST({number_sql} AS INTEGER) {cases} END"
