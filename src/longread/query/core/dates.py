"""A part of a stored date as SQL (`2024-05-16 10:00:05`, or a yearless `--05-16 10:00:05`),
named as people name them (`May`, `Monday`)."""

from __future__ import annotations

from longread.ingest.records.cells import MONTHS, WEEKDAYS
from longread.query.core.plan import Part


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
