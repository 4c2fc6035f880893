"""The `aggregate` strategy: the plan's statement run over the source's record tables; where they
cannot answer it, figures or names stated across the text, found by rules; else (its second way) the
sub-model lists, chunk by chunk over the whole source, the records the question counts, each kept
only where its chunk holds it word for word, and code counts them. The answer leads with the
result, says how every chunk was read, and cites the records counted. Never top-k passages."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from longread.answer import Answer, Citation
from longread.errors import InputError
from longread.events import EventKind
from longread.llm.usage import Purpose
from longread.query.core.plan import Operation, Plan
from longread.store.record_query import QueryError
from longread.strategies.common import Run
from longread.strategies.figures import NothingStated, run_stated
from longread.strategies.planning import plan_for
from longread.strategies.sql_answer import run_written
from longread.strategies.texts import InMemory, TextDocs
from longread.tools.bounds import fit_chars
from longread.tools.corpus import CorpusTools
from longread.tools.extract import (
    Extraction,
    asking,
    chunk_room,
    extract,
    instruction_for,
    least,
    tally_values,
)
from longread.tools.single_doc import SingleDocTools
from longread.tools.toolset import CHUNK_CHARS

SHOWN = 10  # values listed under the answer
CITED = 3  # records cited
PREFILTER_CHUNKS = 64  # a larger source's chunks without the question's words go unread
LIST_TOKENS = 384  # a chunk's list, at most (a small model asked to list runs on, making lines up)


class NothingToCount(InputError):
    """The question asks to count nothing, or nothing it counts was found."""


class NothingFound(InputError):
    """The sub-model found nothing the question counts in any chunk."""


@dataclass
class Flat:
    """A source as one text: its length, a reader of [start, end) and a citation of a span."""

    length: int
    read: Callable[[int, int], str]
    cite: Callable[[int, int], Citation]


_EXTRACTED = {  # what code does with the records the sub-model lists, per operation
    Operation.COUNT: "count",
    Operation.DISTINCT: "distinct",
    Operation.ARGMAX: "most",
    Operation.ARGMIN: "least",
}


def run_aggregate(question: str, source: object, run: Run, by_model: bool = True) -> Answer:
    """The `aggregate` strategy: the question's plan counted by code from the source's records,
    else figures or names stated across the text (no model call either way), else (with
    `by_model`) listed by the sub-model from every chunk and counted by code. NothingToCount for a
    question that asks to count nothing, or when none of these finds anything."""
    plan = plan_for(question, source, run)
    if not plan.counts and plan.operation is None and not plan.names_wanted:
        raise NothingToCount("the question asks for no count, total, ranking or list")
    missing = "; ".join(plan.notes) or "the question names no record the source holds"
    if plan.counts and plan.sql:
        try:
            return run_written(plan, source, run)
        except QueryError as error:
            missing = f"the records cannot answer it: {error}"
    try:
        return run_stated(plan, source, run)
    except NothingStated as nothing:
        if not plan.counts:
            raise NothingToCount(
                f"the question asks for no count, total, ranking or list ({nothing})"
            ) from None
    if not by_model:
        raise NothingToCount(missing)
    run.emit(EventKind.PHASE, name="EXTRACT", note=f"{missing}; every chunk is read")
    try:
        return run_extracted(plan, source, run)
    except NothingFound as nothing:
        raise NothingToCount(f"{missing}; {nothing}") from None


def run_extracted(plan: Plan, source: object, run: Run) -> Answer:
    """Answer by the records the sub-model lists from every chunk of `source`, counted by code as
    the plan's operation says (count, distinct, most, least; a list for the rest). In a source of
    more than PREFILTER_CHUNKS chunks, those holding none of the question's words are passed over
    by code (and the answer says so)."""
    operation = _EXTRACTED.get(plan.operation or Operation.LIST, "list")
    flat = _flat(source)
    instruction = instruction_for(plan.question)
    size = chunk_room(fit_chars(run.sub), instruction, CHUNK_CHARS)
    words = list(plan.starts) if flat.length > PREFILTER_CHUNKS * size else []

    def call(prompt: str) -> str:
        return run.gateway.complete(
            run.sub, prompt, purpose=Purpose.SUBCALL, max_tokens=LIST_TOKENS
        ).text

    def progress(done: int, total: int) -> None:
        run.emit(EventKind.PROGRESS, task="reading every chunk", done=done, total=total)

    result = extract(
        flat.length,
        flat.read,
        instruction,
        asking(run.gateway.map, call),
        chunk_chars=size,
        must_contain=words,
        progress=progress,
    )
    run.emit(EventKind.PHASE, name="EXTRACT", summary=result.summary())
    if not result.found:
        raise NothingFound(f"nothing the question counts was found: {result.summary()}")
    ranked = tally_values([f.item for f in result.found])
    lead = f"{_lead(operation, result, ranked)}{_caveat(result, words)}."
    text = f"{lead}\n\n{_support(result, ranked)}"
    run.emit(EventKind.FINAL, answer=text)
    chosen = (least(ranked) if operation == "least" else ranked[0])[0].casefold()
    own = [f for f in result.found if f.key == chosen]
    cited = own if operation in ("most", "least") else result.found
    return Answer(
        text=text,
        mode="aggregate",
        citations=[flat.cite(f.start, f.end) for f in cited[:CITED]],
        computed=text,
        usage=run.gateway.usage.to_dict(),
        stats={
            "chunks": result.chunks,
            "asked": result.asked,
            "skipped": result.skipped,
            "records": len(result.found),
            "failed": result.failed,
            "unread": result.unread,
        },
        reason="the question counts over the whole text: the sub-model read every chunk, "
        "code counted",
    )


def _caveat(result: Extraction, words: list[str]) -> str:
    """What the lead rests on less than all of: chunks not read, or passed over by code."""
    if result.partial:
        return " (from the chunks read; some were not)"
    if result.skipped:
        return f" (chunks holding none of {', '.join(words)} were passed over)"
    return ""


def _flat(source: object) -> Flat:
    if isinstance(source, InMemory):
        source = source.as_texts(1_800)
    if isinstance(source, TextDocs):
        return Flat(source.total_chars, source.read_range, source.citation)
    if isinstance(source, SingleDocTools):
        return Flat(source.context_length(), source.read_context, source.citation)
    if isinstance(source, CorpusTools):
        return Flat(source.context_length(), source.read_context, source.flat_citation)
    raise InputError(f"cannot read {type(source).__name__} chunk by chunk")


def _lead(operation: str, result: Extraction, ranked: list[tuple[str, int]]) -> str:
    """The direct answer, without its full stop: the figure, the values or the one that ranks
    first (or last)."""
    more = ", …" if len(ranked) > SHOWN else ""
    values = ", ".join(value for value, _ in ranked[:SHOWN]) + more
    if operation == "count":
        return f"{len(result.found):,}"
    if operation == "distinct":
        return f"{len(ranked):,}: {values}"
    if operation == "list":
        return f"{values} ({len(ranked):,})"
    value, count = least(ranked) if operation == "least" else ranked[0]
    which = "the least often" if operation == "least" else "the most often"
    return f"{value}: {count:,} times, {which}"


def _support(result: Extraction, ranked: list[tuple[str, int]]) -> str:
    lines = [f"Read over the whole source, {result.summary()} Counted by code:"]
    lines += [f"- {value}: {count}" for value, count in ranked[:SHOWN]]
    if len(ranked) > SHOWN:
        lines.append(f"- … {len(ranked) - SHOWN} more")
    return "\n".join(lines)
