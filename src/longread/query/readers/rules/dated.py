"""Parts of a date that a question groups by (`In which month…`, `per year`, `by hour`, `on
which day of the week`): the words that name them, and each part as SQL over a stored date
(see core.dates for each part as SQL)."""

from __future__ import annotations

import re

from longread.query.core.catalog import CatalogTable
from longread.query.core.plan import Part
from longread.query.readers.rules import cues
from longread.query.readers.rules.links import STRUCTURAL
from longread.query.readers.rules.reading import Reading, role

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
