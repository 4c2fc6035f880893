"""The `aggregate` strategy, and its second way: an aggregate question with nothing code can
count by structure (`How many different ships
are named?`, `List every treaty`): the sub-model lists, chunk by chunk over the whole source, the
records the question counts; each is kept only where its chunk holds it word for word, and code
counts them. The answer leads with the result, says how every chunk was read, and cites the
records counted."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from longread.answer import Answer, Citation
from longread.errors import BudgetExceededError, InputError, ModelError
from longread.events import EventKind
from longread.llm.usage import Purpose
from longread.strategies.aggregate import NothingToCount, count_records
from longread.strategies.common import Run
from longread.strategies.texts import InMemory, TextDocs
from longread.text.questions import aggregate_question, counted_words, whole_text_operation
from longread.tools.bounds import fit_chars
from longread.tools.corpus import CorpusTools
from longread.tools.extract import UNREAD, Extraction, Found, extract, tally_values
from longread.tools.single_doc import SingleDocTools
from longread.tools.toolset import CHUNK_CHARS

SHOWN = 10  # values listed under the answer
CITED = 3  # records cited
INSTRUCTION = (
    "Question about a long text: {question}\n"
    "This passage is one part of that text. List every name, date, figure or phrase in it that "
    "this question counts or asks about."
)


class NothingFound(InputError):
    """The sub-model found nothing the question counts in any chunk."""


@dataclass
class Flat:
    """A source as one text: its length, a reader of [start, end) and a citation of a span."""

    length: int
    read: Callable[[int, int], str]
    cite: Callable[[int, int], Citation]


def run_aggregate(question: str, source: object, run: Run, by_model: bool = True) -> Answer:
    """The `aggregate` strategy: the records the question counts, found by their structure (no
    model call), else (with `by_model`) listed by the sub-model from every chunk; counted by
    code. NothingToCount when neither finds any."""
    try:
        return count_records(question, source, run)
    except NothingToCount as missing:
        if not by_model:
            raise
        plan = aggregate_question(question)
        operation = whole_text_operation(question) or (plan.operation if plan else "list")
        try:
            return run_extracted(question, source, run, operation)
        except NothingFound as nothing:
            raise NothingToCount(f"{missing}; {nothing}") from None


def run_extracted(question: str, source: object, run: Run, operation: str) -> Answer:
    """Answer `question` by the records the sub-model lists from every chunk of `source`,
    counted by code as `operation` (count, distinct, list, most, least) says."""
    flat = _flat(source)
    words = counted_words(question)

    def ask(prompts: list[str]) -> list[str]:
        def one(prompt: str) -> str:
            try:
                return run.gateway.complete(run.sub, prompt, purpose=Purpose.SUBCALL).text
            except ModelError as error:  # (one failed call; a cancel ends the run)
                return f"error: {error}"
            except BudgetExceededError as error:
                return f"{UNREAD} {error}"

        return run.gateway.map(one, prompts)

    def progress(done: int, total: int) -> None:
        run.emit(EventKind.PROGRESS, task="reading every chunk", done=done, total=total)

    result = extract(
        flat.length,
        flat.read,
        INSTRUCTION.format(question=question),
        ask,
        chunk_chars=min(fit_chars(run.sub), CHUNK_CHARS),
        must_contain=words,
        progress=progress,
    )
    run.emit(EventKind.PHASE, name="EXTRACT", summary=result.summary())
    if not result.found:
        raise NothingFound(f"nothing the question counts was found: {result.summary()}")
    ranked = tally_values([f.item for f in result.found])
    text = f"{_lead(operation, result, ranked)}\n\n{_support(result, ranked)}"
    run.emit(EventKind.FINAL, answer=text)
    chosen = ranked[-1 if operation == "least" else 0][0].casefold()
    cited = [f for f in result.found if f.item.casefold() == chosen] or result.found
    return Answer(
        text=text,
        mode="aggregate",
        citations=[flat.cite(f.start, f.end) for f in _first(cited, operation, result)],
        usage=run.gateway.usage.to_dict(),
        stats={
            "chunks": result.chunks,
            "asked": result.asked,
            "skipped": result.skipped,
            "records": len(result.found),
            "unread": result.unread + result.failed,
        },
        reason="the question counts over the whole text: the sub-model read every chunk, "
        "code counted",
    )


def _first(cited: list[Found], operation: str, result: Extraction) -> list[Found]:
    return (cited if operation in ("most", "least") else result.found)[:CITED]


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
    """The direct answer: the figure, the values or the one that ranks first."""
    partial = " (from the chunks read; some were not)" if result.unread or result.failed else ""
    values = ", ".join(value for value, _ in ranked[:SHOWN]) + (
        ", …" if len(ranked) > SHOWN else ""
    )
    if operation == "count":
        return f"{len(result.found):,}{partial}."
    if operation == "distinct":
        return f"{len(ranked):,}{partial}: {values}."
    if operation == "list":
        return f"{values} ({len(ranked):,}){partial}."
    value, count = ranked[-1] if operation == "least" else ranked[0]
    which = "the least often" if operation == "least" else "the most often"
    return f"{value}: {count:,} times, {which}{partial}."


def _support(result: Extraction, ranked: list[tuple[str, int]]) -> str:
    lines = [f"Read over the whole source, {result.summary()} Counted by code:"]
    lines += [f"- {value}: {count}" for value, count in ranked[:SHOWN]]
    if len(ranked) > SHOWN:
        lines.append(f"- … {len(ranked) - SHOWN} more")
    return "\n".join(lines)
