"""Conditions a small model copied into its statement from the tables shown to it (a column's
listed values, a sample row's cells) that the question does not name, left out by code; one such
text alone is kept, as the question may say it in other words (`urgent` for 'high')."""

from __future__ import annotations

import os
import re
from typing import Any

from longread.query.core.keys import key
from longread.text.rank import stem

MIN_WORD = 3  # letters of a value's word looked for in the question
SHARED = 4  # letters two forms of a word share at the start, at least
COPIED = 2  # unnamed texts copied, for them to be taken as copied (one may be a synonym)
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def without_unasked(sql: str, question: str, shown: str) -> tuple[str, list[str]]:
    """The statement without the WHERE conditions on values `shown` (the tables as the model saw
    them) holds and the question does not name, and those conditions (none: the statement)."""
    import sqlglot
    from sqlglot import exp

    tree = sqlglot.parse_one(sql, read="sqlite")
    asked = key(question).split()
    numbers = {_number(n.replace(",", "")) for n in _NUMBER.findall(question)}
    compared = (exp.EQ, exp.NEQ, exp.In, exp.Like, exp.GT, exp.GTE, exp.LT, exp.LTE)
    found = []  # (a condition, its select, its literals, those copied and not named)
    for select in list(tree.find_all(exp.Select)):
        where = select.args.get("where")
        for node in list(where.find_all(*compared)) if where is not None else []:
            if node.find_ancestor(exp.Select) is not select:
                continue  # (a subquery's own, met with its own select)
            literals = _compared(node)
            every = isinstance(node, exp.Like)  # (a pattern is the model's words: all asked)
            unasked = [
                v for v in literals if _copied(v, shown) and not _named(v, asked, numbers, every)
            ]
            if unasked:
                found.append((node, select, literals, unasked))
    texts = [v for *_, unasked in found for v in unasked if v.is_string]
    left_out: list[str] = []
    for node, select, literals, unasked in found:
        if len(texts) < COPIED and unasked[0].is_string:
            continue  # (one the question may name in other words: `urgent` for 'high')
        if len(unasked) < len(literals):  # (of a list, its unnamed values go)
            left_out += [v.sql(dialect="sqlite") for v in unasked]
            node.set("expressions", [e for e in node.expressions if e not in unasked])
        elif _removed(node, select):
            left_out.append(node.sql(dialect="sqlite"))
    if not left_out:
        return sql, []
    return tree.sql(dialect="sqlite"), left_out


def _compared(node: Any) -> list[Any]:
    """The literals a column is compared with (none where no side is a column)."""
    from sqlglot import exp

    if isinstance(node, exp.In):
        column, values = node.this, node.expressions
    else:
        column, value = node.this, node.expression
        if isinstance(value, exp.Column):
            column, value = value, column
        values = [value]
    if not isinstance(column, exp.Column) or not all(isinstance(v, exp.Literal) for v in values):
        return []
    return list(values)


def _copied(value: Any, shown: str) -> bool:
    """Whether the tables shown hold the literal: a text as quoted there, or inside a shown
    value (a pattern's words); a number as a cell (`words=43`)."""
    if value.is_string:
        text = value.this.strip("%").replace("'", "''")
        return bool(text) and (f"'{text}'" in shown or "%" in value.this and text in shown)
    return re.search(rf"=\s*{re.escape(value.this)}(?![\d.])", shown) is not None


def _named(value: Any, asked: list[str], numbers: set[float], every: bool = False) -> bool:
    """Whether the question names the literal: a number it writes (or 0 or 1); a text one of
    whose words (`every` word, of a pattern) it has, or with no word long enough to tell."""
    if not value.is_string:
        return _number(value.this) in numbers | {0.0, 1.0}
    words = [w for w in key(value.this.replace("%", " ")).split() if len(w) >= MIN_WORD]
    held = [any(_same(w, q) for q in asked) for w in words]
    return not words or (all(held) if every else any(held))


def _same(word: str, asked: str) -> bool:
    """One word, maybe in another form: one stem, or all but the last letter of the shorter
    shared at the start, SHARED letters at least (`fixes` and `Fixed`; not `changed` and
    `changelog`)."""
    shared = len(os.path.commonprefix([word, asked]))
    return stem(word) == stem(asked) or shared >= max(SHARED, min(len(word), len(asked)) - 1)


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return float("nan")


def _removed(node: Any, select: Any) -> bool:
    """Take the condition out of its select's WHERE (an AND or OR holding it becomes its other
    side; a WHERE of it alone goes); False where it stands elsewhere (a CASE, a function)."""
    from sqlglot import exp

    while isinstance(node.parent, exp.Paren | exp.Not):
        node = node.parent
    parent = node.parent
    if isinstance(parent, exp.Where):
        select.set("where", None)
    elif isinstance(parent, exp.And | exp.Or):
        parent.replace(parent.expression if node is parent.this else parent.this)
    else:
        return False
    return True
