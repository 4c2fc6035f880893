"""The model's reading of a question into a plan: it fills a JSON object under a schema whose enums
are the operations and the tables and columns this source holds (llama.cpp constrains a local
model's decoding to it; a hosted one is sent it), and every value it names must be one the column
holds. A plan that does not hold is refused, and the next reader tried."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from longread.query.catalog import Catalog
from longread.query.plan import Filter, Inner, Operation, Plan, PlanError, Shape, Test, validate
from longread.query.spans import key

Ask = Callable[[str, dict[str, Any]], Any]  # (prompt, schema) -> the JSON value it returns
_TESTS = {"=": Test.IN, ">": Test.GT, ">=": Test.GE, "<": Test.LT, "<=": Test.LE}
PROMPT = """Tables of a document (each row is a record; `document` names its file):
{tables}

Question: {question}

Fill the plan that answers the question from these tables. operation: count rows, sum or mean \
or min or max a column, argmax/argmin the group_by value ranked by `inner` over `column`, list or \
distinct values of group_by, exists, nth row (rank 1 first, -1 last), or none if the question \
asks no count, total, ranking or list. filters: the rows kept (column, test, value as the \
table writes it). term: a word whose mentions are counted, if any."""


def schema(catalog: Catalog) -> dict[str, Any]:
    """The plan's JSON schema, its enums this source's tables and columns."""
    columns = sorted({c.name for t in catalog.tables.values() for c in t.columns} | {"document"})
    nullable_column = {"enum": [*columns, None]}
    return {
        "type": "object",
        "properties": {
            "operation": {"enum": [*(o.value for o in Operation), "none"]},
            "table": {"enum": sorted(catalog.tables)},
            "column": nullable_column,
            "group_by": nullable_column,
            "inner": {"enum": [i.value for i in Inner]},
            "filters": {
                "type": "array",
                "maxItems": 4,
                "items": {
                    "type": "object",
                    "properties": {
                        "column": {"enum": columns},
                        "test": {"enum": list(_TESTS)},
                        "value": {"type": "string", "maxLength": 80},
                    },
                    "required": ["column", "test", "value"],
                },
            },
            "rank": {"type": "integer", "minimum": -1, "maximum": 20},
            "term": {"type": ["string", "null"], "maxLength": 60},
        },
        "required": ["operation", "table", "column", "group_by", "inner", "filters", "rank"],
    }


def read_model(question: str, catalog: Catalog, ask: Ask, base: Plan) -> Plan:
    """The plan the model fills for the question (`base`: what the rules read of its shape and
    words); PlanError if it names what the source does not hold."""
    filled = ask(PROMPT.format(tables=catalog.describe(2), question=question), schema(catalog))
    if not isinstance(filled, dict):
        raise PlanError("the model's plan is not an object")
    if filled.get("operation") == "none":
        return base.with_(reader="model")
    table = catalog.tables.get(str(filled.get("table")))
    if table is None:
        raise PlanError(f"the model named no table of the source: {filled.get('table')!r}")
    filters = []
    for given in filled.get("filters") or []:
        column, test = str(given.get("column")), _TESTS.get(str(given.get("test")), Test.IN)
        value = _resolved(catalog, table.name, column, str(given.get("value", "")), test)
        filters.append(Filter(column, test, (value,)))
    plan = base.with_(
        shape=Shape.AGGREGATE,
        operation=Operation(filled["operation"]),
        table=table.name,
        column=filled.get("column"),
        group_by=filled.get("group_by"),
        inner=Inner(filled.get("inner") or "count"),
        filters=tuple(filters),
        rank=int(filled.get("rank") or 1),
        term=filled.get("term") or None,
        reader="model",
    )
    return validate(plan, catalog)


def _resolved(catalog: Catalog, table: str, column: str, value: str, test: Test) -> Any:
    """The value as the column holds it: a number for a bound, else one of its values (any
    case, spacing or punctuation); PlanError for a value the column does not hold."""
    if test is not Test.IN:
        try:
            return float(value.replace(",", ""))
        except ValueError:
            raise PlanError(f"{column} {test.value} needs a number, not {value!r}") from None
    if catalog.tables[table].column(column) is None and column != "document":
        raise PlanError(f"{table} has no column {column!r}")
    for held, _ in catalog.values(table, column):
        if key(str(held)) == key(value) or str(held) == value:
            return held
    if not catalog.listed(table, column):
        return value  # (a column of too many values to list: taken as written)
    raise PlanError(f"{table}.{column} holds no value {value!r}")
