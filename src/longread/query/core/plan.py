"""A question as a typed plan, read once and passed down: its shape (one fact, a chain of two
facts, or an aggregate over the whole source) and, for an aggregate, the operation its words ask
for and the one read-only statement that computes it over the source's tables (written by a
model, or by the rules for a word's mentions), with what checking the statement found."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any


class Shape(StrEnum):
    FACT = "fact"  # one fact, stated somewhere
    CHAIN = "chain"  # a fact about something another fact names (`the ship that carried…`)
    AGGREGATE = "aggregate"  # depends on the whole source (how many, the most, every, total)


class Operation(StrEnum):
    COUNT = "count"  # rows (or a word's mentions)
    SUM = "sum"
    MEAN = "mean"
    MEDIAN = "median"  # the middle value of a number column (the mean of the two in the middle)
    MIN = "min"  # the lowest value
    MAX = "max"
    ARGMAX = "argmax"  # the group ranking first by its aggregate
    ARGMIN = "argmin"
    LIST = "list"  # every value, or every group
    DISTINCT = "distinct"  # how many distinct values, and which
    EXISTS = "exists"
    NTH = "nth"  # the row at a place in the text's order (the first, the last)
    SHARE = "share"  # the percentage of rows passing a filter


@dataclass(frozen=True)
class Plan:
    """What a question asks for. For an aggregate: the `operation` its words ask for, and `sql`,
    the statement computing it over the source's tables; none where nobody could write one
    (`notes` say why)."""

    question: str
    shape: Shape = Shape.FACT
    operation: Operation | None = None
    whole_text: bool = False  # its words say it needs every part of the text (`how many times`)
    names_wanted: bool = False  # it asks who or which (the names a relation gives may answer)
    words: tuple[str, ...] = ()  # the question's stems (`ferry`, `toll`, `highest`)
    starts: tuple[str, ...] = ()  # how its words naming what is counted start (`countr`)
    reader: str = "the rules"
    notes: tuple[str, ...] = field(default=(), compare=False)
    sql: str = ""  # the statement computing it (run as written, checked by code)
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
