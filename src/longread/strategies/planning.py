"""The one place a question is read into a plan, for a run: the source's record tables found when
the question asks to count, and read by the rules, or by the root model first where it reads plans
well (a hosted model, or a local one measured to)."""

from __future__ import annotations

from typing import Any

from longread.events import EventKind
from longread.index.first_need import records_found
from longread.llm.jsonio import complete_json
from longread.llm.usage import Purpose
from longread.query.catalog import Catalog
from longread.query.plan import Plan
from longread.query.read import read_plan
from longread.strategies.common import Run
from longread.strategies.competence import reads_plans
from longread.strategies.sources import catalog_of
from longread.tools.corpus import CorpusTools
from longread.tools.single_doc import SingleDocTools


def plan_for(question: str, source: object, run: Run) -> Plan:
    """The run's plan of the question (read on the first call, then kept on the run)."""
    if run.plan is not None and run.plan.question == question:
        return run.plan

    def tables() -> Catalog:
        run.emit(EventKind.PHASE, name="RECORDS", task="finding the source's records")
        return catalog_of(source)

    def ask(prompt: str, schema: dict[str, Any]) -> Any:
        return complete_json(run.gateway, run.root, prompt, schema, purpose=Purpose.PLAN)

    model = reads_plans(run.root)
    run.plan = read_plan(
        question, tables, ask if model is not None else None, bool(model), _looks_up(source)
    )
    if run.plan.operation is not None:  # (a fact's plan is its shape, said with the mode)
        run.emit(EventKind.PHASE, name="PLAN", plan=run.plan.described(), reader=run.plan.reader)
    return run.plan


LOOKUP_CHARS = 20_000_000  # a longer document's records are found for a fact only if found before


def _looks_up(source: object) -> bool:
    """Whether a fact asked which or what is looked up in the source's tables first: a single
    document's whose records are quick to find (a second or two) or found already; not a
    corpus's, whose records would cost more than the fact."""
    if isinstance(source, CorpusTools):
        return False
    if isinstance(source, SingleDocTools):
        index = source.index
        return index.total_chars <= LOOKUP_CHARS or records_found(index.store, index.store_id)
    return True  # (texts in memory)
