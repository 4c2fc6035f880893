"""Conditions of a model's statement that compare a column with values the question never names
(a small model copying a column's listed values, `section = 'Fixed' OR section = 'Added' …` for
a question about dates, or a sample row's, `words >= 43`), left out by code: a text is named when
one of its words (of MIN_WORD letters or more; each word, of a LIKE pattern) is in the question,
and a text of no such word (`F`) is kept, as is one text alone (`urgent` asked as 'high', `long
term` as LIKE 'LTS'); a number is named when the question writes it, and 0 and 1 always are."""

from __future__ import annotations

import re
from typing import Any

from longread.query.core.keys import key

MIN_WORD = 3  # letters of a value's word looked for in the question
COPIED = 2  # unnamed values compared with, for them to be taken as copied (one may be a synonym)


def without_unasked(sql: str, question: str) -> tuple[str, list[str]]:
    """The statement without its WHERE conditions on values the question does not name, and
    those conditions as written (none left out: the statement as given)."""
    import sqlglot
    from sqlglot import exp

    tree = sqlglot.parse_one(sql, read="sqlite")
    asked = key(question)
    numbers = {_number(n.replace(",", "")) for n in re.findall(r"\d[\d,]*(?:\.\d+)?", question)}
    compared = (exp.EQ, exp.NEQ, exp.In, exp.Like, exp.GT, exp.GTE, exp.LT, exp.LTE)
    found = []  # (the condition, its select, its literals, those unasked)
    for select in list(tree.find_all(exp.Select)):
        where = select.args.get("where")
        for node in list(where.find_all(*compared)) if where is not None else []:
            literals = _compared(node)
            every = isinstance(node, exp.Like)  # (a pattern is the model's words: all asked)
            unasked = [v for v in literals if not _named(v, asked, numbers, every)]
            if unasked:
                found.append((node, select, literals, unasked))
    texts = [v for _, _, _, unasked in found for v in unasked if v.is_string]
    left_out: list[str] = []
    for node, select, literals, unasked in found:
        if len(texts) < COPIED and unasked[0].is_string:
            continue  # (one the question may name in other words: `urgent` for 'high')
        if len(unasked) < len(literals):  # (of a list, its unnamed values go)
            left_out += [v.sql(dialect="sqlite") for v in unasked]
            node.set("expressions", [e for e in node.expressions if e not in unasked])
            continue
        left_out.append(node.sql(dialect="sqlite"))
        _remove(node, select)
    if not left_out:
        return sql, []
    return tree.sql(dialect="sqlite"), left_out


def _compared(node: Any) -> list[Any]:
    """The string literals a column is compared with (none where no side is a column)."""
    from sqlglot import exp

    if isinstance(node, exp.In):
        values = node.expressions
        column = node.this
    else:
        column, value = node.this, node.expression
        if isinstance(value, exp.Column):
            column, value = value, column
        values = [value]
    if not isinstance(column, exp.Column):
        return []
    if not all(isinstance(v, exp.Literal) for v in values):
        return []
    return list(values)


def _named(value: Any, asked: str, numbers: set[float], every: bool = False) -> bool:
    """Whether the question names the literal: a number it writes (or 0 or 1); a text one of
    whose words (`every` word, of a pattern) is in it, or with no word long enough to tell."""
    if not value.is_string:
        return _number(value.this) in numbers | {0.0, 1.0}
    words = [w for w in key(value.this.replace("%", " ")).split() if len(w) >= MIN_WORD]
    return not words or (all if every else any)(w in asked for w in words)


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return float("nan")


def _remove(node: Any, select: Any) -> None:
    """Take the condition out of its WHERE: an AND or OR holding it becomes its other side; a
    WHERE of it alone goes."""
    from sqlglot import exp

    while isinstance(node.parent, exp.Paren | exp.Not):
        node = node.parent
    parent = node.parent
    if isinstance(parent, exp.Where):
        select.set("where", None)
    elif isinstance(parent, exp.And | exp.Or):
        parent.replace(parent.expression if node is parent.this else parent.this)
