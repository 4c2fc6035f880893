"""The one place a question is read into a plan, for a run: the source's record tables found when
the question asks to count (or names a few of their rows), and its query written by the model
`query_writer` names, or, with none, the question read by the rules."""

from __future__ import annotations

from longread.events import EventKind
from longread.index.first_need import records_found
from longread.query.core.catalog import Catalog
from longread.query.core.plan import Plan
from longread.query.read import read_plan, read_written
from longread.strategies.common import Run
from longread.strategies.query_writer import asking, query_writer, writing
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

    writer = query_writer(run)
    if writer is not None:
        reader = f"{writer.name}, checked by code"
        write = writing(run, writer)
        ask = asking(run, writer)
        run.plan = read_written(question, tables, write, reader, _looks_up(source), ask)
    else:
        run.plan = read_plan(question, tables)
    if run.plan.operation is not None:  # (a fact's plan is its shape, said with the mode)
        described = run.plan.sql or f"{run.plan.operation.value}: no statement"
        run.emit(EventKind.PHASE, name="PLAN", plan=described, reader=run.plan.reader)
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
