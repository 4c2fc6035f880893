"""A column of yes and no that a question names as what its rows are (`How many services are
enabled?`, `Which accounts are active?`): the rows where it holds true, or, where the question
denies it (`not enabled`, `aren't active`), where it holds false."""

from __future__ import annotations

import re

from longread.query.core.catalog import CatalogTable
from longread.query.core.plan import Filter, Plan, Test
from longread.query.readers.rules.reading import Reading

_TRUE = frozenset("true yes y on 1 enabled active t".split())
_FALSE = frozenset("false no n off 0 disabled inactive f".split())
_DENIED = re.compile(r"\b(?:not|never|no)\s+(?:\w+\s+)?$|n['’]t\s+(?:\w+\s+)?$", re.I)


def told_true(plan: Plan, reading: Reading, table: CatalogTable) -> Plan:
    """The plan keeping the rows a yes-or-no column the question names holds true (or false)
    for, where no filter already falls on that column."""
    filtered = {f.column for f in plan.filters}
    for found in reading.own(table):
        column = table.column(found.column or "") if found.what == "column" else None
        if column is None or column.name in filtered or column.name == plan.group_by:
            continue
        held = [v for v, _ in reading.catalog.values(table.name, column.name)]
        truths = {str(v).lower() for v in held}
        if len(truths) < 2 or not truths <= _TRUE | _FALSE or not truths & _TRUE:
            continue
        denied = _DENIED.search(reading.asked[: found.start]) is not None
        wanted = tuple(v for v in held if (str(v).lower() in _TRUE) != denied)
        return plan.with_(filters=(*plan.filters, Filter(column.name, Test.IN, wanted)))
    return plan
