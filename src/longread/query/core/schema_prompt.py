"""A source's record tables as a person writing SQL would want them shown: `CREATE TABLE` with each
column's type, and in comments the table's rows, each column's values with how many rows hold
them (where they are few), its range (a number or a date), or a few of its values, then a sample
row (the fullest of the first few) and the line of text it is read from. Written the same way for
every question on the source, so a model's evaluation of it can be kept and reused; a source's
sections come after its records, unless its headings are dated (a changelog's releases)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from longread.index.records import UNDER
from longread.query.core.catalog import Catalog, CatalogTable
from longread.store.record_tables import quoted

SCHEMA_CHARS = 7_000  # the description's length at most (tables past it are named only)
VALUES_SHOWN = 10  # of a column's listed values
LISTED_AT_MOST = 40  # a column of more distinct values is shown by examples
VALUE_CHARS = 60
SAMPLE_ROWS = 1
SAMPLED = 200  # first rows of a table its sample row is the fullest of
LINE_CHARS = 200  # of the line a sample row is read from
SAMPLE_CHARS = 200
EXAMPLES = 2  # values shown of a column of many
EXAMPLE_CHARS = 40
WORDS_SHOWN = 5  # of the words that recur within a column's short values
SHORT_VALUE = 4  # words at most, on average, in a column's values for its recurring words
STRUCTURAL = ("sections", "documents")  # tables every document has, shown after its records
_SQL_TYPES = {"number": "NUMERIC", "date": "TEXT", "text": "TEXT"}


def schema_text(catalog: Catalog) -> str:
    """The source's tables described for a model, SCHEMA_CHARS at most."""
    records = [t for t in catalog.tables.values() if t.name not in STRUCTURAL]
    structural = len(catalog.documents) > 1 or not any(_placed(t) for t in records)
    shown = [t for t in catalog.tables.values() if structural or t.name not in STRUCTURAL]
    ordered = sorted(
        [t for t in shown if t.name != "documents" or len(catalog.documents) > 1],
        key=lambda t: (t.name in STRUCTURAL and not _dated(t), -t.rows, t.name),
    )
    parts: list[str] = []
    unshown: list[str] = []
    left = SCHEMA_CHARS
    for table in ordered:
        if not table.rows:
            continue
        text = table_text(catalog, table)
        if len(text) > left and parts:
            unshown.append(table.name)
            continue
        parts.append(text)
        left -= len(text)
    if unshown:
        parts.append(f"-- also tables, not described here: {', '.join(unshown)}")
    head = _documents(catalog)
    return "\n\n".join([head, *parts] if head else parts)


def _dated(table: CatalogTable) -> bool:
    """Whether a table's rows say when (a changelog's release headings): records, ranked so."""
    return any(c.type == "date" for c in table.columns)


def _placed(table: CatalogTable) -> bool:
    """Whether a record table's columns say which of the document's parts each row is in (its
    act and scene, not only its innermost section): its sections table would add nothing."""
    return any(c.role == "section" and c.name not in ("section", UNDER) for c in table.columns)


def _documents(catalog: Catalog) -> str:
    names = catalog.documents
    if len(names) < 2:
        return f"-- the document: {names[0]}" if names else ""
    shown = ", ".join(names[:8]) + (f" and {len(names) - 8:,} more" if len(names) > 8 else "")
    return f"-- {len(names):,} documents (the column `document` names each row's): {shown}"


def table_text(catalog: Catalog, table: CatalogTable) -> str:
    """One table: its CREATE TABLE, its columns described, a few sample rows."""
    several = len(catalog.documents) > 1
    lines = [f"CREATE TABLE {quoted(table.name)} (  -- {table.rows:,} rows"]
    columns = [c for c in table.columns if several or c.name != "document"]
    if several:
        lines.append("  document TEXT,  -- the file the row is in")
    said: dict[str, str] = {}
    for column in columns:
        if not catalog.filled(table.name, column.name):
            continue  # (a column no row fills)
        about = _about(catalog, table, column.name, column.type)
        same = said.get(about) if len(about) > 20 else None
        said.setdefault(about, column.name)
        sql_type = _SQL_TYPES.get(column.type, "TEXT")
        about = f"the same values as {same}" if same else about
        lines.append(f"  {quoted(column.name)} {sql_type},  -- {about}")
    lines.append(
        "  _start NUMERIC  -- where the row starts in the text (ORDER BY _start: in order)"
    )
    lines.append(");")
    lines += [f"-- {said}" for said in _samples(catalog, table)]
    return "\n".join(lines)


def _about(catalog: Catalog, table: CatalogTable, column: str, kind: str) -> str:
    values = catalog.values(table.name, column)
    filled = catalog.filled(table.name, column)
    held = f" (a value in {filled:,} of {table.rows:,} rows)" if filled < table.rows else ""
    few = len(values) <= (VALUES_SHOWN if kind in ("number", "date") else LISTED_AT_MOST)
    repeated = len(values) <= VALUES_SHOWN or any(n > 1 for _, n in values)
    within = _words_within(values)
    within = f"; within values: {within}" if within else ""
    if values and catalog.listed(table.name, column) and few and repeated:
        shown = ", ".join(f"{literal(v)} ({n:,})" for v, n in values[:VALUES_SHOWN])
        more = (
            f", … {len(values) - VALUES_SHOWN} more{within}" if len(values) > VALUES_SHOWN else ""
        )
        count = f"{len(values)} value{'s' if len(values) != 1 else ''}"
        return f"{count}{held}: {shown}{more}"
    if kind in ("number", "date"):
        low, high = _range(catalog, table.name, column)
        if low is not None:
            return f"from {literal(low)} to {literal(high)}{held}"
    firsts = [v for v, _ in values[:EXAMPLES]] or _first(catalog, table.name, column)
    examples = [literal(v, EXAMPLE_CHARS) for v in firsts]
    if not examples:
        return held.strip(" ()") or "text"
    return f"e.g. {', '.join(examples)}{held}{within}"


def _words_within(values: list[tuple[Any, int]]) -> str:
    """The words that recur inside a column's short values (`LTS` of '14.04 LTS'), with how many
    rows hold them: a filter on part of a value the examples may not show."""
    texts = [(str(v).split(), n) for v, n in values if isinstance(v, str)]
    if not texts or sum(len(w) for w, _ in texts) > SHORT_VALUE * len(texts):
        return ""
    rows: Counter[str] = Counter()
    held: Counter[str] = Counter()
    for words, count in texts:
        if len(words) > 1:
            for word in dict.fromkeys(w for w in words if any(c.isalpha() for c in w)):
                rows[word] += count
                held[word] += 1
    ranked = sorted(rows.items(), key=lambda found: (-found[1], found[0]))  # (the same each run)
    recurring = [(w, n) for w, n in ranked if 1 < held[w] < len(texts)]
    return ", ".join(f"{literal(w)} ({n:,} rows)" for w, n in recurring[:WORDS_SHOWN])


def _first(catalog: Catalog, table: str, column: str) -> list[Any]:
    """The first few values of a column too varied for its values to be counted."""
    name = quoted(column)
    sql = f"SELECT DISTINCT {name} FROM {quoted(table)} WHERE {name} IS NOT NULL LIMIT {EXAMPLES}"
    rows = catalog.computed(sql, lambda: catalog.query.execute(sql, max_rows=EXAMPLES).rows)
    return [value for (value,) in rows]


def _range(catalog: Catalog, table: str, column: str) -> tuple[Any, Any]:
    name = quoted(column)
    sql = f"SELECT min({name}), max({name}) FROM {quoted(table)}"
    rows = catalog.computed(sql, lambda: catalog.query.execute(sql, max_rows=1).rows)
    return rows[0] if rows else (None, None)


def _samples(catalog: Catalog, table: CatalogTable) -> list[str]:
    """The fullest of a table's first rows, as its values and the line of text it opens."""
    names = [c.name for c in table.columns if c.name != "document"]
    if not names:
        return []
    picked = ", ".join(quoted(n) for n in [*names, "document", "_start"])
    filled = " + ".join(f"({quoted(n)} IS NOT NULL)" for n in names)
    first = f"SELECT * FROM {quoted(table.name)} LIMIT {SAMPLED}"  # (the fullest of the first)
    sql = f"SELECT {picked} FROM ({first}) ORDER BY {filled} DESC, _start LIMIT {SAMPLE_ROWS}"
    rows = catalog.computed(sql, lambda: catalog.query.execute(sql, max_rows=SAMPLE_ROWS).rows)
    shown = []
    for *row, document, start in rows:
        cells = [f"{n}={literal(v)}" for n, v in zip(names, row, strict=True) if v is not None]
        text = "; ".join(cells)
        shown.append(
            "row: " + (text if len(text) <= SAMPLE_CHARS else text[: SAMPLE_CHARS - 1] + "…")
        )
        read = "" if table.name in STRUCTURAL else catalog.read(document, start, start + LINE_CHARS)
        line = read.split("\n", 1)[0].strip()
        if line:
            shown.append(f"the row read from the line: {literal(line, SAMPLE_CHARS)}")
    return shown


def literal(value: Any, chars: int = VALUE_CHARS) -> str:
    """A value as SQL writes it: a number as is, text quoted (cut at `chars`, on one line)."""
    if isinstance(value, bool) or value is None:
        return "NULL" if value is None else str(int(value))
    if isinstance(value, int | float):
        return f"{value:g}" if isinstance(value, float) else str(value)
    text = " ".join(str(value).split())
    if len(text) > chars:
        text = text[: chars - 1] + "…"
    return "'" + text.replace("'", "''") + "'"
