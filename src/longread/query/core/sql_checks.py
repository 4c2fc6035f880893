"""What a statement's result is checked for against the question and the source, by code: a value
the statement names that no row holds; a word of the question that is one of the values of a
column of few values, left out of the statement; and, of a statement that keeps no row, the
condition that keeps none alone (where each keeps rows, what the last one's column holds where the
others hold). Each finding is told to the model (it may write the statement
again); those that still hold after its last try keep the figure from being stated as the answer."""

from __future__ import annotations

from dataclasses import dataclass

from longread.query.core.catalog import Catalog
from longread.query.core.keys import key
from longread.query.core.schema_prompt import LISTED_AT_MOST, literal
from longread.query.core.sql_explained import conditions
from longread.query.core.sql_values import Checked
from longread.store.record_query import QueryError, Result
from longread.store.record_tables import quoted

TOGETHER_SHOWN = 10  # values a column holds where the other conditions hold, shown
STRAY_ROWS = 2  # rows a name matched from a word in lower case may hold it in (more: meant)


@dataclass(frozen=True)
class Finding:
    """Something the statement may have got wrong: said to the model, and in the answer."""

    said: str
    blocks: bool  # if it still holds at the end, the figure is not stated as the answer


def findings(
    question: str, checked: Checked, result: Result, unused: list[str], catalog: Catalog
) -> list[Finding]:
    """What is wrong or doubtful in the statement and its result (`unused`: the question's words
    it does not use)."""
    found = [Finding(m, True) for m in checked.hints(catalog)]
    found += [Finding(s, True) for s in _stray(question, checked, catalog)]
    if not result.rows or result.rows[0][:1] in ((0,), (None,)):
        found += [Finding(e, False) for e in _emptied(checked.sql, catalog)]
    found += [Finding(d, True) for d in _dropped(unused, catalog, checked.tables)]
    return found


def _emptied(sql: str, catalog: Catalog) -> list[str]:
    """Of a statement that keeps no row, the conditions that keep none alone, with what each of
    the others keeps."""
    split = conditions(sql)
    if split is None or len(split[1]) < 2 or split[0] not in catalog.tables:
        return []
    table, parts = split
    kept = {}
    for part in parts:
        counting = f"SELECT count(*) FROM {quoted(table)} WHERE {part}"
        try:
            kept[part] = catalog.query.execute(counting, max_rows=1, seconds=2.0).rows[0][0]
        except QueryError:
            return []
    empty = [p for p, n in kept.items() if not n]
    if not empty:
        return _together(table, parts, catalog)
    if len(empty) == len(parts):
        return []
    others = ", ".join(f"{p} keeps {n:,}" for p, n in kept.items() if n)
    return [f"no row passes {' and '.join(empty)} (alone); {others}"]


def _together(table: str, parts: list[str], catalog: Catalog) -> list[str]:
    """Of conditions that each keep rows but no row together, what the last one's column holds
    in the rows the others keep (`act = 'ACT II'` with a scene of another act)."""
    import sqlglot
    from sqlglot import exp

    compared = sqlglot.parse_one(parts[-1], read="sqlite")
    column = compared.this if isinstance(compared, exp.EQ | exp.In) else None
    if not isinstance(column, exp.Column):
        return []
    others = " AND ".join(f"({p})" for p in parts[:-1])
    every = f"SELECT count(*) FROM {quoted(table)} WHERE {others} AND ({parts[-1]})"
    try:
        if catalog.query.execute(every, max_rows=1, seconds=2.0).rows[0][0]:
            return []  # (rows pass them together: what is empty is after the filter)
    except QueryError:
        return []
    name = quoted(column.name)
    held = (
        f"SELECT {name} FROM {quoted(table)} WHERE {others} AND {name} IS NOT NULL "
        f"GROUP BY {name} ORDER BY count(*) DESC LIMIT {TOGETHER_SHOWN}"
    )
    try:
        values = [row[0] for row in catalog.query.execute(held, seconds=2.0).rows]
    except QueryError:
        return []
    shown = ", ".join(literal(v) for v in values) or "no value"
    where = " and ".join(parts[:-1])
    return [
        f"no row passes {' and '.join(parts)} together; where {where}, {column.name} holds {shown}"
    ]


def _stray(question: str, checked: Checked, catalog: Catalog) -> list[str]:
    """Values matched only in another case to a word the question writes in lower case, that a
    name of a few rows holds in capitals (`will` to the name `Will`): a word of the question
    taken for a stray value of a column of many."""
    said = []
    for column, written, held in checked.resolved:
        if isinstance(held, tuple) or str(held).startswith("%"):
            continue  # (a value standing for several, or a word within values: no one name)
        text = str(held)
        if text == text.lower() or f" {written} " not in f" {question} " or not written.islower():
            continue
        for table in checked.tables:
            if catalog.tables[table].column(column) is None:
                continue
            values = catalog.values(table, column)
            if catalog.listed(table, column) and len(values) <= LISTED_AT_MOST:
                continue  # (a column of few values: a category, not a name)
            sql = f"SELECT count(*) FROM {quoted(table)} WHERE {quoted(column)} = ?"
            rows = catalog.query.execute(sql, [held], max_rows=1).rows
            if rows and rows[0][0] <= STRAY_ROWS:
                said.append(
                    f"“{written}” is a word of the question, and only {rows[0][0]} row's "
                    f"{column} holds it, as {literal(held)}"
                )
    return said


def _dropped(unused: list[str], catalog: Catalog, tables: list[str]) -> list[str]:
    """The words of the question the query leaves out that are one of the values of a column of
    few values in the tables it reads (`high` of urgency): a filter the question asks for."""
    said = []
    for table in tables:
        for column in catalog.tables[table].columns:
            values = catalog.values(table, column.name)
            if not catalog.listed(table, column.name) or not 1 < len(values) <= LISTED_AT_MOST:
                continue
            held = {key(str(v)): v for v, _ in values}
            for word in unused:
                if key(word) in held:
                    said.append(
                        f"the question says “{word}”, and {column.name} holds "
                        f"{literal(held[key(word)])}, but the query does not use it"
                    )
    return list(dict.fromkeys(said))
