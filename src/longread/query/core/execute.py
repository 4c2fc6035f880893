"""The one executor: a plan compiled to a read-only SQL statement over the source's record tables
(parameterized, bounded in rows and time), run, and returned as the value it asks for, the
groups ranked, and the rows it counted (for citing)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from longread.query.core.catalog import Catalog, CatalogTable
from longread.query.core.dates import part_sql
from longread.query.core.plan import TEXT, Filter, Inner, Operation, Plan, Test, validate
from longread.store.record_tables import quoted

SHOWN = 10  # groups listed
CITED = 12  # rows returned for citing
GROUPS_READ = 100_000  # groups read at most (more are counted, not read)


@dataclass(frozen=True)
class Row:
    """A row counted: its document, span and (where it has one) the value it stands for."""

    document: str
    start: int
    end: int
    label: Any = None


@dataclass
class Counted:
    """What a plan computed: `value` (a number, a group, a row's value), `groups` ranked or
    listed with their figures, `rows` some of the rows it rests on, `matched` how many rows
    passed the filters, and the statement run."""

    plan: Plan
    value: Any
    groups: list[tuple[Any, float]] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    matched: int = 0
    sql: str = ""
    table_rows: int = 0
    whole: int = 0  # (a share's: how many rows it is a share of)
    label: str | None = None  # the column of `rows`' labels
    more_groups: int = 0  # groups past the GROUPS_READ read


def execute(plan: Plan, catalog: Catalog) -> Counted:
    """Run an aggregate plan (validated first) over the catalog's tables (once per plan)."""
    plan = validate(plan, catalog)
    return catalog.computed(("execute", plan), lambda: _executed(plan, catalog))


def _executed(plan: Plan, catalog: Catalog) -> Counted:
    table = catalog.mentions_table(plan.term or "") if plan.table == TEXT else None
    table = table or catalog.tables[plan.table or ""]
    where, params = _where(plan, table)
    source = quoted(table.name)
    measure, measure_params = _measure(plan, table)
    operation = plan.operation
    counted = Counted(plan, None, table_rows=table.rows)
    counted.label = row_label(plan, table)
    if operation in (Operation.COUNT, Operation.EXISTS) and plan.group_by is None:
        if plan.term and plan.table != TEXT:
            value = f"coalesce(sum({measure}), 0)"
            sql = f"SELECT {value} FROM {source}{where}"
            counted.value, counted.matched = _with_count(
                catalog, value, source, where, [*measure_params, *params]
            )
        else:
            sql = f"SELECT count(*) FROM {source}{where}"
            counted.value = counted.matched = _counted(catalog, source, where, params)
        if operation is Operation.EXISTS:
            counted.value = bool(counted.value)
        counted.sql = sql
    elif operation in (Operation.SUM, Operation.MEAN, Operation.MIN, Operation.MAX):
        function = {"sum": "sum", "mean": "avg", "min": "min", "max": "max"}[operation.value]
        value = f"{function}({measure})"
        counted.sql = f"SELECT {value} FROM {source}{where}"
        counted.value, counted.matched = _with_count(
            catalog, value, source, where, [*measure_params, *params]
        )
        if operation in (Operation.MIN, Operation.MAX):
            order = "DESC" if operation is Operation.MAX else "ASC"
            cited_where, cited_params = _where(plan, table, citing=True)
            counted.rows = _rows(
                catalog,
                plan,
                table,
                cited_where,
                cited_params,
                f"{measure} {order}",
                measure_params,
            )
            return counted
    elif operation is Operation.MEDIAN:
        counted.value, counted.matched = _median(catalog, plan, table, where, params)
        counted.sql = f"SELECT {quoted(plan.column or '')} FROM {source}{where} ORDER BY 1"
    elif operation is Operation.SHARE:
        counted.matched = _counted(catalog, source, where, params)
        whole_where, whole_params = _where(plan.with_(filters=plan.whole), table)
        counted.whole = _counted(catalog, source, whole_where, whole_params)
        counted.value = round(100 * counted.matched / counted.whole, 1) if counted.whole else None
        counted.sql = f"SELECT count(*) FROM {source}{where}"
    elif operation is Operation.NTH:
        order = (quoted(plan.column) if plan.column else catalog.query.text_order(table.name)) + (
            " DESC" if plan.rank < 0 else ""
        )
        offset = abs(plan.rank) - 1
        counted.rows = _rows(catalog, plan, table, where, params, order, offset=offset, limit=1)
        counted.value = counted.rows[0].label if counted.rows else None
        counted.matched = _counted(catalog, source, where, params)
        counted.sql = f"SELECT * FROM {source}{where} ORDER BY {order} LIMIT 1 OFFSET {offset}"
        return counted
    else:
        grouped = _grouped(catalog, plan, table, where, params)
        counted.groups, counted.matched, counted.sql, counted.more_groups = grouped
        counted.value = _group_value(plan, counted)
    chosen = _chosen(plan, counted)
    counted.rows = _rows(catalog, chosen, table, *_where(chosen, table, citing=True))
    return counted


def _chosen(plan: Plan, counted: Counted) -> Plan:
    """The plan kept to the group its answer names (to cite that group's rows)."""
    if plan.operation not in (Operation.ARGMAX, Operation.ARGMIN) or not counted.groups:
        return plan
    key = plan.group_by or plan.column or ""
    place = min(plan.rank, len(counted.groups)) - 1
    chosen = counted.groups[place][0]
    if isinstance(chosen, tuple):  # (a section of one document)
        document, value = chosen
        held = (Filter("document", Test.IN, (document,)), Filter(key, Test.IN, (value,)))
        return plan.with_(filters=(*plan.filters, *held))
    return plan.with_(filters=(*plan.filters, Filter(key, Test.IN, (chosen,), plan.part)))


def _group_value(plan: Plan, counted: Counted) -> Any:
    groups = counted.groups
    if plan.operation is Operation.DISTINCT:
        return len(groups) + counted.more_groups
    if plan.operation in (Operation.ARGMAX, Operation.ARGMIN):
        place = plan.rank - 1
        return groups[place][0] if 0 <= place < len(groups) else None
    if plan.operation is Operation.COUNT:
        return counted.matched if counted.more_groups else sum(n for _, n in groups)
    return [g for g, _ in groups]


def _grouped(
    catalog: Catalog, plan: Plan, table: CatalogTable, where: str, params: list[Any]
) -> tuple[list[tuple[Any, float]], int, str, int]:
    """(group, figure) for each group: ranked for argmax and argmin, else in the order the
    text first has them; every group `compared` is there, at 0 if it has no rows. With them,
    how many rows passed the filters (counted in the same pass: rows without the grouped
    column are a group of their own, left out)."""
    key = plan.group_by or plan.column or "document"
    column = table.column(key)
    apart = column is not None and column.role == "section" and len(catalog.documents) > 1
    grouped = part_sql(quoted(key), plan.part) if plan.part else quoted(key)  # (its month)
    group = f"document, {grouped}" if apart else grouped  # (each play's ACT I)
    figure, figure_params = _inner(plan, table)
    ranked = plan.operation in (Operation.ARGMAX, Operation.ARGMIN, Operation.COUNT)
    order = "ASC" if plan.operation is Operation.ARGMIN else "DESC"
    ordering = f"v {order}, {group}" if ranked else "min(document), min(_start)"
    having, having_params = "", []
    if plan.having is not None:
        test, bound = plan.having
        having, having_params = f" HAVING v {'=' if test is Test.IN else test.value} ?", [bound]
    sql = (
        f"SELECT {group}, {figure} AS v, count(*) FROM {quoted(table.name)}{where} "
        f"GROUP BY {group}{having} ORDER BY {ordering}"
    )
    result = catalog.query.execute(
        sql, [*figure_params, *params, *having_params], max_rows=GROUPS_READ
    )
    found = result.rows
    matched = (
        sum(r[-1] for r in found)
        if not having and not result.cut
        else _counted(catalog, quoted(table.name), where, params)
    )
    if result.cut:  # (more groups than are read: how many, counted apart)
        every = f"SELECT count(*) FROM (SELECT 1 FROM {quoted(table.name)}{where} GROUP BY {group}"
        every += f"{having.replace('HAVING v', f'HAVING {figure}')})"
        total = _one(catalog, every, [*params, *figure_params, *having_params]) or 0
        more = max(0, int(total) - len(found))
    else:
        more = 0
    groups = [
        ((r[0], r[1]) if apart else r[0], r[-2] if r[-2] is not None else 0)
        for r in found
        if r[-3] is not None
    ]
    held = {g for g, _ in groups}
    missing = [(g, 0) for g in plan.compared if g not in held]
    if missing:
        groups = sorted(groups + missing, key=lambda gv: (gv[1], str(gv[0])))
        if plan.operation is not Operation.ARGMIN:
            groups = sorted(groups, key=lambda gv: -gv[1])
    return groups, matched, sql, more


def _inner(plan: Plan, table: CatalogTable) -> tuple[str, list[Any]]:
    """The aggregate each group is ranked by."""
    measure, params = _measure(plan, table)
    if plan.term and plan.table != TEXT:
        return f"sum({measure})", params
    if plan.inner is Inner.DISTINCT and plan.column:
        return f"count(DISTINCT {quoted(plan.column)})", []
    if plan.inner is Inner.COUNT or not plan.column:
        return "count(*)", []
    function = {"sum": "sum", "max": "max", "min": "min", "mean": "avg"}[plan.inner.value]
    return f"{function}({measure})", params


def _measure(plan: Plan, table: CatalogTable) -> tuple[str, list[Any]]:
    """The expression summed, compared or averaged: a word's mentions in the table's text
    column, or the plan's column."""
    if plan.term and plan.table != TEXT:
        body = next((c.name for c in table.columns if c.role == "body"), None)
        if body is not None:
            held, params = _holding(quoted(body), plan.term)
            said = f"mentions({quoted(body)}, ?)"
            measure = f"CASE WHEN {held} THEN {said} ELSE 0 END" if held else said
            return measure, [*params, plan.term]
    return (quoted(plan.column) if plan.column else "1"), []


def _where(plan: Plan, table: CatalogTable, citing: bool = False) -> tuple[str, list[Any]]:
    """The WHERE clause of the plan's filters (`citing`: of the rows holding its word, too)."""
    clauses, params = [], []
    for f in plan.filters:
        column = part_sql(quoted(f.column), f.part) if f.part else quoted(f.column)
        if f.test is Test.IN:
            clauses.append(f"{column} IN ({', '.join('?' * len(f.values))})")
            params += list(f.values)
        elif f.test is Test.MENTIONS:
            clause, held = _mentioned(column, str(f.values[0]))
            clauses.append(clause)
            params += held
        elif f.test is Test.SAYS:
            said = [_mentioned(quoted(c), str(f.values[0])) for c in (f.column, *f.also)]
            clauses.append(f"({' OR '.join(clause for clause, _ in said)})")
            params += [p for _, held in said for p in held]
        elif f.test in (Test.FILLED, Test.EMPTY):
            clauses.append(f"{column} IS {'NOT ' if f.test is Test.FILLED else ''}NULL")
        elif f.test is Test.PREFIX:
            either = " OR ".join(f"substr({column}, 1, ?) = ?" for _ in f.values)
            clauses.append(f"({either})")
            params += [x for v in f.values for x in (len(str(v)), str(v))]
        else:
            clauses.append(f"{column} {f.test.value} ?")
            params.append(f.values[0])
    if citing and plan.term and plan.table != TEXT:  # (the rows holding the word)
        clause, held = _mentioned(quoted(_body(table)), plan.term)
        clauses.append(clause)
        params += held
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


def _mentioned(column: str, word: str) -> tuple[str, list[Any]]:
    """A clause keeping the rows whose column says the word (as whole words, any case), and its
    parameters: SQLite's own test for the letters of its first word first (see `_holding`)."""
    held, params = _holding(column, word)
    said = f"mentions({column}, ?) > 0"
    return (f"({held} AND {said})" if held else said), [*params, word]


def _holding(column: str, word: str) -> tuple[str, list[Any]]:
    """SQLite's own test that the column holds the letters of the word's first word, so that the
    word test (Python's) reads only the rows holding them (a fifth of the time over a million
    log lines); none for a word of letters SQLite's lower() does not fold."""
    first = word.split()[0].lower() if word.split() else ""
    if not first or not first.isascii():
        return "", []
    return f"instr(lower({column}), ?) > 0", [first]


def _rows(
    catalog: Catalog,
    plan: Plan,
    table: CatalogTable,
    where: str,
    params: list[Any],
    order: str | None = None,
    order_params: list[Any] | None = None,
    offset: int = 0,
    limit: int = CITED,
) -> list[Row]:
    """The first rows passing the plan's filters (in `order`, else the text's), each with its
    label: the grouped column, the column computed, or the table's `who` column."""
    label = row_label(plan, table)
    label_sql = quoted(label) if label else "NULL"
    order = order or catalog.query.text_order(table.name)
    sql = (
        f"SELECT document, _start, _end, {label_sql} FROM {quoted(table.name)}{where} "
        f"ORDER BY {order} LIMIT {int(limit)} OFFSET {int(offset)}"
    )
    found = catalog.query.execute(sql, [*params, *(order_params or [])], max_rows=limit).rows
    return [Row(str(d), int(s), int(e), v) for d, s, e, v in found]


def row_label(plan: Plan, table: CatalogTable) -> str | None:
    """The column a counted row is labelled by: the grouped column, the column computed, or the
    table's `who` column."""
    if plan.operation in (Operation.MIN, Operation.MAX, Operation.NTH):
        return _label(table)
    return plan.group_by or plan.column or _label(table)


def _label(table: CatalogTable) -> str | None:
    who = next((c.name for c in table.columns if c.role == "who"), None)
    return who or next(
        (c.name for c in table.columns if c.type == "text" and c.role != "body"), None
    )


def _body(table: CatalogTable) -> str:
    return next((c.name for c in table.columns if c.role == "body"), "text")


def any_row(catalog: Catalog, table: str, filters: list[Filter]) -> bool:
    """Whether some row of the table passes the filters (the scan stops at the first)."""
    where, params = _where(Plan("", table=table, filters=tuple(filters)), catalog.tables[table])
    sql = f"SELECT EXISTS (SELECT 1 FROM {quoted(table)}{where})"
    return bool(catalog.computed((sql, *params), lambda: _one(catalog, sql, params)))


def _counted(catalog: Catalog, source: str, where: str, params: list[Any]) -> int:
    """How many rows of a table pass a WHERE clause (counted once per clause)."""
    sql = f"SELECT count(*) FROM {source}{where}"
    return int(catalog.computed((sql, *params), lambda: _one(catalog, sql, params) or 0))


def _with_count(
    catalog: Catalog, value: str, source: str, where: str, params: list[Any]
) -> tuple[Any, int]:
    """The aggregate `value` over the rows passing `where`, and how many they are (one pass)."""
    sql = f"SELECT {value}, count(*) FROM {source}{where}"
    rows = catalog.query.execute(sql, params, max_rows=1).rows
    return (rows[0][0], int(rows[0][1])) if rows else (None, 0)


def _median(
    catalog: Catalog, plan: Plan, table: CatalogTable, where: str, params: list[Any]
) -> tuple[Any, int]:
    """The middle value of the plan's column over the rows passing `where` (the mean of the two
    in the middle of an even number of them), and how many rows have a value."""
    column, source = quoted(plan.column or ""), quoted(table.name)
    held = f"{where} AND {column} IS NOT NULL" if where else f" WHERE {column} IS NOT NULL"
    count = _counted(catalog, source, held, params)
    if not count:
        return None, 0
    sql = f"SELECT {column} FROM {source}{held} ORDER BY {column} LIMIT ? OFFSET ?"
    middle = catalog.query.execute(sql, [*params, 2 - count % 2, (count - 1) // 2], max_rows=2).rows
    return sum(v for (v,) in middle) / len(middle), count


def _one(catalog: Catalog, sql: str, params: list[Any]) -> Any:
    rows = catalog.query.execute(sql, params, max_rows=1).rows
    return rows[0][0] if rows else None
