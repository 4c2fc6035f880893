"""A model's SELECT checked against what the source holds, by code: each text value it compares a
column with is taken as the column holds it (any case, spacing or punctuation: `viola` is
`VIOLA`), and the values no row holds are named, with what the column holds instead."""

from __future__ import annotations

import contextlib
import functools
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from longread.query.core.catalog import Catalog
from longread.query.core.keys import key
from longread.query.core.schema_prompt import VALUES_SHOWN, literal

MAX_MISSES = 4  # values named as held by no row, at most
MAX_STARTING = 20  # held values a written one may stand for by starting them
HASH_PREFIX = 6  # characters of a code's start that stand for it (a commit's hash)


@dataclass
class Checked:
    """The statement as it will run, and what checking it found."""

    sql: str
    tables: list[str] = field(default_factory=list)  # the source's tables it reads
    resolved: list[tuple[str, str, Any]] = field(default_factory=list)  # (column, written, held)
    missing: list[tuple[str, str]] = field(default_factory=list)  # (column, value) no row holds
    literals: list[str] = field(default_factory=list)  # every text value it compares with

    def hints(self, catalog: Catalog) -> list[str]:
        """What the model is told of the values no row holds (for its next try)."""
        lines = []
        for column, value in self.missing[:MAX_MISSES]:
            held = _held(catalog, self.tables, column)
            shown = ", ".join(literal(v) for v, _ in held[:VALUES_SHOWN])
            also = f"; it holds {shown}" if shown else ""
            lines.append(f"no row's {column} is {literal(value)}{also}")
        return lines


def checked_values(sql: str, catalog: Catalog) -> Checked:
    """The statement with its compared values taken as the columns hold them, and the values
    held by no row named (a parsed statement; `checked_select` has parsed it once already)."""
    import sqlglot
    from sqlglot import exp

    tree = sqlglot.parse_one(sql, read="sqlite")
    tables = [t.name for t in tree.find_all(exp.Table) if t.name in catalog.tables]
    checked = Checked(sql, list(dict.fromkeys(tables)))
    for node in tree.find_all(exp.EQ, exp.NEQ, exp.In):
        column = node.this if isinstance(node.this, exp.Column) else None
        if column is None and isinstance(node, exp.EQ | exp.NEQ):
            column = node.expression if isinstance(node.expression, exp.Column) else None
            compared = [node.this]
        else:
            compared = node.expressions if isinstance(node, exp.In) else [node.expression]
        if column is None:
            continue
        for value in compared:
            if isinstance(value, exp.Literal) and value.is_string:
                _resolve(checked, catalog, column.name, value)
    for like in tree.find_all(exp.Like):
        if isinstance(like.expression, exp.Literal) and like.expression.is_string:
            checked.literals.append(like.expression.this)
            if isinstance(like.this, exp.Column):
                _widen(checked, catalog, like.this.name, like.expression)
    for name in tree.find_all(exp.Identifier):  # (`FROM commit`: SQLite reads a keyword there)
        if not name.quoted and keyword(name.name):
            name.set("quoted", True)
    checked.sql = tree.sql(dialect="sqlite")
    return checked


@functools.cache
def keyword(name: str) -> bool:
    """Whether SQLite cannot read `name` as a name unquoted (`commit`, `group`; not `date`)."""
    with contextlib.closing(sqlite3.connect(":memory:")) as db:
        try:
            db.execute(f'SELECT {name} FROM (SELECT 1 AS "{name}")')
        except sqlite3.Error:
            return True
    return False


def _resolve(checked: Checked, catalog: Catalog, column: str, value: Any) -> None:
    """Put the held value in place of the written one (`value`: a string literal node), or note
    that no row holds it."""
    from sqlglot import exp

    written = value.this
    checked.literals.append(written)
    held = _held(catalog, checked.tables, column)
    if not _listed(catalog, checked.tables, column):  # (too many to list: looked up)
        held = _looked_up(catalog, checked.tables, column, written)
    if not held:
        return  # (not a column of the tables read, or none of its many values)
    values = {str(v) for v, _ in held}
    if written in values:
        return
    same = [v for v, _ in held if key(str(v)) == key(written)]
    starting = [v for v, _ in held if _starts(str(v), written)] if written.strip() else []
    if same:
        value.replace(exp.Literal.string(str(same[0])))
        checked.resolved.append((column, written, same[0]))
    elif 0 < len(starting) <= MAX_STARTING and isinstance(value.parent, exp.EQ | exp.NEQ | exp.In):
        _stand_for(value, [str(v) for v in starting])
        checked.resolved.append((column, written, tuple(starting)))
    elif _listed(catalog, checked.tables, column):
        checked.missing.append((column, written))


def _starts(held: str, written: str) -> bool:
    """Whether a held value starts with the written one, then a space or a mark and a space
    (`SCENE II` of `SCENE II. The Forum.`, `14.04` of `14.04 LTS`; not `SCENE III`, nor `14` of
    `14.10`), or the written one is a code's first characters, letters and digits, HASH_PREFIX
    at least (`43fbf03e` of a commit's hash; not `2.10.1` of `2.10.12`)."""
    whole, part = held.lower(), written.lower().strip()
    after = whole[len(part) : len(part) + 2]
    spaced = after[:1].isspace() or after[:1] in ".,:;" and after[1:2] == " "
    prefix = len(part) >= HASH_PREFIX and part.isalnum() and any(c.isdigit() for c in part)
    return whole.startswith(part) and (spaced or prefix)


def _stand_for(value: Any, held: list[str]) -> None:
    """Compare with every held value the written one starts: `= v` becomes `IN (…)`, `<> v`
    `NOT IN (…)`, and a value in a list becomes them all."""
    from sqlglot import exp

    literals = [exp.Literal.string(v) for v in held]
    compared = value.parent
    if isinstance(compared, exp.In):
        compared.set("expressions", [e for e in compared.expressions if e is not value] + literals)
        return
    column = compared.this if isinstance(compared.this, exp.Column) else compared.expression
    listed = exp.In(this=column.copy(), expressions=literals)
    compared.replace(listed if isinstance(compared, exp.EQ) else exp.Not(this=listed))


def _widen(checked: Checked, catalog: Catalog, column: str, pattern: Any) -> None:
    """A LIKE pattern with no wildcard that no value is, where values hold it as a word, is
    taken as a word within them (`LIKE 'LTS'` as `LIKE '%LTS%'`)."""
    from sqlglot import exp

    written = pattern.this
    if "%" in written or "_" in written or not _listed(catalog, checked.tables, column):
        return
    held = [str(v) for v, _ in _held(catalog, checked.tables, column)]
    if any(key(v) == key(written) for v in held):
        return
    holding = [v for v in held if written.lower() in v.lower()]
    as_word = [v for v in holding if f" {key(written)} " in f" {key(v)} "]
    if holding and len(as_word) == len(holding):  # (`'%LTS%'`; not `'%Elm%'` of `Helm`)
        pattern.replace(exp.Literal.string(f"%{written}%"))
        checked.resolved.append((column, written, f"%{written}%"))


def _held(catalog: Catalog, tables: list[str], column: str) -> list[tuple[Any, int]]:
    for table in tables:
        if catalog.tables[table].column(column) is not None or column == "document":
            return catalog.values(table, column)
    return []


def _looked_up(catalog: Catalog, tables: list[str], column: str, written: str) -> list[Any]:
    """A many-valued column's values that hold the written one in any case (those it is, once
    case and marks are folded, or starts, stand for it)."""
    table = next((t for t in tables if catalog.tables[t].column(column) is not None), None)
    if table is None or not written.strip():
        return []
    return catalog.holding(table, column, [written.lower()], within=True)


def _listed(catalog: Catalog, tables: list[str], column: str) -> bool:
    return any(
        catalog.tables[t].column(column) is not None and catalog.listed(t, column) for t in tables
    )
