"""A question read into a plan, once: with no word asking to count, a fact or chain plan without
looking at the source (unless it names a few rows of a table); otherwise, where a model writes
queries, into the SELECT it writes over the source's tables; where none does, by the rules (a
word's mentions counted, nothing else)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from longread.errors import ModelError
from longread.query.core.catalog import Catalog
from longread.query.core.plan import Operation, Plan, Shape
from longread.query.core.schema_prompt import STRUCTURAL
from longread.query.readers.model.named_rows import names_rows
from longread.query.readers.model.question_kind import Ask, asks_for_text
from longread.query.readers.model.sql_reader import NoQuery, Write, write_query
from longread.query.readers.rules.rules import as_fact, fact_plan, read_rules, unqueried

DATA_SHARE = 0.5  # of a source's text its records span, past which a fact is looked up in them
VALUE_CHARS = 100  # a longer cell answering a fact is a passage: the text path reads it better


def read_plan(question: str, catalog: Callable[[], Catalog]) -> Plan:
    """The question's plan where no model reads it: by the rules (`catalog`, the source's tables,
    called only for a question asking to count)."""
    return fact_plan(question) or read_rules(question, catalog())


def read_written(
    question: str,
    catalog: Callable[[], Catalog],
    write: Write,
    reader: str,
    looks_up: bool = False,
    ask: Ask | None = None,
) -> Plan:
    """The question's plan where a model writes its query: a question asking to count, rank or
    list, or (when `looks_up`) one naming a few rows by a value they hold or asked of a source
    that is mostly a table of values (a data file; not a play's speeches), is read by the model into
    one SELECT over the source's record tables (`reader` names the model). A source with none is
    read by the rules (a word's mentions counted; else what its text states answers: its sections
    alone cannot say how many ships a story names). A question the rules' cues would count that
    the model (asked through `ask`) reads as asking for a fact stated in the text is read as a
    fact; one the model writes no query for is left to what the text states, the answer saying
    why (`unqueried`)."""
    plan = fact_plan(question)
    if plan is None and ask is not None and asks_for_text(question, ask):
        plan = as_fact(question)
    if plan is not None and not looks_up:
        return plan
    tables = catalog()
    if not any(name not in STRUCTURAL for name in tables.tables):
        return plan or read_rules(question, tables)  # (a word's mentions; else what text states)
    if plan is not None and not (
        tables.covered(STRUCTURAL) >= DATA_SHARE or names_rows(question, tables)
    ):
        return plan
    try:
        written = write_query(question, tables, write)
    except (NoQuery, ModelError) as error:
        return plan or unqueried(question, f"the model wrote no query that runs: {error}")
    if plan is not None and (written.warnings or not _values(written.result.rows)):
        return plan  # (a lookup the tables do not answer with a value: the text may)
    return Plan(
        question,
        Shape.AGGREGATE,
        Operation.LIST,
        sql=written.sql,
        reader=reader,
        warnings=tuple(written.warnings),
        resolved=tuple(written.checked.resolved),
        unused=tuple(written.unused),
        left_out=tuple(written.left_out),
        tries=tuple(written.tries),
    )


def _values(rows: list[tuple[Any, ...]]) -> bool:
    """Whether a lookup's rows answer with values (numbers, names, dates), not passages."""
    return bool(rows) and all(
        row and row[0] is not None and len(str(row[0])) <= VALUE_CHARS for row in rows
    )
