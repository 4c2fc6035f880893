"""A question read into a plan, once: with no word asking to count, a fact or chain plan without
looking at the source (unless one row of a table may state the fact); otherwise by the readers in
turn (the model under the plan's schema, the rules), the first plan that holds against the
source's tables taken."""

from __future__ import annotations

from collections.abc import Callable

from longread.errors import LongreadError
from longread.query.catalog import Catalog
from longread.query.lookup import asks_which
from longread.query.model_reader import Ask, read_model
from longread.query.plan import Operation, Plan, PlanError, validate
from longread.query.rules import fact_plan, looked_up_plan, read_rules

_WEAK = (Operation.NTH, Operation.LIST, Operation.EXISTS)


def read_plan(
    question: str,
    catalog: Callable[[], Catalog],
    ask: Ask | None = None,
    model_first: bool = False,
    looks_up: bool = False,
) -> Plan:
    """The question's plan. `catalog` gives the source's tables (called only for a question
    asking to count, or, when `looks_up`, a fact asked with which or what: looked up in them
    first); `ask` fills a plan with a model: tried first when `model_first`, else only where the
    rules find no table to count."""
    plan = fact_plan(question)
    if plan is not None and not (looks_up and asks_which(question)):
        return plan
    tables = catalog()
    if plan is not None:
        return looked_up_plan(question, tables) or plan
    rules = read_rules(question, tables)
    if ask is None or not model_first and rules.table is not None:
        return rules
    if not rules.counts and rules.operation in _WEAK:
        return rules  # (`first`, `which…`: most such questions ask for a fact)
    try:
        return validate(read_model(question, tables, ask, rules), tables)
    except (PlanError, LongreadError, ValueError, KeyError, TypeError):
        return rules
