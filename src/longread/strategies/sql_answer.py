"""The answer to a question a model wrote a query for: the result's value alone on the first line
(a number, a name, a list: the form a question asks its reply in), then what was run (the
statement and a sentence of it), the rows it rests on, cited, and what it could not match (see
`sql_checks`): where that says the query answers another question, the figure is not stated as
the answer."""

from __future__ import annotations

from typing import Any

from longread.answer import Answer, Counts
from longread.events import EventKind
from longread.query.core.catalog import Catalog
from longread.query.core.plan import Plan
from longread.query.core.schema_prompt import literal
from longread.query.core.sql_explained import (
    citing_sql,
    conditions,
    grouped_rows_sql,
    keeps_every_row,
    lead_value,
    sentence,
)
from longread.query.readers.model.sql_reader import MAX_RESULT_ROWS
from longread.store.record_query import QueryError, Result
from longread.store.record_tables import quoted
from longread.strategies.common import Run
from longread.strategies.sources import catalog_of, cite

CITED = 3  # rows cited
CITE_CHARS = 200
LISTED = 30  # values the first line lists at most
SHOWN_ROWS = 10  # result rows shown under it
GROUPS_KEPT = 500  # of a result of groups and their figures, kept for its table and chart
REASON = "the question counts over the source's records: a query written for it, run by code"


def run_written(plan: Plan, source: object, run: Run) -> Answer:
    """The answer of the statement written for the plan's question, by a model or by the rules
    (QueryError if it fails now)."""
    catalog = catalog_of(source)
    result = catalog.computed(
        ("sql", plan.sql), lambda: catalog.query.execute(plan.sql, max_rows=MAX_RESULT_ROWS)
    )
    run.emit(EventKind.PHASE, name="AGGREGATE", records=len(result.rows), sql=plan.sql)
    value = _first_line(result)
    lead = value
    if plan.warnings:
        lead = f"Not stated: {'; '.join(plan.warnings)}. (The query gives {value}.)"
    text = f"{lead}\n\n{explained(plan, result, _kept_by_filter(catalog, plan.sql))}"
    rows = _cited(catalog, source, plan.sql, result)
    run.emit(EventKind.FINAL, answer=text)
    return Answer(
        text=text,
        mode="aggregate",
        citations=rows[:CITED],
        counts=_groups(catalog, source, plan.sql, result),
        computed=text,
        usage=run.gateway.usage.to_dict(),
        stats={"rows": len(result.rows), "cut": result.cut},
        reason=REASON,
    )


def explained(plan: Plan, result: Result, kept: tuple[int, int] | None = None) -> str:
    """How the answer was computed: a sentence of the statement, the statement, the values taken
    as held, the conditions left out, the words left unused, what its filter keeps (`kept`: of how
    many rows), the result's rows."""
    lines = [
        f"Computed by code: {sentence(plan.sql)}.",
        f"The query, written by {plan.reader}: {plan.sql}",
    ]
    for column, written, held in plan.resolved:
        held = " or ".join(literal(v) for v in held) if isinstance(held, tuple) else literal(held)
        lines.append(f"{literal(written)} is read as {column} holds it: {held}.")
    if plan.left_out:
        left = ", ".join(plan.left_out)
        lines.append(f"Left out of the query, as the question names none of it: {left}.")
    if plan.unused:
        lines.append(f"Words of the question the query does not use: {', '.join(plan.unused)}.")
    every = keeps_every_row(plan.sql)
    if every is not None:
        lines.append(f"It counts every row of {every}: the query has no filter.")
    elif kept is not None and kept[0] in (0, kept[1]):
        which = "No row passes" if not kept[0] else f"Every row of the {kept[1]:,} passes"
        lines.append(f"{which} the query's filter.")
    if len(result.rows) > 1 or result.rows and len(result.columns) > 1:
        lines.append(f"Rows of the result ({', '.join(result.columns)}):")
        lines += ["- " + " | ".join(lead_value(v) for v in r) for r in result.rows[:SHOWN_ROWS]]
        if len(result.rows) > SHOWN_ROWS:
            lines.append(f"- … {len(result.rows) - SHOWN_ROWS:,} more")
    return "\n".join(lines)


def _groups(catalog: Catalog, source: object, sql: str, result: Result) -> Counts | None:
    """A result of several rows, each a name and its figure, as a grouping to show as a table
    and a bar chart, with the rows it counted (GROUPS_KEPT at most) and the group of each; None
    for any other result."""
    rows = result.rows[:GROUPS_KEPT]
    figures = len(result.columns) >= 2 and all(
        isinstance(row[1], int | float) and not isinstance(row[1], bool) for row in rows
    )
    if len(rows) < 2 or not figures:
        return None
    groups = [(lead_value(row[0]), row[1]) for row in rows]
    counts = Counts(group=result.columns[0], figure=result.columns[1], groups=groups)
    try:
        listing = grouped_rows_sql(sql, GROUPS_KEPT)
        counted = catalog.query.execute(listing, max_rows=GROUPS_KEPT).rows if listing else []
    except (QueryError, ValueError):  # (a statement sqlglot reads but cannot rewrite)
        counted = []
    for document, start, end, group in counted:
        if document is not None and start is not None and end is not None:
            counts.rows.append(cite(source, str(document), int(start), int(end)))
            counts.labels.append(group)
    counts.label = result.columns[0] if counts.rows else ""
    return counts


def _kept_by_filter(catalog: Catalog, sql: str) -> tuple[int, int] | None:
    """(the rows its filter keeps, the rows of its table) of a statement over one table."""
    split = conditions(sql)
    if split is None or split[0] not in catalog.tables:
        return None
    table, parts = split
    where = " AND ".join(f"({p})" for p in parts)
    try:
        rows = catalog.query.execute(f"SELECT count(*) FROM {quoted(table)} WHERE {where}").rows
    except QueryError:
        return None
    return int(rows[0][0]), catalog.tables[table].rows


def _first_line(result: Result) -> str:
    """The result's value: one cell alone; the first column of several rows, listed."""
    if not result.rows:
        return "none (the query returns no row)"
    values = [lead_value(row[0]) for row in result.rows]
    if len(values) == 1:
        return values[0]
    total = f"{len(values):,}{'+' if result.cut else ''}"
    more = f", … ({total} in all)" if len(values) > LISTED else ""
    return ", ".join(values[:LISTED]) + more


def _cited(catalog: Catalog, source: object, sql: str, result: Result) -> list[Any]:
    """The rows the result rests on (SHOWN_ROWS at most), as citations."""
    first = result.rows[0] if result.rows else None
    try:
        citing = citing_sql(sql, first, result.columns)
        found = catalog.query.execute(citing, max_rows=SHOWN_ROWS).rows if citing else []
    except (QueryError, ValueError):  # (a statement sqlglot reads but cannot rewrite)
        return []
    return [
        cite(source, str(document), int(start), min(int(end), int(start) + CITE_CHARS))
        for document, start, end in found
        if document is not None and start is not None and end is not None
    ]
