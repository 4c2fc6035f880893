"""Links a question's words make that do not say what they seem to: a word written small that
names one row by its key, or says what a named document is; a part of every value a column
holds; a table's noun the question groups another table's rows by."""

from __future__ import annotations

from longread.ingest.records.kind import MIN_ROWS
from longread.query.core.catalog import Catalog
from longread.query.core.plan import Operation
from longread.query.readers.rules.links import Link
from longread.query.readers.rules.reading import within

KEY_SHARE = 0.9  # of a column's rows holding a value no other row holds, for it to be a key


def meant(links: list[Link], asked: str, operation: Operation, catalog: Catalog) -> list[Link]:
    """The links, without those of values that are no filter of the question."""
    if operation is Operation.COUNT:
        links = [lk for lk in links if not _one_row_by_key(lk, asked, catalog)]
    links = [lk for lk in links if not _every_value(lk, catalog)]
    return [lk for lk in links if not _after_document(lk, links, asked, catalog)]


def groups_another(found: Link, grouping: list[tuple[int, int]], links: list[Link]) -> bool:
    """Whether a table's noun is what the question groups by, where another table has a column
    it names (`Which country has the most subdivisions`: the subdivisions' country, not the
    countries)."""
    return (
        found.what == "noun"
        and within(found, grouping)
        and any(
            lk.what == "column" and lk.table != found.table and lk.overlaps(found) for lk in links
        )
    )


def _one_row_by_key(found: Link, asked: str, catalog: Catalog) -> bool:
    """Whether a value written small names one row by a column nearly each row holds a value of
    its own (`the dictionary` of a dictionary's headword DICTIONARY): a count of that is no
    count, so the word is no filter (a name to count by is capitalized: `Boston`)."""
    if not _small_value(found, asked):
        return False
    table, column = found.table, found.column or ""
    if table not in catalog.tables or not catalog.listed(table, column):
        return False
    counts = dict(catalog.values(table, column))
    held = sum(counts.get(value, 0) for value in found.value)
    return held == 1 and len(counts) >= max(MIN_ROWS, KEY_SHARE * sum(counts.values()))


def _every_value(found: Link, catalog: Catalog) -> bool:
    """Whether a link holds every value its column holds (`tests` of `tests/a.py`, `tests/b.py`):
    it keeps every row, so it filters none."""
    table, column = found.table, found.column or ""
    if found.what != "value" or table not in catalog.tables or len(found.value) < 2:
        return False
    if not catalog.listed(table, column):
        return False
    return {v for v, _ in catalog.values(table, column)} <= set(found.value)


def _after_document(found: Link, links: list[Link], asked: str, catalog: Catalog) -> bool:
    """Whether a value written small follows a document's name (`the os module`): it says what
    the document is, not which rows (a section, `Hamlet act 3`, is where to count)."""
    if not _small_value(found, asked):
        return False
    column = catalog.tables[found.table].column(found.column or "")
    if column is not None and column.role == "section":
        return False
    return any(
        lk.what == "document" and lk.end < found.start and not asked[lk.end : found.start].strip()
        for lk in links
    )


def _small_value(found: Link, asked: str) -> bool:
    """Whether a link is to a value, written small in the question."""
    return found.what == "value" and not asked[found.start : found.end][:1].isupper()
