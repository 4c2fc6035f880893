"""A question as a typed plan, read once and passed down: its shape (one fact, a chain of two
facts, or an aggregate over the whole source) and, for an aggregate, what to compute over which
record table: the operation, the column, the filters, the grouping and the place asked for. A plan
is checked against the tables and columns the source holds before anything runs on it."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from longread.errors import InputError
from longread.query.core.catalog import TEXT_TABLE, Catalog


class Shape(StrEnum):
    FACT = "fact"  # one fact, stated somewhere
    CHAIN = "chain"  # a fact about something another fact names (`the ship that carried…`)
    AGGREGATE = "aggregate"  # depends on the whole source (how many, the most, every, total)


class Operation(StrEnum):
    COUNT = "count"  # rows (or a word's mentions)
    SUM = "sum"
    MEAN = "mean"
    MEDIAN = "median"  # the middle value of a number column (the mean of the two in the middle)
    MIN = "min"  # the lowest value, and the row that holds it
    MAX = "max"
    ARGMAX = "argmax"  # the group ranking first (`rank`) by its aggregate
    ARGMIN = "argmin"
    LIST = "list"  # the distinct values of a column (or of the grouping)
    DISTINCT = "distinct"  # how many distinct values, and which
    EXISTS = "exists"
    NTH = "nth"  # the row at a place in the text's order (1: first, -1: last)
    SHARE = "share"  # of the rows the `whole` filters keep, the percentage passing every filter


class Inner(StrEnum):
    """What each group is ranked by."""

    COUNT = "count"
    SUM = "sum"
    MAX = "max"
    MIN = "min"
    MEAN = "mean"
    DISTINCT = "distinct"  # distinct values of `column`


class Test(StrEnum):
    IN = "in"  # the column holds one of the values
    MENTIONS = "mentions"  # the column's text holds the word
    SAYS = "says"  # the row's text holds the word: the column's, or one of the filter's `also`
    GT = ">"
    GE = ">="
    LT = "<"
    LE = "<="
    PREFIX = "prefix"  # (a date in a month or a year)
    FILLED = "filled"  # the column holds a value (`runs that have an Install line`)
    EMPTY = "empty"  # the column holds none (`packages without a homepage`)


class Part(StrEnum):
    """A part of a date a question groups or filters by (`Which month…`, `per year`)."""

    YEAR = "year"
    MONTH = "month"
    DAY = "day"
    WEEKDAY = "weekday"
    HOUR = "hour"


@dataclass(frozen=True)
class Filter:
    column: str
    test: Test
    values: tuple[Any, ...]
    part: Part | None = None  # (the column's month is May: a date column's part)
    also: tuple[str, ...] = ()  # (SAYS: the other columns the word may stand in)

    def described(self) -> str:
        if self.test in (Test.FILLED, Test.EMPTY):
            return f"{self.column} {'has a value' if self.test is Test.FILLED else 'is empty'}"
        shown = " or ".join(str(v) for v in self.values)
        dated = all(str(v)[:1].isdigit() for v in self.values)  # (a year or a month: `is in`)
        words = {
            Test.IN: "is",
            Test.MENTIONS: "mentions",
            Test.SAYS: "mentions",
            Test.PREFIX: "is in" if dated else "begins with",
        }
        column = f"the {self.part.value} of {self.column}" if self.part else self.column
        return f"{column} {words.get(self.test, self.test.value)} {shown}"


TEXT = TEXT_TABLE  # the table of a word's mentions in the whole text


@dataclass(frozen=True)
class Plan:
    """What a question asks for. For an aggregate: `operation` over `table`'s rows that pass
    `filters`; `column` is what is summed, averaged, compared, listed or counted distinct;
    `term` a word whose mentions are counted (in the table's text column, or in the whole text:
    table TEXT); `group_by` the column grouped by, ranked by `inner` over `column`; `rank` the
    place asked for (2: the second most; for nth, 1 first and -1 last); `compared` the groups a
    question names to compare (shown at 0 when they have no rows)."""

    question: str
    shape: Shape = Shape.FACT
    operation: Operation | None = None
    table: str | None = None
    column: str | None = None
    term: str | None = None
    filters: tuple[Filter, ...] = ()
    group_by: str | None = None
    part: Part | None = None  # the part of the date column grouped by (its month, its year)
    inner: Inner = Inner.COUNT
    rank: int = 1
    compared: tuple[Any, ...] = ()
    having: tuple[Test, float] | None = None  # a bound on each group's figure (`only once`)
    whole: tuple[Filter, ...] = ()  # for a share: the filters of what it is a share of
    whole_text: bool = False  # its words say it needs every part of the text (`how many times`)
    names_wanted: bool = False  # it asks who or which (the names a relation gives may answer)
    noun: str | None = None  # what the question calls the rows counted (`scenes`, `emails`)
    words: tuple[str, ...] = ()  # the question's stems (`ferry`, `toll`, `highest`)
    starts: tuple[str, ...] = ()  # how its words naming what is counted start (`countr`)
    reader: str = "rules"
    notes: tuple[str, ...] = field(default=(), compare=False)
    sql: str = ""  # the statement a model wrote for it (run as written, checked by code)
    warnings: tuple[str, ...] = ()  # why the statement's figure is not the answer (see sql_checks)
    resolved: tuple[tuple[str, str, Any], ...] = ()  # values (column, as written, as held)
    unused: tuple[str, ...] = ()  # the question's words the statement does not use
    left_out: tuple[str, ...] = ()  # its conditions on values the question does not name
    tries: tuple[tuple[str, str], ...] = ()  # the statements before it, and what was wrong

    @property
    def counts(self) -> bool:
        return self.shape is Shape.AGGREGATE

    def with_(self, **changes: Any) -> Plan:
        return replace(self, **changes)

    def described(self) -> str:
        """The plan in a line, as the answer says how it counted."""
        if self.operation is None:
            return self.shape.value
        what = f"{self.operation.value}"
        if self.term:
            what += f" mentions of “{self.term}”"
        if self.column:
            what += f" of {self.column}"
        what += f" over {'the whole text' if self.table == TEXT else self.table}"
        if self.filters:
            what += " where " + " and ".join(f.described() for f in self.filters)
        if self.group_by:
            grouped = f"the {self.part.value} of {self.group_by}" if self.part else self.group_by
            what += f", by {grouped} ({self.inner.value}"
            what += f" of {self.column})" if self.column and self.inner is not Inner.COUNT else ")"
        return what


_NUMERIC = (Operation.SUM, Operation.MEAN, Operation.MEDIAN, Operation.MIN, Operation.MAX)
MEASURED = (Operation.SUM, Operation.MEAN, Operation.MEDIAN)  # (each needs a number column)


class PlanError(InputError):
    """A plan that names a table or column the source does not hold."""


def validate(plan: Plan, catalog: Catalog) -> Plan:
    """The plan, if every table and column it names is the source's (TEXT: the whole text); else
    PlanError saying what is not there."""
    if not plan.counts or plan.table is None or plan.table == TEXT or plan.sql:
        return plan
    table = catalog.tables.get(plan.table)
    if table is None:
        raise PlanError(f"no record table {plan.table!r}; the source has {sorted(catalog.tables)}")
    known = {c.name for c in table.columns} | {"document"}
    named = [plan.column, plan.group_by, *(f.column for f in plan.filters)]
    missing = [c for c in named if c is not None and c not in known]
    if missing:
        raise PlanError(f"{plan.table} has no column {missing[0]!r}; it has {sorted(known)}")
    if plan.operation in MEASURED and plan.column is None:
        raise PlanError(f"{plan.operation.value} needs a column")
    measured = table.column(plan.column or "")
    number = measured is not None and measured.type == "number"
    if plan.operation in _NUMERIC and plan.column and not plan.term and not number:
        raise PlanError(f"{plan.operation} needs a number column, not {plan.column!r}")
    if plan.operation in (Operation.ARGMAX, Operation.ARGMIN) and plan.group_by is None:
        raise PlanError(f"{plan.operation.value} needs a column to group by")
    return plan
