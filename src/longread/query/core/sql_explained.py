"""What a statement a model wrote did, said by code from its parse: one plain sentence of it, the
statement that finds the rows its answer rests on (to cite them), whether it counts every row, the
conditions its filter joins."""

from __future__ import annotations

from typing import Any

_AGGREGATES = {"Count": "the number", "Sum": "the total", "Avg": "the average", "Min": "the lowest"}
_AGGREGATES |= {"Max": "the highest"}
ROWS = 10  # rows a citing statement returns


def sentence(sql: str) -> str:
    """The statement in a sentence (`the number of rows of records where urgency = 'high'`)."""
    import sqlglot
    from sqlglot import exp

    tree = sqlglot.parse_one(sql, read="sqlite")
    if not isinstance(tree, exp.Select):
        return "a combined query (read the statement)"
    table = tree.find(exp.From)
    source = table.this.sql(dialect="sqlite") if table is not None else "no table"
    what = ", ".join(_said(e) for e in tree.expressions)
    said = f"{what}, over the rows of {source}"
    where = tree.args.get("where")
    if where is not None:
        said += f" where {where.this.sql(dialect='sqlite')}"
    group = tree.args.get("group")
    if group is not None:
        said += f", for each {', '.join(g.sql(dialect='sqlite') for g in group.expressions)}"
    order = tree.args.get("order")
    if order is not None:
        said += f", ordered by {', '.join(o.sql(dialect='sqlite') for o in order.expressions)}"
    limit = tree.args.get("limit")
    if limit is not None:
        said += f", the first {limit.expression.sql(dialect='sqlite')}"
    return said


def _said(expression: Any) -> str:
    from sqlglot import exp

    inner = expression.this if isinstance(expression, exp.Alias) else expression
    if isinstance(inner, exp.Count):
        counted = inner.this
        if isinstance(counted, exp.Distinct):
            columns = ", ".join(e.sql(dialect="sqlite") for e in counted.expressions)
            return f"the number of distinct {columns}"
        if counted is None or isinstance(counted, exp.Star):
            return "the number of rows"
        return f"the number of rows with a {counted.sql(dialect='sqlite')}"
    name = _AGGREGATES.get(type(inner).__name__)
    if name is not None:
        return f"{name} of {inner.this.sql(dialect='sqlite')}"
    return inner.sql(dialect="sqlite")


def citing_sql(sql: str, first_row: tuple[Any, ...] | None, columns: list[str]) -> str | None:
    """A statement giving `document, _start, _end` of the rows the answer rests on: the rows a
    plain selection returns; the rows an aggregate counted (of its first group, where it groups);
    None for a statement of several tables or nested ones."""
    from sqlglot import exp

    read = _one_table(sql)
    if read is None:
        return None
    tree, table = read
    cited = tree.copy()
    spans = [exp.column("document"), exp.column("_start"), exp.column("_end")]
    aggregated = any(e.find(exp.AggFunc) is not None for e in tree.expressions) or tree.args.get(
        "group"
    )
    if not aggregated:
        cited = cited.select(*spans, append=False)
        return (cited if cited.args.get("limit") else cited.limit(ROWS)).sql(dialect="sqlite")
    group = tree.args.get("group")
    where = [tree.args["where"].this] if tree.args.get("where") else []
    if group is not None:
        if first_row is None:
            return None
        held = dict(zip([c.lower() for c in columns], first_row, strict=False))
        for key in group.expressions:
            value = held.get(key.sql(dialect="sqlite").lower(), held.get(key.alias_or_name.lower()))
            if value is None:
                return None
            where.append(exp.EQ(this=_named(tree, key).copy(), expression=_value(value)))
    plain = exp.select(*spans).from_(table.copy())
    if where:
        plain = plain.where(exp.and_(*where))
    return plain.limit(ROWS).sql(dialect="sqlite")


def grouped_rows_sql(sql: str, rows: int) -> str | None:
    """A statement giving `document, _start, _end` and the group of each row a statement of one
    table grouping by one key counted (`rows` at most, in the text's order); None for any other
    statement."""
    from sqlglot import exp

    read = _one_table(sql)
    group = read[0].args.get("group") if read is not None else None
    if read is None or group is None or len(group.expressions) != 1:
        return None
    tree, table = read
    key = _named(tree, group.expressions[0])
    listed = exp.select("document", "_start", "_end", key.copy()).from_(table.copy())
    if tree.args.get("where"):
        listed = listed.where(tree.args["where"].this.copy())
    return listed.order_by("document", "_start").limit(rows).sql(dialect="sqlite")


def _one_table(sql: str) -> tuple[Any, Any] | None:
    """(the parse, its table) of a plain SELECT over one table; None for a statement of several
    tables or nested ones."""
    import sqlglot
    from sqlglot import exp

    tree = sqlglot.parse_one(sql, read="sqlite")
    if not isinstance(tree, exp.Select) or tree.args.get("joins") or tree.args.get("with"):
        return None
    source = tree.find(exp.From)
    if source is None or not isinstance(source.this, exp.Table):
        return None
    return tree, source.this


def _named(tree: Any, key: Any) -> Any:
    """A group key as the expression it names (`hour` of `strftime('%H', time) AS hour`)."""
    from sqlglot import exp

    named = {e.alias.lower(): e.this for e in tree.expressions if isinstance(e, exp.Alias)}
    alias = isinstance(key, exp.Column) and not key.table and key.name.lower() in named
    return named[key.name.lower()] if alias else key


def _value(value: Any) -> Any:
    from sqlglot import exp

    if isinstance(value, int | float) and not isinstance(value, bool):
        return exp.Literal.number(value)
    return exp.Literal.string(str(value))


def lead_value(value: Any) -> str:
    """A value as the answer's first line gives it: a number plainly (`34924`, `12.5`), text as
    written."""
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".") if not value.is_integer() else str(int(value))
    if value is None:
        return "none"
    return str(value)


def keeps_every_row(sql: str) -> str | None:
    """The table an aggregate counts every row of (no filter, no grouping), else None."""
    import sqlglot
    from sqlglot import exp

    tree = sqlglot.parse_one(sql, read="sqlite")
    if not isinstance(tree, exp.Select) or tree.args.get("where") or tree.args.get("group"):
        return None
    source = tree.find(exp.From)
    aggregated = any(e.find(exp.AggFunc) is not None for e in tree.expressions)
    distinct = any(e.find(exp.Distinct) is not None for e in tree.expressions)
    if not aggregated or distinct or source is None or not isinstance(source.this, exp.Table):
        return None
    return str(source.this.name)


def conditions(sql: str) -> tuple[str, list[str]] | None:
    """(the table, each condition its WHERE joins with AND) of a statement over one table."""
    import sqlglot
    from sqlglot import exp

    tree = sqlglot.parse_one(sql, read="sqlite")
    source = tree.find(exp.From) if isinstance(tree, exp.Select) else None
    where = tree.args.get("where")
    if source is None or not isinstance(source.this, exp.Table) or where is None:
        return None
    parts = list(where.this.flatten()) if isinstance(where.this, exp.And) else [where.this]
    return str(source.this.name), [p.sql(dialect="sqlite") for p in parts]
