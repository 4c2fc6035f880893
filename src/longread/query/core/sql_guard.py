"""A statement from a model checked before it reaches SQLite: parsed (sqlglot), it must be one
SELECT, a set operation of SELECTs or a WITH over them. The read-only connection's authorizer
refuses anything else again, whatever this check misses."""

from __future__ import annotations

import logging

from longread.store.record_query import QueryError

MAX_SQL_CHARS = 20_000


def checked_select(sql: str) -> str:
    """The statement, if it is one reading query; QueryError saying why not otherwise."""
    import sqlglot  # (only runs that take SQL from a model need the parser)
    from sqlglot import exp
    from sqlglot.errors import SqlglotError

    text = str(sql).strip().rstrip(";").strip()
    if not text:
        raise QueryError("the query is empty")
    if len(text) > MAX_SQL_CHARS:
        raise QueryError(f"the query is {len(text):,} characters; {MAX_SQL_CHARS:,} at most")
    logging.getLogger("sqlglot").setLevel(logging.ERROR)
    try:
        statements = [s for s in sqlglot.parse(text, read="sqlite") if s is not None]
    except SqlglotError as error:
        raise QueryError(f"the query does not parse: {str(error).splitlines()[0][:200]}") from None
    if len(statements) != 1:
        raise QueryError(f"one statement at a time ({len(statements)} given)")
    statement = statements[0]
    if not isinstance(statement, exp.Select | exp.Union | exp.Intersect | exp.Except):
        raise QueryError(f"only SELECT is allowed, not {type(statement).__name__.upper()}")
    return text
