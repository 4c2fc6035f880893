"""A file that is one list of things (books.md, a pip freeze): its one table's rows are what a
count counts, and they are called as the question calls them."""

from __future__ import annotations

import itertools
import re

from longread.ingest.records import GENERIC
from longread.query.core.catalog import Catalog, CatalogTable
from longread.query.readers.rules.links import STRUCTURAL
from longread.query.readers.rules.reading import Reading, role
from longread.store.record_tables import quoted
from longread.text.rank import terms

WHOLE_SHARE = 0.8  # of a file's text a table of no named kind spans to be what the file lists
NUMBERING_SHARE = 0.9  # of a column's values, those that go on from the one before (a numbering)
SAMPLE = 10_000  # a column's first values, read to tell a numbering
_UNNAMED = re.compile(r"(?:column|number|value)(?:_\d+)?")  # (named by place or shape only)


def listed_in_file(reading: Reading) -> CatalogTable | None:
    """The one table of a file named for what the question counts (`How many books…` of
    books.md, a list of books), or of a file that is that table (its rows, of no named kind,
    nearly all its text): those things are its rows."""
    catalog = reading.catalog
    if reading.counted is None or len(catalog.documents) != 1:
        return None
    tables = [t for t in catalog.tables.values() if t.name not in STRUCTURAL]
    if len(tables) != 1:
        return None
    named = any(lk.what == "document" and lk.start == reading.counted[1] for lk in reading.links)
    if named:
        return tables[0]
    whole = generic(tables[0]) and covered(catalog, tables[0]) >= WHOLE_SHARE
    return tables[0] if whole else None  # (a count no header names: see `tally`)


def tallied(column: str | None) -> bool:
    """Whether a column is named by its place or shape only (`column_1`, `number`): a count no
    header names, where it is a table's one number."""
    return column is not None and _UNNAMED.fullmatch(column) is not None


def tally(catalog: Catalog, table: CatalogTable) -> list[str]:
    """The one number column of a table of no named kind that no header names and that does not
    number its rows (`   339\tAlan Turing`: how many of what the question counts each row has),
    as a list of one; else none."""
    numbers = [c for c in table.columns if c.type == "number"]
    if not generic(table) or len(numbers) != 1 or not tallied(numbers[0].name):
        return []
    return [] if numbering(catalog, table, numbers[0].name) else [numbers[0].name]


def generic(table: CatalogTable) -> bool:
    """Whether the table's rows are of no named kind (a template's, a table's): nothing but the
    question says what they are."""
    return set(table.kinds) <= GENERIC


def numbering(catalog: Catalog, table: CatalogTable, column: str) -> bool:
    """Whether the column numbers the rows (chapter and verse, items of a list): in the text's
    order, nearly every value is the one before it, one more, or a new start at 0 or 1."""
    sql = f"SELECT {quoted(column)} FROM {quoted(table.name)} ORDER BY _row LIMIT {SAMPLE}"
    values = catalog.computed(sql, lambda: catalog.query.execute(sql, max_rows=SAMPLE).rows)
    numbers = [v for (v,) in values if v is not None]
    goes_on = sum(v in (p, p + 1, 0, 1) for p, v in itertools.pairwise(numbers))
    share = goes_on / (len(numbers) - 1) if len(numbers) > 1 else None
    return share is not None and share >= NUMBERING_SHARE


def covered(catalog: Catalog, table: CatalogTable) -> float:
    """The share of the document's text its rows span."""
    sql = f"SELECT coalesce(sum(_end - _start), 0) FROM {quoted(table.name)}"
    spanned = catalog.computed(sql, lambda: catalog.query.execute(sql, max_rows=1).rows[0][0])
    return float(spanned) / max(1, sum(doc.chars for doc in catalog.docs))


def called(reading: Reading, table: CatalogTable) -> str | None:
    """What the question calls the rows it counts: of the first run of words in what it counts
    that name no value or column of the table, the first plural (`types` of `video types`, `jobs`
    of `cron jobs run`, `books` of `books on the list`), else the first."""
    if reading.counted is None:
        return None
    phrase, start = reading.counted
    body = role(table, "body")
    named = [  # (what names a value or a column; not the rows' text, `instances` of `Instance`)
        lk
        for lk in reading.links
        if lk.table == table.name and lk.what != "noun" and not (body and lk.column == body)
    ]
    run: list[str] = []
    for word in re.finditer(r"[A-Za-z][\w'-]*", phrase):
        at = start + word.start()
        if terms(word[0]) and not any(lk.start <= at < lk.end for lk in named):
            run.append(word[0].lower())
        elif run:
            break
    plural = [w for w in run if w.endswith("s") and not w.endswith(("ss", "us", "is"))]
    named_so = plural or run
    return named_so[0] if named_so else None
